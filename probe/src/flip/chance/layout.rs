//! Where a position with face-down tiles is stored in its table, and back.
//!
//! A table holds its material in canonical orientation ([`ChanceMaterial::canonical`]); a
//! position of the swapped orientation is looked up with the colours (and the side to move)
//! swapped. The board's eight symmetries keep the first revealed animal on `a1`, `b1` or `b2`:
//! a position with it elsewhere is looked up turned or reflected (a position with it on the
//! diagonal has two entries, both written). The face-down tiles, alike, are one combination of
//! squares. The index is mixed-radix: side to move, the first animal's 3 squares, each other
//! revealed animal's 16, the face-down tiles' combination; each position then has one entry
//! per clock 0..=39 (clock 40 is a draw). Entries where two tiles share a square are unused.

use super::material::{ChanceMaterial, MAX_TILES};
use crate::{
    board::Square,
    piece::{Color, Piece},
    position::Position,
    rules::RuleSet,
};

/// Clocks stored per position: 0..=39 (a position at clock 40 is drawn).
pub const CLOCKS: usize = 40;

/// Squares of the 4x4 board, numbered `rank * 4 + file`.
const CELLS: usize = 16;

/// Where the first revealed animal is kept: `a1`, `b1`, `b2`.
const TRIANGLE: [u8; 3] = [0, 1, 5];

/// Binomial coefficients C(n, k) for n <= 16, k <= 5.
const BINOMIAL: [[u32; 6]; CELLS + 1] = {
    let mut t = [[0u32; 6]; CELLS + 1];
    let mut n = 0;
    while n <= CELLS {
        t[n][0] = 1;
        let mut k = 1;
        while k < 6 {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
};

/// The index scheme of one chance table.
#[derive(Debug, Clone)]
pub struct ChanceLayout {
    material: ChanceMaterial,
    /// The revealed animals, in table order ([`crate::Material::pieces`]).
    pieces: Vec<Piece>,
    /// Face-down tiles.
    hidden: usize,
    /// Combinations of the face-down tiles' squares.
    combinations: usize,
    /// Squares of the first revealed animal: 3, or 1 where there is none (no symmetry used).
    first: usize,
    positions: usize,
}

/// One stored position: side to move, the squares of the revealed animals in table order, the
/// face-down squares (bit `cell`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChanceEntry {
    /// Side to move.
    pub turn: Color,
    /// The square of each revealed animal of [`ChanceLayout::pieces`].
    pub squares: Vec<Square>,
    /// The face-down tiles.
    pub face_down: Vec<Square>,
}

impl ChanceLayout {
    /// The layout of `material`'s table (either orientation names it).
    #[must_use]
    pub fn new(material: ChanceMaterial) -> ChanceLayout {
        let material = material.canonical();
        let pieces: Vec<Piece> = material.revealed().pieces().collect();
        let hidden = material.hidden().len();
        let combinations = BINOMIAL[CELLS][hidden] as usize;
        let first = if pieces.is_empty() { 1 } else { TRIANGLE.len() };
        let others = CELLS.pow(pieces.len().saturating_sub(1) as u32);
        ChanceLayout {
            material,
            pieces,
            hidden,
            combinations,
            first,
            positions: 2 * first * others * combinations,
        }
    }

    /// The material, canonical orientation.
    #[must_use]
    pub const fn material(&self) -> ChanceMaterial {
        self.material
    }

    /// The revealed animals in table order.
    #[must_use]
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// Face-down tiles.
    #[must_use]
    pub const fn hidden(&self) -> usize {
        self.hidden
    }

    /// Positions in the table (used or not); entries are [`CLOCKS`] times as many.
    #[must_use]
    pub const fn positions(&self) -> usize {
        self.positions
    }

    /// The position number of `pos`, which must hold this table's material in either
    /// orientation (its clock is not part of it); `None` otherwise.
    #[must_use]
    pub fn index_of(&self, pos: &Position) -> Option<usize> {
        let material = ChanceMaterial::of(pos)?;
        let swap = if material == self.material {
            false
        } else if material.flipped() == self.material {
            true
        } else {
            return None;
        };
        let oriented = |c: Color| if swap { c.other() } else { c };
        // At most five tiles: no allocation on the probe path.
        let mut cells = [0u8; MAX_TILES];
        for (cell, p) in cells.iter_mut().zip(&self.pieces) {
            *cell = pos
                .square_of(Piece::new(oriented(p.color), p.animal))
                .map(cell_of)?;
        }
        let face_down =
            crate::board::squares_in(pos.hidden()).fold(0u16, |m, sq| m | 1 << cell_of(sq));
        Some(self.index_of_cells(oriented(pos.turn()), &cells[..self.pieces.len()], face_down))
    }

    /// The position number of a placement in table orientation: `turn` to move, the revealed
    /// animals on `cells` (table order), the face-down tiles on `face_down` (bit per cell).
    fn index_of_cells(&self, turn: Color, cells: &[u8], face_down: u16) -> usize {
        let t = cells.first().map_or(0, |&c| to_triangle(c));
        let mut idx = turn as usize;
        if let Some((&first, rest)) = cells.split_first() {
            let slot = TRIANGLE.iter().position(|&c| c == transform(t, first));
            idx = idx * self.first + slot.expect("turned into the triangle");
            for &c in rest {
                idx = idx * CELLS + usize::from(transform(t, c));
            }
        }
        let mapped = (0..CELLS as u8)
            .filter(|&c| face_down & 1 << c != 0)
            .fold(0u16, |m, c| m | 1 << transform(t, c));
        idx * self.combinations + combination_rank(mapped)
    }

    /// The placement of position number `idx`; `None` where two tiles share a square (or `idx`
    /// is beyond the table).
    #[must_use]
    pub fn entry(&self, idx: usize) -> Option<ChanceEntry> {
        if idx >= self.positions {
            return None;
        }
        let mut rest = idx;
        let face_down = combination_unrank(rest % self.combinations, self.hidden);
        rest /= self.combinations;
        let mut cells = vec![0u8; self.pieces.len()];
        for i in (1..cells.len()).rev() {
            cells[i] = (rest % CELLS) as u8;
            rest /= CELLS;
        }
        if let Some(first) = cells.first_mut() {
            *first = TRIANGLE[rest % self.first];
            rest /= self.first;
        }
        let turn = if rest == 0 { Color::Red } else { Color::Blue };
        let mut used = face_down;
        for &c in &cells {
            if used & 1 << c != 0 {
                return None;
            }
            used |= 1 << c;
        }
        Some(ChanceEntry {
            turn,
            squares: cells.into_iter().map(square).collect(),
            face_down: (0..CELLS as u8)
                .filter(|&c| face_down & 1 << c != 0)
                .map(square)
                .collect(),
        })
    }

    /// The position of number `idx` at clock 0 (`None` where unused).
    #[must_use]
    pub fn position(&self, idx: usize) -> Option<Position> {
        let entry = self.entry(idx)?;
        let mut pos = Position::empty(RuleSet::Flip4x4, entry.turn);
        for (&piece, &sq) in self.pieces.iter().zip(&entry.squares) {
            pos.put(piece, sq)
                .expect("distinct squares of the flip board");
        }
        for &sq in &entry.face_down {
            pos.put_hidden(sq)
                .expect("distinct squares of the flip board");
        }
        pos.set_hidden_set(Some(self.material.hidden()))
            .expect("as many animals as tiles, none face up");
        pos.set_clock(Some(0)).expect("the flip game has a clock");
        Some(pos)
    }
}

fn cell_of(sq: Square) -> u8 {
    sq.rank() * 4 + sq.file()
}

fn square(cell: u8) -> Square {
    Square::new(cell % 4, cell / 4)
}

/// Symmetry `t` of the square (bit 0 mirrors the files, bit 1 the ranks, bit 2 then swaps files
/// and ranks) applied to `cell`.
const fn transform(t: u8, cell: u8) -> u8 {
    let (mut file, mut rank) = (cell % 4, cell / 4);
    if t & 1 != 0 {
        file = 3 - file;
    }
    if t & 2 != 0 {
        rank = 3 - rank;
    }
    if t & 4 != 0 {
        (file, rank) = (rank, file);
    }
    rank * 4 + file
}

/// The symmetry that takes `cell` to `a1`, `b1` or `b2`.
const fn to_triangle(cell: u8) -> u8 {
    let (file, rank) = (cell % 4, cell / 4);
    let mut t = (file > 1) as u8 | ((rank > 1) as u8) << 1;
    let (f, r) = (
        if file > 1 { 3 - file } else { file },
        if rank > 1 { 3 - rank } else { rank },
    );
    if f < r {
        t |= 4;
    }
    t
}

/// The rank of a set of cells among the sets of its size (combinatorial number system).
fn combination_rank(mask: u16) -> usize {
    (0..CELLS)
        .filter(|&c| mask & 1 << c != 0)
        .enumerate()
        .map(|(i, c)| BINOMIAL[c][i + 1] as usize)
        .sum()
}

/// The set of `k` cells of rank `rank`.
fn combination_unrank(mut rank: usize, k: usize) -> u16 {
    let mut mask = 0;
    let mut c = CELLS;
    for i in (1..=k).rev() {
        c -= 1;
        while BINOMIAL[c][i] as usize > rank {
            c -= 1;
        }
        rank -= BINOMIAL[c][i] as usize;
        mask |= 1 << c;
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_round_trip() {
        for (k, &count) in BINOMIAL[CELLS].iter().enumerate().skip(1) {
            for rank in 0..count as usize {
                let mask = combination_unrank(rank, k);
                assert_eq!(mask.count_ones() as usize, k);
                assert_eq!(combination_rank(mask), rank);
            }
        }
    }

    #[test]
    fn every_square_turns_into_the_triangle() {
        for c in 0..CELLS as u8 {
            assert!(TRIANGLE.contains(&transform(to_triangle(c), c)), "{c}");
        }
    }

    #[test]
    fn entries_round_trip_through_positions() {
        for name in ["LvE-Tw", "v-Ee", "Lv-Ww", "CvR-E", "ERvD-c"] {
            let layout = ChanceLayout::new(name.parse().unwrap());
            let mut used = 0;
            for idx in 0..layout.positions() {
                let Some(pos) = layout.position(idx) else {
                    continue;
                };
                used += 1;
                assert_eq!(layout.index_of(&pos), Some(idx), "{pos}");
                assert!(layout.index_of(&pos.color_flipped()).is_some());
                assert!(layout.index_of(&pos.mirrored()).is_some());
            }
            assert!(used > 0, "{name}");
        }
    }
}
