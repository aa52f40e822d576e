//! Boards (where the pieces stand) and positions (a board at the start of a turn, with the side
//! to move), their placement rules and their symmetries.

use std::{error::Error, fmt, hash};

use super::{
    board::{Bitboard, Square, TRAPS},
    piece::{Animal, Color, Piece},
};

/// Where the pieces stand: one bitboard per colour and one per animal.
///
/// Any placement is a board, also one a game never reaches between turns (a rabbit on its goal,
/// a side without rabbits): turns end on such boards. [`Position`] is the checked form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Board {
    color: [Bitboard; 2],
    animal: [Bitboard; 6],
}

impl hash::Hash for Board {
    /// Gold's squares and the animals say everything (Silver's squares follow). They are
    /// folded into one word by independent multiplications, which run side by side, where a
    /// chain of seven would wait on each other; the hasher mixes the word further.
    fn hash<H: hash::Hasher>(&self, state: &mut H) {
        const K: [u64; 7] = [
            0x9e37_79b9_7f4a_7c15,
            0xc2b2_ae3d_27d4_eb4f,
            0x1656_67b1_9e37_79f9,
            0xd6e8_feb8_6659_fd93,
            0xa076_1d64_78bd_642f,
            0xe703_7ed1_a0b4_28db,
            0x8ebc_6af0_9c88_c6e3,
        ];
        let mut folded = self.color[0].0.wrapping_mul(K[0]);
        for (k, bb) in K[1..].iter().zip(&self.animal) {
            folded ^= bb.0.rotate_left(17).wrapping_mul(*k);
        }
        state.write_u64(folded);
    }
}

impl Board {
    /// The empty board.
    pub const EMPTY: Board = Board {
        color: [Bitboard::EMPTY; 2],
        animal: [Bitboard::EMPTY; 6],
    };

    /// Every occupied square.
    #[must_use]
    #[inline]
    pub const fn occupied(&self) -> Bitboard {
        Bitboard(self.color[0].0 | self.color[1].0)
    }

    /// The squares of `color`'s pieces.
    #[must_use]
    #[inline]
    pub const fn color(&self, color: Color) -> Bitboard {
        self.color[color.index()]
    }

    /// The squares of the pieces of `animal`, both colours.
    #[must_use]
    #[inline]
    pub const fn animal(&self, animal: Animal) -> Bitboard {
        self.animal[animal.index()]
    }

    /// The squares of `piece`.
    #[must_use]
    #[inline]
    pub const fn pieces(&self, piece: Piece) -> Bitboard {
        Bitboard(self.color[piece.color.index()].0 & self.animal[piece.animal.index()].0)
    }

    /// The squares of `color`'s pieces stronger than `animal`.
    #[must_use]
    #[inline]
    pub fn stronger(&self, color: Color, animal: Animal) -> Bitboard {
        let mut set = Bitboard::EMPTY;
        for k in &self.animal[animal.index() + 1..] {
            set |= *k;
        }
        set & self.color(color)
    }

    /// The squares of `color`'s pieces weaker than `animal`.
    #[must_use]
    #[inline]
    pub fn weaker(&self, color: Color, animal: Animal) -> Bitboard {
        let mut set = Bitboard::EMPTY;
        for k in &self.animal[..animal.index()] {
            set |= *k;
        }
        set & self.color(color)
    }

    /// The piece on `sq`.
    #[must_use]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let color = Color::ALL
            .into_iter()
            .find(|&c| self.color(c).contains(sq))?;
        let animal = Animal::ALL
            .into_iter()
            .find(|&k| self.animal(k).contains(sq))?;
        Some(Piece::new(color, animal))
    }

    /// Puts `piece` on `sq`, replacing what stood there.
    pub fn put(&mut self, piece: Piece, sq: Square) {
        self.remove(sq);
        let bit = Bitboard::from_square(sq);
        self.color[piece.color.index()] |= bit;
        self.animal[piece.animal.index()] |= bit;
    }

    /// Takes the piece off `sq`, if there is one.
    pub fn remove(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        self.toggle(piece, sq);
        Some(piece)
    }

    /// Flips `piece`'s bit on `sq`: puts it on an empty square or takes it off its own.
    #[inline]
    pub(super) fn toggle(&mut self, piece: Piece, sq: Square) {
        let bit = Bitboard::from_square(sq);
        self.color[piece.color.index()] ^= bit;
        self.animal[piece.animal.index()] ^= bit;
    }

    /// How many pieces of `piece` stand on the board.
    #[must_use]
    pub const fn count(&self, piece: Piece) -> u32 {
        self.pieces(piece).count()
    }

    /// The pieces on the board, as `(square, piece)` in square index order (`a1 b1 .. h8`).
    pub fn iter(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied()
            .filter_map(|sq| Some((sq, self.piece_at(sq)?)))
    }

    /// Whether the piece on `sq` is frozen: next to a stronger enemy and to no friend. An empty
    /// square is not frozen.
    #[must_use]
    pub fn is_frozen(&self, sq: Square) -> bool {
        let Some(p) = self.piece_at(sq) else {
            return false;
        };
        let around = super::board::neighbours(sq);
        (around & self.stronger(p.color.other(), p.animal)).is_nonempty()
            && (around & self.color(p.color)).is_empty()
    }

    /// The pieces on traps with no friendly piece next to them: the ones the trap rule removes.
    #[must_use]
    #[inline]
    pub const fn unguarded_on_traps(&self) -> Bitboard {
        let [gold, silver] = self.color;
        Bitboard(
            gold.0 & TRAPS.0 & !gold.neighbours().0 | silver.0 & TRAPS.0 & !silver.neighbours().0,
        )
    }

    /// The board in the file mirror `a<->h`.
    #[must_use]
    pub fn mirror(&self) -> Board {
        Board {
            color: self.color.map(Bitboard::mirror),
            animal: self.animal.map(Bitboard::mirror),
        }
    }

    /// The board in the colour flip: ranks `1<->8` and the colours swapped (Gold's pieces
    /// become Silver's and the reverse).
    #[must_use]
    pub fn flip(&self) -> Board {
        Board {
            color: [self.color[1].flip(), self.color[0].flip()],
            animal: self.animal.map(Bitboard::flip),
        }
    }

    /// The squares of `color`'s rabbits on their goal rank.
    #[must_use]
    pub fn rabbits_on_goal(&self, color: Color) -> Bitboard {
        self.pieces(Piece::new(color, Animal::Rabbit)) & Bitboard::rank(color.goal_rank())
    }

    /// Whether `color` has a rabbit left.
    #[must_use]
    pub fn has_rabbit(&self, color: Color) -> bool {
        self.pieces(Piece::new(color, Animal::Rabbit)).is_nonempty()
    }
}

/// Why a board cannot be the start of a turn (RULES.md section 7). Every message names the
/// piece and the square.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PositionError {
    /// More pieces of one animal than a side has.
    TooMany {
        /// The piece.
        piece: Piece,
        /// How many stand on the board.
        count: u32,
    },
    /// A piece stands on a trap with no friendly piece next to it: the trap rule would have
    /// removed it.
    UnguardedTrap {
        /// The piece.
        piece: Piece,
        /// The trap.
        square: Square,
    },
    /// A rabbit stands on its goal rank: the turn that put it there ended the game.
    RabbitOnGoal {
        /// The rabbit's colour.
        color: Color,
        /// Its square.
        square: Square,
    },
    /// A side has no rabbit left: the game is over.
    NoRabbit(Color),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PositionError::TooMany { piece, count } => write!(
                f,
                "{count} {}s of {}: a side has at most {}",
                piece.animal.name(),
                piece.color,
                piece.animal.max_count()
            ),
            PositionError::UnguardedTrap { piece, square } => write!(
                f,
                "{piece} on trap {square} with no friendly piece next to it (it would have been removed)"
            ),
            PositionError::RabbitOnGoal { color, square } => write!(
                f,
                "{color} rabbit on {square} stands on its goal rank: the game is already over"
            ),
            PositionError::NoRabbit(color) => {
                write!(f, "{color} has no rabbit: the game is already over")
            }
        }
    }
}

impl Error for PositionError {}

/// A board at the start of a turn and the side to move: at most the pieces a side has, no
/// piece on an unguarded trap, no rabbit on its goal, a rabbit of each side.
///
/// A position may have no legal turn: the side to move has then lost (the opponent's last
/// turn won by RULES.md section 7's check 5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    board: Board,
    turn: Color,
}

impl Position {
    /// The position of `board` with `turn` to move.
    ///
    /// # Errors
    /// The first [`PositionError`] found: too many pieces of an animal (Gold's first, strongest
    /// first), an unguarded piece on a trap, a rabbit on its goal, a side without rabbits.
    pub fn new(board: Board, turn: Color) -> Result<Position, PositionError> {
        for color in Color::ALL {
            for animal in Animal::ALL.into_iter().rev() {
                let piece = Piece::new(color, animal);
                let count = board.count(piece);
                if count > animal.max_count() {
                    return Err(PositionError::TooMany { piece, count });
                }
            }
        }
        for square in board.unguarded_on_traps() {
            if let Some(piece) = board.piece_at(square) {
                return Err(PositionError::UnguardedTrap { piece, square });
            }
        }
        for color in Color::ALL {
            if let Some(square) = board.rabbits_on_goal(color).first() {
                return Err(PositionError::RabbitOnGoal { color, square });
            }
        }
        for color in Color::ALL {
            if !board.has_rabbit(color) {
                return Err(PositionError::NoRabbit(color));
            }
        }
        Ok(Position { board, turn })
    }

    /// The position of a board known to be one, checked in debug builds only.
    pub(super) fn from_parts(board: Board, turn: Color) -> Position {
        debug_assert_eq!(Position::new(board, turn).err(), None);
        Position { board, turn }
    }

    /// Where the pieces stand.
    #[must_use]
    #[inline]
    pub const fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    #[must_use]
    #[inline]
    pub const fn turn(&self) -> Color {
        self.turn
    }

    /// The position in the file mirror `a<->h`.
    #[must_use]
    pub fn mirror(&self) -> Position {
        Position {
            board: self.board.mirror(),
            turn: self.turn,
        }
    }

    /// The position in the colour flip: ranks `1<->8`, colours and side to move swapped.
    #[must_use]
    pub fn flip(&self) -> Position {
        Position {
            board: self.board.flip(),
            turn: self.turn.other(),
        }
    }
}
