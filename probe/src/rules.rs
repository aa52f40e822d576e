//! The rule sets (RULES.md): which board, which jumps, who may take whom.
//!
//! All rule sets share one move generator ([`crate::Position::legal_moves`]); what differs
//! between them is answered here, as data and small predicates.

use std::{fmt, str::FromStr};

use crate::{
    board::{bit, Axis, Board, Square, FLIP, JUNGLE},
    piece::{Animal, Piece},
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
    pub const ALL: [RuleSet; 4] = [
        RuleSet::Mistboard,
        RuleSet::TigerLengthwise,
        RuleSet::Leiden,
        RuleSet::Flip4x4,
    ];

    /// The rule-set id, as stored in table files and accepted by `--rules`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            RuleSet::Mistboard => "mistboard",
            RuleSet::TigerLengthwise => "tiger-lengthwise",
            RuleSet::Leiden => "leiden",
            RuleSet::Flip4x4 => "flip4x4",
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

    /// The draw limit of the half-move clock: 100 in Jungle, 40 in the flip game.
    #[must_use]
    pub const fn clock_limit(self) -> u32 {
        if self.is_jungle() {
            100
        } else {
            40
        }
    }

    /// Whether `animal` may jump a river along `axis`.
    #[must_use]
    pub const fn can_jump(self, animal: Animal, axis: Axis) -> bool {
        match animal {
            Animal::Lion => true,
            Animal::Tiger => {
                !matches!(self, RuleSet::TigerLengthwise) || matches!(axis, Axis::Lengthwise)
            }
            _ => false,
        }
    }

    /// Whether `piece` may stand on `sq` (water is for rats; no piece enters its own den).
    #[must_use]
    #[inline]
    pub fn may_enter(self, piece: Piece, sq: Square) -> bool {
        let board = self.board();
        board.contains(sq)
            && (piece.animal == Animal::Rat || !board.is_water(sq))
            && board.den(piece.color) != Some(sq)
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

/// The error of parsing a rule-set name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownRuleSet(pub String);

impl fmt::Display for UnknownRuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown rule set `{}` (expected one of: mistboard, tiger-lengthwise, leiden, flip4x4)",
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
