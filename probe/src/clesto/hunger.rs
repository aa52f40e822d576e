//! Clesto's hunger (RULES.md section 6): the mover's animals that could capture must capture
//! this move or starve, and may not enter the enemy den. Clesto plays on the Jungle family's
//! position type; what hunger adds to it is here: the hungry set and its text field, and what
//! a move starves. The Jungle family's move generator and parser call in at one point each.

use std::fmt;

use crate::{
    board::{bit, squares_in, Board, Square, SquareSet},
    moves::{IllegalMove, Move, MoveKind},
    piece::Piece,
    position::{Position, PositionError},
    rules::RuleSet,
    text::ParseError,
};

impl RuleSet {
    /// Whether animals that could capture must capture or starve (Clesto): the mover's hungry
    /// set is then part of the position.
    #[must_use]
    pub const fn has_hunger(self) -> bool {
        matches!(self, RuleSet::Clesto)
    }
}

/// What hunger made of a move in Clesto ([`Position::after_hunger`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fed {
    /// The game goes on from the board after the move.
    Ongoing,
    /// The mover's last animals starved: the mover loses.
    Starved,
}

impl Position {
    /// The squares of the mover's *hungry* animals (Clesto, RULES.md section 6): those that
    /// must capture this move or starve, and may not enter the enemy den. It is the set of the
    /// mover's animals that have a legal capture ([`Position::canonical_hungry`]) except right
    /// after a starvation, where the text's `h:` field gives it. Empty in other rule sets.
    #[must_use]
    pub fn hungry(&self) -> SquareSet {
        match self.hungry {
            Some(set) => set,
            None if self.rules().has_hunger() => self.canonical_hungry(),
            None => 0,
        }
    }

    /// Whether the hungry set is the canonical one (always, outside Clesto): tables hold only
    /// such positions.
    #[must_use]
    pub const fn hungry_is_canonical(&self) -> bool {
        self.hungry.is_none()
    }

    /// The squares of the mover's animals that have a legal capture on the board as it
    /// stands: the hungry set a declaration gives (Clesto). Empty in other rule sets.
    #[must_use]
    pub fn canonical_hungry(&self) -> SquareSet {
        if !self.rules().has_hunger() || self.is_game_over() {
            return 0;
        }
        let (rules, board, turn) = (self.rules(), self.board(), self.turn());
        let enemies = self.occupied_by(turn.other());
        let mut set = 0;
        for (piece, from) in self.pieces_of(turn) {
            let can_take = |to: Square| {
                enemies & bit(to) != 0
                    && rules.may_enter(piece, to)
                    && self
                        .piece_at(to)
                        .is_some_and(|d| rules.capture(piece, from, d, to).is_some())
            };
            let by_step = board.steps(from).into_iter().flatten().any(can_take);
            // Only an opponent's animal blocks a Clesto jump.
            let by_jump = || {
                board.jumps_from(from).any(|j| {
                    rules.can_jump(piece.animal, j.axis) && enemies & j.path == 0 && can_take(j.to)
                })
            };
            if by_step || by_jump() {
                set |= bit(from);
            }
        }
        set
    }

    /// Sets the mover's hungry set (Clesto); `None`, or the canonical set, makes it canonical.
    ///
    /// # Errors
    /// [`PositionError::NoHunger`] outside Clesto, [`PositionError::NotHungry`] for a square
    /// that does not hold an animal of the side to move.
    pub fn set_hungry(&mut self, hungry: Option<SquareSet>) -> Result<(), PositionError> {
        let Some(set) = hungry else {
            self.hungry = None;
            return Ok(());
        };
        if !self.rules().has_hunger() {
            return Err(PositionError::NoHunger(self.rules()));
        }
        let strangers = set & !self.occupied_by(self.turn());
        if let Some(sq) = squares_in(strangers).next() {
            return Err(PositionError::NotHungry {
                square: sq,
                piece: self.piece_at(sq),
                turn: self.turn(),
            });
        }
        self.hungry = (set != self.canonical_hungry()).then_some(set);
        Ok(())
    }

    /// Where the animals that `mv` starves stand after it (Clesto): every hungry animal of the
    /// mover but the one that makes the move's capture. Empty outside Clesto, and for a move
    /// that ends the game by den entry or by taking the opponent's last animal.
    ///
    /// # Errors
    /// [`IllegalMove`] when `mv` is not a legal move here.
    pub fn starvations(&self, mv: Move) -> Result<Vec<(Piece, Square)>, IllegalMove> {
        let kind = self.move_kind(mv).ok_or_else(|| IllegalMove {
            mv,
            position: self.to_string(),
        })?;
        let last_taken = kind == MoveKind::Capture && self.count(self.turn().other()) == 1;
        if kind == MoveKind::DenEntry || last_taken {
            return Ok(Vec::new());
        }
        Ok(starving(self.hungry() & !fed(mv, kind), mv)
            .map(|sq| {
                let from = if sq == mv.to { mv.from } else { sq };
                (
                    self.piece_at(from)
                        .expect("hungry animals stand on the board"),
                    sq,
                )
            })
            .collect())
    }

    /// Hunger's part of playing `mv` (of `kind`, not a den entry) from this position, whose
    /// hungry set is `hungry`: `next` is the board after the move, the mover still to move.
    /// In Clesto, while the opponent has animals, the opponent's hungry set is declared on the
    /// board as it stands and then the mover's hungry animals that did not feed starve; `next`
    /// becomes the position after the move. `None` in other rule sets, and once the move took
    /// the opponent's last animal (a win before any starvation): `next` is left as it was.
    #[inline]
    pub(crate) fn after_hunger(
        &self,
        next: &mut Position,
        mv: Move,
        kind: MoveKind,
        hungry: SquareSet,
    ) -> Option<Fed> {
        let mover = self.turn();
        if !self.rules().has_hunger() || next.count(mover.other()) == 0 {
            return None;
        }
        next.set_turn(mover.other());
        let starved = hungry & !fed(mv, kind);
        if starved == 0 {
            // Nothing starves: the board is the declaration's, the hungry set canonical.
            return Some(Fed::Ongoing);
        }
        let declared = next.canonical_hungry();
        for sq in starving(starved, mv) {
            next.remove(sq);
        }
        if next.count(mover) == 0 {
            return Some(Fed::Starved);
        }
        next.set_hungry(Some(declared))
            .expect("declared animals belong to the side to move");
        Some(Fed::Ongoing)
    }

    /// Writes the text's hungry-set field (` h:c3,e7`, ` h:-` for none) where the set is not
    /// the canonical one; nothing otherwise.
    pub(crate) fn write_hungry_field(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(hungry) = self.hungry else {
            return Ok(());
        };
        // Squares order as their text does.
        let mut squares: Vec<Square> = self
            .board()
            .squares()
            .filter(|&s| hungry & bit(s) != 0)
            .collect();
        squares.sort_unstable();
        f.write_str(" h:")?;
        if squares.is_empty() {
            f.write_str("-")?;
        }
        for (i, sq) in squares.iter().enumerate() {
            write!(f, "{}{sq}", if i == 0 { "" } else { "," })?;
        }
        Ok(())
    }
}

/// Reads the fields after the side of a Clesto position text into `pos`: Clesto has no clock
/// and no move number, and its third field, where there is one, is the hungry set (`h:c3,e7`
/// or `h:-`). `None` in other rule sets, whose parser reads these fields itself.
pub(crate) fn read_hunger_fields(
    pos: &mut Position,
    third: Option<&str>,
    fourth: Option<&str>,
) -> Option<Result<(), ParseError>> {
    pos.rules()
        .has_hunger()
        .then(|| read_clesto_fields(pos, third, fourth))
}

/// [`read_hunger_fields`] in Clesto.
fn read_clesto_fields(
    pos: &mut Position,
    third: Option<&str>,
    fourth: Option<&str>,
) -> Result<(), ParseError> {
    let rules = pos.rules();
    if let Some(t) = fourth {
        return Err(ParseError::NoClock(rules, t.to_owned()));
    }
    if let Some(t) = third {
        let hungry = t
            .strip_prefix("h:")
            .ok_or_else(|| ParseError::NoClock(rules, t.to_owned()))?;
        let set = parse_squares(hungry, rules.board())
            .ok_or_else(|| ParseError::BadHungry(t.to_owned()))?;
        pos.set_hungry(Some(set))?;
    }
    Ok(())
}

/// The squares of `-` (none) or a comma-separated list such as `c3,e7`, each at most once.
fn parse_squares(text: &str, board: &Board) -> Option<SquareSet> {
    if text == "-" {
        return Some(0);
    }
    text.split(',').try_fold(0, |set: SquareSet, s| {
        let sq = Square::parse(s, board)?;
        (set & bit(sq) == 0).then_some(set | bit(sq))
    })
}

/// The square of the animal that feeds by `mv`: the capturer's, for a capture.
fn fed(mv: Move, kind: MoveKind) -> SquareSet {
    if kind == MoveKind::Capture {
        bit(mv.from)
    } else {
        0
    }
}

/// Where the animals of `starving` (squares before `mv`) stand after it: the one that moved
/// on its destination.
fn starving(starving: SquareSet, mv: Move) -> impl Iterator<Item = Square> {
    squares_in(starving).map(move |s| if s == mv.from { mv.to } else { s })
}
