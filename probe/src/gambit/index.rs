//! The index of an Animal Gambit table: where each position of a material is stored, and the
//! game family the shared table format reads (its [`AnimalGambit`]).
//!
//! An entry is the side to move and, per group of identical pieces (Gold's strongest first,
//! then Silver's), the set of squares the group stands on, ranked combinatorially: a placement
//! of `k` identical pieces is stored once, not `k!` times. The file mirror `a<->h` is used
//! through a lead piece, the first group with a single piece: it stands on files `a`-`d` in
//! every entry (an 8x8 board has no middle file, so no position is its own mirror there).
//! A material whose groups all hold several pieces (`RRvRR`) has no lead; its positions are
//! stored at the smaller index of the two mirror images, the other left unused. The colour
//! flip maps a material onto its table's orientation ([`Material::canonical`]), the side to
//! move swapped: one table holds both sides to move of `XvY` and of `YvX`.

use std::fmt;

use super::{
    board::{Bitboard, Square},
    material::Material,
    piece::{Color, Piece},
    position::{Board, Position},
};
use crate::format::Family;

/// `BINOMIAL[n][k]` = n choose k, for the ranks of sets of up to 8 squares of 64.
const BINOMIAL: [[u64; 9]; 65] = {
    let mut t = [[0u64; 9]; 65];
    let mut n = 0;
    while n <= 64 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= 8 {
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

/// The rank of a set of squares among the sets of its size (colexicographic order: the sum
/// of `C(s_i, i + 1)` over its squares in increasing order).
fn rank_set(set: Bitboard) -> usize {
    (0..)
        .zip(Bitboard(set.0))
        .map(|(i, sq): (usize, Square)| BINOMIAL[sq.index()][i + 1] as usize)
        .sum()
}

/// The set of `k` squares of rank `rank` ([`rank_set`]).
fn unrank_set(mut rank: usize, k: usize) -> Bitboard {
    let mut set = 0u64;
    for i in (1..=k).rev() {
        // The largest square s with C(s, i) <= rank.
        let mut s = i - 1;
        while s < 63 && BINOMIAL[s + 1][i] as usize <= rank {
            s += 1;
        }
        rank -= BINOMIAL[s][i] as usize;
        set |= 1 << s;
    }
    Bitboard(set)
}

/// The rank of a lead square on files `a`-`d` (32 of them).
const fn half_rank(sq: Square) -> usize {
    sq.rank() as usize * 4 + sq.file() as usize
}

/// One group of identical pieces of a layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Group {
    piece: Piece,
    count: u8,
    /// Entries between consecutive ranks of this group's set.
    stride: usize,
    /// How many sets the group has: 32 for the lead, else C(64, count).
    sets: usize,
}

/// The index of one Animal Gambit material's table (in the orientation that names it): side to
/// move, then each group's set of squares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    material: Material,
    groups: Vec<Group>,
    /// The group whose single piece stands on files `a`-`d`, if the material has one.
    lead: Option<usize>,
    side_len: usize,
}

impl Layout {
    /// The layout of `material`'s table (of its canonical orientation).
    #[must_use]
    pub fn new(material: Material) -> Layout {
        let material = material.canonical();
        let mut groups: Vec<Group> = material
            .groups()
            .map(|(piece, count)| Group {
                piece,
                count,
                stride: 0,
                sets: BINOMIAL[64][usize::from(count)] as usize,
            })
            .collect();
        let lead = groups.iter().position(|g| g.count == 1);
        if let Some(l) = lead {
            groups[l].sets = 32;
        }
        let mut stride = 1;
        for g in groups.iter_mut().rev() {
            g.stride = stride;
            stride *= g.sets;
        }
        Layout {
            material,
            groups,
            lead,
            side_len: stride,
        }
    }

    /// The material, in the orientation that names the table.
    #[must_use]
    pub const fn material(&self) -> Material {
        self.material
    }

    /// Entries of the table: both sides to move.
    #[must_use]
    pub const fn len(&self) -> usize {
        2 * self.side_len
    }

    /// Never true: every table has entries.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        false
    }

    /// Whether a lead piece fixes the file mirror: then every board [`Layout::board`] gives is
    /// its entry's own board and none is its own mirror image (else the entry of a mirror pair
    /// is the smaller of its two images, and a board may be its own mirror image).
    #[must_use]
    pub const fn has_lead(&self) -> bool {
        self.lead.is_some()
    }

    /// Entries per side to move (Gold's first).
    #[must_use]
    pub const fn side_len(&self) -> usize {
        self.side_len
    }

    /// The index of `board` with `turn` to move, `board` already in the table's orientation.
    fn index_oriented(&self, board: &Board, turn: Color) -> usize {
        self.locate(board, turn).0
    }

    /// Where `board` (of the table's material, in its orientation) with `turn` to move is
    /// stored: the entry, and whether the board is the mirror image of the entry's board
    /// ([`Layout::board`]). A board that is its own mirror image is never called mirrored.
    /// Any placement is located, also one that is no position (a rabbit on its goal in the
    /// middle of a turn); unlike [`Layout::index_of_board`], the board must be in the table's
    /// own orientation (not its colour flip).
    ///
    /// # Panics
    /// When `board` holds another material: always in debug builds, in release when it lacks
    /// the lead piece (else the entry is meaningless).
    #[must_use]
    pub fn locate(&self, board: &Board, turn: Color) -> (usize, bool) {
        debug_assert_eq!(Material::of(board), self.material);
        let side = turn.index() * self.side_len;
        match self.lead {
            Some(l) => {
                let lead = board
                    .pieces(self.groups[l].piece)
                    .first()
                    .expect("the lead piece is on the board");
                if lead.file() >= 4 {
                    (side + self.raw_index(&board.mirror()), true)
                } else {
                    (side + self.raw_index(board), false)
                }
            }
            None => {
                let (a, b) = (self.raw_index(board), self.raw_index(&board.mirror()));
                (side + a.min(b), b < a)
            }
        }
    }

    /// The board entry `idx` names and its side to move, whatever the placement (a rabbit on
    /// its goal, a piece on an unguarded trap); `None` when two pieces would share a square or
    /// the entry is out of range. Every board [`Layout::locate`] gives back is this one or its
    /// mirror image.
    #[must_use]
    pub fn board(&self, idx: usize) -> Option<(Board, Color)> {
        if idx >= self.len() {
            return None;
        }
        let turn = Color::ALL[idx / self.side_len];
        let mut board = Board::EMPTY;
        let mut used = Bitboard::EMPTY;
        let mut rest = idx % self.side_len;
        for (i, g) in self.groups.iter().enumerate() {
            let rank = rest / g.stride;
            rest %= g.stride;
            let set = if Some(i) == self.lead {
                Bitboard::from_square(Square::new((rank % 4) as u8, (rank / 4) as u8))
            } else {
                unrank_set(rank, usize::from(g.count))
            };
            if (set & used).is_nonempty() {
                return None;
            }
            used |= set;
            for sq in set {
                board.put(g.piece, sq);
            }
        }
        Some((board, turn))
    }

    /// The index of a board whose lead (if any) is on files `a`-`d`, Gold to move.
    fn raw_index(&self, board: &Board) -> usize {
        self.groups
            .iter()
            .enumerate()
            .map(|(i, g)| {
                let set = board.pieces(g.piece);
                let rank = if Some(i) == self.lead {
                    half_rank(set.first().expect("the lead piece is on the board"))
                } else {
                    rank_set(set)
                };
                rank * g.stride
            })
            .sum()
    }

    /// The index of `pos`, which may be of the material or of its colour flip; `None` when
    /// it is of another material.
    #[must_use]
    pub fn index_of(&self, pos: &Position) -> Option<usize> {
        self.index_of_board(pos.board(), pos.turn())
    }

    /// The index of a legal position given as `board` and `turn` (of this table's material or
    /// its flip); `None` when the board holds another material.
    #[must_use]
    pub fn index_of_board(&self, board: &Board, turn: Color) -> Option<usize> {
        let m = Material::of(board);
        if m == self.material {
            Some(self.index_oriented(board, turn))
        } else if m.flipped() == self.material {
            Some(self.index_oriented(&board.flip(), turn.other()))
        } else {
            None
        }
    }

    /// The position of entry `idx`, in the table's orientation; `None` for an unused entry
    /// (pieces on one square, an illegal placement, or the stored image of a mirror pair is
    /// the other one).
    #[must_use]
    pub fn position(&self, idx: usize) -> Option<Position> {
        let (board, turn) = self.board(idx)?;
        let pos = Position::new(board, turn).ok()?;
        (self.lead.is_some() || self.index_oriented(&board, turn) == idx).then_some(pos)
    }
}

/// The rule set of Animal Gambit tables: one, with the id `animal-gambit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct AnimalGambit;

impl AnimalGambit {
    /// The rule-set id stored in table headers and accepted by `--rules`.
    pub const NAME: &'static str = "animal-gambit";
}

impl fmt::Display for AnimalGambit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(AnimalGambit::NAME)
    }
}

/// Animal Gambit's family of the shared table format: materials [`Material`], index
/// [`Layout`].
impl Family for AnimalGambit {
    type Material = Material;
    const SIDES: [&'static str; 2] = ["gold", "silver"];
    const DISTANCE_UNIT: Option<&'static str> = Some("turns");

    fn from_id(id: &str) -> Option<AnimalGambit> {
        (id == AnimalGambit::NAME).then_some(AnimalGambit)
    }

    fn id(self) -> &'static str {
        AnimalGambit::NAME
    }

    fn material_named(name: &str) -> Option<Material> {
        name.parse().ok()
    }

    fn table_of(self, material: Material) -> Material {
        material.canonical()
    }

    fn entries(self, material: Material) -> u64 {
        Layout::new(material).len() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_rank_and_unrank() {
        for (k, &n) in BINOMIAL[64].iter().enumerate().take(4).skip(1) {
            let n = n as usize;
            for r in (0..n).step_by(97).chain([n - 1]) {
                let set = unrank_set(r, k);
                assert_eq!(set.count() as usize, k);
                assert_eq!(rank_set(set), r);
            }
        }
    }

    #[test]
    fn every_used_entry_indexes_back() {
        for name in ["RvR", "ERvR", "RRvR"] {
            let layout = Layout::new(name.parse().unwrap());
            let mut used = 0;
            for idx in 0..layout.len() {
                if let Some(pos) = layout.position(idx) {
                    used += 1;
                    assert_eq!(layout.index_of(&pos), Some(idx), "{name}");
                    assert_eq!(layout.index_of(&pos.mirror()), Some(idx), "{name}");
                    let flipped = layout.index_of(&pos.flip()).expect("same table");
                    if layout.material() != layout.material().flipped() {
                        assert_eq!(flipped, idx, "{name}");
                    }
                }
            }
            assert!(used > layout.len() / 2, "{name}");
        }
    }
}
