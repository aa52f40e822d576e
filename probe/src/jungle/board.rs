//! Board geometry: squares, water, dens, traps, steps and river jumps.
//!
//! A [`Square`] packs file and rank as `rank * 8 + file`, whatever the board, so a square prints
//! (`b3`) without knowing its board. A [`Board`] says which squares exist and what they are.

use std::{fmt, sync::LazyLock};

use crate::piece::Color;

/// A square: file `a`.. and rank `1`.., packed as `rank * 8 + file` (both 0-based).
///
/// Squares order by file, then rank: the ASCII order of their text (`a1 < a2 < b1`), so that
/// moves sort as their text does.
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
    /// If `file > 7` or `rank > 15`.
    #[must_use]
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Square {
        assert!(file < 8 && rank < 16);
        Square(rank * 8 + file)
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

    /// The packed value `rank * 8 + file`, usable as an array index below [`Square::LIMIT`].
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// One past the largest packed value of any board here (9 ranks).
    pub const LIMIT: usize = 72;

    /// Parses text such as `b3` on a board of `width` files and `height` ranks.
    #[must_use]
    pub fn parse(text: &str, board: &Board) -> Option<Square> {
        let b = text.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].checked_sub(b'a')?;
        let rank = b[1].checked_sub(b'1')?;
        (file < board.width && rank < board.height).then(|| Square::new(file, rank))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// A set of squares, one bit per packed [`Square`] value.
pub type SquareSet = u128;

/// The bit of `sq` in a [`SquareSet`].
#[must_use]
pub const fn bit(sq: Square) -> SquareSet {
    1 << sq.0
}

/// The squares of `set`, by increasing packed value.
pub fn squares_in(mut set: SquareSet) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let i = set.trailing_zeros() as u8;
        set &= set - 1;
        Some(Square(i))
    })
}

/// Direction of a river jump.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axis {
    /// Along a rank, across the river's width.
    Sideways,
    /// Along a file, across the river's length.
    Lengthwise,
}

/// A river jump: from a land square straight across water to the first land square beyond.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Jump {
    /// Where the jumper stands.
    pub from: Square,
    /// Where it lands.
    pub to: Square,
    /// The water squares crossed; a piece on any of them (only a rat can be there) blocks.
    pub path: SquareSet,
    /// Sideways or lengthwise.
    pub axis: Axis,
}

/// The geometry of a board: its size, water, dens, traps, and for each square its neighbours
/// and the jumps that start there.
#[derive(Debug)]
pub struct Board {
    /// Number of files.
    pub width: u8,
    /// Number of ranks.
    pub height: u8,
    squares: SquareSet,
    water: SquareSet,
    dens: [Option<Square>; 2],
    traps: [SquareSet; 2],
    steps: [[Option<Square>; 4]; Square::LIMIT],
    /// All jumps, grouped by starting square.
    jumps: Vec<Jump>,
    /// Per square, the range of `jumps` that start there.
    jumps_at: [(u8, u8); Square::LIMIT],
}

impl Board {
    /// Every square of the board, by increasing packed value (rank 1 first).
    pub fn squares(&self) -> impl DoubleEndedIterator<Item = Square> + Clone + '_ {
        (0..Square::LIMIT as u8)
            .map(Square)
            .filter(move |&s| self.contains(s))
    }

    /// Whether `sq` lies on this board.
    #[must_use]
    #[inline]
    pub const fn contains(&self, sq: Square) -> bool {
        self.squares & bit(sq) != 0
    }

    /// Number of squares.
    #[must_use]
    pub const fn len(&self) -> usize {
        self.width as usize * self.height as usize
    }

    /// Never true: every board has squares.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        false
    }

    /// Whether `sq` is water (a river square).
    #[must_use]
    #[inline]
    pub const fn is_water(&self, sq: Square) -> bool {
        self.water & bit(sq) != 0
    }

    /// The water squares.
    #[must_use]
    pub const fn water(&self) -> SquareSet {
        self.water
    }

    /// The den of `color`, if the board has dens.
    #[must_use]
    #[inline]
    pub const fn den(&self, color: Color) -> Option<Square> {
        self.dens[color as usize]
    }

    /// The squares a piece may stand on: not a den, and water only for a `swimmer`
    /// ([`RuleSet::may_stand`](crate::RuleSet::may_stand)).
    #[must_use]
    #[inline]
    pub const fn standing_squares(&self, swimmer: bool) -> SquareSet {
        let mut dens = 0;
        if let Some(den) = self.dens[0] {
            dens |= bit(den);
        }
        if let Some(den) = self.dens[1] {
            dens |= bit(den);
        }
        let water = if swimmer { 0 } else { self.water };
        self.squares & !water & !dens
    }

    /// Whether `sq` is either side's den.
    #[must_use]
    #[inline]
    pub fn is_den(&self, sq: Square) -> bool {
        self.dens.contains(&Some(sq))
    }

    /// The traps around `color`'s den: an enemy standing on one is captured as if of rank 0.
    #[must_use]
    pub const fn traps(&self, color: Color) -> SquareSet {
        self.traps[color as usize]
    }

    /// The up to four orthogonal neighbours of `sq` (up, right, down, left), `None` off the board.
    #[must_use]
    pub fn steps(&self, sq: Square) -> [Option<Square>; 4] {
        self.steps[sq.index()]
    }

    /// River jumps starting on `sq`.
    pub fn jumps_from(&self, sq: Square) -> impl Iterator<Item = &Jump> + '_ {
        let (start, end) = self.jumps_at[sq.index()];
        self.jumps[start as usize..end as usize].iter()
    }

    /// All river jumps of the board.
    #[must_use]
    pub fn jumps(&self) -> &[Jump] {
        &self.jumps
    }

    /// The square mirrored across the central file (`a` <-> `g`).
    #[must_use]
    pub const fn mirror_file(&self, sq: Square) -> Square {
        Square::new(self.width - 1 - sq.file(), sq.rank())
    }

    /// The square mirrored across the central rank (`1` <-> `9`).
    #[must_use]
    pub const fn mirror_rank(&self, sq: Square) -> Square {
        Square::new(sq.file(), self.height - 1 - sq.rank())
    }

    fn new(width: u8, height: u8, water: &[&str], dens: [&str; 2], traps: [&[&str]; 2]) -> Board {
        let mut board = Board {
            width,
            height,
            squares: 0,
            water: 0,
            dens: [None; 2],
            traps: [0; 2],
            steps: [[None; 4]; Square::LIMIT],
            jumps: Vec::new(),
            jumps_at: [(0, 0); Square::LIMIT],
        };
        for rank in 0..height {
            for file in 0..width {
                board.squares |= bit(Square::new(file, rank));
            }
        }
        let sq = |s: &str| Square::parse(s, &board).expect("valid built-in square");
        let water: SquareSet = water.iter().map(|s| bit(sq(s))).sum();
        let dens = dens.map(|d| (!d.is_empty()).then(|| sq(d)));
        let traps = traps.map(|t| t.iter().map(|s| bit(sq(s))).sum());
        board.water = water;
        board.dens = dens;
        board.traps = traps;
        for s in board.squares().collect::<Vec<_>>() {
            let (f, r) = (s.file() as i8, s.rank() as i8);
            for (i, (df, dr)) in [(0, 1), (1, 0), (0, -1), (-1, 0)].into_iter().enumerate() {
                board.steps[s.index()][i] = board.at(f + df, r + dr);
            }
        }
        board.jumps = board.find_jumps();
        board.jumps.sort_by_key(|j| j.from);
        for (i, j) in board.jumps.iter().enumerate() {
            let range = &mut board.jumps_at[j.from.index()];
            if range.1 == 0 {
                range.0 = i as u8;
            }
            range.1 = i as u8 + 1;
        }
        board
    }

    fn at(&self, file: i8, rank: i8) -> Option<Square> {
        ((0..self.width as i8).contains(&file) && (0..self.height as i8).contains(&rank))
            .then(|| Square::new(file as u8, rank as u8))
    }

    /// Every straight run from land over one or more water squares onto land.
    fn find_jumps(&self) -> Vec<Jump> {
        let mut jumps = Vec::new();
        for from in self.squares().filter(|&s| !self.is_water(s)) {
            for (i, (df, dr)) in [(0i8, 1i8), (1, 0), (0, -1), (-1, 0)]
                .into_iter()
                .enumerate()
            {
                let mut path = 0;
                let (mut f, mut r) = (from.file() as i8 + df, from.rank() as i8 + dr);
                while let Some(s) = self.at(f, r).filter(|&s| self.is_water(s)) {
                    path |= bit(s);
                    f += df;
                    r += dr;
                }
                if let (true, Some(to)) = (path != 0, self.at(f, r)) {
                    let axis = if i % 2 == 0 {
                        Axis::Lengthwise
                    } else {
                        Axis::Sideways
                    };
                    jumps.push(Jump {
                        from,
                        to,
                        path,
                        axis,
                    });
                }
            }
        }
        jumps
    }
}

/// The 7x9 Jungle board: two rivers, dens `d1`/`d9`, three traps around each den.
pub static JUNGLE: LazyLock<Board> = LazyLock::new(|| {
    Board::new(
        7,
        9,
        &[
            "b4", "c4", "b5", "c5", "b6", "c6", "e4", "f4", "e5", "f5", "e6", "f6",
        ],
        ["d1", "d9"],
        [&["c1", "e1", "d2"], &["c9", "e9", "d8"]],
    )
});

/// The 4x4 flip board: all land, no dens, no traps.
pub static FLIP: LazyLock<Board> = LazyLock::new(|| Board::new(4, 4, &[], ["", ""], [&[], &[]]));

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s, &JUNGLE).unwrap()
    }

    #[test]
    fn jungle_has_the_twenty_river_jumps() {
        let jumps = JUNGLE.jumps();
        assert_eq!(jumps.len(), 20);
        let has = |a: &str, b: &str| jumps.iter().any(|j| j.from == sq(a) && j.to == sq(b));
        for (a, b) in [
            ("a4", "d4"),
            ("d5", "g5"),
            ("g6", "d6"),
            ("b3", "b7"),
            ("f7", "f3"),
            ("c3", "c7"),
        ] {
            assert!(has(a, b), "{a}->{b}");
        }
        assert!(!has("a3", "a7"));
        assert!(FLIP.jumps().is_empty());
    }

    #[test]
    fn squares_print_and_parse() {
        for s in JUNGLE.squares() {
            assert_eq!(Square::parse(&s.to_string(), &JUNGLE), Some(s));
        }
        assert_eq!(JUNGLE.squares().count(), 63);
        assert_eq!(FLIP.squares().count(), 16);
        assert_eq!(Square::parse("h1", &JUNGLE), None);
        assert_eq!(Square::parse("a0", &JUNGLE), None);
        assert_eq!(Square::parse("e1", &FLIP), None);
        assert_eq!(JUNGLE.mirror_file(sq("a4")), sq("g4"));
        assert_eq!(JUNGLE.mirror_rank(sq("d2")), sq("d8"));
    }
}
