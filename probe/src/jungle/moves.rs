//! Legal moves and their outcomes, for every rule set (one generator; the rule set answers the
//! questions that differ).

use std::{error::Error, fmt};

use crate::{
    board::{bit, Square, SquareSet},
    clesto::hunger::Fed,
    piece::{Animal, Color, Piece},
    position::Position,
    rules::{Capture, RuleSet},
    value::Wdl,
};

/// A move: from-square, to-square. Prints as `b3b7`; orders as its text does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// Where the piece stands.
    pub from: Square,
    /// Where it goes.
    pub to: Square,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

/// What kind of move it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveKind {
    /// Onto an empty square.
    Quiet,
    /// Into the enemy den: wins at once.
    DenEntry,
    /// Takes an enemy piece.
    Capture,
    /// Flip game: equal ranks, both pieces leave.
    Trade,
}

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndReason {
    /// A piece entered the enemy den.
    DenEntry,
    /// The last enemy piece was taken (or traded while the mover keeps an animal).
    LastPieceTaken,
    /// Flip game: the last animals of both sides traded.
    LastAnimalsTraded,
    /// Flip game: the mover traded away its last animal while the opponent keeps one.
    OwnLastAnimalTraded,
    /// Clesto: the mover's last animals starved.
    Starved,
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EndReason::DenEntry => "den entry",
            EndReason::LastPieceTaken => "last piece taken",
            EndReason::LastAnimalsTraded => "last animals traded",
            EndReason::OwnLastAnimalTraded => "own last animal traded",
            EndReason::Starved => "own last animal starved",
        })
    }
}

/// The result of playing a move.
// Boxing the position would cost an allocation per move in the solvers' inner loops.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The game goes on from this position, the opponent to move.
    Ongoing(Position),
    /// The move ended the game.
    Over {
        /// The result for the side that made the move.
        result: Wdl,
        /// Why it ended.
        reason: EndReason,
    },
}

/// A move that is not legal in the position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IllegalMove {
    /// The move.
    pub mv: Move,
    /// The position, as text.
    pub position: String,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {} in {}", self.mv, self.position)
    }
}

impl Error for IllegalMove {}

impl Position {
    /// Calls `f` with every legal move of the side to move and its kind, in no set order.
    /// A finished game and a flip position with face-down tiles have none here.
    pub fn for_each_move(&self, f: impl FnMut(Move, MoveKind)) {
        self.for_each_move_when_hungry(self.hungry(), f);
    }

    /// [`Position::for_each_move`] with the position's hungry set already found.
    fn for_each_move_when_hungry(&self, hungry: SquareSet, f: impl FnMut(Move, MoveKind)) {
        if self.is_game_over() || self.hidden() != 0 {
            return;
        }
        self.each_fed_move(hungry, f);
    }

    /// The moves of the side to move's pieces that hunger allows (`hungry` the position's
    /// hungry set: a hungry animal may not enter the enemy den, Clesto), face-down tiles
    /// blocking.
    fn each_fed_move(&self, hungry: SquareSet, mut f: impl FnMut(Move, MoveKind)) {
        self.each_piece_move(|mv, kind| {
            if kind != MoveKind::DenEntry || hungry & bit(mv.from) == 0 {
                f(mv, kind);
            }
        });
    }

    /// The moves of the revealed pieces in a flip position that still has face-down tiles,
    /// sorted as ASCII strings: steps onto empty squares and captures, a face-down tile
    /// blocking the way (the other moves are flips of [`Position::hidden`] tiles). Without
    /// face-down tiles, [`Position::legal_moves`]. None once the game is over.
    #[must_use]
    pub fn revealed_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        if !self.is_game_over() {
            self.each_fed_move(self.hungry(), |m, _| moves.push(m));
        }
        moves.sort_unstable();
        moves
    }

    /// The moves of the side to move's pieces, face-down tiles blocking.
    fn each_piece_move(&self, mut f: impl FnMut(Move, MoveKind)) {
        let rules = self.rules();
        // The pieces that block a jump of the mover's animals.
        let blockers = Color::ALL
            .into_iter()
            .filter(|&c| rules.blocks_jump(c, self.turn()))
            .fold(0, |set, c| set | self.occupied_by(c));
        let squares = Occupancy {
            pieces: self.occupied(),
            jump_blockers: blockers,
            closed: self.hidden(),
        };
        for_each_move_of(
            rules,
            self.pieces_of(self.turn()),
            squares,
            |sq| self.piece_at(sq),
            |_, mv, kind| f(mv, kind),
        );
    }

    /// The legal moves, sorted as ASCII strings (`a1a2` < `a1b1`).
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        self.for_each_move(|m, _| moves.push(m));
        // Squares order as their text does, so this is the ASCII order of the moves.
        moves.sort_unstable();
        moves
    }

    /// The kind of `mv` if it is legal here.
    #[must_use]
    pub fn move_kind(&self, mv: Move) -> Option<MoveKind> {
        let mut found = None;
        let look = |m, k| {
            if m == mv {
                found = Some(k);
            }
        };
        if self.hidden() == 0 {
            self.for_each_move(look);
        } else if !self.is_game_over() {
            // A step of a flip position with face-down tiles ([`Position::revealed_moves`]).
            self.each_piece_move(look);
        }
        found
    }

    /// Plays `mv`: the new position, or the end of the game it brings. Clocks, when present,
    /// advance: the half-move clock restarts at a capture or trade, the move number after Blue.
    /// In a flip position with face-down tiles `mv` is one of [`Position::revealed_moves`]
    /// (a flip is chance: [`Position::flip_outcomes`]).
    ///
    /// # Errors
    /// [`IllegalMove`] when `mv` is not a legal move here.
    pub fn play(&self, mv: Move) -> Result<Outcome, IllegalMove> {
        let kind = self.move_kind(mv).ok_or_else(|| IllegalMove {
            mv,
            position: self.to_string(),
        })?;
        Ok(self.play_unchecked(mv, kind, self.hungry()))
    }

    /// Calls `f` with every legal move and its outcome, in no set order: what a solver or a
    /// one-ply check needs, without looking each move up again as [`Position::play`] does.
    pub fn for_each_outcome(&self, mut f: impl FnMut(Move, Outcome)) {
        let hungry = self.hungry();
        self.for_each_move_when_hungry(hungry, |mv, kind| {
            f(mv, self.play_unchecked(mv, kind, hungry));
        });
    }

    /// Plays a move known to be legal, of the given kind; `hungry` is the position's
    /// [`Position::hungry`] (found once for all its moves).
    pub(crate) fn play_unchecked(&self, mv: Move, kind: MoveKind, hungry: SquareSet) -> Outcome {
        let mover = self.turn();
        if kind == MoveKind::DenEntry {
            return Outcome::Over {
                result: Wdl::Win,
                reason: EndReason::DenEntry,
            };
        }
        let mut next = self.clone();
        let piece = next.remove(mv.from).expect("a legal move moves a piece");
        let taken = next.remove(mv.to);
        if kind != MoveKind::Trade {
            next.put(piece, mv.to)
                .expect("a legal move lands on an allowed square");
        }
        match self.after_hunger(&mut next, mv, kind, hungry) {
            Some(Fed::Ongoing) => return Outcome::Ongoing(next),
            Some(Fed::Starved) => {
                return Outcome::Over {
                    result: Wdl::Loss,
                    reason: EndReason::Starved,
                }
            }
            None => {}
        }
        // Hidden animals count (RULES.md 8 end rule 1); where the hidden set is not known, a
        // face-down tile could be anyone's, so the game goes on.
        let left = |c: Color| {
            next.count(c) + usize::from(self.hidden_set().map_or(next.hidden() != 0, |h| h.has(c)))
        };
        let (mine, theirs) = (left(mover), left(mover.other()));
        let end = match (mine, theirs) {
            (0, 0) => Some((Wdl::Draw, EndReason::LastAnimalsTraded)),
            (0, _) => Some((Wdl::Loss, EndReason::OwnLastAnimalTraded)),
            (_, 0) => Some((Wdl::Win, EndReason::LastPieceTaken)),
            _ => None,
        };
        if let Some((result, reason)) = end {
            return Outcome::Over { result, reason };
        }
        next.set_turn(mover.other());
        if let Some(c) = self.clock() {
            let c = if taken.is_some() { 0 } else { c + 1 };
            // Past the limit the game is drawn anyway; the clock just stops counting.
            next.set_clock(Some(c.min(self.rules().clock_limit())))
                .expect("clamped");
        }
        if let (Some(n), Color::Blue) = (self.move_number(), mover) {
            next.set_move_number(Some(n.saturating_add(1)));
        }
        Outcome::Ongoing(next)
    }

    /// Whether the position has a rat of either colour (tables treat rats specially).
    #[must_use]
    pub fn has_animal(&self, animal: Animal) -> bool {
        Color::ALL.iter().any(|&c| {
            self.square_of(crate::piece::Piece::new(c, animal))
                .is_some()
        })
    }
}

/// Which squares hold what, for [`for_each_move_of`].
#[derive(Debug, Clone, Copy)]
pub struct Occupancy {
    /// Every piece's square.
    pub pieces: SquareSet,
    /// The squares whose pieces block a river jump of the side to move (any piece in Jungle,
    /// an opponent's in Clesto: [`RuleSet::blocks_jump`]).
    pub jump_blockers: SquareSet,
    /// Squares no move may enter (the flip game's face-down tiles).
    pub closed: SquareSet,
}

/// The move generator of every rule set, over a placement given by what it needs: calls
/// `f(piece, move, kind)` with every move of `movers` (the pieces of the side to move, with
/// their squares) that the board allows, in no set order; hunger's ban on den entries is
/// [`Position::for_each_move`]'s. `piece_at` tells which piece stands on a square of
/// `squares.pieces` (it is asked about no other).
///
/// [`Position::for_each_move`] is this over a position; the table verifier runs it over table
/// entries, whose pieces it keeps in table order, without building a position.
#[inline]
pub fn for_each_move_of(
    rules: RuleSet,
    movers: impl IntoIterator<Item = (Piece, Square)>,
    squares: Occupancy,
    piece_at: impl Fn(Square) -> Option<Piece>,
    mut f: impl FnMut(Piece, Move, MoveKind),
) {
    let board = rules.board();
    for (piece, from) in movers {
        let enemy_den = board.den(piece.color.other());
        let jumps = board
            .jumps_from(from)
            .filter(|jump| {
                rules.can_jump(piece.animal, jump.axis) && squares.jump_blockers & jump.path == 0
            })
            .map(|jump| jump.to);
        // One loop over steps and jumps, so that its body is inlined once.
        for to in board.steps(from).into_iter().flatten().chain(jumps) {
            if !rules.may_enter(piece, to) || squares.closed & bit(to) != 0 {
                continue;
            }
            let kind = match (squares.pieces & bit(to) != 0)
                .then(|| piece_at(to))
                .flatten()
            {
                None if Some(to) == enemy_den => MoveKind::DenEntry,
                None => MoveKind::Quiet,
                Some(other) if other.color == piece.color => continue,
                Some(other) => match rules.capture(piece, from, other, to) {
                    Some(Capture::Take) => MoveKind::Capture,
                    Some(Capture::Trade) => MoveKind::Trade,
                    None => continue,
                },
            };
            f(piece, Move { from, to }, kind);
        }
    }
}

impl Move {
    /// Parses `b3b7` on the board of `pos`.
    #[must_use]
    pub fn parse(text: &str, pos: &Position) -> Option<Move> {
        let board = pos.board();
        let (a, b) = (text.get(..2)?, text.get(2..)?);
        Some(Move {
            from: Square::parse(a, board)?,
            to: Square::parse(b, board)?,
        })
    }
}
