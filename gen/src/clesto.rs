//! Retrograde analysis of one Clesto material (RULES.md section 6): plain values with their
//! distance to mate, then the repetition ban's resolution of every plain draw.
//!
//! Hunger makes Clesto's moves unlike Jungle's: a side with a hungry animal leaves the material
//! with every move (a capture, or a starvation), and a starvation can lead into a smaller
//! material at a non-canonical hungry set. So this solver takes each position's moves from the
//! probe library's move generator once, keeps the moves that stay in the material as a
//! successor graph (and its reverse), and values every other move at once through the smaller
//! tables ([`SubTables::clesto_value`], which looks one move ahead where the hungry set is not
//! canonical). Two retrograde passes follow over the graph:
//! * plain values: wins in `n` from losses in `n - 1` and exits worth a win in `n`; losses
//!   once every move is known to lose, at the longest of their distances;
//! * the ban: among the plain draws, the positions from which B (the banned side) forces a move
//!   into a smaller material at a position B wins, by the same kind of pass ("attractor"), with
//!   B's exit distance. The other plain draws are U's wins.

use jtb_probe::{banned_side, ClestoValue, Color, Layout, Material, Outcome, Value, Wdl};
use rayon::prelude::*;

use crate::{Codes, GenError, Solved, SubTables, UNUSED};

/// Entries per parallel task of the move scan.
const SCAN_CHUNK: usize = 1 << 12;

/// What one entry's moves are, once scanned.
#[derive(Debug, Clone, Copy, Default)]
struct Exits {
    /// The best value for the mover among its moves that leave the material or end the game
    /// (`None`: there are none).
    best: Option<Value>,
    /// Some such move gives B a win (a position B wins, or U's own last animal starved).
    b_wins: bool,
    /// Some such move gives U a win.
    u_wins: bool,
}

/// The moves of every entry: successors in the material, and what the others are worth.
struct Graph {
    /// Per entry, the range of `succs` holding its successors (`offsets[i]..offsets[i + 1]`).
    offsets: Vec<u32>,
    succs: Vec<u32>,
    exits: Vec<Exits>,
    used: Vec<bool>,
}

impl Graph {
    fn succs(&self, i: usize) -> &[u32] {
        &self.succs[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// The reverse graph: per entry, the entries with a move into it.
    fn predecessors(&self) -> (Vec<u32>, Vec<u32>) {
        let n = self.exits.len();
        let mut offsets = vec![0u32; n + 1];
        for &s in &self.succs {
            offsets[s as usize + 1] += 1;
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let mut next = offsets.clone();
        let mut preds = vec![0u32; self.succs.len()];
        for i in 0..n {
            for &s in self.succs(i) {
                let slot = &mut next[s as usize];
                preds[*slot as usize] = i as u32;
                *slot += 1;
            }
        }
        (offsets, preds)
    }
}

/// A generous estimate of the bytes needed to solve and write `material`: per entry its moves
/// in the graph and its reverse (4 bytes each way), and its values, counters and codes. The
/// whole `jtb gen --material LRvET` (8,201,816 entries) peaks at 648 MiB, 79 bytes an entry.
#[must_use]
pub fn memory_estimate(material: Material) -> u64 {
    const BYTES_PER_ENTRY: u64 = 112;
    Layout::new(jtb_probe::RuleSet::Clesto, material).len() as u64 * BYTES_PER_ENTRY
}

/// Solves `material` (this orientation: the colour flip is no symmetry in Clesto), given every
/// smaller table its moves lead into. The result holds plain values as its DTM codes and the
/// ban's resolution as its second codes ([`ClestoValue::ban_part`]).
///
/// # Errors
/// [`GenError::MissingTable`] when a smaller table is absent; [`GenError::TooLarge`] for a table
/// whose moves do not fit this solver's 32-bit graph.
pub fn solve(material: Material, subs: &SubTables) -> Result<Solved, GenError> {
    let layout = Layout::new(jtb_probe::RuleSet::Clesto, material);
    let graph = scan(&layout, subs)?;
    let preds = graph.predecessors();
    let plain = solve_plain(&graph, &preds);
    let ban = solve_ban(&layout, &graph, &preds, &plain);
    let codes: Vec<u16> = plain
        .iter()
        .zip(&graph.used)
        .map(|(v, &used)| {
            if used {
                v.map_or(0, Value::code)
            } else {
                UNUSED
            }
        })
        .collect();
    let dtc_codes: Vec<u16> = ban
        .iter()
        .zip(&graph.used)
        .map(|(v, &used)| if used { v.code() } else { UNUSED })
        .collect();
    Ok(Solved {
        layout,
        codes: Codes::from(&codes[..]),
        dtc_codes: Codes::from(&dtc_codes[..]),
    })
}

/// The scan of a run of entries: per entry its number of successors, what its other moves are
/// worth, and whether it is used; the successors of them all.
struct Chunk {
    counts: Vec<u32>,
    succs: Vec<u32>,
    exits: Vec<Exits>,
    used: Vec<bool>,
}

/// Lists every entry's moves, in parallel chunks of entries.
fn scan(layout: &Layout, subs: &SubTables) -> Result<Graph, GenError> {
    let material = layout.material();
    let banned = banned_side(material);
    let n = layout.len();
    let too_large = || GenError::TooLarge {
        material,
        need: u64::MAX,
        limit: u64::from(u32::MAX),
    };
    u32::try_from(n).map_err(|_| too_large())?;
    let chunks: Vec<Chunk> = (0..n.div_ceil(SCAN_CHUNK))
        .into_par_iter()
        .map(|c| {
            let range = c * SCAN_CHUNK..((c + 1) * SCAN_CHUNK).min(n);
            let mut counts = Vec::with_capacity(range.len());
            let mut succs = Vec::new();
            let mut exits = Vec::with_capacity(range.len());
            let mut used = Vec::with_capacity(range.len());
            for idx in range {
                let before = succs.len();
                let mut ex = Exits::default();
                let mut err = None;
                if let Some(pos) = layout.position(idx) {
                    debug_assert!(pos.hungry_is_canonical());
                    pos.for_each_outcome(|_, outcome| {
                        let (value, b_wins) = match outcome {
                            Outcome::Over { result, .. } => (
                                result.of_final_move(),
                                (result == Wdl::Win) == (pos.turn() == banned),
                            ),
                            Outcome::Ongoing(next) if Material::of(&next) == material => {
                                let j = layout
                                    .index_of(&next)
                                    .expect("a position of the material has an entry");
                                succs.push(j as u32);
                                return;
                            }
                            Outcome::Ongoing(next) => match subs.clesto_value(&next) {
                                Ok(v) => (
                                    v.plain_part().back_one_ply(),
                                    (v.wdl() == Wdl::Win) == (next.turn() == banned),
                                ),
                                Err(e) => {
                                    err.get_or_insert(e);
                                    return;
                                }
                            },
                        };
                        ex.best = Some(ex.best.map_or(value, |b| b.max(value)));
                        ex.b_wins |= b_wins;
                        ex.u_wins |= !b_wins;
                    });
                    used.push(true);
                } else {
                    used.push(false);
                }
                if let Some(e) = err {
                    return Err(e);
                }
                counts.push((succs.len() - before) as u32);
                exits.push(ex);
            }
            Ok(Chunk {
                counts,
                succs,
                exits,
                used,
            })
        })
        .collect::<Result<_, GenError>>()?;
    let total: usize = chunks.iter().map(|c| c.succs.len()).sum();
    u32::try_from(total).map_err(|_| too_large())?;
    let mut graph = Graph {
        offsets: Vec::with_capacity(n + 1),
        succs: Vec::with_capacity(total),
        exits: Vec::with_capacity(n),
        used: Vec::with_capacity(n),
    };
    graph.offsets.push(0);
    for chunk in chunks {
        let mut at = *graph.offsets.last().expect("starts at 0");
        for c in chunk.counts {
            at += c;
            graph.offsets.push(at);
        }
        graph.succs.extend(chunk.succs);
        graph.exits.extend(chunk.exits);
        graph.used.extend(chunk.used);
    }
    Ok(graph)
}

/// Plain values (RULES.md 6, values 1; section 3): `None` for a plain draw (or an unused entry).
fn solve_plain(graph: &Graph, (pred_offsets, preds): &(Vec<u32>, Vec<u32>)) -> Vec<Option<Value>> {
    let n = graph.exits.len();
    let preds_of = |i: usize| &preds[pred_offsets[i] as usize..pred_offsets[i + 1] as usize];
    let mut value: Vec<Option<Value>> = vec![None; n];
    let mut open: Vec<u32> = (0..n).map(|i| graph.succs(i).len() as u32).collect();
    // calendar[d]: entries that become a win or loss in d unless settled sooner.
    let mut calendar: Vec<Vec<(u32, Value)>> = Vec::new();
    let schedule = |calendar: &mut Vec<Vec<(u32, Value)>>, i: usize, v: Value| {
        let d = usize::from(v.dtm().expect("a win or loss"));
        if calendar.len() <= d {
            calendar.resize(d + 1, Vec::new());
        }
        calendar[d].push((i as u32, v));
    };
    for i in (0..n).filter(|&i| graph.used[i]) {
        match (graph.exits[i].best, open[i]) {
            (Some(v @ Value::Win(_)), _) => schedule(&mut calendar, i, v),
            (None, 0) => schedule(&mut calendar, i, Value::Loss(0)),
            (Some(v @ Value::Loss(_)), 0) => schedule(&mut calendar, i, v),
            _ => {}
        }
    }
    let mut level = 0;
    while level < calendar.len() {
        let due = std::mem::take(&mut calendar[level]);
        for (i, v) in due {
            let i = i as usize;
            if value[i].is_some() {
                continue;
            }
            value[i] = Some(v);
            for &p in preds_of(i) {
                let p = p as usize;
                if value[p].is_some() {
                    continue;
                }
                match v {
                    // A move into a loss in d is a win in d + 1.
                    Value::Loss(d) => schedule(&mut calendar, p, Value::Win(d + 1)),
                    Value::Win(d) => {
                        open[p] -= 1;
                        // Every move into the material loses; the exits decide the rest.
                        if open[p] == 0 {
                            match graph.exits[p].best {
                                None => schedule(&mut calendar, p, Value::Loss(d + 1)),
                                Some(Value::Loss(e)) => {
                                    schedule(&mut calendar, p, Value::Loss(e.max(d + 1)));
                                }
                                // A draw or a win through an exit: not a loss.
                                Some(_) => {}
                            }
                        }
                    }
                    Value::Draw => unreachable!("the calendar holds wins and losses"),
                }
            }
        }
        level += 1;
    }
    value
}

/// The ban's resolution of the plain draws (RULES.md 6, values 3): B's exit distance where B
/// wins, as a win of the mover when it is B and a loss when it is U; a draw elsewhere (the plain
/// draws that U wins, and the plain values).
fn solve_ban(
    layout: &Layout,
    graph: &Graph,
    (pred_offsets, preds): &(Vec<u32>, Vec<u32>),
    plain: &[Option<Value>],
) -> Vec<Value> {
    let n = graph.exits.len();
    let banned = banned_side(layout.material());
    let side_len = layout.side_len();
    let b_moves = |i: usize| {
        (if i < side_len {
            Color::Red
        } else {
            Color::Blue
        }) == banned
    };
    let preds_of = |i: usize| &preds[pred_offsets[i] as usize..pred_offsets[i + 1] as usize];
    let draw = |i: usize| graph.used[i] && plain[i].is_none();
    let mut exit: Vec<Option<u16>> = vec![None; n];
    // For U to move: moves into plain draws not yet known to be B's.
    let mut open: Vec<u32> = vec![0; n];
    let mut frontier: Vec<u32> = Vec::new();
    for i in (0..n).filter(|&i| draw(i)) {
        let ex = graph.exits[i];
        if b_moves(i) {
            if ex.b_wins {
                exit[i] = Some(1);
                frontier.push(i as u32);
            }
        } else {
            // U's moves into plain values of the material are B's plain wins (a plain draw of
            // U has no move into a position U wins), so only its moves into draws are open.
            open[i] = graph.succs(i).iter().filter(|&&s| draw(s as usize)).count() as u32;
            if !ex.u_wins && open[i] == 0 {
                exit[i] = Some(1);
                frontier.push(i as u32);
            }
        }
    }
    let mut distance = 1;
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for &s in &frontier {
            for &p in preds_of(s as usize) {
                let p = p as usize;
                if !draw(p) || exit[p].is_some() {
                    continue;
                }
                if b_moves(p) {
                    exit[p] = Some(distance + 1);
                    next.push(p as u32);
                } else {
                    open[p] -= 1;
                    if open[p] == 0 && !graph.exits[p].u_wins {
                        exit[p] = Some(distance + 1);
                        next.push(p as u32);
                    }
                }
            }
        }
        frontier = next;
        distance += 1;
    }
    (0..n)
        .map(|i| match exit[i] {
            Some(e) if b_moves(i) => ClestoValue::BanWin { exit: Some(e) }.ban_part(),
            Some(e) => ClestoValue::BanLoss { exit: Some(e) }.ban_part(),
            None => Value::Draw,
        })
        .collect()
}

/// An entry of a Clesto table whose stored value is not what its moves give.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The position, as text.
    pub position: String,
    /// The value in the table's files.
    pub stored: ClestoValue,
    /// The best of its moves' values, one ply deep.
    pub computed: ClestoValue,
}

/// Checks every used entry of the Clesto table `table` one ply deep: its value (plain, or the
/// ban's with B's exit distance) must be the best of its moves' values
/// ([`jtb_probe::value_by_lookahead`]), and its mirror image's the same. `tables` must hold
/// `table` itself and every table its moves lead into. Returns the mismatches, at most
/// `limit`.
///
/// # Errors
/// [`GenError::MissingTable`] when a successor's table is absent.
pub fn verify(table: &Solved, tables: &SubTables, limit: usize) -> Result<Vec<Mismatch>, GenError> {
    let layout = &table.layout;
    let found: Vec<Vec<Mismatch>> = crate::verify::entry_ranges(layout)
        .map(|range| {
            let mut out = Vec::new();
            let mut failed = None;
            layout.for_each_used_entry_in(range, |idx, _| {
                if failed.is_some() || out.len() >= limit {
                    return;
                }
                let pos = layout.position(idx).expect("used entry");
                let stored = table.clesto_value(idx);
                let computed =
                    match jtb_probe::value_by_lookahead(&pos, |next| tables.clesto_value(next)) {
                        Ok(v) => v,
                        Err(e) => {
                            failed = Some(e);
                            return;
                        }
                    };
                if stored != computed {
                    out.push(Mismatch {
                        position: pos.to_string(),
                        stored,
                        computed,
                    });
                }
            });
            failed.map_or(Ok(out), Err)
        })
        .collect::<Result<_, GenError>>()?;
    Ok(found.into_iter().flatten().take(limit).collect())
}
