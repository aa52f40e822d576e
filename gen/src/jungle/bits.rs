//! Dense bitboards: one bit per board square (`rank * width + file`), so that steps are shifts.

use jtb_probe::{Board, Square, SquareSet};

/// Dense-bitboard geometry of a board.
#[derive(Debug)]
pub struct Bits {
    width: u32,
    all: u64,
    not_first_file: u64,
    not_last_file: u64,
    /// Delta swaps that reverse the bits of every rank at once: shift, and the lower bit of
    /// each pair swapped.
    mirror_swaps: Vec<(u32, u64)>,
    dense: [u8; Square::LIMIT],
    squares: Vec<Square>,
}

impl Bits {
    /// The geometry of `board` (at most 64 squares).
    pub fn new(board: &Board) -> Bits {
        let (width, height) = (u32::from(board.width), u32::from(board.height));
        assert!(
            width * height <= 64,
            "dense bitboards need at most 64 squares"
        );
        let mut dense = [u8::MAX; Square::LIMIT];
        let mut squares = Vec::new();
        let (mut all, mut first, mut last) = (0, 0, 0);
        for sq in board.squares() {
            let b = sq.rank() as u32 * width + sq.file() as u32;
            dense[sq.index()] = b as u8;
            squares.push(sq);
            all |= 1u64 << b;
            if sq.file() == 0 {
                first |= 1u64 << b;
            }
            if u32::from(sq.file()) == width - 1 {
                last |= 1u64 << b;
            }
        }
        squares.sort_by_key(|s| dense[s.index()]);
        // Reversing a block swaps its lower and upper halves (a middle bit stays), then reverses
        // each half: one delta swap per halving, for all ranks at once.
        let mut mirror_swaps = Vec::new();
        let (mut starts, mut len) = (vec![0u32], width);
        while len > 1 {
            let half = len / 2;
            let shift = len - half;
            let lower: u64 = (0..height)
                .flat_map(|r| starts.iter().map(move |&s| r * width + s))
                .map(|at| ((1u64 << half) - 1) << at)
                .sum();
            mirror_swaps.push((shift, lower));
            starts = starts.iter().flat_map(|&s| [s, s + shift]).collect();
            len = half;
        }
        Bits {
            width,
            all,
            not_first_file: all & !first,
            not_last_file: all & !last,
            mirror_swaps,
            dense,
            squares,
        }
    }

    /// The dense bit number of `sq`.
    #[inline]
    pub fn bit(&self, sq: Square) -> u32 {
        u32::from(self.dense[sq.index()])
    }

    /// The square of dense bit `b`.
    #[inline]
    pub fn square(&self, b: u32) -> Square {
        self.squares[b as usize]
    }

    /// The dense bitboard of a square set.
    pub fn of_set(&self, set: SquareSet) -> u64 {
        self.squares
            .iter()
            .filter(|s| set & jtb_probe::bit(**s) != 0)
            .map(|&s| 1u64 << self.bit(s))
            .sum()
    }

    /// Every square that has an orthogonal neighbour in `set`.
    #[inline]
    pub fn step_sources(&self, set: u64) -> u64 {
        ((set >> 1) & self.not_last_file)
            | ((set << 1) & self.not_first_file)
            | (set >> self.width)
            | ((set << self.width) & self.all)
    }

    /// The bitboard mirrored across the central file.
    #[inline]
    pub fn mirror(&self, mut set: u64) -> u64 {
        for &(shift, lower) in &self.mirror_swaps {
            let t = ((set >> shift) ^ set) & lower;
            set ^= t ^ (t << shift);
        }
        set
    }
}

/// Iterates the set bits of `set`, lowest first.
#[inline]
pub fn ones(mut set: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let b = set.trailing_zeros();
            set &= set - 1;
            b
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use jtb_probe::{FLIP, JUNGLE};

    #[test]
    fn steps_and_mirror_match_the_board() {
        for board in [&*JUNGLE, &*FLIP] {
            let bits = Bits::new(board);
            for sq in board.squares() {
                let one = 1u64 << bits.bit(sq);
                let expected: u64 = board
                    .steps(sq)
                    .into_iter()
                    .flatten()
                    .map(|s| 1u64 << bits.bit(s))
                    .sum();
                assert_eq!(bits.step_sources(one), expected, "{sq}");
                assert_eq!(bits.mirror(one), 1u64 << bits.bit(board.mirror_file(sq)));
            }
        }
    }
}
