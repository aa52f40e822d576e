//! Retrograde analysis of one Clesto material (RULES.md section 6): plain values with their
//! distance to mate, then the repetition ban's resolution of every plain draw.
//!
//! Hunger splits the entries in two. A mover with a legal capture has those animals hungry, so
//! every move it has leaves the material (a capture, or a starvation) or ends the game: its
//! value is the best of its moves' values through the smaller tables, found once by the scan
//! (one move ahead where a starvation leaves a non-canonical hungry set, as
//! [`jtb_probe::value_by_lookahead`] does; those values are kept in a table the threads share).
//! A mover without a capture has only quiet moves, which stay in the material at canonical
//! hungry sets, and den entries. The scan generates each entry's moves on its squares (no
//! position is built; a successor is found by index arithmetic); a position a move leads out
//! of the material to is the table's pieces left, a bit each, on their squares ([`Ahead`]),
//! whose mask names the smaller table.
//! * Plain values: the bitboard solver of the other rule sets ([`crate::solve`]) with the
//!   scan's values as the moves that leave the table: a den entry beside the quiet moves, and
//!   an entry with a capture, which has no quiet move, at its best exit's value.
//! * The ban: among the plain draws, the positions from which B (the banned side) forces a move
//!   into a smaller material at a position B wins, by a retrograde pass ("attractor") that
//!   finds an entry's predecessors by moving the other side's pieces back (Clesto's steps and
//!   jumps are their own reverses), with B's exit distance. The other plain draws are U's
//!   wins.
//!
//! The colour flip is no symmetry of a Clesto table (the ban binds Red where the sides have as
//! many animals, and that reaches every larger material through its exits), but it is one of
//! the plain values, which the ban does not touch: [`solve_flip_of`] takes a table's colour
//! flip's plain values from the flip, solved, and scans and resolves only its plain draws (a
//! few percent of the entries) anew.

use std::{
    ops::{ControlFlow, Range},
    sync::atomic::{AtomicU64, Ordering},
};

use jtb_probe::{
    banned_side, Animal, ClestoValue, Color, Layout, Material, MoveKind, Piece, RuleSet, Square,
    Value, Wdl,
};
use rayon::prelude::*;

use crate::{solve::Exits, Codes, GenError, Solved, SubTables, UNUSED};

mod game;

pub use self::game::Clesto;

/// Entry flags of the scan: a position (no two pieces on a square).
const USED: u8 = 1;
/// The mover has a capture: each of its moves leaves the material or ends the game.
const LEAVES: u8 = 2;
/// An entry without captures has a den entry among its moves (a win in 1).
const DEN: u8 = 4;
/// Some move that leaves the material gives B a win (a position B wins, or U's own last animal
/// starved). Of the moves looked at: the scan stops at a win in 1, and only the plain draws'
/// flags are read.
const B_WINS: u8 = 8;
/// Some move that leaves the material gives U a win (as [`B_WINS`], of the moves looked at).
const U_WINS: u8 = 16;

/// A set of squares of the Clesto board, a bit per square (`rank * 7 + file`): its 63 squares
/// fit a word, where a [`jtb_probe::SquareSet`] takes two, and the scan's sets are all of
/// this kind.
type SquareSet = u64;

/// The bit of `sq` (on the 7-file board) in a [`SquareSet`].
#[inline]
const fn bit(sq: Square) -> SquareSet {
    1 << dense(sq)
}

/// The number of the bit of `sq` in a [`SquareSet`]: its packed value ([`Square::index`],
/// `rank * 8 + file`) less its rank.
#[inline]
const fn dense(sq: Square) -> usize {
    sq.index() - sq.index() / 8
}

/// A jump's water as a [`SquareSet`].
fn water(path: jtb_probe::SquareSet) -> SquareSet {
    let (mut path, mut set) = (path, 0);
    while path != 0 {
        // A packed value, as `Square::index` gives it.
        let i = path.trailing_zeros() as usize;
        set |= 1 << (i - i / 8);
        path &= path - 1;
    }
    set
}

/// Refuses a board the scan's [`SquareSet`]s cannot hold (Clesto's is 7 by 9).
fn check_board(rules: RuleSet) {
    let board = rules.board();
    assert!(
        board.width == 7 && board.height <= 9,
        "a Clesto board of 7 files and at most 9 ranks"
    );
}

/// The scan's best value of an entry that has none: no capture, or no move (no value has
/// this code).
const OPEN: u16 = u16::MAX;

/// A step or a river jump of a piece from a square, onto a square it may stand on.
#[derive(Debug, Clone, Copy)]
struct Step {
    to: Square,
    to_bit: SquareSet,
    /// The water a jump crosses (empty for a step): an opponent's animal there blocks it.
    path: SquareSet,
    /// Whether `to` is the enemy den.
    den: bool,
    /// What the move adds to the entry's index (besides the side to move), where `to` is in the
    /// piece's domain; `None` for the first piece leaving its half of the board (the entry is
    /// then stored mirrored) and for the den.
    delta: Option<isize>,
}

/// The material's layout and what the passes ask of it.
struct Frame<'a> {
    layout: &'a Layout,
    rules: RuleSet,
    banned: Color,
    reach: Reach,
    lookahead: Lookahead,
    /// The central file: the first piece (table order) is kept on its left, or on it.
    centre: u8,
    /// Per piece (table order) and square ([`Square::index`]), its steps and jumps.
    steps: Vec<Vec<Vec<Step>>>,
    /// Per placement of all pieces but the last (the index without the last piece's slot and
    /// the side to move), their squares: an entry's squares without a division per piece.
    configs: Vec<[Square; Layout::MAX_PIECES]>,
}

impl<'a> Frame<'a> {
    fn new(layout: &'a Layout) -> Frame<'a> {
        let rules = layout.rules();
        check_board(rules);
        let board = rules.board();
        let steps = layout
            .pieces()
            .iter()
            .enumerate()
            .map(|(i, &piece)| {
                let enemy_den = board.den(piece.color.other());
                let stride = layout.stride(i) as isize;
                let mut all = vec![Vec::new(); Square::LIMIT];
                for from in board.squares() {
                    let Some(from_slot) = layout.slot(i, from) else {
                        continue;
                    };
                    for (to, path) in rules.destinations(piece, from) {
                        all[from.index()].push(Step {
                            to,
                            to_bit: bit(to),
                            path: water(path),
                            den: Some(to) == enemy_den,
                            delta: layout
                                .slot(i, to)
                                .map(|s| (s as isize - from_slot as isize) * stride),
                        });
                    }
                }
                all
            })
            .collect();
        let k = layout.pieces().len();
        let inner = layout.domain(k - 1).len();
        let configs = (0..layout.side_len() / inner)
            .map(|config| {
                let mut squares = [Square::new(0, 0); Layout::MAX_PIECES];
                for (i, sq) in squares.iter_mut().enumerate().take(k - 1) {
                    let domain = layout.domain(i);
                    *sq = domain[config * inner / layout.stride(i) % domain.len()];
                }
                squares
            })
            .collect();
        Frame {
            configs,
            layout,
            rules,
            banned: banned_side(layout.material()),
            reach: Reach::new(rules),
            lookahead: Lookahead::new(layout.len()),
            centre: (board.width - 1) / 2,
            steps,
        }
    }

    fn turn(&self, idx: usize) -> Color {
        Color::ALL[usize::from(idx >= self.layout.side_len())]
    }

    /// The squares of used entry `idx`, in table order, into `out`: the piece count.
    fn squares(&self, idx: usize, out: &mut [Square; Layout::MAX_PIECES]) -> usize {
        let layout = self.layout;
        let side_len = layout.side_len();
        let rest = if idx < side_len { idx } else { idx - side_len };
        let k = layout.pieces().len();
        let inner = layout.domain(k - 1);
        // 32-bit division, the faster: every index fits (`fits`).
        let (rest, len) = (rest as u32, inner.len() as u32);
        let (config, slot) = ((rest / len) as usize, (rest % len) as usize);
        *out = self.configs[config];
        out[k - 1] = inner[slot];
        k
    }

    /// The squares of the entry's pieces: all, and those not of `color`.
    fn occupancy(&self, squares: &[Square], color: Color) -> (SquareSet, SquareSet) {
        let mut occupied: SquareSet = 0;
        let mut theirs: SquareSet = 0;
        for (p, &sq) in self.layout.pieces().iter().zip(squares) {
            occupied |= bit(sq);
            if p.color != color {
                theirs |= bit(sq);
            }
        }
        (occupied, theirs)
    }

    /// Calls `f(i, step)` for every step or jump of a piece `i` of `color` onto an empty square
    /// (or its enemy den) in the entry with `squares`.
    #[inline]
    fn for_each_quiet(&self, squares: &[Square], color: Color, mut f: impl FnMut(usize, &Step)) {
        let (occupied, theirs) = self.occupancy(squares, color);
        for (i, (p, sq)) in self.layout.pieces().iter().zip(squares).enumerate() {
            if p.color != color {
                continue;
            }
            for step in &self.steps[i][sq.index()] {
                // Only an opponent's animal blocks a Clesto jump.
                if occupied & step.to_bit == 0 && theirs & step.path == 0 {
                    f(i, step);
                }
            }
        }
    }

    /// The entry after the quiet `step` of piece `i` of entry `idx` (its pieces on `squares`).
    #[inline]
    fn after(&self, idx: usize, squares: &[Square], i: usize, step: &Step) -> usize {
        let side_len = self.layout.side_len();
        match step.delta {
            Some(delta) => {
                let other = if idx < side_len {
                    idx + side_len
                } else {
                    idx - side_len
                };
                other.wrapping_add_signed(delta)
            }
            None => self.layout.index_after_move(idx, squares, i, step.to),
        }
    }

    /// Calls `f` with the entry of every quiet move of entry `idx` (its pieces on `squares`):
    /// the moves that stay in the material where the mover has no capture.
    fn for_each_successor(&self, idx: usize, squares: &[Square], mut f: impl FnMut(usize)) {
        self.for_each_quiet(squares, self.turn(idx), |i, step| {
            if !step.den {
                f(self.after(idx, squares, i, step));
            }
        });
    }

    /// Calls `f` with every entry that has a quiet move into entry `idx` (its pieces on
    /// `squares`), once per such move, as [`Frame::for_each_successor`] lists them: a step or
    /// jump back of a piece of the side that just moved, onto an empty square. An entry stores
    /// a placement with the first piece left of the central file or on it, a move to the right
    /// being stored mirrored, so a move back of the first piece between the central file and
    /// the left is the move back from two entries' moves: the placement's and its mirror
    /// image's, both on the central file. A move back from the central file to the right
    /// belongs to the mirror image of `idx`, a separate entry.
    #[inline]
    fn for_each_predecessor(&self, idx: usize, squares: &[Square], mut f: impl FnMut(usize)) {
        let back = self.turn(idx).other();
        self.for_each_quiet(squares, back, |i, step| {
            if step.den {
                return;
            }
            if i == 0 {
                let (now, before) = (squares[0].file(), step.to.file());
                if now == self.centre && before > self.centre {
                    return;
                }
                if now < self.centre && before == self.centre {
                    let board = self.rules.board();
                    let mut mirrored = [Square::new(0, 0); Layout::MAX_PIECES];
                    for (m, &sq) in mirrored.iter_mut().zip(squares) {
                        *m = board.mirror_file(sq);
                    }
                    mirrored[0] = step.to;
                    f(self
                        .layout
                        .index_of_entry(back, &mirrored[..squares.len()])
                        .expect("a mirrored placement with the first piece on the central file"));
                }
            }
            f(self.after(idx, squares, i, step));
        });
    }
}

/// A generous estimate of the bytes needed to solve and write `material`: per entry its flags
/// and best exit (3 bytes), the plain solve's exit distances (2 for a moment, then 1) and
/// value codes (1), the ban pass's count, exit distance and frontier (7), the second file's
/// codes (2): about 15 bytes at the peak, given 24 (the colour flip solved from it,
/// [`solve_flip_of`], needs about 10 and the first table's codes); and the table of values at
/// non-canonical hungry sets (at most 8 MiB). `jtb gen --rules clesto --material ETvLR
/// --material LRvET` (8,201,816 entries each) peaks at 70 MiB with its smaller tables loaded,
/// `DRvCR` alone (12,398,372) at 95 MiB.
#[must_use]
pub fn memory_estimate(material: Material) -> u64 {
    const LOOKAHEAD_BYTES: u64 = 8 << 20;
    Layout::new(RuleSet::Clesto, material).len() as u64 * BYTES_PER_ENTRY + LOOKAHEAD_BYTES
}

/// The bytes an entry of [`memory_estimate`].
const BYTES_PER_ENTRY: u64 = 24;

/// Solves `material` (this orientation: the colour flip is no symmetry in Clesto), given every
/// smaller table its moves lead into. The result holds plain values as its DTM codes and the
/// ban's resolution as its second codes ([`ClestoValue::ban_part`]).
///
/// # Errors
/// [`GenError::MissingTable`] when a smaller table is absent; [`GenError::TooLarge`] for a table
/// whose entries do not fit this solver's 32-bit lists.
pub fn solve(material: Material, subs: &SubTables) -> Result<Solved, GenError> {
    let layout = Layout::new(RuleSet::Clesto, material);
    fits(&layout)?;
    let frame = Frame::new(&layout);
    let Scan { flags, best } = scan(&frame, subs)?;
    let exits = |i: usize| {
        if flags[i] & LEAVES != 0 {
            // (A mover with a capture has a move; one without any would have lost.)
            Exits::Only(match best[i] {
                OPEN => Value::Loss(0),
                code => Value::from_code(code).expect("a move's value code"),
            })
        } else if flags[i] & DEN != 0 {
            Exits::Beside(Value::Win(1))
        } else {
            Exits::None
        }
    };
    let plain = crate::solve::solve_with_exits(&layout, exits)?;
    drop(best);
    Ok(finish(&frame, &flags, plain))
}

/// Solves the colour flip of `other`'s material (a table of its own in Clesto, the ban
/// binding Red where the sides have as many animals) from `other`, solved: the plain values are
/// the flip's (the ban aside, the rules are the same for both colours with the board turned
/// round), so only the plain draws are valued anew, by the ban. Gives what [`solve`] gives, at
/// a fraction of its cost.
///
/// # Errors
/// As [`solve`]: the smaller tables the plain draws' moves lead into must be in `subs`.
///
/// # Panics
/// If `other` is not a Clesto table.
pub fn solve_flip_of(other: &Solved, subs: &SubTables) -> Result<Solved, GenError> {
    assert_eq!(other.layout.rules(), RuleSet::Clesto, "a Clesto table");
    let layout = Layout::new(RuleSet::Clesto, other.layout.material().flipped());
    fits(&layout)?;
    let frame = Frame::new(&layout);
    let (flags, plain) = flipped_plain(&frame, other, subs)?;
    Ok(finish(&frame, &flags, plain))
}

/// Refuses a table whose entries do not fit the calendar's and the frontier's 32-bit numbers.
fn fits(layout: &Layout) -> Result<(), GenError> {
    let material = layout.material();
    if u32::try_from(layout.len()).is_err() {
        return Err(GenError::TooLarge {
            material,
            need: memory_estimate(material),
            limit: u64::from(u32::MAX) * BYTES_PER_ENTRY,
        });
    }
    Ok(())
}

/// The table from its entries' flags and plain value codes: the ban's resolution of the
/// draws, then the second file's codes.
fn finish(frame: &Frame, flags: &[u8], plain: Codes) -> Solved {
    let n = frame.layout.len();
    let exits = solve_ban(frame, flags, &plain);
    // A draw's code where the entry is used (the ban decides nothing more but the exits).
    let mut ban = Codes::filled(n, Value::Draw.code());
    let unused = u8::try_from(UNUSED).expect("the unused code fits a byte");
    ban.bytes_mut()
        .par_chunks_mut(SCAN_CHUNK)
        .zip(flags.par_chunks(SCAN_CHUNK))
        .for_each(|(codes, flags)| {
            for (code, &f) in codes.iter_mut().zip(flags) {
                if f & USED == 0 {
                    *code = unused;
                }
            }
        });
    let mut wide = Vec::new();
    for (i, e) in exits {
        let i = i as usize;
        let value = if frame.turn(i) == frame.banned {
            ClestoValue::BanWin { exit: Some(e) }
        } else {
            ClestoValue::BanLoss { exit: Some(e) }
        };
        Codes::set_in(
            ban.bytes_mut(),
            0,
            std::iter::once(i),
            value.ban_part().code(),
            &mut wide,
        );
    }
    ban.add_wide(wide);
    Solved {
        codes: plain,
        second_codes: ban,
        layout: frame.layout.clone(),
    }
}

/// The flags and plain value codes of the colour flip of `other` (the entries of `frame`):
/// each used entry's plain value is that of its flip in `other`; a plain draw is then scanned,
/// its moves valued through `subs`, for what the ban pass asks of it.
fn flipped_plain(
    frame: &Frame,
    other: &Solved,
    subs: &SubTables,
) -> Result<(Vec<u8>, Codes), GenError> {
    let layout = frame.layout;
    let ahead = Ahead::new(frame, subs);
    let theirs = &other.layout;
    let board = frame.rules.board();
    // Piece `i` of this table is piece `order[i]` of the other, in the other colour.
    let order: Vec<usize> = layout
        .pieces()
        .iter()
        .map(|p| {
            let twin = Piece::new(p.color.other(), p.animal);
            theirs
                .pieces()
                .iter()
                .position(|&q| q == twin)
                .expect("the flip has every piece in the other colour")
        })
        .collect();
    let k = order.len();
    let (last, inner) = (order[k - 1], layout.domain(k - 1));
    let centre = frame.centre;
    // Per square of the last piece: what it adds to the other table's index, placed as it is
    // and mirrored, and whether it is on the right (where it is the other's first piece).
    let last_part: Vec<([Option<usize>; 2], bool)> = inner
        .iter()
        .map(|&sq| {
            let sq = board.mirror_rank(sq);
            let part = |s| theirs.slot(last, s).map(|slot| slot * theirs.stride(last));
            ([part(sq), part(board.mirror_file(sq))], sq.file() > centre)
        })
        .collect();
    let n = layout.len();
    let mut flags = vec![0u8; n];
    let mut plain = Codes::filled(n, UNUSED);
    let draw = Value::Draw.code();
    // A task takes whole runs of entries with all pieces but the last placed.
    let run = inner.len();
    let runs = layout.side_len() / run;
    let wide: Vec<Vec<u64>> = flags
        .par_chunks_mut(run * FLIP_RUNS_PER_TASK)
        .zip(plain.bytes_mut().par_chunks_mut(run * FLIP_RUNS_PER_TASK))
        .enumerate()
        .map(|(c, (flags, plain))| {
            let mut work = EntryScan::default();
            // The codes past a byte, copied as they are (the flip's codes are the other's).
            let mut wide = Vec::new();
            for (r, (flags, plain)) in flags.chunks_mut(run).zip(plain.chunks_mut(run)).enumerate()
            {
                let g = c * FLIP_RUNS_PER_TASK + r;
                let (turn, config) = (Color::ALL[g / runs], g % runs);
                let mut squares = frame.configs[config];
                let outer = &squares[..k - 1];
                let occupied = outer.iter().fold(0, |set, &sq| set | bit(sq));
                if occupied.count_ones() as usize != k - 1 {
                    continue;
                }
                // The pieces but the last in the other table, placed as they are and mirrored,
                // and the other's first piece where it is one of them.
                let mut bases = [Some(turn.other().index() * theirs.side_len()); 2];
                let mut first_right = None;
                for (&sq, &j) in outer.iter().zip(&order) {
                    let sq = board.mirror_rank(sq);
                    for (base, sq) in bases.iter_mut().zip([sq, board.mirror_file(sq)]) {
                        *base = base
                            .zip(theirs.slot(j, sq))
                            .map(|(b, s)| b + s * theirs.stride(j));
                    }
                    if j == 0 {
                        first_right = Some(sq.file() > centre);
                    }
                }
                for (slot, &sq) in inner.iter().enumerate() {
                    if occupied & bit(sq) != 0 {
                        continue;
                    }
                    let (part, right) = last_part[slot];
                    let mirror = usize::from(first_right.unwrap_or(right));
                    let theirs_idx = bases[mirror]
                        .zip(part[mirror])
                        .map(|(b, p)| b + p)
                        .expect("the flip of a used entry is an entry");
                    let code = other.codes.get(theirs_idx);
                    let idx = g * run + slot;
                    Codes::set_in(plain, g * run, std::iter::once(slot), code, &mut wide);
                    if code != draw {
                        flags[slot] = USED;
                        continue;
                    }
                    squares[k - 1] = sq;
                    flags[slot] = scan_entry(frame, &ahead, idx, &squares[..k], &mut work)?.0;
                }
            }
            Ok::<_, GenError>(wide)
        })
        .collect::<Result<_, GenError>>()?;
    plain.add_wide(wide.concat());
    Ok((flags, plain))
}

/// Runs of entries (all pieces but the last placed) per parallel task of [`flipped_plain`].
const FLIP_RUNS_PER_TASK: usize = 64;

/// What the scan found of every entry.
struct Scan {
    /// [`USED`], [`LEAVES`], [`DEN`], [`B_WINS`], [`U_WINS`].
    flags: Vec<u8>,
    /// Per entry with captures, the code of the best value among its moves for the plain game
    /// (the smaller tables' plain values); [`OPEN`] where it has no move.
    best: Vec<u16>,
}

/// Entries per parallel task of the scan.
const SCAN_CHUNK: usize = 1 << 12;

/// The moves of every entry, in parallel runs of entries.
fn scan(frame: &Frame, subs: &SubTables) -> Result<Scan, GenError> {
    let n = frame.layout.len();
    let ahead = Ahead::new(frame, subs);
    let mut out = Scan {
        flags: vec![0; n],
        best: vec![OPEN; n],
    };
    // Tasks of whole runs of entries (all pieces but the last placed).
    let run = frame.layout.domain(frame.layout.pieces().len() - 1).len();
    let chunk = SCAN_CHUNK.div_ceil(run) * run;
    out.flags
        .par_chunks_mut(chunk)
        .zip(out.best.par_chunks_mut(chunk))
        .enumerate()
        .try_for_each(|(c, (flags, best))| {
            let start = c * chunk;
            scan_range(frame, &ahead, start..start + flags.len(), flags, best)
        })?;
    Ok(out)
}

/// [`scan`] of the entries in `range` (whole runs of entries with all pieces but the last
/// placed, but for the table's end), whose flags and best values are the slices.
/// The moves of the pieces but the last are looked at once per run ([`OuterMoves`]); an entry
/// with a capture is then scanned whole ([`scan_captures`]).
fn scan_range(
    frame: &Frame,
    ahead: &Ahead,
    range: Range<usize>,
    flags: &mut [u8],
    best: &mut [u16],
) -> Result<(), GenError> {
    let layout = frame.layout;
    let k = layout.pieces().len();
    let inner = layout.domain(k - 1);
    let run = inner.len();
    debug_assert_eq!(range.start % run, 0, "a range of whole runs");
    let mut work = EntryScan::default();
    let mut outer = OuterMoves::default();
    for g in range.start / run..range.end.div_ceil(run) {
        let (turn, config) = (frame.turn(g * run), g % (layout.side_len() / run));
        let mut squares = frame.configs[config];
        if !outer.prepare(frame, turn, &squares[..k - 1]) {
            continue;
        }
        for (slot, &sq) in inner.iter().enumerate() {
            let idx = g * run + slot;
            if !range.contains(&idx) || outer.occupied & bit(sq) != 0 {
                continue;
            }
            squares[k - 1] = sq;
            let at = idx - range.start;
            let (capture, den) = outer.entry(frame, &squares[..k]);
            (flags[at], best[at]) = if capture {
                scan_captures(frame, ahead, idx, &squares[..k], &mut work)?
            } else {
                (USED | if den { DEN } else { 0 }, OPEN)
            };
        }
    }
    Ok(())
}

/// What the moves of the pieces but the last give in a run of entries (those pieces placed, the
/// last on each square of its domain in turn): counted once per run, then told apart per
/// square of the last piece, to give what [`Ahead::captures_or_den`] gives entry by entry.
struct OuterMoves {
    turn: Color,
    occupied: SquareSet,
    /// The squares of the pieces but the last that are not the mover's.
    theirs: SquareSet,
    /// The mover's den entries and captures onto or over squares those pieces leave free.
    dens: u8,
    captures: u8,
    /// Per square (its bit's number, [`dense`]): the den entries that end there, ...
    den_to: [u8; Square::LIMIT],
    /// those and the captures whose jump crosses it, ...
    den_over: [u8; Square::LIMIT],
    captures_over: [u8; Square::LIMIT],
    /// and the moves ending there that would take the last piece there.
    takes_last: [u8; Square::LIMIT],
}

impl Default for OuterMoves {
    fn default() -> OuterMoves {
        OuterMoves {
            turn: Color::Red,
            occupied: 0,
            theirs: 0,
            dens: 0,
            captures: 0,
            den_to: [0; Square::LIMIT],
            den_over: [0; Square::LIMIT],
            captures_over: [0; Square::LIMIT],
            takes_last: [0; Square::LIMIT],
        }
    }
}

impl OuterMoves {
    /// Counts the moves of `turn`'s pieces among all but the last, on `outer`; `false` where two
    /// of them share a square (no entry of the run is used).
    fn prepare(&mut self, frame: &Frame, turn: Color, outer: &[Square]) -> bool {
        let pieces = frame.layout.pieces();
        let last = pieces[outer.len()];
        *self = OuterMoves {
            turn,
            ..OuterMoves::default()
        };
        for (&p, &sq) in pieces.iter().zip(outer) {
            if self.occupied & bit(sq) != 0 {
                return false;
            }
            self.occupied |= bit(sq);
            if p.color != turn {
                self.theirs |= bit(sq);
            }
        }
        let over = |counts: &mut [u8; Square::LIMIT], path: SquareSet| {
            let mut path = path;
            while path != 0 {
                counts[path.trailing_zeros() as usize] += 1;
                path &= path - 1;
            }
        };
        for (i, (&p, &from)) in pieces.iter().zip(outer).enumerate() {
            if p.color != turn {
                continue;
            }
            for step in &frame.steps[i][from.index()] {
                // Only an opponent's animal blocks a Clesto jump.
                if self.theirs & step.path != 0 {
                    continue;
                }
                let to = dense(step.to);
                if self.theirs & step.to_bit != 0 {
                    let at = outer.iter().position(|&s| s == step.to);
                    let defender = pieces[at.expect("an occupied square holds a piece")];
                    if frame.rules.capture(p, from, defender, step.to).is_some() {
                        self.captures += 1;
                        over(&mut self.captures_over, step.path);
                    }
                } else if self.occupied & step.to_bit == 0 {
                    if step.den {
                        self.dens += 1;
                        self.den_to[to] += 1;
                        over(&mut self.den_over, step.path);
                    }
                    if last.color != turn && frame.rules.capture(p, from, last, step.to).is_some() {
                        self.takes_last[to] += 1;
                    }
                }
            }
        }
        true
    }

    /// [`Ahead::captures_or_den`] of the entry of the run with `squares` (the last piece on a
    /// square the others leave free).
    fn entry(&self, frame: &Frame, squares: &[Square]) -> (bool, bool) {
        let k = squares.len();
        let (last, sq) = (frame.layout.pieces()[k - 1], squares[k - 1]);
        let s = dense(sq);
        if last.color != self.turn {
            // The last piece blocks the moves onto its square, and the jumps over it, but may
            // be taken there.
            let captures = self.captures - self.captures_over[s] + self.takes_last[s];
            let dens = self.dens - self.den_to[s] - self.den_over[s];
            return (captures > 0, captures == 0 && dens > 0);
        }
        // The mover's own: it takes its square from the others' moves, and moves itself.
        let mut dens = self.dens - self.den_to[s];
        let mut captures = self.captures;
        let occupied = self.occupied | bit(sq);
        for step in &frame.steps[k - 1][sq.index()] {
            if self.theirs & step.path != 0 {
                continue;
            }
            if occupied & step.to_bit == 0 {
                dens += u8::from(step.den);
            } else if self.theirs & step.to_bit != 0 {
                let at = squares.iter().position(|&s| s == step.to);
                let defender = frame.layout.pieces()[at.expect("an occupied square holds a piece")];
                if frame.rules.capture(last, sq, defender, step.to).is_some() {
                    captures += 1;
                }
            }
        }
        (captures > 0, captures == 0 && dens > 0)
    }
}

/// The lists [`scan_entry`] fills for each entry, kept from one to the next.
#[derive(Default)]
struct EntryScan {
    /// The entry's moves: the piece (table order), its destination, the kind of move.
    moves: Vec<(usize, Square, MoveKind)>,
    /// The positions already valued that a hungry animal's moves without a capture lead to
    /// (they starve it: its moves mostly lead to one).
    seen: Vec<(Next, ClestoValue)>,
    /// The position a move leads to.
    next: Next,
}

/// What the scan finds of used entry `idx` (its pieces on `squares`): its flags, and where its
/// mover has a capture the code of the best of its moves' plain values ([`OPEN`] where it has
/// no move, and without a capture).
fn scan_entry(
    frame: &Frame,
    ahead: &Ahead,
    idx: usize,
    squares: &[Square],
    work: &mut EntryScan,
) -> Result<(u8, u16), GenError> {
    let (captures, den) = ahead.captures_or_den(squares, ahead.all(), frame.turn(idx));
    if !captures {
        return Ok((USED | if den { DEN } else { 0 }, OPEN));
    }
    scan_captures(frame, ahead, idx, squares, work)
}

/// [`scan_entry`] of an entry whose mover has a capture: its flags and the code of the best of
/// its moves' plain values.
fn scan_captures(
    frame: &Frame,
    ahead: &Ahead,
    idx: usize,
    squares: &[Square],
    work: &mut EntryScan,
) -> Result<(u8, u16), GenError> {
    let turn = frame.turn(idx);
    let mut flags = USED | LEAVES;
    let list = &mut work.moves;
    list.clear();
    let all = ahead.all();
    let _ = ahead.try_moves_of(squares, all, turn, |i, to, kind| {
        list.push((i, to, kind));
        ControlFlow::Continue(())
    });
    let hungry = list
        .iter()
        .filter(|m| m.2 == MoveKind::Capture)
        .fold(0, |set, m| set | 1 << m.0);
    let mut board = [Square::new(0, 0); Layout::MAX_PIECES];
    board[..squares.len()].copy_from_slice(squares);
    // The moves that can end the game first: a win in 1 is the best a move gives, and the
    // moves after one are not looked at (the entry is then no plain draw, so what the ban pass
    // asks of its moves does not matter).
    list.sort_by_key(|m| end_first(m.2));
    let mut top: Option<Value> = None;
    let seen = &mut work.seen;
    seen.clear();
    let next = &mut work.next;
    for &(i, to, kind) in list.iter() {
        if top == Some(Value::Win(1)) {
            break;
        }
        // A hungry animal may not enter the enemy den.
        if kind == MoveKind::DenEntry && hungry >> i & 1 != 0 {
            continue;
        }
        let (value, b_wins) = match ahead.play(&board, all, turn, hungry, i, to, kind, next) {
            Some(result) => (
                result.of_final_move(),
                (result == Wdl::Win) == (turn == frame.banned),
            ),
            None => {
                // Two moves lead to one position only where the animal moved starves (a hungry
                // one that does not capture): only those are looked for, and kept.
                let starves = kind != MoveKind::Capture && hungry >> i & 1 != 0;
                let known = seen
                    .iter()
                    .filter(|_| starves)
                    .find(|(s, _)| s.same(next))
                    .map(|&(_, v)| v);
                let value = match known {
                    Some(v) => v,
                    None => {
                        let v = ahead.value(next)?;
                        if starves {
                            seen.push((*next, v));
                        }
                        v
                    }
                };
                (
                    value.plain_part().back_one_ply(),
                    (value.wdl() == Wdl::Win) == (next.turn == frame.banned),
                )
            }
        };
        top = Some(top.map_or(value, |t| t.max(value)));
        flags |= if b_wins { B_WINS } else { U_WINS };
    }
    Ok((flags, top.map_or(OPEN, Value::code)))
}

/// The order in which an entry's moves are valued: den entries, then captures (among them the
/// capture of the last animal), then quiet moves, so that a win in 1, the best any move gives,
/// is mostly found before the others and they need not be looked at.
fn end_first(kind: MoveKind) -> u8 {
    match kind {
        MoveKind::DenEntry => 0,
        MoveKind::Capture | MoveKind::Trade => 1,
        MoveKind::Quiet => 2,
    }
}

/// The moves of every piece on the board.
struct Reach {
    rules: RuleSet,
    /// By piece (colour, then animal) and square, its steps and jumps: destination and the
    /// water a jump crosses.
    moves: Vec<Vec<(Square, SquareSet)>>,
    /// By piece and square, the squares its moves end on or jump over.
    touched: Vec<SquareSet>,
}

impl Reach {
    fn new(rules: RuleSet) -> Reach {
        check_board(rules);
        let board = rules.board();
        let mut moves = vec![Vec::new(); 16 * Square::LIMIT];
        for color in Color::ALL {
            for animal in Animal::ALL {
                let piece = Piece::new(color, animal);
                for sq in board.squares().filter(|&s| rules.may_enter(piece, s)) {
                    moves[Reach::slot(piece, sq)] = rules
                        .destinations(piece, sq)
                        .map(|(to, path)| (to, water(path)))
                        .collect();
                }
            }
        }
        let touched = moves
            .iter()
            .map(|m| m.iter().fold(0, |set, &(to, path)| set | bit(to) | path))
            .collect();
        Reach {
            rules,
            moves,
            touched,
        }
    }

    fn slot(piece: Piece, sq: Square) -> usize {
        (piece.color.index() * 8 + piece.animal as usize) * Square::LIMIT + sq.index()
    }

    /// Whether a move of `piece` from `from` ends on a square of `squares` or jumps over one.
    fn touches(&self, piece: Piece, from: Square, squares: SquareSet) -> bool {
        self.touched[Reach::slot(piece, from)] & squares != 0
    }
}

/// The pieces of a mask of pieces (a bit per piece in table order), in table order.
#[inline]
fn each(mask: u8) -> impl Iterator<Item = usize> {
    let mut rest = mask;
    std::iter::from_fn(move || {
        (rest != 0).then(|| {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            i
        })
    })
}

/// A position a move leads to, on the stack: the squares of the table's pieces, those still on
/// the board (a bit per piece in table order: a move keeps the pieces' order and takes some
/// away), the side to move, and its hungry set where it is not the canonical one.
#[derive(Clone, Copy)]
struct Next {
    squares: [Square; Layout::MAX_PIECES],
    alive: u8,
    turn: Color,
    /// The hungry set where it is not the canonical one: a bit per piece, as `alive`.
    hungry: Option<u8>,
}

impl Next {
    /// A position to play into ([`Ahead::play`]).
    const EMPTY: Next = Next {
        squares: [Square::new(0, 0); Layout::MAX_PIECES],
        alive: 0,
        turn: Color::Red,
        hungry: None,
    };

    /// Whether `other` is the same position.
    fn same(&self, other: &Next) -> bool {
        self.alive == other.alive
            && self.turn == other.turn
            && self.hungry == other.hungry
            && each(self.alive).all(|j| self.squares[j] == other.squares[j])
    }
}

impl Default for Next {
    fn default() -> Next {
        Next::EMPTY
    }
}

/// Playing moves of a table's positions and valuing the positions they lead to: the board's
/// moves, the table's pieces, the smaller tables by the pieces left, and the values found at
/// non-canonical hungry sets (shared by the threads).
struct Ahead<'a> {
    reach: &'a Reach,
    pieces: &'a [Piece],
    /// The pieces of each colour, a bit per piece.
    colors: [u8; 2],
    /// Per mask of pieces left: their material and its table, where present.
    tables: Vec<(Material, Option<&'a Solved>)>,
    cache: &'a Lookahead,
}

impl<'a> Ahead<'a> {
    fn new(frame: &'a Frame, subs: &'a SubTables) -> Ahead<'a> {
        let pieces = frame.layout.pieces();
        let mut colors = [0; 2];
        for (i, p) in pieces.iter().enumerate() {
            colors[p.color.index()] |= 1 << i;
        }
        let tables = (0..1u16 << pieces.len())
            .map(|mask| {
                let material: Material = each(mask as u8).map(|i| pieces[i]).collect();
                (material, subs.get(material).map(|t| &**t))
            })
            .collect();
        Ahead {
            reach: &frame.reach,
            pieces,
            colors,
            tables,
            cache: &frame.lookahead,
        }
    }

    /// The squares of the pieces of `alive`, and of those not of `color`.
    #[inline]
    fn occupancy(&self, squares: &[Square], alive: u8, color: Color) -> (SquareSet, SquareSet) {
        let fold = |mask: u8| each(mask).fold(0, |set, j| set | bit(squares[j]));
        (
            fold(alive),
            fold(alive & self.colors[color.other().index()]),
        )
    }

    /// The piece of `alive` on `sq`, an occupied square.
    #[inline]
    fn piece_on(squares: &[Square], alive: u8, sq: Square) -> usize {
        each(alive)
            .find(|&j| squares[j] == sq)
            .expect("an occupied square holds a piece")
    }

    /// All the table's pieces, a bit each.
    fn all(&self) -> u8 {
        self.colors[0] | self.colors[1]
    }

    /// Calls `f(i, to, kind)` with every move of `color`'s pieces (piece `i`) on the board of
    /// the pieces `alive` on `squares` that the board allows (hunger aside), as
    /// [`jtb_probe::for_each_move_of`] finds them, until `f` breaks.
    #[inline]
    fn try_moves_of(
        &self,
        squares: &[Square],
        alive: u8,
        color: Color,
        mut f: impl FnMut(usize, Square, MoveKind) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let (occupied, theirs) = self.occupancy(squares, alive, color);
        let enemy_den = self.reach.rules.board().den(color.other());
        for i in each(alive & self.colors[color.index()]) {
            let (piece, from) = (self.pieces[i], squares[i]);
            for &(to, path) in &self.reach.moves[Reach::slot(piece, from)] {
                // Only an opponent's animal blocks a Clesto jump.
                if path & theirs != 0 {
                    continue;
                }
                let kind = if occupied & bit(to) == 0 {
                    if Some(to) == enemy_den {
                        MoveKind::DenEntry
                    } else {
                        MoveKind::Quiet
                    }
                } else if theirs & bit(to) == 0 {
                    continue;
                } else {
                    let defender = self.pieces[Ahead::piece_on(squares, alive, to)];
                    if self
                        .reach
                        .rules
                        .capture(piece, from, defender, to)
                        .is_none()
                    {
                        continue;
                    }
                    MoveKind::Capture
                };
                f(i, to, kind)?;
            }
        }
        ControlFlow::Continue(())
    }

    /// Whether `color`, to move on the board of the pieces `alive` on `squares`, has a
    /// capture, and if not, whether it has a den entry.
    fn captures_or_den(&self, squares: &[Square], alive: u8, color: Color) -> (bool, bool) {
        let mut den = false;
        let capture = self
            .try_moves_of(squares, alive, color, |_, _, kind| {
                match kind {
                    MoveKind::Capture | MoveKind::Trade => return ControlFlow::Break(()),
                    MoveKind::DenEntry => den = true,
                    MoveKind::Quiet => {}
                }
                ControlFlow::Continue(())
            })
            .is_break();
        (capture, den && !capture)
    }

    /// Whether piece `i` has a legal capture on the board of the pieces `alive` on `squares`,
    /// where `theirs` are the squares of its opponent's pieces among them.
    fn has_capture(&self, squares: &[Square], alive: u8, theirs: SquareSet, i: usize) -> bool {
        let (piece, from) = (self.pieces[i], squares[i]);
        self.reach.moves[Reach::slot(piece, from)]
            .iter()
            .any(|&(to, path)| {
                // Only an opponent's animal blocks a Clesto jump.
                theirs & bit(to) != 0
                    && path & theirs == 0
                    && self
                        .reach
                        .rules
                        .capture(
                            piece,
                            from,
                            self.pieces[Ahead::piece_on(squares, alive, to)],
                            to,
                        )
                        .is_some()
            })
    }

    /// The pieces of `color` that have a legal capture on the board of the pieces `alive` on
    /// `squares`: its hungry set as a declaration gives it (RULES.md 6, "Hungry and starving" 1).
    fn captures_of(&self, squares: &[Square], alive: u8, color: Color) -> u8 {
        let mut hungry = 0;
        let _ = self.try_moves_of(squares, alive, color, |i, _, kind| {
            if kind == MoveKind::Capture {
                hungry |= 1 << i;
            }
            ControlFlow::Continue(())
        });
        hungry
    }

    /// Plays the move of piece `i` to `to` (of `kind`, legal) on the board of the pieces
    /// `alive` on `squares`, with `turn` to move and its hungry pieces `hungry`, as
    /// [`jtb_probe::Position::play`] does (RULES.md 6: the capture of the last animal wins
    /// first; then declare, then starve): the hungry sets found only where a starvation might
    /// change the opponent's captures. Returns the end of the game, with its result for the side
    /// that moved, or `None` with the position reached in `next` (filled in place: it is too
    /// large to return cheaply).
    #[allow(clippy::too_many_arguments)]
    fn play(
        &self,
        squares: &[Square; Layout::MAX_PIECES],
        alive: u8,
        turn: Color,
        hungry: u8,
        i: usize,
        to: Square,
        kind: MoveKind,
        next: &mut Next,
    ) -> Option<Wdl> {
        if kind == MoveKind::DenEntry {
            return Some(Wdl::Win);
        }
        let mut left = alive;
        let fed = if kind == MoveKind::Capture {
            left &= !(1 << Ahead::piece_on(squares, alive, to));
            1 << i
        } else {
            0
        };
        let theirs = self.colors[turn.other().index()];
        if left & theirs == 0 {
            // The opponent's last animal is taken: this wins before any starvation.
            return Some(Wdl::Win);
        }
        next.squares = *squares;
        next.squares[i] = to;
        next.turn = turn.other();
        next.hungry = None;
        next.alive = left;
        let starving = hungry & !fed;
        if starving == 0 {
            return None;
        }
        if left & !theirs & !starving == 0 {
            // The mover's starvation leaves it no animal.
            return Some(Wdl::Loss);
        }
        // The opponent's hunger was declared with the starving animals still there. Their
        // leaving changes an animal's captures only if one of its moves ends on a starving
        // animal (its target) or jumps over one (a swimmer that blocked it): only those animals
        // (`touched`) are looked at on both boards.
        let squares = &next.squares;
        let on = |mask: u8| each(mask).fold(0, |set, j| set | bit(squares[j]));
        let (gone, movers) = (on(starving), on(left & !theirs));
        let (mut touched, mut had) = (0u8, 0u8);
        for j in each(left & theirs) {
            if self.reach.touches(self.pieces[j], squares[j], gone) {
                touched |= 1 << j;
                if self.has_capture(squares, left, movers, j) {
                    had |= 1 << j;
                }
            }
        }
        let post = left & !starving;
        if touched != 0 {
            let has = each(touched)
                .filter(|&j| self.has_capture(squares, post, movers & !gone, j))
                .fold(0, |set, j| set | 1 << j);
            if has != had {
                // The declaration: as the board is now for the animals not touched.
                let declared = self.captures_of(squares, post, turn.other()) & !touched | had;
                next.hungry = Some(declared);
            }
        }
        next.alive = post;
        None
    }

    /// The value of `next` for its side to move: its table's entry at a canonical hungry set,
    /// else the best of its moves' values one move ahead ([`jtb_probe::value_by_lookahead`];
    /// each move again stays in its material at a canonical set, or leaves it).
    fn value(&self, next: &Next) -> Result<ClestoValue, GenError> {
        let (material, table) = self.tables[usize::from(next.alive)];
        let Some(hungry) = next.hungry else {
            let table = table.ok_or(GenError::MissingTable(material))?;
            let idx = entry_of(&table.layout, next);
            // The ban's code is read only for a plain draw (a plain value is the value).
            return Ok(match table.value(idx) {
                Value::Draw => table.clesto_value(idx),
                plain => ClestoValue::Plain(plain),
            });
        };
        // The key's hungry set: a bit per piece of the smaller table.
        let pieces = each(next.alive)
            .enumerate()
            .fold(0, |set, (at, j)| set | (hungry >> j & 1) << at);
        let key =
            table.and_then(|table| Lookahead::key(material, entry_of(&table.layout, next), pieces));
        if let Some(v) = key.and_then(|k| self.cache.get(k)) {
            return Ok(v);
        }
        let mover_is_banned = next.turn == banned_side(material);
        let mut moves = [(0, next.squares[0], MoveKind::Quiet); 64];
        let mut count = 0;
        let _ = self.try_moves_of(&next.squares, next.alive, next.turn, |i, to, kind| {
            // A hungry animal may not enter the enemy den.
            if kind != MoveKind::DenEntry || hungry >> i & 1 == 0 {
                moves[count] = (i, to, kind);
                count += 1;
            }
            ControlFlow::Continue(())
        });
        // As in the scan: the moves that can end the game first, and none after a win in 1.
        moves[..count].sort_by_key(|m| end_first(m.2));
        let mut best: Option<ClestoValue> = None;
        let mut after = Next::EMPTY;
        for &(i, to, kind) in &moves[..count] {
            if best == Some(ClestoValue::Plain(Value::Win(1))) {
                break;
            }
            let played = self.play(
                &next.squares,
                next.alive,
                next.turn,
                hungry,
                i,
                to,
                kind,
                &mut after,
            );
            let value = match played {
                Some(result) => ClestoValue::Plain(result.of_final_move()),
                None => self
                    .value(&after)?
                    .after_move(after.alive == next.alive, mover_is_banned),
            };
            best = Some(best.map_or(value, |b| b.max(value)));
        }
        let best = best.unwrap_or(ClestoValue::Plain(Value::Loss(0)));
        if let Some(k) = key {
            self.cache.put(k, best);
        }
        Ok(best)
    }
}

/// The entry of `next` in `layout`, its material's table (whose table order is that of the
/// pieces `next` has left).
#[inline]
fn entry_of(layout: &Layout, next: &Next) -> usize {
    let board = layout.rules().board();
    let first = next.squares[next.alive.trailing_zeros() as usize];
    let mirror = first.file() > (board.width - 1) / 2;
    let mut idx = next.turn.index() * layout.side_len();
    for (at, j) in each(next.alive).enumerate() {
        let sq = next.squares[j];
        let sq = if mirror { board.mirror_file(sq) } else { sq };
        let slot = layout
            .slot(at, sq)
            .expect("a legal placement of the table's material has an entry");
        idx += slot * layout.stride(at);
    }
    idx
}

/// Values of positions at non-canonical hungry sets, once found: the scan meets most of them
/// again from other entries. A direct-mapped table of words, each holding a whole key and its
/// value, so that threads share it without locks (a word is written whole, and a key has one
/// value). Keys are whole, so a word is never mistaken for another key's.
struct Lookahead {
    words: Vec<AtomicU64>,
    /// The words are 2^bits.
    bits: u32,
}

impl Lookahead {
    /// A table for the scan of `entries` entries: a word for every 8, between 2^10 and 2^20.
    fn new(entries: usize) -> Lookahead {
        let bits = (entries / 8).max(1).ilog2().clamp(10, 20);
        Lookahead {
            words: (0..1usize << bits).map(|_| AtomicU64::new(0)).collect(),
            bits,
        }
    }

    /// The key of the position of entry `idx` of `material`'s table with the hungry set
    /// `pieces` (a bit per piece in table order, which the mirror image keeps): 48 bits, never
    /// 0. `None` when it does not fit.
    fn key(material: Material, idx: usize, pieces: u8) -> Option<u64> {
        let sets = u64::from(material.set(Color::Red)) << 8 | u64::from(material.set(Color::Blue));
        (idx < 1 << 28 && pieces < 1 << 4)
            .then(|| sets << 32 | (idx as u64) << 4 | u64::from(pieces))
    }

    /// The word of `key`: its entry and hungry set in the low bits, so that the scan's
    /// neighbouring entries, whose successors are mostly neighbours too, read neighbouring
    /// words (a random word is a cache miss), the material hashed over them.
    fn slot(&self, key: u64) -> &AtomicU64 {
        let material = (key >> 32).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
        // Two words an entry (its hungry sets mixed in): four neighbouring entries share a
        // cache line.
        let (idx, pieces) = (key >> 4 & ((1 << 28) - 1), key & 15);
        &self.words[((idx << 1 ^ pieces ^ material) & ((1 << self.bits) - 1)) as usize]
    }

    fn get(&self, key: u64) -> Option<ClestoValue> {
        let word = self.slot(key).load(Ordering::Relaxed);
        (word >> 16 == key).then(|| Lookahead::decode(word as u16))
    }

    fn put(&self, key: u64, value: ClestoValue) {
        if let Some(code) = Lookahead::encode(value) {
            self.slot(key)
                .store(key << 16 | u64::from(code), Ordering::Relaxed);
        }
    }

    /// A value in 16 bits: its kind in the top 3, a value code or exit distance below (`None`
    /// past 13 bits).
    fn encode(value: ClestoValue) -> Option<u16> {
        let (kind, n) = match value {
            ClestoValue::Plain(v) => (0, v.code()),
            ClestoValue::BanWin { exit: Some(e) } => (1, e),
            ClestoValue::BanWin { exit: None } => (2, 0),
            ClestoValue::BanLoss { exit: Some(e) } => (3, e),
            ClestoValue::BanLoss { exit: None } => (4, 0),
        };
        (n < 1 << 13).then_some(kind << 13 | n)
    }

    fn decode(code: u16) -> ClestoValue {
        let n = code & ((1 << 13) - 1);
        match code >> 13 {
            0 => ClestoValue::Plain(Value::from_code(n).expect("an encoded value")),
            1 => ClestoValue::BanWin { exit: Some(n) },
            2 => ClestoValue::BanWin { exit: None },
            3 => ClestoValue::BanLoss { exit: Some(n) },
            _ => ClestoValue::BanLoss { exit: None },
        }
    }
}

/// The ban's resolution of the plain draws (RULES.md 6, values 3): the entries B wins, in
/// increasing order, with B's exit distance (the other plain draws U wins). Only the
/// plain draws are visited (a few percent of the entries).
fn solve_ban(frame: &Frame, flags: &[u8], plain: &Codes) -> Vec<(u32, u16)> {
    let n = frame.layout.len();
    // (An unused entry's code is not a draw's.)
    let draw_byte = u8::try_from(Value::Draw.code()).expect("a draw's code fits a byte");
    let draw = |i: usize| plain.byte(i) == Some(draw_byte);
    let b_moves = |i: usize| frame.turn(i) == frame.banned;
    let draws: Vec<u32> = (0..n.div_ceil(SCAN_CHUNK))
        .into_par_iter()
        .map(|c| {
            let range = c * SCAN_CHUNK..((c + 1) * SCAN_CHUNK).min(n);
            range
                .filter(|&i| draw(i))
                .map(|i| i as u32)
                .collect::<Vec<u32>>()
        })
        .collect::<Vec<Vec<u32>>>()
        .concat();
    // For U to move: its quiet moves into plain draws not yet known to be B's. (U's moves into
    // plain values of the material are B's plain wins: a plain draw of U has no move into a
    // position U wins.)
    let counts: Vec<u8> = draws
        .par_iter()
        .map(|&i| {
            let i = i as usize;
            if b_moves(i) || flags[i] & LEAVES != 0 {
                return 0;
            }
            let mut squares = [Square::new(0, 0); Layout::MAX_PIECES];
            let k = frame.squares(i, &mut squares);
            let mut count = 0;
            frame.for_each_successor(i, &squares[..k], |s| count += u8::from(draw(s)));
            count
        })
        .collect();
    let mut open = vec![0u8; n];
    let mut exit = vec![0u16; n];
    let mut frontier: Vec<u32> = Vec::new();
    for (&i, &count) in draws.iter().zip(&counts) {
        let i = i as usize;
        open[i] = count;
        let reached = if b_moves(i) {
            flags[i] & B_WINS != 0
        } else {
            flags[i] & U_WINS == 0 && count == 0
        };
        if reached {
            exit[i] = 1;
            frontier.push(i as u32);
        }
    }
    drop(counts);
    let mut squares = [Square::new(0, 0); Layout::MAX_PIECES];
    let mut distance = 1;
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for &s in &frontier {
            let s = s as usize;
            let k = frame.squares(s, &mut squares);
            frame.for_each_predecessor(s, &squares[..k], |p| {
                if !draw(p) || exit[p] != 0 || flags[p] & LEAVES != 0 {
                    return;
                }
                if b_moves(p) {
                    exit[p] = distance + 1;
                    next.push(p as u32);
                } else {
                    open[p] -= 1;
                    if open[p] == 0 && flags[p] & U_WINS == 0 {
                        exit[p] = distance + 1;
                        next.push(p as u32);
                    }
                }
            });
        }
        frontier = next;
        distance += 1;
    }
    draws
        .into_iter()
        .filter(|&i| exit[i as usize] != 0)
        .map(|i| (i, exit[i as usize]))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The moves back list exactly the moves forward, reversed, each as often: every entry
    /// with the first piece on the central file, jumps across both rivers, the leopard's
    /// sideways jump, swimmers.
    #[test]
    fn predecessors_are_the_successors_reversed() {
        for name in ["LRvE", "TDvP", "PvLR", "DvLT", "LvL"] {
            let material: Material = name.parse().unwrap();
            let layout = Layout::new(RuleSet::Clesto, material);
            let frame = Frame::new(&layout);
            let (mut forward, mut back) = (Vec::new(), Vec::new());
            layout.for_each_used_entry(|idx, squares| {
                frame.for_each_successor(idx, squares, |s| forward.push((s, idx)));
                frame.for_each_predecessor(idx, squares, |p| back.push((idx, p)));
                let mut decoded = [Square::new(0, 0); Layout::MAX_PIECES];
                let k = frame.squares(idx, &mut decoded);
                assert_eq!(&decoded[..k], squares, "{name} {idx}");
            });
            forward.sort_unstable();
            back.sort_unstable();
            assert!(forward.len() > 5_000, "{name}: {}", forward.len());
            assert!(forward == back, "{name}");
        }
    }

    /// A run's moves counted once ([`OuterMoves`]) give every entry what its own moves give
    /// (whether it has a capture, else whether a den entry): swimmers, jumps blocked by swimmers, captures across the shore, 3v1 and 1v3.
    #[test]
    fn moves_counted_per_run_are_the_entries_moves() {
        for name in ["LRvE", "TDvP", "DRvCR", "LDvTR", "LCRvE", "EvDCR", "PWvLT"] {
            let material: Material = name.parse().unwrap();
            let layout = Layout::new(RuleSet::Clesto, material);
            let frame = Frame::new(&layout);
            let subs = SubTables::new();
            let ahead = Ahead::new(&frame, &subs);
            let k = layout.pieces().len();
            let run = layout.domain(k - 1).len();
            let mut outer = OuterMoves::default();
            // Entries without a capture, with one, and with a den entry.
            let mut seen = [0usize; 3];
            let mut prepared = usize::MAX;
            layout.for_each_used_entry(|idx, squares| {
                let turn = frame.turn(idx);
                if idx / run != prepared {
                    prepared = idx / run;
                    assert!(outer.prepare(&frame, turn, &squares[..k - 1]));
                }
                let expected = ahead.captures_or_den(squares, ahead.all(), turn);
                assert_eq!(outer.entry(&frame, squares), expected, "{name} {idx}");
                seen[usize::from(expected.0)] += 1;
                seen[2] += usize::from(expected.1);
            });
            assert!(
                seen[0] > 1000 && seen[1] > 1000 && seen[2] > 100,
                "{name}: {seen:?}"
            );
        }
    }

    /// The values kept for non-canonical hungry sets come back as they went in.
    #[test]
    fn lookahead_words_round_trip() {
        let cache = Lookahead::new(1 << 20);
        let m: Material = "LRvE".parse().unwrap();
        let values = [
            ClestoValue::Plain(Value::Win(7)),
            ClestoValue::Plain(Value::Loss(0)),
            ClestoValue::Plain(Value::Draw),
            ClestoValue::BanWin { exit: Some(3) },
            ClestoValue::BanWin { exit: None },
            ClestoValue::BanLoss { exit: Some(12) },
            ClestoValue::BanLoss { exit: None },
        ];
        for (i, &v) in values.iter().enumerate() {
            let key = Lookahead::key(m, 1000 + i, 0b101).unwrap();
            assert_eq!(cache.get(key), None);
            cache.put(key, v);
            assert_eq!(cache.get(key), Some(v));
        }
        // A distance past 13 bits is not kept.
        let key = Lookahead::key(m, 5, 1).unwrap();
        cache.put(key, ClestoValue::Plain(Value::Win(5000)));
        assert_eq!(cache.get(key), None);
        assert_eq!(Lookahead::key(m, 1 << 28, 1), None);
    }
}
