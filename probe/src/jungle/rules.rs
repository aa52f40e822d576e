//! The rule sets (RULES.md): which board, which jumps, who may take whom.
//!
//! All rule sets share one move generator ([`crate::Position::legal_moves`]); what differs
//! between them is answered here, as data and small predicates.

use std::{fmt, str::FromStr};

use crate::{
    board::{bit, Axis, Board, Square, SquareSet, FLIP, JUNGLE},
    format::Kind,
    piece::{Animal, Color, Piece},
};

/// A rule set, named by the id stored in every table file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum RuleSet {
    /// Jungle as the Mistboard engine plays it (the default).
    #[default]
    Mistboard,
    /// Mistboard before 21 Sept 2026: the tiger jumps rivers only lengthwise.
    TigerLengthwise,
    /// The research rules of van Rijn & Vis (2014): the elephant may take the rat, and rats
    /// take each other across the shoreline.
    Leiden,
    /// The Mistboard 4x4 flip game, fully revealed.
    Flip4x4,
    /// Clesto: the Jungle board with hungry animals, swimming dogs, the leopard's sideways
    /// jump, traps that weaken any animal, and no draws (RULES.md section 6).
    Clesto,
}

/// What a capture does to the two pieces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capture {
    /// The defender leaves the board.
    Take,
    /// Both pieces leave the board (flip game, equal ranks).
    Trade,
}

impl RuleSet {
    /// Every rule set.
    pub const ALL: [RuleSet; 5] = [
        RuleSet::Mistboard,
        RuleSet::TigerLengthwise,
        RuleSet::Leiden,
        RuleSet::Flip4x4,
        RuleSet::Clesto,
    ];

    /// The rule-set id, as stored in table files and accepted by `--rules`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            RuleSet::Mistboard => "mistboard",
            RuleSet::TigerLengthwise => "tiger-lengthwise",
            RuleSet::Leiden => "leiden",
            RuleSet::Flip4x4 => "flip4x4",
            RuleSet::Clesto => "clesto",
        }
    }

    /// The board the rule set is played on.
    #[must_use]
    #[inline]
    pub fn board(self) -> &'static Board {
        if self.is_jungle() {
            &JUNGLE
        } else {
            &FLIP
        }
    }

    /// Whether this is one of the Jungle rule sets (7x9 board).
    #[must_use]
    pub const fn is_jungle(self) -> bool {
        !matches!(self, RuleSet::Flip4x4)
    }

    /// The draw limit of the half-move clock: 100 in Jungle, 40 in the flip game, and 0 in
    /// Clesto, which has no move-count rule and no clock ([`RuleSet::has_clock`]).
    #[must_use]
    pub const fn clock_limit(self) -> u32 {
        match self {
            RuleSet::Clesto => 0,
            RuleSet::Flip4x4 => 40,
            _ => 100,
        }
    }

    /// Whether positions have a half-move clock and the game a move-count draw (all but
    /// Clesto).
    #[must_use]
    pub const fn has_clock(self) -> bool {
        !matches!(self, RuleSet::Clesto)
    }

    /// The kinds of a table's files, in the order they are written (the WDL file last: a
    /// table is complete once it is there): DTC, DTM and WDL, or in Clesto the ban file instead
    /// of the DTC file (Clesto has no clock).
    #[must_use]
    pub const fn table_kinds(self) -> [Kind; 3] {
        [self.second_kind(), Kind::Dtm, Kind::Wdl]
    }

    /// The kind of a table's second file of value codes beside DTM: DTC, or Clesto's ban file.
    #[must_use]
    pub const fn second_kind(self) -> Kind {
        match self {
            RuleSet::Clesto => Kind::Ban,
            _ => Kind::Dtc,
        }
    }

    /// Whether the colour flip (ranks mirrored, colours swapped) preserves values, so that a
    /// material and its flip share one table. Not in Clesto, whose repetition ban falls on Red
    /// when both sides have as many animals.
    #[must_use]
    pub const fn colour_symmetric(self) -> bool {
        !matches!(self, RuleSet::Clesto)
    }

    /// Whether `animal` may jump a river along `axis`.
    #[must_use]
    pub const fn can_jump(self, animal: Animal, axis: Axis) -> bool {
        match animal {
            Animal::Lion => true,
            Animal::Tiger => {
                !matches!(self, RuleSet::TigerLengthwise) || matches!(axis, Axis::Lengthwise)
            }
            // Clesto's leopard jumps across a river's width, never along it.
            Animal::Leopard => matches!(self, RuleSet::Clesto) && matches!(axis, Axis::Sideways),
            _ => false,
        }
    }

    /// Whether `animal` may enter water: the rat, and in Clesto the dog too.
    #[must_use]
    #[inline]
    pub const fn swims(self, animal: Animal) -> bool {
        matches!(animal, Animal::Rat)
            || (matches!(self, RuleSet::Clesto) && matches!(animal, Animal::Dog))
    }

    /// Whether a piece of `color` standing in a jump's water path blocks the jump of an animal
    /// of `jumper`: any piece in Jungle, only an opponent's in Clesto (RULES.md 6, Decision).
    #[must_use]
    pub const fn blocks_jump(self, color: Color, jumper: Color) -> bool {
        !matches!(self, RuleSet::Clesto) || color as u8 != jumper as u8
    }

    /// Whether `piece` may stand on `sq` (water only for swimmers; no piece enters its own
    /// den).
    #[must_use]
    #[inline]
    pub fn may_enter(self, piece: Piece, sq: Square) -> bool {
        let board = self.board();
        board.contains(sq)
            && (self.swims(piece.animal) || !board.is_water(sq))
            && board.den(piece.color) != Some(sq)
    }

    /// Whether `piece` may stand on `sq` in a position: a square of the board, not a den, and
    /// water only for a swimmer (what [`Position::put`](crate::Position::put) checks of a
    /// square, and so the squares a table's index gives each piece).
    #[must_use]
    #[inline]
    pub fn may_stand(self, piece: Piece, sq: Square) -> bool {
        self.standing_squares(piece.animal) & bit(sq) != 0
    }

    /// The squares an `animal` of either side may stand on ([`RuleSet::may_stand`]).
    #[must_use]
    #[inline]
    pub fn standing_squares(self, animal: Animal) -> SquareSet {
        self.board().standing_squares(self.swims(animal))
    }

    /// Where `piece` may move from `from` on an empty board: its steps and the river jumps its
    /// rules allow, onto squares it may enter, each with the water the jump crosses (empty for a
    /// step). What stands on the board (blocking swimmers, captures) is the caller's to check.
    pub fn destinations(
        self,
        piece: Piece,
        from: Square,
    ) -> impl Iterator<Item = (Square, SquareSet)> {
        let board = self.board();
        let steps = board.steps(from).into_iter().flatten().map(|to| (to, 0));
        let jumps = board
            .jumps_from(from)
            .filter(move |j| self.can_jump(piece.animal, j.axis))
            .map(|j| (j.to, j.path));
        steps
            .chain(jumps)
            .filter(move |&(to, _)| self.may_enter(piece, to))
    }

    /// What happens when `attacker` on `from` moves onto `defender` on `to`, or `None` when it
    /// may not. The colours are assumed to differ.
    #[must_use]
    #[inline]
    pub fn capture(
        self,
        attacker: Piece,
        from: Square,
        defender: Piece,
        to: Square,
    ) -> Option<Capture> {
        use Animal::{Elephant, Rat};
        let (a, d) = (attacker.animal, defender.animal);
        if !self.is_jungle() {
            return match (a, d) {
                (Elephant, Rat) => None,
                (Rat, Elephant) => Some(Capture::Take),
                _ if a > d => Some(Capture::Take),
                _ if a == d => Some(Capture::Trade),
                _ => None,
            };
        }
        let board = self.board();
        if matches!(self, RuleSet::Clesto) {
            return clesto_capture(board, a, board.is_water(from), d, to);
        }
        let leiden = matches!(self, RuleSet::Leiden);
        match (board.is_water(from), board.is_water(to)) {
            // Only rats are ever in water, so these are rat against rat.
            (true, true) => return Some(Capture::Take),
            (true, false) | (false, true) => {
                return (leiden && a == Rat && d == Rat).then_some(Capture::Take)
            }
            (false, false) => {}
        }
        match (a, d) {
            (Elephant, Rat) if !leiden => None,
            (Rat, Elephant) => Some(Capture::Take),
            _ => {
                let trapped = board.traps(attacker.color) & bit(to) != 0;
                let defence = if trapped { 0 } else { d.rank() };
                (a.rank() >= defence).then_some(Capture::Take)
            }
        }
    }

    /// A small stable number for the rule set, stored in table files beside its name.
    #[must_use]
    pub const fn id(self) -> u8 {
        self as u8
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Clesto's capture rule (RULES.md section 6): equal or lower rank, every trap weakens its
/// occupant to rank 0, the elephant takes the rat, the rat takes the elephant only from land,
/// and swimmers attack across the shoreline both ways (only swimmers are ever in water).
fn clesto_capture(
    board: &Board,
    attacker: Animal,
    from_water: bool,
    defender: Animal,
    to: Square,
) -> Option<Capture> {
    if attacker == Animal::Rat && defender == Animal::Elephant {
        return (!from_water).then_some(Capture::Take);
    }
    let trapped = (board.traps(Color::Red) | board.traps(Color::Blue)) & bit(to) != 0;
    let defence = if trapped { 0 } else { defender.rank() };
    (attacker.rank() >= defence).then_some(Capture::Take)
}

/// The error of parsing a rule-set name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownRuleSet(pub String);

impl fmt::Display for UnknownRuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == "animal-gambit" {
            // Its own game model (`crate::gambit`), not a rule set of this board family.
            return f.write_str(
                "rule set `animal-gambit` is not one of the Jungle family's (mistboard, tiger-lengthwise, leiden, flip4x4, clesto)",
            );
        }
        write!(
            f,
            "unknown rule set `{}` (expected one of: mistboard, tiger-lengthwise, leiden, flip4x4, clesto, animal-gambit)",
            self.0
        )
    }
}

impl std::error::Error for UnknownRuleSet {}

impl FromStr for RuleSet {
    type Err = UnknownRuleSet;

    fn from_str(s: &str) -> Result<RuleSet, UnknownRuleSet> {
        RuleSet::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| UnknownRuleSet(s.to_owned()))
    }
}
