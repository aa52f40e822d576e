//! Table indexing: where a position's entry lives in its material's table, and back.
//!
//! A table holds its material in canonical orientation ([`Material::canonical`]); a position of
//! the flipped orientation is looked up colour-flipped (ranks mirrored, colours swapped, other
//! side to move). The first piece (Red's strongest) is kept on the left half of the board
//! (files `a`..=`d` in Jungle, `a`..=`b` on the 4x4 board): a position with it further right is
//! looked up mirrored. Each piece ranges over the squares it may stand on (no dens; water only
//! for rats), and the index is mixed-radix: side to move, then the pieces in table order.
//! Entries where two pieces share a square are unused.

use crate::{
    board::{bit, Board, Square, SquareSet},
    material::Material,
    piece::{Animal, Color, Piece},
    position::Position,
    rules::RuleSet,
};

const NO_SLOT: u8 = u8::MAX;

/// The index scheme of one material's table under one rule set.
#[derive(Debug, Clone)]
pub struct Layout {
    rules: RuleSet,
    board: &'static Board,
    material: Material,
    pieces: Vec<Piece>,
    /// The pieces as they stand in a position of the colour-flipped material.
    flipped_pieces: Vec<Piece>,
    /// Per piece, its squares in slot order.
    domains: Vec<Vec<Square>>,
    /// Per piece, the slot of each square ([`NO_SLOT`] outside the domain).
    slots: Vec<[u8; Square::LIMIT]>,
    /// Per piece, the index stride.
    strides: Vec<usize>,
    side_stride: usize,
}

/// The placement of a table entry: side to move and the square of each piece, in table order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Side to move.
    pub turn: Color,
    /// The square of each piece of [`Layout::pieces`].
    pub squares: Vec<Square>,
}

impl Layout {
    /// The layout of `material` under `rules`: either orientation, where the colour flip is a
    /// symmetry of the rules, else this one ([`Material::table_of`]).
    ///
    /// # Panics
    /// If a side of the material has no piece, or it has more than [`Layout::MAX_PIECES`].
    #[must_use]
    pub fn new(rules: RuleSet, material: Material) -> Layout {
        let material = material.table_of(rules);
        assert!(
            material.total() <= Layout::MAX_PIECES,
            "at most {} pieces per table",
            Layout::MAX_PIECES
        );
        assert!(
            material.count(Color::Red) > 0 && material.count(Color::Blue) > 0,
            "a table needs a piece on each side"
        );
        let board = rules.board();
        let half = (board.width - 1) / 2;
        let pieces: Vec<Piece> = material.pieces().collect();
        let domains: Vec<Vec<Square>> = pieces
            .iter()
            .enumerate()
            .map(|(i, &p)| {
                board
                    .squares()
                    .filter(|&s| rules.may_stand(p, s))
                    .filter(|&s| i > 0 || s.file() <= half)
                    .collect()
            })
            .collect();
        let slots = domains
            .iter()
            .map(|d| {
                let mut slots = [NO_SLOT; Square::LIMIT];
                for (i, s) in d.iter().enumerate() {
                    slots[s.index()] = i as u8;
                }
                slots
            })
            .collect();
        let mut strides = vec![0; pieces.len()];
        let mut stride = 1;
        for i in (0..pieces.len()).rev() {
            strides[i] = stride;
            stride *= domains[i].len();
        }
        let flipped_pieces = pieces
            .iter()
            .map(|p| Piece::new(p.color.other(), p.animal))
            .collect();
        Layout {
            rules,
            board,
            flipped_pieces,
            material,
            pieces,
            domains,
            slots,
            strides,
            side_stride: stride,
        }
    }

    /// The most pieces a table may have (the index must fit in 64 bits with room to spare).
    pub const MAX_PIECES: usize = 8;

    /// The rule set.
    #[must_use]
    pub const fn rules(&self) -> RuleSet {
        self.rules
    }

    /// The material, in canonical orientation.
    #[must_use]
    pub const fn material(&self) -> Material {
        self.material
    }

    /// The pieces in table order.
    #[must_use]
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// The squares piece `i` ranges over, in slot order.
    #[must_use]
    #[inline]
    pub fn domain(&self, i: usize) -> &[Square] {
        &self.domains[i]
    }

    /// The slot of `sq` in piece `i`'s domain.
    #[must_use]
    #[inline]
    pub fn slot(&self, i: usize, sq: Square) -> Option<usize> {
        let s = self.slots[i][sq.index()];
        (s != NO_SLOT).then_some(s as usize)
    }

    /// The index stride of piece `i`.
    #[must_use]
    #[inline]
    pub fn stride(&self, i: usize) -> usize {
        self.strides[i]
    }

    /// Entries per side to move.
    #[must_use]
    #[inline]
    pub const fn side_len(&self) -> usize {
        self.side_stride
    }

    /// Number of entries (both sides to move).
    #[must_use]
    #[inline]
    pub const fn len(&self) -> usize {
        2 * self.side_stride
    }

    /// Calls `f(idx, squares)` for every used entry (no two pieces on a square), in index
    /// order; `squares` are in table order.
    pub fn for_each_used_entry(&self, f: impl FnMut(usize, &[Square])) {
        self.for_each_used_entry_in(0..self.len(), f);
    }

    /// [`Layout::for_each_used_entry`] over the entries in `range` only: a table split into
    /// ranges is walked in parallel without listing its entries first.
    pub fn for_each_used_entry_in(
        &self,
        range: std::ops::Range<usize>,
        mut f: impl FnMut(usize, &[Square]),
    ) {
        let k = self.pieces.len();
        let inner = &self.domains[k - 1];
        let mut squares = [Square::new(0, 0); Layout::MAX_PIECES];
        let end = range.end.min(self.len());
        let first = range.start - range.start % inner.len();
        // One run per placement of all pieces but the last, which then takes each square of
        // its domain in turn.
        for start in (first..end).step_by(inner.len()) {
            let rest = start % self.side_stride;
            let mut occupied: SquareSet = 0;
            let mut distinct = true;
            let placed = self.domains.iter().zip(&self.strides).take(k - 1);
            for (square, (domain, &stride)) in squares.iter_mut().zip(placed) {
                let sq = domain[rest / stride % domain.len()];
                distinct &= occupied & bit(sq) == 0;
                occupied |= bit(sq);
                *square = sq;
            }
            if distinct {
                for (n, &sq) in inner.iter().enumerate() {
                    let idx = start + n;
                    if occupied & bit(sq) == 0 && range.contains(&idx) {
                        squares[k - 1] = sq;
                        f(idx, &squares[..k]);
                    }
                }
            }
        }
    }

    /// Never true: every table has entries.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        false
    }

    /// The index of a placement already in table orientation (`squares` in table order, the first
    /// on the left half). `None` when a square is outside its piece's domain.
    #[must_use]
    pub fn index_of_entry(&self, turn: Color, squares: &[Square]) -> Option<usize> {
        let mut idx = turn.index() * self.side_stride;
        for (i, &sq) in squares.iter().enumerate() {
            idx += self.slot(i, sq)? * self.strides[i];
        }
        Some(idx)
    }

    /// The entry after piece `i` of entry `idx` steps or jumps to `to`, an empty square it may
    /// stand on, with the other side to move; `squares` are entry `idx`'s, in table order. By
    /// index arithmetic (the piece's slot changes, and the side), unless the move takes the
    /// first piece to the right half of the board, where the entry is stored mirrored.
    ///
    /// # Panics
    /// If `to` is a den or a square piece `i` may not stand on.
    #[must_use]
    #[inline]
    pub fn index_after_move(&self, idx: usize, squares: &[Square], i: usize, to: Square) -> usize {
        // (A compare, not a division: this runs for every move the verifier looks at.)
        let side = usize::from(idx >= self.side_stride);
        let rest = idx - side * self.side_stride;
        let other = (1 - side) * self.side_stride;
        let slots = &self.slots[i];
        let (new, old) = (slots[to.index()], slots[squares[i].index()]);
        if new != NO_SLOT && old != NO_SLOT {
            let stride = self.strides[i];
            return other + rest + usize::from(new) * stride - usize::from(old) * stride;
        }
        // The first piece crossed to the right half: the entry is the mirror image.
        let k = self.pieces.len();
        let mut moved = [Square::new(0, 0); Layout::MAX_PIECES];
        for (m, &sq) in moved.iter_mut().zip(squares) {
            *m = self.board.mirror_file(sq);
        }
        moved[i] = self.board.mirror_file(to);
        self.index_of_entry(Color::ALL[1 - side], &moved[..k])
            .expect("a piece moves only to squares it may stand on")
    }

    /// The index of `pos`, whose material must be this table's in either orientation.
    /// `None` when it is not.
    #[must_use]
    #[inline]
    pub fn index_of(&self, pos: &Position) -> Option<usize> {
        if pos.rules() != self.rules {
            return None;
        }
        self.index_of_squares(Material::of(pos), pos.turn(), |p| pos.square_of(p))
    }

    /// The index of the placement of `material` with `turn` to move and each piece on
    /// `square_of(piece)`, a square of the board: `None` where the material is not this
    /// table's in either orientation, or a piece is not on a square it may stand on.
    #[inline]
    pub(crate) fn index_of_squares(
        &self,
        material: Material,
        turn: Color,
        square_of: impl Fn(Piece) -> Option<Square>,
    ) -> Option<usize> {
        // The probe's hot path: orientation and index in one pass, no intermediate squares.
        let flip = self.flip_of(material)?;
        let board = self.board;
        let (pieces, turn) = if flip {
            (&self.flipped_pieces, turn.other())
        } else {
            (&self.pieces, turn)
        };
        let square = |p: Piece| {
            let sq = square_of(p)?;
            Some(if flip { board.mirror_rank(sq) } else { sq })
        };
        let mirror = self.stored_mirrored(square(pieces[0])?);
        let mut idx = turn.index() * self.side_stride;
        for ((&p, slots), stride) in pieces.iter().zip(&self.slots).zip(&self.strides) {
            let sq = square(p)?;
            let sq = if mirror { board.mirror_file(sq) } else { sq };
            let slot = slots[sq.index()];
            if slot == NO_SLOT {
                return None;
            }
            idx += usize::from(slot) * stride;
        }
        Some(idx)
    }

    /// The index of the placement `placed` with `turn` to move, whose material must be this
    /// table's in either orientation. `None` when it is not, or a square is not allowed.
    #[must_use]
    pub fn index_of_placement(&self, turn: Color, placed: &[(Piece, Square)]) -> Option<usize> {
        let material = placed.iter().map(|&(p, _)| p).collect();
        let mut at = [[None; 8]; 2];
        for &(p, s) in placed {
            at[p.color.index()][p.animal as usize] = Some(s);
        }
        let mut squares = [Square::new(0, 0); Layout::MAX_PIECES];
        let (turn, k) = self.orient(
            material,
            turn,
            |p| at[p.color.index()][p.animal as usize],
            &mut squares,
        )?;
        self.index_of_entry(turn, &squares[..k])
    }

    /// The entries of the placements `fixed` plus `free` on any square, with `turn` to move,
    /// prepared once so that each square then costs a table lookup and an addition (the
    /// generator looks up every square of a piece that a capture leaves in place). `None` when
    /// the material of `fixed` and `free` is not this table's in either orientation, or a fixed
    /// piece is outside its domain.
    #[must_use]
    pub fn with_free_piece(
        &self,
        turn: Color,
        fixed: &[(Piece, Square)],
        free: Piece,
    ) -> Option<FreePieceIndex<'_>> {
        let material = fixed.iter().map(|&(p, _)| p).chain([free]).collect();
        let flip = self.flip_of(material)?;
        let turn = if flip { turn.other() } else { turn };
        let pieces = if flip {
            &self.flipped_pieces
        } else {
            &self.pieces
        };
        let free_at = pieces.iter().position(|&p| p == free)?;
        let board = self.board;
        let mut squares = [Square::new(0, 0); Layout::MAX_PIECES];
        // (The free piece's square is a placeholder, never read.)
        self.in_table_order(
            flip,
            |p| match fixed.iter().find(|(q, _)| *q == p) {
                Some(&(_, sq)) => Some(sq),
                None => (p == free).then_some(Square::new(0, 0)),
            },
            &mut squares,
        )?;
        let k = self.pieces.len();
        let base = |mirror: bool| {
            let mut idx = turn.index() * self.side_stride;
            for (i, &sq) in squares[..k].iter().enumerate() {
                if i != free_at {
                    let sq = if mirror { board.mirror_file(sq) } else { sq };
                    idx += self.slot(i, sq)? * self.strides[i];
                }
            }
            Some(idx)
        };
        // The first piece decides the mirroring: if it is fixed, once for all squares.
        let mirror = (free_at != 0).then(|| self.stored_mirrored(squares[0]));
        let bases = match mirror {
            Some(m) => [base(m)?; 2],
            None => [base(false)?, base(true)?],
        };
        Some(FreePieceIndex {
            layout: self,
            flip,
            free_at,
            mirror,
            bases,
        })
    }

    /// Whether `material` is this table's with the colours swapped (`Some(false)`: as it is;
    /// `None`: another material).
    #[inline]
    fn flip_of(&self, material: Material) -> Option<bool> {
        if material == self.material {
            Some(false)
        } else if material.flipped() == self.material && self.rules.colour_symmetric() {
            Some(true)
        } else {
            None
        }
    }

    /// Puts the squares of a placement in table order and orientation into `out`; returns the
    /// side to move (in table orientation) and the number of pieces.
    fn orient(
        &self,
        material: Material,
        turn: Color,
        square_of: impl Fn(Piece) -> Option<Square>,
        out: &mut [Square; Layout::MAX_PIECES],
    ) -> Option<(Color, usize)> {
        let flip = self.flip_of(material)?;
        self.in_table_order(flip, square_of, out)?;
        let k = self.pieces.len();
        if self.stored_mirrored(out[0]) {
            for s in &mut out[..k] {
                *s = self.board.mirror_file(*s);
            }
        }
        let turn = if flip { turn.other() } else { turn };
        Some((turn, k))
    }

    /// Puts the squares of a placement's pieces (`square_of`, by the placement's own pieces)
    /// in table order into `out`, turned to the table's colours where `flip`; not yet mirrored.
    fn in_table_order(
        &self,
        flip: bool,
        square_of: impl Fn(Piece) -> Option<Square>,
        out: &mut [Square; Layout::MAX_PIECES],
    ) -> Option<()> {
        let originals = if flip {
            &self.flipped_pieces
        } else {
            &self.pieces
        };
        for (o, &p) in out.iter_mut().zip(originals) {
            let sq = square_of(p)?;
            *o = if flip { self.board.mirror_rank(sq) } else { sq };
        }
        Some(())
    }

    /// Whether a placement whose first piece (in table order and colours) stands on `first`
    /// is stored mirrored: the first piece is kept on the left half of the board.
    #[inline]
    fn stored_mirrored(&self, first: Square) -> bool {
        first.file() > (self.board.width - 1) / 2
    }

    /// The placement of entry `idx`, or `None` for an unused entry (two pieces on a square) or
    /// an index past the end.
    #[must_use]
    pub fn entry(&self, idx: usize) -> Option<Entry> {
        if idx >= self.len() {
            return None;
        }
        let turn = Color::ALL[idx / self.side_stride];
        let mut rest = idx % self.side_stride;
        let mut squares = Vec::with_capacity(self.pieces.len());
        for (i, d) in self.domains.iter().enumerate() {
            let sq = d[rest / self.strides[i]];
            rest %= self.strides[i];
            if squares.contains(&sq) {
                return None;
            }
            squares.push(sq);
        }
        Some(Entry { turn, squares })
    }

    /// The position of entry `idx` (table orientation), or `None` for an unused entry.
    #[must_use]
    pub fn position(&self, idx: usize) -> Option<Position> {
        let e = self.entry(idx)?;
        Position::from_pieces(
            self.rules,
            e.turn,
            self.pieces.iter().copied().zip(e.squares),
        )
        .ok()
    }

    /// Whether the entry's first piece stands on the mirror's central file, so that its mirror
    /// image is a separate entry; otherwise the entry stands for two positions (itself and its
    /// mirror image). Boards of even width have no central file.
    #[must_use]
    #[inline]
    pub fn on_mirror_axis(&self, squares: &[Square]) -> bool {
        let board = self.rules.board();
        board.width % 2 == 1 && squares[0].file() == board.width / 2
    }

    /// Whether the material has a rat (rats may swim, so their domain is larger).
    #[must_use]
    pub fn has_rat(&self) -> bool {
        self.pieces.iter().any(|p| p.animal == Animal::Rat)
    }
}

/// Entries of one placement with one piece free to stand anywhere: see
/// [`Layout::with_free_piece`].
#[derive(Debug, Clone)]
pub struct FreePieceIndex<'a> {
    layout: &'a Layout,
    /// The placement is of the colour-flipped material.
    flip: bool,
    /// The free piece's place in table order.
    free_at: usize,
    /// Whether the placement is mirrored, when a fixed piece decides it.
    mirror: Option<bool>,
    /// The fixed pieces' part of the index: as they stand, and mirrored.
    bases: [usize; 2],
}

impl FreePieceIndex<'_> {
    /// The entry with the free piece on `sq`, as [`Layout::index_of_placement`] gives it.
    /// `None` when `sq` is outside the free piece's domain.
    #[must_use]
    #[inline]
    pub fn index(&self, sq: Square) -> Option<usize> {
        let layout = self.layout;
        let board = layout.board;
        let sq = if self.flip { board.mirror_rank(sq) } else { sq };
        let mirror = self.mirror.unwrap_or_else(|| layout.stored_mirrored(sq));
        let sq = if mirror { board.mirror_file(sq) } else { sq };
        let slot = layout.slots[self.free_at][sq.index()];
        (slot != NO_SLOT).then(|| {
            self.bases[usize::from(mirror)] + usize::from(slot) * layout.strides[self.free_at]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domain_sizes() {
        let l = Layout::new(RuleSet::Mistboard, "LvR".parse().unwrap());
        assert_eq!(l.domain(0).len(), 28);
        assert_eq!(l.domain(1).len(), 61);
        let l = Layout::new(RuleSet::Mistboard, "RvL".parse().unwrap());
        assert_eq!(l.material().to_string(), "LvR");
        let l = Layout::new(RuleSet::Flip4x4, "RvE".parse().unwrap());
        assert_eq!((l.domain(0).len(), l.domain(1).len()), (8, 16));
    }

    #[test]
    fn entries_round_trip_through_positions() {
        for (rules, m) in [
            (RuleSet::Mistboard, "LRvE"),
            (RuleSet::Leiden, "RvR"),
            (RuleSet::Flip4x4, "ECvR"),
        ] {
            let l = Layout::new(rules, m.parse().unwrap());
            let mut used = 0;
            for idx in 0..l.len() {
                if let Some(p) = l.position(idx) {
                    used += 1;
                    assert_eq!(l.index_of(&p), Some(idx), "{p}");
                    // The mirror image and the colour flip find an entry of the same placement
                    // class (itself, or its mirror twin on the central file).
                    let flipped = p.color_flipped();
                    let back = l.position(l.index_of(&flipped).unwrap()).unwrap();
                    // A symmetric material stores the flipped position as itself.
                    let same = if l.material().is_symmetric() {
                        flipped
                    } else {
                        p.clone()
                    };
                    assert!(back == same || back == same.mirrored(), "{p} -> {back}");
                }
            }
            assert!(used > 0);
        }
    }

    #[test]
    fn used_entries_are_the_positions_and_ranges_split_them() {
        for (rules, m) in [(RuleSet::Mistboard, "LRvE"), (RuleSet::Flip4x4, "ECvR")] {
            let l = Layout::new(rules, m.parse().unwrap());
            let mut all = Vec::new();
            l.for_each_used_entry(|idx, squares| {
                let p = l.position(idx).unwrap();
                let on: Vec<Square> = l
                    .pieces
                    .iter()
                    .map(|&pc| p.square_of(pc).unwrap())
                    .collect();
                assert_eq!(on, squares, "{p}");
                all.push(idx);
            });
            let positions = (0..l.len()).filter(|&i| l.position(i).is_some());
            assert!(positions.eq(all.iter().copied()));
            // Ranges that cut runs of the last piece anywhere, and one past the end.
            for step in [1, 7, 61, 1000, l.len() + 5] {
                let mut split = Vec::new();
                for start in (0..l.len()).step_by(step) {
                    l.for_each_used_entry_in(start..start + step, |idx, _| split.push(idx));
                }
                assert_eq!(split, all, "{m} in ranges of {step}");
            }
        }
    }

    #[test]
    fn index_after_move_agrees_with_the_moved_position() {
        use crate::moves::MoveKind;
        for (rules, m) in [
            (RuleSet::Mistboard, "LRvET"),
            (RuleSet::Leiden, "TvLR"),
            (RuleSet::Flip4x4, "ECvR"),
        ] {
            let l = Layout::new(rules, m.parse().unwrap());
            let mut checked = 0;
            l.for_each_used_entry(|idx, squares| {
                if idx % 7 != 0 {
                    return;
                }
                let pos = l.position(idx).unwrap();
                pos.for_each_move(|mv, kind| {
                    if kind != MoveKind::Quiet {
                        return;
                    }
                    let i = squares.iter().position(|&s| s == mv.from).unwrap();
                    let crate::Outcome::Ongoing(next) = pos.play(mv).unwrap() else {
                        panic!("a quiet move ends nothing")
                    };
                    let want = l.index_of(&next).unwrap();
                    assert_eq!(
                        l.index_after_move(idx, squares, i, mv.to),
                        want,
                        "{pos} {mv}"
                    );
                    checked += 1;
                });
            });
            assert!(checked > 1000, "{m}: {checked}");
        }
    }

    #[test]
    fn free_piece_index_agrees_with_index_of_placement() {
        for (rules, m) in [
            (RuleSet::Mistboard, "LRvET"),
            (RuleSet::Mistboard, "ETvLR"),
            (RuleSet::Mistboard, "RvR"),
            (RuleSet::Leiden, "TvLR"),
            (RuleSet::Flip4x4, "ECvR"),
        ] {
            let l = Layout::new(rules, m.parse().unwrap());
            let mut checked = 0;
            for idx in (0..l.len()).step_by(l.len() / 200) {
                let Some(p) = l.position(idx) else { continue };
                for pos in [p.clone(), p.color_flipped(), p.mirrored()] {
                    let placed: Vec<(Piece, Square)> = pos.pieces().collect();
                    for (k, &(free, _)) in placed.iter().enumerate() {
                        let fixed: Vec<(Piece, Square)> = placed
                            .iter()
                            .enumerate()
                            .filter(|&(i, _)| i != k)
                            .map(|(_, &x)| x)
                            .collect();
                        let free_index = l.with_free_piece(pos.turn(), &fixed, free).unwrap();
                        for sq in l.board.squares() {
                            if fixed.iter().any(|&(_, s)| s == sq) {
                                continue;
                            }
                            let mut all = fixed.clone();
                            all.push((free, sq));
                            let want = l.index_of_placement(pos.turn(), &all);
                            assert_eq!(free_index.index(sq), want, "{pos}: {free} on {sq}");
                            checked += 1;
                        }
                    }
                }
            }
            assert!(checked > 1000, "{m}: {checked}");
        }
    }
}
