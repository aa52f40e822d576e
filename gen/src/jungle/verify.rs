//! One-ply verification: every entry equals the best of its successors, in both metrics, and
//! every win or loss under the clock rule is a plain win or loss.
//!
//! Independent of the solver: it shares the probe library's move generator
//! ([`for_each_move_of`]) and index ([`Layout`]), and reads the tables as their files hold
//! them, but nothing of the solver's code or working data. The table is walked in index order,
//! in parallel ranges; each entry's moves are generated on its squares (no position is built),
//! a move within the table finds its successor by index arithmetic, and a capture looks its
//! successor up in the smaller table.

use std::ops::Range;

use jtb_probe::{
    bit, for_each_move_of, Color, Layout, MoveKind, Occupancy, Piece, RuleSet, Square, TableError,
    TableFile, Value, Wdl,
};
use rayon::prelude::*;

use crate::{Codes, GenError, Metric, Solved, SubTables};

/// Which check an entry failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// The entry in this metric is not the best of its successors.
    OnePly(Metric),
    /// The DTC is a win or loss but the plain value (DTM) is not the same.
    DtcImpliesPlain,
}

/// An entry that fails a check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The position, as text.
    pub position: String,
    /// The check it fails.
    pub check: Check,
    /// The value stored in the table (for [`Check::DtcImpliesPlain`], the DTC).
    pub stored: Value,
    /// The value its successors give (for [`Check::DtcImpliesPlain`], the plain value).
    pub computed: Value,
}

/// Order keys ([`Value::order_key`]) of one-byte codes, looked up rather than decoded: the
/// verifier reads two codes a move.
struct Keys {
    /// Per code, the key of the value it stands for.
    own: [i32; 256],
    /// Per code of a successor, the key of the move into it for the side that made it (the
    /// value one ply back).
    back: [i32; 256],
    /// Per piece (colour and animal), its place in the table's order.
    place: [u8; 16],
}

impl Keys {
    fn new(layout: &Layout) -> Keys {
        // Codes that stand for no value (the unused code, the escape byte) are never read
        // through the tables: unused entries are never successors, and escaped codes are read
        // whole.
        let key = |b: usize, f: fn(Value) -> Value| {
            Value::from_code(b as u16).map_or(i32::MIN, |v| f(v).order_key())
        };
        let mut place = [u8::MAX; 16];
        for (i, p) in layout.pieces().iter().enumerate() {
            place[Keys::slot(*p)] = i as u8;
        }
        Keys {
            own: std::array::from_fn(|b| key(b, |v| v)),
            back: std::array::from_fn(|b| key(b, Value::back_one_ply)),
            place,
        }
    }

    #[inline]
    fn slot(p: Piece) -> usize {
        p.color.index() * 8 + p.animal as usize
    }

    /// The place of `p` in the table's order (a material holds each piece at most once).
    #[inline]
    fn place_of(&self, p: Piece) -> usize {
        usize::from(self.place[Keys::slot(p)])
    }

    /// The key of entry `idx` of `codes`, one ply back when `back`.
    #[inline]
    fn of(&self, codes: &Codes, idx: usize, back: bool) -> i32 {
        match codes.byte(idx) {
            Some(b) if back => self.back[usize::from(b)],
            Some(b) => self.own[usize::from(b)],
            None => {
                let v = Value::from_code(codes.get(idx)).expect("a used entry");
                if back { v.back_one_ply() } else { v }.order_key()
            }
        }
    }
}

/// The value of entry `idx` of `table` (its pieces on `squares`, in table order) in both
/// metrics (distance to mate, distance to conversion) from its successors' values, from one
/// pass over its moves (the probe library's move generator, run on the entry itself), as
/// order keys ([`Value::order_key`]). A move that stays in the table finds its successor by
/// index arithmetic ([`Layout::index_after_move`]); a capture or trade looks its successor up
/// in `tables`, which must hold every table the captures lead into.
///
/// # Errors
/// [`GenError::MissingTable`] when a successor's table is absent.
fn one_ply(
    keys: &Keys,
    table: &Solved,
    tables: &SubTables,
    idx: usize,
    squares: &[Square],
) -> Result<[i32; 2], GenError> {
    let layout = &table.layout;
    let pieces = layout.pieces();
    let turn = Color::ALL[usize::from(idx >= layout.side_len())];
    let occupied = squares.iter().fold(0, |set, &sq| set | bit(sq));
    let place = |sq: Square| squares.iter().position(|&s| s == sq);
    let movers = pieces
        .iter()
        .zip(squares)
        .filter(|(p, _)| p.color == turn)
        .map(|(&p, &sq)| (p, sq));
    let mut best = [Value::Loss(0).order_key(); 2];
    let mut failed = None;
    let squares_held = Occupancy {
        pieces: occupied,
        // Any piece blocks a jump outside Clesto, whose tables are checked by `crate::clesto`.
        jump_blockers: occupied,
        closed: 0,
    };
    for_each_move_of(
        layout.rules(),
        movers,
        squares_held,
        |sq| place(sq).map(|i| pieces[i]),
        |piece, mv, kind| {
            let values = match kind {
                MoveKind::DenEntry => [Value::Win(1).order_key(); 2],
                MoveKind::Quiet => {
                    let i = keys.place_of(piece);
                    debug_assert_eq!(squares[i], mv.from);
                    let next = layout.index_after_move(idx, squares, i, mv.to);
                    // (Written out: `map` over the two left a call per move.)
                    [
                        keys.of(&table.codes, next, true),
                        keys.of(&table.second_codes, next, true),
                    ]
                }
                MoveKind::Capture | MoveKind::Trade => {
                    // On the stack: this runs for every capture of every entry.
                    let mut buf = [(pieces[0], squares[0]); Layout::MAX_PIECES];
                    let mut n = 0;
                    for (&p, &sq) in pieces.iter().zip(squares) {
                        let at = if sq == mv.from { mv.to } else { sq };
                        let gone = sq == mv.to || (sq == mv.from && kind == MoveKind::Trade);
                        if !gone {
                            buf[n] = (p, at);
                            n += 1;
                        }
                    }
                    match tables.exit_values(turn.other(), &buf[..n]) {
                        Ok([dtm, dtc]) => [dtm.order_key(), dtc.order_key()],
                        Err(e) => {
                            failed.get_or_insert(e);
                            return;
                        }
                    }
                }
            };
            best = [best[0].max(values[0]), best[1].max(values[1])];
        },
    );
    failed.map_or(Ok(best), Err)
}

/// The index space of `layout` as ranges of consecutive entries, in parallel: walk each with
/// [`Layout::for_each_used_entry_in`]. No list of used entries is built (for a 5-piece table
/// that list alone would take more than a gigabyte).
pub fn entry_ranges(layout: &Layout) -> impl IndexedParallelIterator<Item = Range<usize>> {
    const RANGE: usize = 1 << 14;
    let len = layout.len();
    (0..len.div_ceil(RANGE))
        .into_par_iter()
        .map(move |i| i * RANGE..((i + 1) * RANGE).min(len))
}

/// Checks every used entry of `table` against its successors, in both metrics, and its DTC
/// against its plain value; `tables` must hold the tables its captures lead
/// into. Returns the mismatches, at most `limit`.
///
/// # Errors
/// [`GenError::MissingTable`] when a successor's table is absent.
pub fn verify_table(
    table: &Solved,
    tables: &SubTables,
    limit: usize,
) -> Result<Vec<Mismatch>, GenError> {
    let layout = &table.layout;
    let keys = Keys::new(layout);
    let mismatches: Vec<Mismatch> = entry_ranges(layout)
        .map(|range| -> Result<Vec<Mismatch>, GenError> {
            let mut out = Vec::new();
            let mut failed = None;
            layout.for_each_used_entry_in(range, |idx, squares| {
                if failed.is_some() {
                    return;
                }
                let mut report = |check, stored, computed| {
                    if out.len() < limit {
                        let pos = layout.position(idx).expect("used entry");
                        out.push(Mismatch {
                            position: pos.to_string(),
                            check,
                            stored,
                            computed,
                        });
                    }
                };
                let computed = match one_ply(&keys, table, tables, idx, squares) {
                    Ok(computed) => computed,
                    Err(e) => {
                        failed = Some(e);
                        return;
                    }
                };
                let stored = [
                    keys.of(&table.codes, idx, false),
                    keys.of(&table.second_codes, idx, false),
                ];
                for ((metric, stored), computed) in [Metric::Dtm, Metric::Dtc]
                    .into_iter()
                    .zip(stored)
                    .zip(computed)
                {
                    if stored != computed {
                        let computed = Value::from_order_key(computed).expect("a value's key");
                        report(Check::OnePly(metric), table.value_in(metric, idx), computed);
                    }
                }
                // A key's sign is its value's: a win above 0, a draw 0, a loss below.
                let [plain, dtc] = stored;
                if dtc != 0 && dtc.signum() != plain.signum() {
                    report(Check::DtcImpliesPlain, table.dtc(idx), table.value(idx));
                }
            });
            failed.map_or(Ok(out), Err)
        })
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .flatten()
        .take(limit)
        .collect();
    Ok(mismatches)
}

/// An entry whose WDL file disagrees with the plain value of its DTM file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WdlMismatch {
    /// The position, as text.
    pub position: String,
    /// What the WDL file holds.
    pub wdl: Wdl,
    /// The plain value (distance to mate) of the table.
    pub plain: Value,
}

/// Checks every used entry of `file`, the WDL file of `table`, against the plain value of
/// `table` (read from its DTM file): block by block in parallel, each block decoded once.
/// Returns a mismatch, if there is one.
///
/// # Errors
/// A [`TableError`] for a block that cannot be read or holds a code no table has.
pub fn check_wdl_file(
    table: &Solved,
    file: &TableFile<RuleSet>,
) -> Result<Option<WdlMismatch>, TableError> {
    let layout = &table.layout;
    let game = crate::game::game_of(layout.rules());
    let per = file.header().block_entries as usize;
    (0..file.header().blocks)
        .into_par_iter()
        .map(|b| {
            let block = file.block(b)?;
            let start = b as usize * per;
            let mut found = Ok(None);
            layout.for_each_used_entry_in(start..start + per, |idx, _| {
                let Ok(None) = found else { return };
                found = file.wdl_entry(&block, idx - start).map(|wdl| {
                    let plain = table.value(idx);
                    // Clesto's WDL file holds the ban's results too.
                    let expected = game.wdl_of(table, idx);
                    (wdl != expected).then(|| WdlMismatch {
                        position: layout.position(idx).expect("a used entry").to_string(),
                        wdl,
                        plain,
                    })
                });
            });
            found
        })
        .find_map_any(Result::transpose)
        .transpose()
}
