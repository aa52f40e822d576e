//! The Animal Gambit solver: retrograde analysis over the steps of a turn, not over whole
//! turns (a position has about a hundred distinct turns, but a board only a dozen steps).
//!
//! A *node* is a board of the material with the mover and the steps already taken (0 to 4).
//! Its options: end the turn there (not at 0 steps), or one more action (a step, or a push or
//! pull of two) while steps are left; an action that removes a piece on a trap leaves the
//! material, and what the rest of that turn is worth comes from the smaller tables
//! ([`Continuation`]). A turn may not end on the board it started from, so every node keeps,
//! about the ends it can reach, what lets a start leave its own board out:
//! - the first win found (its distance and its end board) and the distance of the first win
//!   at another end board (`second_level`);
//! - the ends not known to lose: none, exactly one board (its id), or more.
//!
//! Distances are found level by level (level `n`: the ends worth a win or a loss in `n`
//! turns). At each level, the changes run from the nodes after 4 steps back to the starts;
//! a start is won in `n` when a win in `n` ends on another board than its own, lost in `n`
//! when no end but perhaps its own board is still open. Each node changes at most four
//! times, so the whole solve costs a few passes over the reversed actions. Gold's and
//! Silver's nodes never meet within a level (a turn is one side's): they run side by side.
//!
//! Boards are stored once per mirror pair; an end board is named by its entry and whether it
//! is that entry's board or its mirror image, so that a start tells its own board from its
//! mirror image.

use jtb_probe::{
    gambit::{Color, Layout, Material, Position, MAX_STEPS},
    Value,
};
use rayon::prelude::*;

use std::time::Instant;

use super::{continuation::value_after, Cost, GambitError, SubTables};
use crate::UNUSED;

/// An end outside the table (a trap removal took the turn into a smaller material): never
/// the board a turn started from.
const ELSEWHERE: u32 = u32::MAX;

/// Entries per side to move this solver takes: a board and its mirror bit fit an end id below
/// 2^29, and the sums of their squares over a node's options fit 64 bits exactly (see
/// [`Node::open`]).
pub const MAX_SIDE_ENTRIES: usize = 1 << 28;

/// The ends of a node that are not known to lose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Open {
    /// None: every end loses.
    None,
    /// Exactly one end board (its id).
    One(u32),
    /// Two or more.
    Many,
}

/// One node's knowledge (24 bytes: most messages touch one cache line).
#[derive(Debug, Clone, Copy, Default)]
#[repr(C)]
struct Node {
    /// Sum of the ids of the options whose open ends are one board, and of their squares:
    /// with `ones`, they tell whether those boards are all one ([`Node::open`]).
    sum: u64,
    squares: u64,
    /// The end of the first win found; meaningful when `win_level` is not 0.
    win_end: u32,
    /// The level of the first win (0: none yet).
    win_level: u8,
    /// The level of the first win at an end other than `win_end` (0: none yet).
    second_level: u8,
    /// Options whose open ends are two boards or more.
    many: u8,
    /// Options whose open ends are one board.
    ones: u8,
}

impl Node {
    fn open(&self) -> Open {
        if self.many > 0 {
            Open::Many
        } else if self.ones == 0 {
            Open::None
        } else {
            // Cauchy-Schwarz: the ids are all equal exactly when (sum)^2 = n * (sum of
            // squares). Ids are below 2^29 and a node has at most 64 options, so no sum
            // overflows.
            let n = u128::from(self.ones);
            let (sum, squares) = (u128::from(self.sum), u128::from(self.squares));
            if sum * sum == n * squares {
                Open::One((self.sum / u64::from(self.ones)) as u32)
            } else {
                Open::Many
            }
        }
    }

    fn add(&mut self, open: Open) {
        match open {
            Open::None => {}
            Open::One(id) => {
                debug_assert!(self.ones < 64, "more options than a board has");
                self.ones += 1;
                self.sum += u64::from(id);
                self.squares += u64::from(id) * u64::from(id);
            }
            Open::Many => self.many += 1,
        }
    }

    fn remove(&mut self, open: Open) {
        match open {
            Open::None => {}
            Open::One(id) => {
                self.ones -= 1;
                self.sum -= u64::from(id);
                self.squares -= u64::from(id) * u64::from(id);
            }
            Open::Many => self.many -= 1,
        }
    }

    fn apply(&mut self, msg: Msg, level: u8) {
        match msg {
            Msg::Win(id) => {
                if self.win_level == 0 {
                    self.win_level = level;
                    self.win_end = id;
                } else if self.win_end != id && self.second_level == 0 {
                    self.second_level = level;
                }
            }
            // The sender wins at two ends: one of them is not this node's first.
            Msg::SecondWin => {
                if self.second_level == 0 {
                    self.second_level = level;
                }
            }
            Msg::Open(old, new) => {
                self.remove(old);
                self.add(new);
            }
        }
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            won: self.win_level != 0,
            second: self.second_level != 0,
            open: self.open(),
        }
    }
}

/// What a node had told its predecessors before a level's changes.
#[derive(Debug, Clone, Copy)]
struct Snapshot {
    won: bool,
    second: bool,
    open: Open,
}

/// A change of one option of a node.
#[derive(Debug, Clone, Copy)]
enum Msg {
    /// A win found at this end (its id).
    Win(u32),
    /// A win found at a second end.
    SecondWin,
    /// The option's open ends went from the first to the second.
    Open(Open, Open),
}

/// What ending a turn on a board is, before any level.
const INVALID: u8 = 0;
const GOES_ON: u8 = 1;
const WINS: u8 = 2;
const LOSES: u8 = 3;

/// One side's nodes: the boards with that side moving.
struct Side {
    /// Per board: [`INVALID`] (no board, or the unused image of a mirror pair), [`GOES_ON`],
    /// or how the end-of-turn checks decide a turn ending there ([`WINS`], [`LOSES`]).
    end: Vec<u8>,
    /// Boards that are their own mirror image (a mirror bit means nothing for them).
    symmetric: Vec<bool>,
    /// Reversed actions: the predecessors of board `j` are
    /// `parents[offsets[j]..offsets[j + 1]]`, each `board << 2 | mirrored << 1 | two_steps`.
    offsets: Vec<u64>,
    parents: Vec<u32>,
    /// Nodes per steps taken, 0 to 3 (a node after 4 steps is its board's end alone).
    nodes: [Vec<Node>; 4],
    /// Per board and steps taken 0 to 3, the best value of the actions that leave the
    /// material, where there are any (sorted by board); turned into `due` by [`Side::start`].
    exits: Vec<(u32, [Option<Value>; 4])>,
    /// Per level, the exits decided then: board, steps taken, and whether the exit wins.
    due: Vec<Vec<(u32, u8, bool)>>,
    /// Starts: the value codes found, [`UNUSED`] for no start, [`UNDECIDED`] for not yet.
    values: Vec<u16>,
    /// Per steps taken 0 to 3, whether a node changed in this level (with `dirty`).
    marks: [Vec<bool>; 4],
    dirty: [Vec<(u32, Snapshot)>; 4],
}

/// A start whose value is not known yet: a code no value has, and not [`UNUSED`].
const UNDECIDED: u16 = u16::MAX;

/// An end's change in a level: the board, and whether ending there now wins (else loses).
type EndChange = (u32, bool);

/// The mirror bit of an end id seen through an action whose board is `mirrored`.
#[inline]
fn through(id: u32, mirrored: bool, symmetric: &[bool]) -> u32 {
    if id == ELSEWHERE {
        return id;
    }
    let board = id >> 1;
    let bit = ((id & 1) ^ u32::from(mirrored)) & u32::from(!symmetric[board as usize]);
    board << 1 | bit
}

impl Side {
    /// Scans every board of `mover` in `layout` once: ends, actions (reversed), exits.
    fn scan(layout: &Layout, mover: Color, subs: &SubTables) -> Result<Side, GambitError> {
        let n = layout.side_len();
        let base = mover.index() * n;
        let material = layout.material();
        const CHUNK: usize = 1 << 12;
        struct Chunk {
            end: Vec<u8>,
            symmetric: Vec<bool>,
            counts: Vec<u8>,
            children: Vec<u32>,
            exits: Vec<(u32, [Option<Value>; 4])>,
            values: Vec<u16>,
        }
        let chunks: Vec<Chunk> = (0..n.div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                let range = c * CHUNK..((c + 1) * CHUNK).min(n);
                let mut out = Chunk {
                    end: Vec::with_capacity(range.len()),
                    symmetric: Vec::with_capacity(range.len()),
                    counts: Vec::with_capacity(range.len()),
                    children: Vec::new(),
                    exits: Vec::new(),
                    values: Vec::with_capacity(range.len()),
                };
                for x in range {
                    let idx = base + x;
                    // Without a lead piece, only the smaller image of a mirror pair is used.
                    let valid = layout.board(idx).filter(|(board, _)| {
                        board.unguarded_on_traps().is_empty()
                            && (layout.has_lead() || layout.locate(board, mover).0 == idx)
                    });
                    let Some((board, _)) = valid else {
                        out.end.push(INVALID);
                        out.symmetric.push(false);
                        out.counts.push(0);
                        out.values.push(UNUSED);
                        continue;
                    };
                    // The entry's board, so a start exactly when it is a position.
                    out.values.push(if Position::new(board, mover).is_ok() {
                        UNDECIDED
                    } else {
                        UNUSED
                    });
                    out.end.push(match board.turn_end(mover) {
                        None => GOES_ON,
                        Some(e) if e.mover_wins() => WINS,
                        Some(_) => LOSES,
                    });
                    out.symmetric.push(
                        !layout.has_lead() && layout.locate(&board.mirror(), mover) == (idx, false),
                    );
                    let before = out.children.len();
                    let mut exits: [Option<Value>; 4] = [None; 4];
                    let mut err = None;
                    board.for_each_action(mover, 2, |action, next| {
                        let steps = action.steps();
                        if Material::of(next) == material {
                            let (j, mirrored) = layout.locate(next, mover);
                            let j = (j - base) as u32;
                            out.children
                                .push(j << 2 | u32::from(mirrored) << 1 | u32::from(steps == 2));
                            return;
                        }
                        for (taken, exit) in exits.iter_mut().enumerate() {
                            let after = taken as u8 + steps;
                            if after > MAX_STEPS {
                                continue;
                            }
                            match value_after(next, mover, after, subs) {
                                Ok(v) => *exit = Some(exit.map_or(v, |e| e.max(v))),
                                Err(e) => {
                                    err.get_or_insert(e);
                                }
                            }
                        }
                    });
                    if let Some(e) = err {
                        return Err(e);
                    }
                    out.counts.push((out.children.len() - before) as u8);
                    if exits.iter().any(Option::is_some) {
                        out.exits.push((x as u32, exits));
                    }
                }
                Ok(out)
            })
            .collect::<Result<_, GambitError>>()?;
        let mut side = Side {
            end: Vec::with_capacity(n),
            symmetric: Vec::with_capacity(n),
            offsets: vec![0; n + 1],
            parents: Vec::new(),
            nodes: Default::default(),
            exits: Vec::new(),
            due: Vec::new(),
            values: Vec::with_capacity(n),
            marks: Default::default(),
            dirty: Default::default(),
        };
        // Reverse the actions: count each child's parents, then place them.
        for chunk in &chunks {
            for &child in &chunk.children {
                side.offsets[(child >> 2) as usize + 1] += 1;
            }
        }
        for j in 0..n {
            side.offsets[j + 1] += side.offsets[j];
        }
        side.parents = vec![0; side.offsets[n] as usize];
        let mut fill = side.offsets.clone();
        let mut x = 0u32;
        for chunk in chunks {
            let mut at = 0;
            for &count in &chunk.counts {
                for &child in &chunk.children[at..at + usize::from(count)] {
                    let j = (child >> 2) as usize;
                    side.parents[fill[j] as usize] = x << 2 | (child & 3);
                    fill[j] += 1;
                }
                at += usize::from(count);
                x += 1;
            }
            side.end.extend(chunk.end);
            side.symmetric.extend(chunk.symmetric);
            side.exits.extend(chunk.exits);
            side.values.extend(chunk.values);
        }
        Ok(side)
    }

    /// Sets every node to what it knows before any level: every end open, the exits'
    /// options open until their level.
    fn start(&mut self) {
        let n = self.end.len();
        for layer in 0..4 {
            self.nodes[layer] = vec![Node::default(); n];
            self.marks[layer] = vec![false; n];
        }
        for x in 0..n {
            if self.end[x] == INVALID {
                continue;
            }
            for taken in 1..4 {
                self.nodes[taken][x].add(Open::One(2 * x as u32));
            }
        }
        for (x, exits) in std::mem::take(&mut self.exits) {
            for (taken, exit) in exits.iter().enumerate() {
                let Some(exit) = *exit else { continue };
                self.nodes[taken][x as usize].add(Open::Many);
                let (level, wins) = match exit {
                    Value::Win(d) => (d, true),
                    Value::Loss(d) => (d, false),
                    // A drawn exit stays open for good.
                    Value::Draw => continue,
                };
                let level = usize::from(level);
                if self.due.len() <= level {
                    self.due.resize(level + 1, Vec::new());
                }
                self.due[level].push((x, taken as u8, wins));
            }
        }
        // Every node's open ends, from the last step back to the starts.
        for x in 0..n {
            if self.end[x] != INVALID {
                self.send(
                    x as u32,
                    4,
                    Msg::Open(Open::None, Open::One(2 * x as u32)),
                    0,
                );
            }
        }
        for taken in (1..4).rev() {
            for x in 0..n {
                if self.end[x] != INVALID {
                    let open = self.nodes[taken][x].open();
                    self.send(x as u32, taken, Msg::Open(Open::None, open), 0);
                }
            }
        }
        for layer in &mut self.dirty {
            layer.clear();
        }
        for layer in &mut self.marks {
            layer.fill(false);
        }
    }

    /// Delivers `msg`, in the frame of node `x` after `taken` steps, to its predecessors.
    fn send(&mut self, x: u32, taken: usize, msg: Msg, level: u8) {
        let (lo, hi) = (
            self.offsets[x as usize] as usize,
            self.offsets[x as usize + 1] as usize,
        );
        for e in lo..hi {
            let parent = self.parents[e];
            let two = (parent & 1) as usize;
            let Some(t) = taken.checked_sub(1 + two) else {
                continue;
            };
            let mirrored = parent & 2 != 0;
            let msg = match msg {
                Msg::Win(id) => Msg::Win(through(id, mirrored, &self.symmetric)),
                Msg::SecondWin => Msg::SecondWin,
                Msg::Open(a, b) => Msg::Open(
                    self.through_open(a, mirrored),
                    self.through_open(b, mirrored),
                ),
            };
            self.deliver(t, parent >> 2, msg, level);
        }
    }

    fn through_open(&self, open: Open, mirrored: bool) -> Open {
        match open {
            Open::One(id) => Open::One(through(id, mirrored, &self.symmetric)),
            other => other,
        }
    }

    /// Applies `msg` to node `x` after `taken` steps, noting what it was before.
    fn deliver(&mut self, taken: usize, x: u32, msg: Msg, level: u8) {
        let node = &mut self.nodes[taken][x as usize];
        if level > 0 && !self.marks[taken][x as usize] {
            self.marks[taken][x as usize] = true;
            self.dirty[taken].push((x, node.snapshot()));
        }
        node.apply(msg, level);
    }

    /// Level `level`: the ends that change (`ends`, each at every step count) and the exits
    /// due, run back to the starts. Returns the starts decided, with their values.
    fn level(&mut self, level: u8, ends: &[EndChange]) -> Vec<(u32, Value)> {
        for &(x, wins) in ends {
            let own = 2 * x;
            let msg = if wins {
                Msg::Win(own)
            } else {
                Msg::Open(Open::One(own), Open::None)
            };
            for taken in 1..4 {
                self.deliver(taken, x, msg, level);
            }
            self.send(x, 4, msg, level);
        }
        let due = std::mem::take(
            self.due
                .get_mut(usize::from(level))
                .unwrap_or(&mut Vec::new()),
        );
        for &(x, taken, wins) in &due {
            let msg = if wins {
                Msg::Win(ELSEWHERE)
            } else {
                Msg::Open(Open::Many, Open::None)
            };
            self.deliver(usize::from(taken), x, msg, level);
        }
        for taken in (1..4).rev() {
            let dirty = std::mem::take(&mut self.dirty[taken]);
            for &(x, before) in &dirty {
                self.marks[taken][x as usize] = false;
                let node = self.nodes[taken][x as usize];
                let after = node.snapshot();
                if after.won && !before.won {
                    self.send(x, taken, Msg::Win(node.win_end), level);
                }
                if after.second && !before.second {
                    self.send(x, taken, Msg::SecondWin, level);
                }
                if after.open != before.open {
                    self.send(x, taken, Msg::Open(before.open, after.open), level);
                }
            }
            self.dirty[taken] = dirty;
            self.dirty[taken].clear();
        }
        let dirty = std::mem::take(&mut self.dirty[0]);
        let mut decided = Vec::new();
        for &(x, _) in &dirty {
            self.marks[0][x as usize] = false;
            if let Some(v) = self.decide(x, level) {
                decided.push((x, v));
            }
        }
        self.dirty[0] = dirty;
        self.dirty[0].clear();
        decided
    }

    /// The value of start `x` if this level decides it.
    fn decide(&mut self, x: u32, level: u8) -> Option<Value> {
        if self.values[x as usize] != UNDECIDED {
            return None;
        }
        let node = self.nodes[0][x as usize];
        let own = 2 * x;
        let only_own_open = match node.open() {
            Open::None => true,
            Open::One(id) => id == own,
            Open::Many => false,
        };
        let value = if node.win_level != 0 && (node.win_end != own || node.second_level != 0) {
            Value::Win(u16::from(level))
        } else if only_own_open {
            Value::Loss(u16::from(level))
        } else {
            return None;
        };
        self.values[x as usize] = value.code();
        Some(value)
    }

    /// The starts lost before any level: no turn at all.
    fn level_zero(&mut self) -> Vec<(u32, Value)> {
        (0..self.values.len() as u32)
            .filter_map(|x| self.decide(x, 0).map(|v| (x, v)))
            .collect()
    }

    /// The ends this side's decisions change for the other side next level: a start lost in
    /// `n` makes ending a turn on its board a win in `n + 1` there, a start won a loss. Boards
    /// the end-of-turn checks decide are left alone (they changed at level 1).
    fn ends_for_other(decided: &[(u32, Value)], other: &Side) -> Vec<EndChange> {
        decided
            .iter()
            .filter(|&&(x, _)| other.end[x as usize] == GOES_ON)
            .map(|&(x, v)| (x, matches!(v, Value::Loss(_))))
            .collect()
    }

    /// The ends the end-of-turn checks decide: all at level 1.
    fn checked_ends(&self) -> Vec<EndChange> {
        (0..self.end.len() as u32)
            .filter_map(|x| match self.end[x as usize] {
                WINS => Some((x, true)),
                LOSES => Some((x, false)),
                _ => None,
            })
            .collect()
    }

    /// The last level an exit is due at (after [`Side::start`]).
    fn last_exit(&self) -> u16 {
        self.due.len().saturating_sub(1) as u16
    }
}

/// Solves the table of `layout`: one value code per entry ([`UNUSED`] for unused entries),
/// given the smaller tables and their continuations in `subs`; with the time spent
/// generating actions (`cost.actions`) and running the levels (`cost.levels`).
///
/// # Errors
/// [`GambitError::MissingTable`] when one is absent; [`GambitError::TooManyEntries`] for a
/// table this solver cannot index; [`GambitError::TooDeep`] for a value past 255 turns.
pub fn solve_codes(
    layout: &Layout,
    subs: &SubTables,
    cost: &mut Cost,
) -> Result<Vec<u16>, GambitError> {
    if layout.side_len() > MAX_SIDE_ENTRIES {
        return Err(GambitError::TooManyEntries(layout.material(), layout.len()));
    }
    let clock = Instant::now();
    let (gold, silver) = rayon::join(
        || Side::scan(layout, Color::Gold, subs),
        || Side::scan(layout, Color::Silver, subs),
    );
    let mut sides = [gold?, silver?];
    cost.actions += clock.elapsed();
    let clock = Instant::now();
    {
        let [g, s] = &mut sides;
        rayon::join(|| g.start(), || s.start());
    }
    let last_exit = sides[0].last_exit().max(sides[1].last_exit());
    let mut decided = [sides[0].level_zero(), sides[1].level_zero()];
    let mut level: u16 = 1;
    loop {
        let ends = [
            Side::ends_for_other(&decided[1], &sides[0]),
            Side::ends_for_other(&decided[0], &sides[1]),
        ];
        let ends = if level == 1 {
            let [mut gold, mut silver] = ends;
            gold.extend(sides[0].checked_ends());
            silver.extend(sides[1].checked_ends());
            [gold, silver]
        } else {
            ends
        };
        if ends.iter().all(Vec::is_empty) && level > last_exit {
            break;
        }
        let Ok(byte) = u8::try_from(level) else {
            return Err(GambitError::TooDeep(layout.material()));
        };
        let [g, s] = &mut sides;
        let (dg, ds) = rayon::join(|| g.level(byte, &ends[0]), || s.level(byte, &ends[1]));
        decided = [dg, ds];
        level += 1;
    }
    cost.levels += clock.elapsed();
    let mut codes = Vec::with_capacity(layout.len());
    for side in sides {
        codes.extend(side.values.into_iter().map(|c| match c {
            UNDECIDED => Value::Draw.code(),
            c => c,
        }));
    }
    Ok(codes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_ends_tell_one_board_from_several() {
        let mut node = Node::default();
        assert_eq!(node.open(), Open::None);
        node.add(Open::One(6));
        node.add(Open::One(6));
        assert_eq!(node.open(), Open::One(6));
        node.add(Open::One(4));
        assert_eq!(node.open(), Open::Many);
        // 6, 6, 4, 8 have the sum of four 6s: the squares tell them apart.
        node.add(Open::One(8));
        assert_eq!(node.open(), Open::Many);
        node.remove(Open::One(4));
        node.remove(Open::One(8));
        assert_eq!(node.open(), Open::One(6));
        node.add(Open::Many);
        assert_eq!(node.open(), Open::Many);
        node.remove(Open::Many);
        node.remove(Open::One(6));
        node.remove(Open::One(6));
        assert_eq!(node.open(), Open::None);
        // The largest ids of the largest table, on every option a node can have.
        let big = (MAX_SIDE_ENTRIES as u32) * 2 - 1;
        for _ in 0..64 {
            node.add(Open::One(big));
        }
        assert_eq!(node.open(), Open::One(big));
        node.remove(Open::One(big));
        node.add(Open::One(big - 1));
        assert_eq!(node.open(), Open::Many);
    }

    #[test]
    fn a_node_keeps_its_first_win_and_whether_another_end_wins() {
        let mut node = Node::default();
        node.apply(Msg::Win(10), 3);
        node.apply(Msg::Win(10), 4);
        assert_eq!(
            (node.win_level, node.win_end, node.second_level),
            (3, 10, 0)
        );
        node.apply(Msg::Win(12), 5);
        node.apply(Msg::Win(14), 6);
        assert_eq!(
            (node.win_level, node.win_end, node.second_level),
            (3, 10, 5)
        );
        let mut other = Node::default();
        other.apply(Msg::Win(ELSEWHERE), 2);
        other.apply(Msg::SecondWin, 4);
        assert_eq!((other.win_end, other.second_level), (ELSEWHERE, 4));
    }

    #[test]
    fn an_action_to_a_mirror_image_mirrors_the_end_ids_it_passes_on() {
        let symmetric = [false, true, false];
        assert_eq!(through(4, true, &symmetric), 5);
        assert_eq!(through(5, true, &symmetric), 4);
        assert_eq!(through(5, false, &symmetric), 5);
        // Board 1 is its own mirror image: one id.
        assert_eq!(through(2, true, &symmetric), 2);
        assert_eq!(through(ELSEWHERE, true, &symmetric), ELSEWHERE);
    }
}
