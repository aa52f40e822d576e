//! The 8x8 board: squares, directions, bitboards and the four traps.

use std::{fmt, ops};

/// A square `a1`..`h8`, packed as `rank * 8 + file` (both 0-based), so bit `index` of a
/// [`Bitboard`] is this square.
///
/// Squares order by file, then rank: the ASCII order of their text (`a1 < a2 < b1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Square(u8);

impl Ord for Square {
    fn cmp(&self, other: &Square) -> std::cmp::Ordering {
        (self.file(), self.rank()).cmp(&(other.file(), other.rank()))
    }
}

impl PartialOrd for Square {
    fn partial_cmp(&self, other: &Square) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Square {
    /// The square on `file` and `rank` (both 0-based).
    ///
    /// # Panics
    /// If `file` or `rank` is above 7.
    #[must_use]
    pub const fn new(file: u8, rank: u8) -> Square {
        assert!(file < 8 && rank < 8);
        Square(rank * 8 + file)
    }

    /// The square of packed value `index` (`rank * 8 + file`).
    ///
    /// # Panics
    /// If `index > 63`.
    #[must_use]
    pub const fn from_index(index: u8) -> Square {
        assert!(index < 64);
        Square(index)
    }

    /// 0-based file (`a` = 0).
    #[must_use]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// 0-based rank (`1` = 0).
    #[must_use]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The packed value `rank * 8 + file`.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The neighbour in direction `dir`, if it is on the board.
    #[must_use]
    pub const fn step(self, dir: Direction) -> Option<Square> {
        match dir {
            Direction::North if self.rank() < 7 => Some(Square(self.0 + 8)),
            Direction::South if self.rank() > 0 => Some(Square(self.0 - 8)),
            Direction::East if self.file() < 7 => Some(Square(self.0 + 1)),
            Direction::West if self.file() > 0 => Some(Square(self.0 - 1)),
            _ => None,
        }
    }

    /// The direction from `self` to the neighbouring square `to`, if they are neighbours.
    #[must_use]
    pub fn direction_to(self, to: Square) -> Option<Direction> {
        Direction::ALL
            .into_iter()
            .find(|&d| self.step(d) == Some(to))
    }

    /// The square in the file mirror `a<->h`.
    #[must_use]
    pub const fn mirror(self) -> Square {
        Square(self.0 ^ 7)
    }

    /// The square in the rank flip `1<->8`.
    #[must_use]
    pub const fn flip(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// Parses `a1`..`h8`.
    #[must_use]
    pub fn parse(text: &str) -> Option<Square> {
        match *text.as_bytes() {
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Some(Square::new(f - b'a', r - b'1')),
            _ => None,
        }
    }

    /// The two characters of its text (`b"c3"`).
    #[must_use]
    pub const fn text(self) -> [u8; 2] {
        [b'a' + self.file(), b'1' + self.rank()]
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [file, rank] = self.text();
        write!(f, "{}{}", file as char, rank as char)
    }
}

/// A direction of a step: `n` toward rank 8, `s` toward rank 1, `e` toward file h, `w`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// Toward rank 8.
    North,
    /// Toward rank 1.
    South,
    /// Toward file h.
    East,
    /// Toward file a.
    West,
}

impl Direction {
    /// The four directions.
    pub const ALL: [Direction; 4] = [
        Direction::North,
        Direction::South,
        Direction::East,
        Direction::West,
    ];

    /// The letter of turn text: `n s e w`.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Direction::North => 'n',
            Direction::South => 's',
            Direction::East => 'e',
            Direction::West => 'w',
        }
    }

    /// Parses `n s e w`.
    #[must_use]
    pub const fn from_letter(c: char) -> Option<Direction> {
        match c {
            'n' => Some(Direction::North),
            's' => Some(Direction::South),
            'e' => Some(Direction::East),
            'w' => Some(Direction::West),
            _ => None,
        }
    }

    /// The direction in the file mirror (east and west swap).
    #[must_use]
    pub const fn mirror(self) -> Direction {
        match self {
            Direction::East => Direction::West,
            Direction::West => Direction::East,
            d => d,
        }
    }

    /// The direction in the rank flip (north and south swap).
    #[must_use]
    pub const fn flip(self) -> Direction {
        match self {
            Direction::North => Direction::South,
            Direction::South => Direction::North,
            d => d,
        }
    }
}

/// A set of squares, bit `rank * 8 + file`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// The one square `sq`.
    #[must_use]
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.0)
    }

    /// The whole of rank `rank` (0-based).
    ///
    /// # Panics
    /// If `rank > 7`.
    #[must_use]
    pub const fn rank(rank: u8) -> Bitboard {
        assert!(rank < 8);
        Bitboard(0xff << (rank * 8))
    }

    /// Whether `sq` is in the set.
    #[must_use]
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.0 & 1 != 0
    }

    /// Whether the set is empty.
    #[must_use]
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has a square.
    #[must_use]
    #[inline]
    pub const fn is_nonempty(self) -> bool {
        self.0 != 0
    }

    /// How many squares the set has.
    #[must_use]
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The squares next to some square of the set (orthogonally), on the board.
    #[must_use]
    #[inline]
    pub const fn neighbours(self) -> Bitboard {
        let b = self.0;
        Bitboard(b << 8 | b >> 8 | (b & !FILE_H) << 1 | (b & !FILE_A) >> 1)
    }

    /// The set moved one square in direction `dir`; what leaves the board is lost.
    #[must_use]
    #[inline]
    pub const fn shift(self, dir: Direction) -> Bitboard {
        let b = self.0;
        Bitboard(match dir {
            Direction::North => b << 8,
            Direction::South => b >> 8,
            Direction::East => (b & !FILE_H) << 1,
            Direction::West => (b & !FILE_A) >> 1,
        })
    }

    /// The set in the file mirror `a<->h`.
    #[must_use]
    #[inline]
    pub const fn mirror(self) -> Bitboard {
        // reverse_bits mirrors both axes; swap_bytes puts the ranks back.
        Bitboard(self.0.reverse_bits().swap_bytes())
    }

    /// The set in the rank flip `1<->8`.
    #[must_use]
    #[inline]
    pub const fn flip(self) -> Bitboard {
        Bitboard(self.0.swap_bytes())
    }

    /// The lowest square of a non-empty set.
    #[must_use]
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square(self.0.trailing_zeros() as u8))
        }
    }
}

/// The neighbours of `sq` (two to four squares).
#[must_use]
#[inline]
pub const fn neighbours(sq: Square) -> Bitboard {
    Bitboard::from_square(sq).neighbours()
}

/// The traps `c3 f3 c6 f6`.
pub const TRAPS: Bitboard = Bitboard(
    1 << Square::new(2, 2).0
        | 1 << Square::new(5, 2).0
        | 1 << Square::new(2, 5).0
        | 1 << Square::new(5, 5).0,
);

impl Iterator for Bitboard {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl ops::BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}

impl ops::BitOr for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}

impl ops::BitXor for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitxor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ rhs.0)
    }
}

impl ops::Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl ops::BitAndAssign for Bitboard {
    #[inline]
    fn bitand_assign(&mut self, rhs: Bitboard) {
        self.0 &= rhs.0;
    }
}

impl ops::BitOrAssign for Bitboard {
    #[inline]
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0;
    }
}

impl ops::BitXorAssign for Bitboard {
    #[inline]
    fn bitxor_assign(&mut self, rhs: Bitboard) {
        self.0 ^= rhs.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_stay_on_the_board() {
        let a1 = Square::new(0, 0);
        let h8 = Square::new(7, 7);
        assert_eq!(neighbours(a1).count(), 2);
        assert_eq!(neighbours(h8).count(), 2);
        assert_eq!(neighbours(Square::new(7, 3)).count(), 3);
        assert_eq!(neighbours(Square::new(3, 3)).count(), 4);
        for sq in (0..64).map(Square::from_index) {
            let by_steps: u64 = Direction::ALL
                .into_iter()
                .filter_map(|d| sq.step(d))
                .map(|t| 1 << t.index())
                .sum();
            assert_eq!(neighbours(sq).0, by_steps, "{sq}");
            assert_eq!(
                Bitboard::from_square(sq).mirror(),
                Bitboard::from_square(sq.mirror())
            );
            assert_eq!(
                Bitboard::from_square(sq).flip(),
                Bitboard::from_square(sq.flip())
            );
        }
    }

    #[test]
    fn traps_and_text() {
        let traps: Vec<String> = TRAPS.map(|s| s.to_string()).collect();
        assert_eq!(traps, ["c3", "f3", "c6", "f6"]);
        assert_eq!(Square::parse("h8"), Some(Square::new(7, 7)));
        assert_eq!(Square::parse("i1"), None);
        assert_eq!(Square::parse("a9"), None);
        assert_eq!(Square::parse("a"), None);
    }
}
