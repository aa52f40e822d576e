//! Retrograde analysis of one material, level by level in increasing distance to mate.
//!
//! Positions are grouped in words of 64: every piece but the last (the *outer* pieces) is fixed
//! by the word's *configuration*, and the last piece (the *inner* piece) takes the square of the
//! bit. A move of the inner piece is then a shift inside a word, and a move of an outer piece
//! maps a word to another word.
//!
//! Moves that leave the table (den entries, captures and trades into smaller tables) are
//! settled before the first level ([`Captures`]): each position gets the shortest win and the
//! longest loss such a move brings, or a mark that one of them escapes to a draw. Level `n`
//! then finds
//! * wins in `n`: a quiet move into a loss in `n - 1`, or a capture worth a win in `n`;
//! * losses in `n`: no quiet move into anything but a win found before level `n`, no capture
//!   that wins or draws, and no capture loss longer than `n`.
//!
//! The first level at which a position qualifies is its distance (RULES.md section 3). The
//! loop stops once a level finds nothing and no capture distance is still to come; what is left
//! is a draw.
//!
//! Level 0 examines every configuration; later levels only the *frontier* ([`Frontier`]),
//! found by moving pieces back from what the other side resolved at the level before: wins
//! are pushed back from its losses, exactly; configurations with an open position that can move
//! into one of its new wins, or where a capture distance falls due (a calendar kept per side),
//! are examined for losses. Nothing else can change, so a level costs what it resolves and its
//! predecessors, and the whole solve grows with the entries and their moves rather than with
//! the longest distance.
//!
//! The same machinery solves both metrics ([`crate::Metric`]): distance to mate, where a capture is
//! worth the smaller table's value one ply further, and distance to conversion (the clock rule,
//! RULES.md section 5), where every capture or trade is worth the smaller position's rule value
//! at clock 0, one ply away.
//!
//! A game whose moves that leave the table are valued elsewhere gives them per entry
//! ([`solve_with_exits`]): Clesto's plain values, where the scan values the moves of a mover
//! with a capture, all of which leave the material (such an entry has no quiet move here).

use jtb_probe::{Board, Capture, Color, Layout, Material, Piece, RuleSet, Square, Value};
use rayon::prelude::*;
use std::{
    ops::ControlFlow,
    sync::atomic::{AtomicU64, Ordering},
};

use crate::{
    bits::{ones, Bits},
    core::memory::zeroed,
    Codes, GenError, Metric, Solved, SubTables, UNUSED,
};

/// The longest distance the solver counts: a loss in `d` is stored as the code `2d + 2`, which
/// must fit a `u16`.
const MAX_LEVEL: u16 = (u16::MAX - 2) / 2;

/// The fewest configurations a parallel task of a level takes: most levels are small, and
/// tables of one piece count are solved in parallel anyway.
const MIN_CONFIGS_PER_TASK: usize = 256;

/// The most entries of a table whose two metrics are solved at once (every 4-piece table
/// has fewer; the largest need about 30 MiB more so).
pub(crate) const BOTH_METRICS_AT_ONCE: usize = 1 << 24;

/// Capture marks: `ESCAPE` in the loss byte means a capture wins or draws.
const ESCAPE: u8 = u8::MAX;
const NONE: u8 = 0;

/// A destination of a piece from a square: a step or a river jump.
#[derive(Debug, Clone, Copy)]
struct Target {
    to: Square,
    /// `to` as a dense bitboard.
    to_bit: u64,
    /// Water crossed by a jump, as a dense bitboard (empty for a step).
    path_bits: u64,
    /// Whether `to` is the enemy den.
    den: bool,
    /// For an outer piece, what the move adds to the configuration index; `None` when `to` is
    /// outside the piece's domain (the first piece leaving its half of the board).
    config_delta: Option<isize>,
    /// Where `config_delta` is `None`: what the move adds to the configuration with the other
    /// pieces mirrored ([`Frame::mirror_others`]) to give the stored, mirrored configuration.
    mirror_delta: isize,
}

/// Every destination of `piece` from every square, by [`Square::index`].
fn targets(rules: RuleSet, bits: &Bits, piece: Piece) -> Vec<Vec<Target>> {
    let board = rules.board();
    let enemy_den = board.den(piece.color.other());
    let mut all = vec![Vec::new(); Square::LIMIT];
    for from in board.squares().filter(|&s| rules.may_enter(piece, s)) {
        for (to, path) in rules.destinations(piece, from) {
            all[from.index()].push(Target {
                to,
                to_bit: 1 << bits.bit(to),
                path_bits: bits.of_set(path),
                den: Some(to) == enemy_den,
                config_delta: None,
                mirror_delta: 0,
            });
        }
    }
    all
}

/// A quiet move of an outer piece, from one configuration to another.
#[derive(Debug, Clone, Copy)]
struct OuterMove {
    /// The configuration reached.
    config: usize,
    /// Whether it is stored mirrored (the first piece left its half of the board).
    mirrored: bool,
    /// Water crossed, as a dense bitboard, where the inner piece would block the move there
    /// (empty where it would not).
    path_bits: u64,
    /// The piece moved (its place among the outer pieces) and its destination.
    piece: usize,
    to: Square,
}

/// Everything about the material that does not change during the solve.
struct Frame<'a> {
    rules: RuleSet,
    board: &'static Board,
    layout: &'a Layout,
    bits: Bits,
    /// Outer pieces, in table order; then the inner piece.
    outer: Vec<Piece>,
    inner: Piece,
    n_outer: usize,
    n_inner: usize,
    /// The outer squares of each configuration (`n_outer * outer.len()`).
    config_squares: Vec<Square>,
    /// Per configuration, the inner squares that make a legal position.
    legal: Vec<u64>,
    /// Per configuration, the configuration with every outer piece but the first mirrored
    /// across the central file (the whole mirror image where the first stands on the axis).
    mirror_others: Vec<u32>,
    /// Dense bit of the inner piece -> its slot.
    inner_slot: [u8; 64],
    outer_targets: Vec<Vec<Vec<Target>>>,
    /// By the dense bit of a square, the inner piece's moves onto it: dense from-bit and move.
    inner_sources: Vec<Vec<(u32, Target)>>,
    /// The inner piece's river jumps: dense from-bit, dense to-bit, water crossed.
    inner_jumps: Vec<(u64, u64, u64)>,
    /// The squares the inner piece can jump to.
    inner_jump_targets: u64,
    /// Per outer piece and colour of a jumper, whether the piece blocks its jumps where it
    /// stands in their water ([`RuleSet::blocks_jump`]).
    outer_blocks: Vec<[bool; 2]>,
    /// Per colour of a jumper, whether the inner piece blocks its jumps.
    inner_blocks: [bool; 2],
}

impl<'a> Frame<'a> {
    fn new(layout: &'a Layout) -> Frame<'a> {
        let rules = layout.rules();
        let board = rules.board();
        let bits = Bits::new(board);
        let k = layout.pieces().len();
        let outer = layout.pieces()[..k - 1].to_vec();
        let inner = layout.pieces()[k - 1];
        let n_inner = layout.domain(k - 1).len();
        let n_outer = layout.side_len() / n_inner;
        let ostride: Vec<usize> = (0..k - 1).map(|i| layout.stride(i) / n_inner).collect();
        let mut inner_slot = [u8::MAX; 64];
        let mut domain_bits = 0u64;
        for (slot, &sq) in layout.domain(k - 1).iter().enumerate() {
            inner_slot[bits.bit(sq) as usize] = slot as u8;
            domain_bits |= 1 << bits.bit(sq);
        }
        let mut config_squares = Vec::with_capacity(n_outer * (k - 1));
        let mut legal = Vec::with_capacity(n_outer);
        for o in 0..n_outer {
            let mut occupied = 0u64;
            let mut ok = true;
            for (i, &st) in ostride.iter().enumerate() {
                let sq = layout.domain(i)[(o / st) % layout.domain(i).len()];
                let b = 1u64 << bits.bit(sq);
                ok &= occupied & b == 0;
                occupied |= b;
                config_squares.push(sq);
            }
            legal.push(if ok { domain_bits & !occupied } else { 0 });
        }
        let outer_targets = outer
            .iter()
            .enumerate()
            .map(|(j, &p)| {
                let mut all = targets(rules, &bits, p);
                for from in board.squares() {
                    let Some(from_slot) = layout.slot(j, from) else {
                        continue;
                    };
                    let delta = |to_slot: usize| {
                        (to_slot as isize - from_slot as isize) * ostride[j] as isize
                    };
                    for t in &mut all[from.index()] {
                        t.config_delta = layout.slot(j, t.to).map(delta);
                        if t.config_delta.is_none() {
                            // (The enemy den has no image in the domain: it is no quiet move.)
                            let image = layout.slot(j, board.mirror_file(t.to));
                            t.mirror_delta = image.map_or(0, delta);
                        }
                    }
                }
                all
            })
            .collect();
        let mirror_others = (0..n_outer)
            .map(|o| {
                let sq = &config_squares[o * (k - 1)..(o + 1) * (k - 1)];
                let first = layout.slot(0, sq[0]).expect("square in domain") * ostride[0];
                let others: usize = (1..k - 1)
                    .map(|i| {
                        let image = board.mirror_file(sq[i]);
                        layout.slot(i, image).expect("square in domain") * ostride[i]
                    })
                    .sum();
                u32::try_from(first + others).expect("configurations fit 32 bits")
            })
            .collect();
        let inner_targets = targets(rules, &bits, inner);
        let mut inner_sources = vec![Vec::new(); 64];
        for x in board.squares() {
            for t in &inner_targets[x.index()] {
                inner_sources[bits.bit(t.to) as usize].push((bits.bit(x), *t));
            }
        }
        let inner_jumps: Vec<(u64, u64, u64)> = board
            .squares()
            .flat_map(|x| inner_targets[x.index()].iter().map(move |t| (x, t)))
            .filter(|(_, t)| t.path_bits != 0)
            .map(|(x, t)| (1u64 << bits.bit(x), t.to_bit, t.path_bits))
            .collect();
        let inner_jump_targets = inner_jumps.iter().fold(0, |all, &(_, to, _)| all | to);
        let blocks = |p: Piece| Color::ALL.map(|jumper| rules.blocks_jump(p.color, jumper));
        Frame {
            outer_blocks: outer.iter().map(|&p| blocks(p)).collect(),
            inner_blocks: blocks(inner),
            rules,
            board,
            layout,
            bits,
            outer,
            inner,
            n_outer,
            n_inner,
            config_squares,
            legal,
            mirror_others,
            inner_slot,
            outer_targets,
            inner_sources,
            inner_jumps,
            inner_jump_targets,
        }
    }

    fn squares(&self, o: usize) -> &[Square] {
        let k = self.outer.len();
        &self.config_squares[o * k..(o + 1) * k]
    }

    /// The configuration reached from `o` when outer piece `j` moves by `t`, and whether it is
    /// stored mirrored (the first piece left its half of the board).
    #[inline]
    fn moved(&self, o: usize, j: usize, t: &Target) -> (usize, bool) {
        match t.config_delta {
            Some(delta) => (o.wrapping_add_signed(delta), false),
            // The first piece left its half: mirror the others and put it on the image of `to`.
            None => {
                debug_assert_eq!(j, 0);
                let others = self.mirror_others[o] as usize;
                (others.wrapping_add_signed(t.mirror_delta), true)
            }
        }
    }

    /// The squares of the outer pieces of configuration `o`, as a dense bitboard.
    #[inline]
    fn occupied(&self, o: usize) -> u64 {
        self.squares(o)
            .iter()
            .fold(0, |occ, &s| occ | 1 << self.bits.bit(s))
    }

    /// The squares of the outer pieces of configuration `o`, and those among them that block a
    /// jump of `jumper` where they stand in its water: all of them in Jungle, only the other
    /// side's in Clesto. One pass over the squares.
    #[inline]
    fn occupancy(&self, o: usize, jumper: Color) -> (u64, u64) {
        self.squares(o).iter().zip(&self.outer_blocks).fold(
            (0, 0),
            |(occupied, blockers), (&s, blocks)| {
                let b = 1 << self.bits.bit(s);
                let blocks = if blocks[jumper.index()] { b } else { 0 };
                (occupied | b, blockers | blocks)
            },
        )
    }

    /// Every quiet move of `mover`'s outer pieces from configuration `o`, until `f` breaks.
    /// Water crossings are not checked against the inner piece (the caller masks them out with
    /// [`OuterMove::path_bits`]).
    #[inline]
    fn outer_quiet_moves(
        &self,
        mover: Color,
        o: usize,
        mut f: impl FnMut(OuterMove) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let sq = self.squares(o);
        let (occupied, blockers) = self.occupancy(o, mover);
        let inner_blocks = self.inner_blocks[mover.index()];
        for (j, piece) in self.outer.iter().enumerate() {
            if piece.color != mover {
                continue;
            }
            for t in &self.outer_targets[j][sq[j].index()] {
                if t.den || t.to_bit & occupied != 0 || t.path_bits & blockers != 0 {
                    continue;
                }
                let (config, mirrored) = self.moved(o, j, t);
                f(OuterMove {
                    config,
                    mirrored,
                    path_bits: if inner_blocks { t.path_bits } else { 0 },
                    piece: j,
                    to: t.to,
                })?;
            }
        }
        ControlFlow::Continue(())
    }

    /// The squares from which the inner piece reaches one of `to` by a quiet move (a step, or a
    /// jump over water the outer pieces of configuration `o` leave free), as a dense bitboard.
    #[inline]
    fn inner_sources_of(&self, o: usize, to: u64) -> u64 {
        let mut from = self.bits.step_sources(to);
        if to & self.inner_jump_targets != 0 {
            let (_, blockers) = self.occupancy(o, self.inner.color);
            for &(source, target, path) in &self.inner_jumps {
                if to & target != 0 && path & blockers == 0 {
                    from |= source;
                }
            }
        }
        from
    }

    /// Every configuration holding a position of `mover` to move with a quiet move into one of
    /// the positions `changed` of configuration `o`, with the positions that have one (where
    /// legal; some configurations come twice).
    ///
    /// Moves are reversible: the way back from `o` leads to the predecessor, or to its mirror
    /// image when the predecessor's first piece stands on the mirror axis (both are stored).
    /// An outer piece's move leaves the inner piece where it is (mirrored with the board).
    #[inline]
    fn predecessor_configs(
        &self,
        mover: Color,
        o: usize,
        changed: u64,
        mut f: impl FnMut(usize, u64),
    ) {
        let sq = self.squares(o);
        if self.inner.color == mover {
            f(o, self.inner_sources_of(o, changed));
        }
        let _ = self.outer_quiet_moves(mover, o, |m| {
            // The inner piece must not stand on the water crossed.
            let at = changed & !m.path_bits;
            let at = if m.mirrored { self.bits.mirror(at) } else { at };
            f(m.config, at);
            // A configuration stored mirrored has its first piece off the axis.
            let first = if m.piece == 0 { m.to } else { sq[0] };
            if !m.mirrored && self.layout.on_mirror_axis(&[first]) {
                f(self.mirror_others[m.config] as usize, self.bits.mirror(at));
            }
            ControlFlow::Continue(())
        });
    }

    /// The positions of `mover` to move in configuration `o` that have a quiet move into a
    /// position the other side has not (yet) won, as far as `need` goes: the answer is exact
    /// on `need` and may hold more. It stops looking once all of `need` has one.
    #[inline]
    fn escapes(&self, mover: Color, o: usize, them: &SideState, need: u64) -> u64 {
        let mut found = 0u64;
        if self.inner.color == mover {
            found |= self.inner_sources_of(o, them.non_win[o]);
        }
        if need & !found == 0 {
            return found;
        }
        let _ = self.outer_quiet_moves(mover, o, |m| {
            let non_win = them.non_win[m.config];
            let non_win = if m.mirrored {
                self.bits.mirror(non_win)
            } else {
                non_win
            };
            found |= non_win & !m.path_bits;
            if need & !found == 0 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        found
    }
}

/// The moves that leave the table, for one metric and one side to move: per position, the
/// shortest capture win and the longest capture loss (or an escape: a capture that wins or
/// draws).
struct Captures {
    /// Per configuration, the positions with a capture win.
    win_any: Vec<u64>,
    /// Per configuration, the positions with a capture loss or an escape.
    loss_any: Vec<u64>,
    distances: Distances,
    /// Per configuration, the positions whose every move leaves the table (a Clesto mover
    /// with a capture: [`Exits::Only`]); empty where there are none.
    stuck: Vec<u64>,
}

/// The moves of an entry that leave its table, valued by the caller ([`solve_with_exits`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Exits {
    /// None: the entry has quiet moves only (or no move at all).
    None,
    /// Beside the quiet moves, some that leave the table, the best of them worth this (a den
    /// entry: a win in 1).
    Beside(Value),
    /// Every move leaves the table, the best worth this (a loss in 0: there is no move).
    Only(Value),
}

/// How far the captures of a metric reach.
enum Distances {
    /// Per position (64 per configuration), in plies: where it has a capture win
    /// ([`Captures::win_any`]), the shortest; else the longest capture loss ([`ESCAPE`]: a
    /// capture draws); 0 where there is none. Distance to mate. One byte a position: a
    /// position with a capture win never loses, so its loss distance is never asked.
    Plies { dist: Vec<u8> },
    /// Every capture is decided in one ply: distance to conversion, where a capture is worth
    /// the smaller position's rule value at once. Per configuration, the positions with an
    /// escape. A byte a position would take the whole solve.
    OnePly { escape: Vec<u64> },
}

impl Captures {
    /// The captures with `mover` to move in both metrics (distance to mate, distance to
    /// conversion), from one pass over the moves that leave the table.
    ///
    /// # Panics
    /// If a capture is worth more than one ply in distance to conversion (it never is: a
    /// capture converts at once).
    fn compute(
        frame: &Frame<'_>,
        subs: &SubTables,
        mover: Color,
    ) -> Result<[Captures; 2], GenError> {
        let n = frame.n_outer;
        let (mut win, mut loss): (Vec<u8>, Vec<u8>) = (zeroed(n * 64), zeroed(n * 64));
        // Distance to conversion: (win_any, loss_any, escape) per configuration.
        let mut one_ply: Vec<[u64; 3]> = zeroed(n);
        win.par_chunks_mut(64)
            .zip(loss.par_chunks_mut(64))
            .zip(one_ply.par_iter_mut())
            .enumerate()
            .try_for_each(|(o, ((dtm_win, dtm_loss), dtc))| {
                let (mut dtc_win, mut dtc_loss) = ([NONE; 64], [NONE; 64]);
                let bytes = [(dtm_win, dtm_loss), (&mut dtc_win[..], &mut dtc_loss[..])];
                captures_of(frame, subs, mover, o, bytes)?;
                let (win_any, loss_any) = (nonzero(&dtc_win), nonzero(&dtc_loss));
                let escape = bytes16_where(&dtc_loss, ESCAPE, Compare::Equal);
                let one = bytes16_where(&dtc_loss, 1, Compare::Equal);
                assert!(
                    win_any == bytes16_where(&dtc_win, 1, Compare::Equal)
                        && loss_any == escape | one,
                    "a capture decides the distance to conversion in one ply"
                );
                *dtc = [win_any, loss_any, escape];
                Ok::<_, GenError>(())
            })?;
        let dtm = Captures::plies(win, loss, Vec::new());
        let field = |i: usize| one_ply.par_iter().map(|bits| bits[i]).collect();
        let dtc = Captures {
            win_any: field(0),
            loss_any: field(1),
            distances: Distances::OnePly { escape: field(2) },
            stuck: Vec::new(),
        };
        Ok([dtm, dtc])
    }

    /// The exits with `mover` to move as `exits` gives them per entry, in distance to mate.
    fn given(
        frame: &Frame<'_>,
        mover: Color,
        exits: &(impl Fn(usize) -> Exits + Sync),
    ) -> Result<Captures, GenError> {
        let n = frame.n_outer;
        let material = frame.layout.material();
        let first = mover.index() * frame.layout.side_len();
        let (mut win, mut loss): (Vec<u8>, Vec<u8>) = (zeroed(n * 64), zeroed(n * 64));
        let mut stuck: Vec<u64> = zeroed(n);
        win.par_chunks_mut(64)
            .zip(loss.par_chunks_mut(64))
            .zip(stuck.par_iter_mut())
            .enumerate()
            .try_for_each(|(o, ((win, loss), stuck))| {
                for b in ones(frame.legal[o]) {
                    let slot = usize::from(frame.inner_slot[b as usize]);
                    let (w, l) = (&mut win[b as usize], &mut loss[b as usize]);
                    match exits(first + o * frame.n_inner + slot) {
                        Exits::None => {}
                        Exits::Beside(v) => note(material, v, w, l)?,
                        Exits::Only(v) => {
                            note(material, v, w, l)?;
                            *stuck |= 1 << b;
                        }
                    }
                    if *w != NONE {
                        *l = ESCAPE;
                    }
                }
                Ok::<_, GenError>(())
            })?;
        Ok(Captures::plies(win, loss, stuck))
    }

    /// Distance-to-mate captures from their win and loss bytes (64 per configuration) and the
    /// positions that have no quiet move.
    fn plies(mut win: Vec<u8>, loss: Vec<u8>, stuck: Vec<u64>) -> Captures {
        let any = |bytes: &[u8]| {
            bytes
                .par_chunks_exact(64)
                .map(|c| nonzero(c.try_into().expect("64 bytes")))
                .collect()
        };
        let (win_any, loss_any) = (any(&win), any(&loss));
        drop(loss_into_wins(&mut win, loss));
        Captures {
            win_any,
            loss_any,
            distances: Distances::Plies { dist: win },
            stuck,
        }
    }

    /// The positions of configuration `o` that have no quiet move ([`Captures::stuck`]).
    #[inline]
    fn stuck(&self, o: usize) -> u64 {
        self.stuck.get(o).copied().unwrap_or(0)
    }

    /// The positions of configuration `o` whose capture win falls at `level` (where they
    /// have one).
    #[inline]
    fn wins_at(&self, o: usize, level: u16) -> u64 {
        match &self.distances {
            Distances::Plies { dist } => mask_equal(bytes_of(dist, o), level) & self.win_any[o],
            Distances::OnePly { .. } => {
                if level == 1 {
                    self.win_any[o]
                } else {
                    0
                }
            }
        }
    }

    /// The positions of configuration `o` that a capture keeps from losing at `level`: a
    /// capture loss longer than `level`, or an escape.
    #[inline]
    fn blocks(&self, o: usize, level: u16) -> u64 {
        match &self.distances {
            // A capture win blocks a loss at every level, as an escape does.
            Distances::Plies { dist } => mask_above(bytes_of(dist, o), level) | self.win_any[o],
            Distances::OnePly { escape } => {
                if level == 0 {
                    self.loss_any[o]
                } else {
                    escape[o]
                }
            }
        }
    }

    /// The first level after `level` at which a capture decides one of the positions `wins`
    /// (capture wins) or `waiting` (held off a loss only by a capture loss) of configuration
    /// `o`; 0 if none does.
    #[inline]
    fn next_due(&self, o: usize, wins: u64, waiting: u64, level: u16) -> u8 {
        match &self.distances {
            Distances::Plies { dist } => {
                let dist = bytes_of(dist, o);
                let win_due = ones(wins & self.win_any[o]).map(|b| dist[b as usize]);
                let loss_due = ones(waiting & !self.win_any[o])
                    .map(|b| dist[b as usize])
                    .filter(|&d| d != ESCAPE);
                win_due
                    .chain(loss_due)
                    .filter(|&d| u16::from(d) > level)
                    .min()
                    .unwrap_or(0)
            }
            Distances::OnePly { escape } => {
                let due = wins | (waiting & !escape[o]) != 0;
                u8::from(level == 0 && due)
            }
        }
    }
}

/// Puts the capture loss bytes into the win bytes where there is no capture win
/// ([`Distances::Plies`]), in parallel; returns the loss bytes, to be dropped.
fn loss_into_wins(win: &mut [u8], loss: Vec<u8>) -> Vec<u8> {
    win.par_chunks_mut(1 << 16)
        .zip(loss.par_chunks(1 << 16))
        .for_each(|(w, l)| {
            for (w, &l) in w.iter_mut().zip(l) {
                if *w == NONE {
                    *w = l;
                }
            }
        });
    loss
}

/// The 64 bytes of configuration `o`.
#[inline]
fn bytes_of(bytes: &[u8], o: usize) -> &[u8; 64] {
    bytes[o * 64..(o + 1) * 64].try_into().expect("64 bytes")
}

/// The bits of the 64 bytes that are not [`NONE`].
#[inline]
fn nonzero(bytes: &[u8; 64]) -> u64 {
    !bytes16_where(bytes, NONE, Compare::Equal)
}

/// The bits of the 64 bytes that satisfy `f` (the plain loop the byte compares are tested
/// against).
#[cfg(test)]
fn mask(bytes: &[u8], f: impl Fn(u8) -> bool) -> u64 {
    bytes
        .iter()
        .enumerate()
        .fold(0, |m, (i, &b)| m | (u64::from(f(b)) << i))
}

/// The bits of the 64 bytes equal to `level`: [`mask`] with a compare of 16 bytes at a time,
/// for the levels' inner loop.
#[inline]
fn mask_equal(bytes: &[u8; 64], level: u16) -> u64 {
    match u8::try_from(level) {
        Ok(v) => bytes16_where(bytes, v, Compare::Equal),
        Err(_) => 0,
    }
}

/// The bits of the 64 bytes above `level`, as [`mask_equal`].
#[inline]
fn mask_above(bytes: &[u8; 64], level: u16) -> u64 {
    match u8::try_from(level) {
        Ok(u8::MAX) | Err(_) => 0,
        Ok(v) => bytes16_where(bytes, v + 1, Compare::AtLeast),
    }
}

#[derive(Clone, Copy)]
enum Compare {
    Equal,
    AtLeast,
}

#[cfg(target_arch = "x86_64")]
#[inline]
fn bytes16_where(bytes: &[u8; 64], v: u8, compare: Compare) -> u64 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_max_epu8, _mm_movemask_epi8, _mm_set1_epi8,
    };
    let mut m = 0u64;
    for (i, chunk) in bytes.chunks_exact(16).enumerate() {
        // Safety: SSE2 is part of the x86_64 baseline, and `chunk` holds 16 bytes to read (the
        // load needs no alignment).
        let bits = unsafe {
            let x = _mm_loadu_si128(chunk.as_ptr().cast::<__m128i>());
            let t = _mm_set1_epi8(v as i8);
            let hit = match compare {
                Compare::Equal => _mm_cmpeq_epi8(x, t),
                // x >= t exactly when max(x, t) == x, unsigned.
                Compare::AtLeast => _mm_cmpeq_epi8(_mm_max_epu8(x, t), x),
            };
            _mm_movemask_epi8(hit) as u16
        };
        m |= u64::from(bits) << (16 * i);
    }
    m
}

#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn bytes16_where(bytes: &[u8; 64], v: u8, compare: Compare) -> u64 {
    match compare {
        Compare::Equal => mask(bytes, |b| b == v),
        Compare::AtLeast => mask(bytes, |b| b >= v),
    }
}

/// Records that a move is worth `value` to the mover.
fn note(material: Material, value: Value, win: &mut u8, loss: &mut u8) -> Result<(), GenError> {
    let dist = |d: u16| {
        u8::try_from(d)
            .ok()
            .filter(|&d| d < ESCAPE)
            .ok_or_else(|| GenError::DistanceOverflow(material, d.into()))
    };
    match value {
        Value::Win(d) => {
            let d = dist(d)?;
            *win = if *win == NONE { d } else { (*win).min(d) };
        }
        Value::Draw => *loss = ESCAPE,
        Value::Loss(d) => {
            let d = dist(d)?;
            if *loss != ESCAPE {
                *loss = (*loss).max(d);
            }
        }
    }
    Ok(())
}

/// Fills the capture bytes (win, loss) of configuration `o` with `mover` to move, of both
/// metrics.
fn captures_of(
    frame: &Frame<'_>,
    subs: &SubTables,
    mover: Color,
    o: usize,
    bytes: [(&mut [u8], &mut [u8]); 2],
) -> Result<(), GenError> {
    let legal = frame.legal[o];
    if legal == 0 {
        return Ok(());
    }
    let mut scan = CaptureScan {
        frame,
        subs,
        mover,
        sq: frame.squares(o),
        occupied: frame.occupied(o),
        legal,
        bytes,
        placed: [(frame.inner, Square::new(0, 0)); Layout::MAX_PIECES],
    };
    scan.outer_moves()?;
    if frame.inner.color == mover {
        scan.inner_moves()?;
    }
    for (win, loss) in scan.bytes {
        for (w, l) in win.iter().zip(loss.iter_mut()) {
            if *w != NONE {
                *l = ESCAPE;
            }
        }
    }
    Ok(())
}

/// The moves that leave the table from one configuration, and what they are worth.
struct CaptureScan<'a, 'b> {
    frame: &'a Frame<'a>,
    subs: &'a SubTables,
    mover: Color,
    /// The outer pieces' squares, and as a dense bitboard.
    sq: &'a [Square],
    occupied: u64,
    /// The inner squares that make legal positions.
    legal: u64,
    /// Per metric, the win and loss bytes of the configuration's 64 positions.
    bytes: [(&'b mut [u8], &'b mut [u8]); 2],
    /// Scratch: the placement after a capture.
    placed: [(Piece, Square); Layout::MAX_PIECES],
}

impl CaptureScan<'_, '_> {
    /// The worth in both metrics of a capture that leaves the outer pieces with `moved` moved
    /// and `gone` taken, and the inner piece on `inner_at` (`None`: taken).
    fn after(
        &mut self,
        moved: Option<(usize, Square)>,
        gone: &[usize],
        inner_at: Option<Square>,
    ) -> Result<[Value; 2], GenError> {
        let mut n = self.place_outer(moved, gone);
        if let Some(s) = inner_at {
            self.placed[n] = (self.frame.inner, s);
            n += 1;
        }
        self.subs.exit_values(self.mover.other(), &self.placed[..n])
    }

    /// Puts the outer pieces into `placed` as a capture leaves them (`moved` moved, `gone`
    /// taken); returns how many there are.
    fn place_outer(&mut self, moved: Option<(usize, Square)>, gone: &[usize]) -> usize {
        let mut n = 0;
        for (i, (&p, &s)) in self.frame.outer.iter().zip(self.sq).enumerate() {
            if gone.contains(&i) {
                continue;
            }
            let s = match moved {
                Some((j, to)) if j == i => to,
                _ => s,
            };
            self.placed[n] = (p, s);
            n += 1;
        }
        n
    }

    /// Notes the worth of a capture between outer pieces (`moved` moved, `gone` taken) in the
    /// positions `at`, where the inner piece stays on its square.
    fn record_outer_capture(
        &mut self,
        moved: Option<(usize, Square)>,
        gone: &[usize],
        at: u64,
    ) -> Result<(), GenError> {
        let n = self.place_outer(moved, gone);
        let (frame, subs) = (self.frame, self.subs);
        let exit =
            subs.exit_values_with_free(self.mover.other(), &self.placed[..n], frame.inner)?;
        for b in ones(at) {
            self.record(b, exit.values(frame.bits.square(b)))?;
        }
        Ok(())
    }

    /// Notes that a move from the position of bit `b` is worth `values`.
    fn record(&mut self, b: u32, values: [Value; 2]) -> Result<(), GenError> {
        let material = self.frame.layout.material();
        for ((win, loss), v) in self.bytes.iter_mut().zip(values) {
            note(material, v, &mut win[b as usize], &mut loss[b as usize])?;
        }
        Ok(())
    }

    /// Den entries and captures by the mover's outer pieces.
    fn outer_moves(&mut self) -> Result<(), GenError> {
        let frame = self.frame;
        for (j, &piece) in frame.outer.iter().enumerate() {
            if piece.color != self.mover {
                continue;
            }
            let x = self.sq[j];
            for t in &frame.outer_targets[j][x.index()] {
                if t.path_bits & self.occupied != 0 {
                    continue;
                }
                if t.den {
                    for b in ones(self.legal) {
                        self.record(b, DEN_ENTRY)?;
                    }
                } else if let Some(m) = self.sq.iter().position(|&s| s == t.to) {
                    let victim = frame.outer[m];
                    if victim.color == self.mover {
                        continue;
                    }
                    let Some(kind) = frame.rules.capture(piece, x, victim, t.to) else {
                        continue;
                    };
                    let at = self.legal & !t.path_bits;
                    match kind {
                        Capture::Trade => self.record_outer_capture(None, &[j, m], at)?,
                        Capture::Take => self.record_outer_capture(Some((j, t.to)), &[m], at)?,
                    }
                } else if frame.inner.color != self.mover {
                    let b = frame.bits.bit(t.to);
                    if self.legal & (1 << b) == 0 {
                        continue;
                    }
                    let Some(kind) = frame.rules.capture(piece, x, frame.inner, t.to) else {
                        continue;
                    };
                    let v = match kind {
                        Capture::Trade => self.after(None, &[j], None)?,
                        Capture::Take => self.after(Some((j, t.to)), &[], None)?,
                    };
                    self.record(b, v)?;
                }
            }
        }
        Ok(())
    }

    /// Den entries and captures by the inner piece (the mover's), from each of its squares.
    fn inner_moves(&mut self) -> Result<(), GenError> {
        let frame = self.frame;
        let (legal, occupied, sq) = (self.legal, self.occupied, self.sq);
        let open = |b: u32, t: &Target| legal & (1 << b) != 0 && t.path_bits & occupied == 0;
        // Walked backwards from the squares that matter: most of the inner piece's moves are
        // quiet, and the solve deals with those.
        if let Some(den) = frame.board.den(frame.inner.color.other()) {
            let into_den: Vec<u32> = frame.inner_sources[frame.bits.bit(den) as usize]
                .iter()
                .filter(|(b, t)| open(*b, t))
                .map(|&(b, _)| b)
                .collect();
            for b in into_den {
                self.record(b, DEN_ENTRY)?;
            }
        }
        for (m, &victim_sq) in sq.iter().enumerate() {
            let victim = frame.outer[m];
            if victim.color == self.mover {
                continue;
            }
            // A capture's worth depends on its kind only, not on where it comes from.
            let (mut trade, mut take) = (None, None);
            for (b, t) in &frame.inner_sources[frame.bits.bit(victim_sq) as usize] {
                if !open(*b, t) {
                    continue;
                }
                let x = frame.bits.square(*b);
                let Some(kind) = frame.rules.capture(frame.inner, x, victim, t.to) else {
                    continue;
                };
                let v = match kind {
                    Capture::Trade => match trade {
                        Some(v) => v,
                        None => *trade.insert(self.after(None, &[m], None)?),
                    },
                    Capture::Take => match take {
                        Some(v) => v,
                        None => *take.insert(self.after(None, &[m], Some(t.to))?),
                    },
                };
                self.record(*b, v)?;
            }
        }
        Ok(())
    }
}

/// A den entry wins at once, in both metrics.
const DEN_ENTRY: [Value; 2] = [Value::Win(1); 2];

/// What one level found in one configuration of one side to move.
#[derive(Debug, Clone, Copy)]
struct Found {
    o: u32,
    win: u64,
    loss: u64,
    /// The next level at which a capture decides one of its open positions (0: none).
    due: u8,
}

/// Positions of one configuration that a level resolved one way (won, or lost).
#[derive(Debug, Clone, Copy)]
struct Resolved {
    o: u32,
    /// The positions, in two halves: 12 bytes an entry rather than 16 or, as a [`Found`], 24
    /// (a level of a 5-piece table resolves positions in up to 3.7 million configurations).
    bits: [u32; 2],
}

impl Resolved {
    fn new(o: u32, bits: u64) -> Resolved {
        Resolved {
            o,
            bits: [bits as u32, (bits >> 32) as u32],
        }
    }

    #[inline]
    fn bits(&self) -> u64 {
        u64::from(self.bits[0]) | u64::from(self.bits[1]) << 32
    }
}

/// What a level found for one side to move in a run of up to [`MIN_CONFIGS_PER_TASK`]
/// consecutive tasks, in increasing configuration order. A level is kept in such parts, each
/// filled by one task and sized to what it holds: one list gathered from them would need
/// twice their room for a moment, at the peak of a large table's solve.
#[derive(Debug, Default)]
struct Part {
    wins: Vec<Resolved>,
    losses: Vec<Resolved>,
    /// Where a capture next comes due, and at which level: at level 0 nearly every
    /// configuration has one and nothing else, and nothing needs it after [`SideState::apply`].
    due: Vec<(u32, u8)>,
}

impl Part {
    fn with_capacity(n: usize) -> Part {
        Part {
            wins: Vec::with_capacity(n),
            losses: Vec::with_capacity(n),
            due: Vec::with_capacity(n),
        }
    }

    fn push(&mut self, f: Found) {
        if f.win != 0 {
            self.wins.push(Resolved::new(f.o, f.win));
        }
        if f.loss != 0 {
            self.losses.push(Resolved::new(f.o, f.loss));
        }
        if f.due != 0 {
            self.due.push((f.o, f.due));
        }
    }

    fn shrink_to_fit(&mut self) {
        self.wins.shrink_to_fit();
        self.losses.shrink_to_fit();
        self.due.shrink_to_fit();
    }

    fn resolves(&self) -> bool {
        !(self.wins.is_empty() && self.losses.is_empty())
    }
}

/// Level `level` in configuration `o` for `mover`'s positions (`me`): the wins and losses it
/// finds, and when a capture is next due there. `pushed` are the positions that win by a quiet
/// move into a position the other side lost at the last level ([`Frontier`]). `None` when
/// there is nothing to note.
#[inline]
#[allow(clippy::too_many_arguments)]
fn sweep_config(
    frame: &Frame<'_>,
    mover: Color,
    caps: &Captures,
    me: &SideState,
    them: &SideState,
    level: u16,
    o: usize,
    pushed: u64,
) -> Option<Found> {
    let unresolved = me.open[o];
    if unresolved == 0 {
        return None;
    }
    let wins_by_capture = caps.win_any[o] & unresolved;
    let capture_win = if level > 0 && wins_by_capture != 0 {
        caps.wins_at(o, level)
    } else {
        0
    };
    let w = unresolved & (pushed | capture_win);
    // Whether each other open position has a quiet move that does not lose (those without
    // quiet moves have none).
    let need = unresolved & !w;
    let stuck = caps.stuck(o);
    let into_non_win = if need & !stuck == 0 {
        0
    } else {
        frame.escapes(mover, o, them, need & !stuck) & !stuck
    };
    let capture_blocks = if caps.loss_any[o] & need != 0 {
        caps.blocks(o, level)
    } else {
        0
    };
    let l = need & !into_non_win & !capture_blocks;
    // Positions left open that a capture decides later: a capture win, or a capture loss
    // that is all that holds off a loss (every quiet move already lets the opponent win).
    let open = need & !l;
    let waiting = open & !into_non_win & capture_blocks;
    let due = caps.next_due(o, open & caps.win_any[o], waiting, level);
    (w | l != 0 || due != 0).then_some(Found {
        o: o as u32,
        win: w,
        loss: l,
        due,
    })
}

/// A set of configurations, marked from many threads at once and drained in increasing
/// order. A summary bit per word of marks keeps the drain proportional to what was marked.
struct Marks {
    words: Vec<AtomicU64>,
    summary: Vec<AtomicU64>,
}

impl Marks {
    fn new(configs: usize) -> Marks {
        let words = configs.div_ceil(64);
        Marks {
            words: (0..words).map(|_| AtomicU64::new(0)).collect(),
            summary: (0..words.div_ceil(64)).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline]
    fn mark(&self, o: u32) {
        let w = o as usize / 64;
        let bit = 1 << (o % 64);
        // Most marks repeat: a plain load spares them the read-modify-write.
        if self.words[w].load(Ordering::Relaxed) & bit != 0 {
            return;
        }
        if self.words[w].fetch_or(bit, Ordering::Relaxed) == 0 {
            self.summary[w / 64].fetch_or(1 << (w % 64), Ordering::Relaxed);
        }
    }

    /// The marked configurations, in increasing order; the set is left empty.
    fn drain(&self) -> Vec<u32> {
        let mut out = Vec::new();
        for (s, summary) in self.summary.iter().enumerate() {
            for w in ones(summary.swap(0, Ordering::Relaxed)) {
                let w = s * 64 + w as usize;
                let bits = self.words[w].swap(0, Ordering::Relaxed);
                out.extend(ones(bits).map(|b| (w * 64) as u32 + b));
            }
        }
        out
    }
}

/// What level `level` looks at for one side to move, gathered from what the other side
/// resolved at the level before.
///
/// A position wins at `level` by a quiet move into a position the other side lost at the last
/// level: those wins are pushed back from the losses, exactly, and need no further look. A
/// position can become lost only when a quiet move of it led into a position the other side
/// won at the last level, or a capture comes due: those configurations are examined in full
/// ([`sweep_config`]), as are all of them at level 0.
struct Frontier {
    /// Configurations to examine in full.
    examine: Marks,
    /// Configurations with wins pushed into `wins`.
    pushed: Marks,
    /// Per configuration, positions that win by a quiet move into a loss.
    wins: Vec<AtomicU64>,
}

/// One configuration of a level's frontier.
#[derive(Debug, Clone, Copy)]
struct Task {
    o: u32,
    examine: bool,
    pushed: bool,
}

impl Frontier {
    fn new(configs: usize) -> Frontier {
        Frontier {
            examine: Marks::new(configs),
            pushed: Marks::new(configs),
            wins: (0..configs).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline]
    fn push_wins(&self, o: usize, bits: u64) {
        let word = &self.wins[o];
        // Most pushes repeat: a plain load spares them the read-modify-write.
        if word.load(Ordering::Relaxed) & bits == bits {
            return;
        }
        if word.fetch_or(bits, Ordering::Relaxed) == 0 {
            self.pushed.mark(o as u32);
        }
    }

    /// The configurations of level `level` for `mover`, in increasing order.
    fn gather(
        &self,
        frame: &Frame<'_>,
        mover: Color,
        caps: &Captures,
        me: &mut SideState,
        them: &SideState,
        level: u16,
    ) -> Vec<Task> {
        if level == 0 {
            return (0..frame.n_outer as u32)
                .filter(|&o| frame.legal[o as usize] != 0)
                .map(|o| Task {
                    o,
                    examine: true,
                    pushed: false,
                })
                .collect();
        }
        let open = &me.open;
        them.last.par_iter().for_each(|part| {
            for f in &part.losses {
                frame.predecessor_configs(mover, f.o as usize, f.bits(), |p, at| {
                    let wins = at & open[p] & !caps.stuck(p);
                    if wins != 0 {
                        self.push_wins(p, wins);
                    }
                });
            }
            for f in &part.wins {
                frame.predecessor_configs(mover, f.o as usize, f.bits(), |p, at| {
                    // Only where a position still open can move into what was won.
                    if at & open[p] != 0 {
                        self.examine.mark(p as u32);
                    }
                });
            }
        });
        if let Some(due) = me.calendar.get_mut(usize::from(level)) {
            for o in due.drain(..) {
                self.examine.mark(o);
            }
        }
        merge(self.examine.drain(), self.pushed.drain())
    }

    /// The positions pushed as wins into configuration `o`; they are cleared.
    fn take_wins(&self, o: u32) -> u64 {
        self.wins[o as usize].swap(0, Ordering::Relaxed)
    }
}

/// The union of two increasing lists of configurations, as tasks.
fn merge(examine: Vec<u32>, pushed: Vec<u32>) -> Vec<Task> {
    let mut out = Vec::with_capacity(examine.len() + pushed.len());
    let (mut a, mut b) = (
        examine.into_iter().peekable(),
        pushed.into_iter().peekable(),
    );
    loop {
        let task = match (a.peek(), b.peek()) {
            (None, None) => break,
            (Some(&x), Some(&y)) if x == y => Task {
                o: x,
                examine: true,
                pushed: true,
            },
            (Some(&x), Some(&y)) if x < y => Task {
                o: x,
                examine: true,
                pushed: false,
            },
            (Some(&x), None) => Task {
                o: x,
                examine: true,
                pushed: false,
            },
            (_, Some(&y)) => Task {
                o: y,
                examine: false,
                pushed: true,
            },
        };
        if task.examine {
            a.next();
        }
        if task.pushed {
            b.next();
        }
        out.push(task);
    }
    out
}

/// Writes the codes of what a level found into `codes` (one side's, `n_inner` per
/// configuration, from entry `first` on), in parallel over the parts (which are in increasing
/// configuration order). Returns the codes past a byte, for [`Codes::add_wide`].
fn write_codes(
    frame: &Frame<'_>,
    codes: &mut [u8],
    first: usize,
    found: &[Part],
    level: u16,
) -> Vec<u64> {
    // One job per part, with the codes from its first configuration to its last.
    let mut jobs = Vec::with_capacity(found.len());
    let (mut rest, mut base) = (codes, 0usize);
    for part in found.iter().filter(|p| p.resolves()) {
        let ends = |list: &[Resolved]| list.first().zip(list.last()).map(|(a, b)| (a.o, b.o));
        let (lo, hi) = match (ends(&part.wins), ends(&part.losses)) {
            (Some((a, b)), Some((c, d))) => (a.min(c), b.max(d)),
            (Some(ends), None) | (None, Some(ends)) => ends,
            (None, None) => continue,
        };
        let (lo, hi) = (lo as usize, hi as usize + 1);
        let tail = std::mem::take(&mut rest)
            .split_at_mut((lo - base) * frame.n_inner)
            .1;
        let (chunk, tail) = tail.split_at_mut((hi - lo) * frame.n_inner);
        jobs.push((chunk, lo, part));
        (rest, base) = (tail, hi);
    }
    let (win, loss) = (Value::Win(level).code(), Value::Loss(level).code());
    let slots = |bits: u64| ones(bits).map(|b| usize::from(frame.inner_slot[b as usize]));
    jobs.into_par_iter()
        .fold(Vec::new, |mut wide, (chunk, lo, part)| {
            for (list, code) in [(&part.wins, win), (&part.losses, loss)] {
                for f in list {
                    let at = (f.o as usize - lo) * frame.n_inner;
                    let config = &mut chunk[at..at + frame.n_inner];
                    let start = first + f.o as usize * frame.n_inner;
                    Codes::set_in(config, start, slots(f.bits()), code, &mut wide);
                }
            }
            wide
        })
        .reduce(Vec::new, |mut a, mut b| {
            a.append(&mut b);
            a
        })
}

/// Per side to move: what is known of its positions, by configuration (in separate arrays:
/// a level mostly reads one of them at many configurations).
struct SideState {
    /// Legal positions not yet won or lost.
    open: Vec<u64>,
    /// Legal positions not (yet) won.
    non_win: Vec<u64>,
    /// The level the configuration is on the calendar for (0: none).
    due: Vec<u8>,
    /// What the last level won and lost, by configuration (the parts that resolve some).
    last: Vec<Part>,
    /// Per level (a capture distance), configurations where a capture comes due.
    calendar: Vec<Vec<u32>>,
}

impl SideState {
    fn new(frame: &Frame<'_>) -> SideState {
        SideState {
            open: frame.legal.clone(),
            non_win: frame.legal.clone(),
            due: zeroed(frame.n_outer),
            last: Vec::new(),
            calendar: vec![Vec::new(); usize::from(u8::MAX) + 1],
        }
    }

    /// Takes in what level `level` found.
    fn apply(&mut self, mut found: Vec<Part>, level: u16) {
        for part in &mut found {
            for f in &part.wins {
                self.open[f.o as usize] &= !f.bits();
                self.non_win[f.o as usize] &= !f.bits();
            }
            for f in &part.losses {
                self.open[f.o as usize] &= !f.bits();
            }
            for &(o, due) in &part.due {
                let booked = self.due[o as usize];
                if u16::from(booked) <= level || due < booked {
                    self.calendar[usize::from(due)].push(o);
                    self.due[o as usize] = due;
                }
            }
            part.due = Vec::new();
        }
        found.retain(Part::resolves);
        self.last = found;
    }

    /// Whether a capture is still due at a level after `level`.
    fn pending_after(&self, level: u16) -> bool {
        self.calendar
            .iter()
            .skip(usize::from(level) + 1)
            .any(|c| !c.is_empty())
    }
}

/// Solves `material` under `rules`: every entry's value with its distance to mate, and its
/// distance to conversion (in Clesto, its plain value and the ban's resolution:
/// [`crate::clesto`]).
///
/// # Errors
/// [`GenError::MissingTable`] when a table that captures lead into is not in `subs`;
/// [`GenError::DistanceOverflow`] when a distance exceeds the counters.
pub fn solve(rules: RuleSet, material: Material, subs: &SubTables) -> Result<Solved, GenError> {
    crate::game::game_of(rules).solve(rules, material, subs)
}

/// Solves a Jungle or flip `material` like [`solve`], and hands each metric's codes to `then`
/// as soon as they are done, while the other metric may still be solving: the generator
/// compresses them there, on cores the solve leaves idle at times. Returns what `then` gave,
/// distance to mate first.
///
/// # Errors
/// As [`solve`].
pub(crate) fn solve_then<T: Send>(
    rules: RuleSet,
    material: Material,
    subs: &SubTables,
    then: impl Fn(Metric, &Codes) -> T + Sync,
) -> Result<(Solved, [T; 2]), GenError> {
    let layout = Layout::new(rules, material);
    let frame = Frame::new(&layout);
    // The captures of both metrics come from one pass. A small table solves both metrics at
    // once, which keeps both cores busy through the many small levels; a large one solves
    // them in turn and drops each capture set when its solve ends (the peak, both sets and
    // the DTM codes, is then no higher than the DTC solve's: one set and the codes of both
    // metrics).
    let [red_dtm, red_dtc] = Captures::compute(&frame, subs, Color::Red)?;
    let [blue_dtm, blue_dtc] = Captures::compute(&frame, subs, Color::Blue)?;
    let solve_one = |metric, captures| {
        solve_metric(&frame, captures).map(|codes| {
            let after = then(metric, &codes);
            (codes, after)
        })
    };
    let dtm = || solve_one(Metric::Dtm, [red_dtm, blue_dtm]);
    let dtc = || solve_one(Metric::Dtc, [red_dtc, blue_dtc]);
    let ((codes, dtm_then), (dtc_codes, dtc_then)) = if layout.len() <= BOTH_METRICS_AT_ONCE {
        let (dtm, dtc) = rayon::join(dtm, dtc);
        (dtm?, dtc?)
    } else {
        (dtm()?, dtc()?)
    };
    let solved = Solved {
        layout,
        codes,
        second_codes: dtc_codes,
    };
    Ok((solved, [dtm_then, dtc_then]))
}

/// Every entry's value code, in distance to mate, in a game whose moves that leave the table
/// are valued by the caller, `exits` giving each entry's (Clesto's plain values: its scan
/// values the moves of a hungry mover, [`crate::clesto`]); quiet moves, which stay in the
/// table, are the solver's. An unused entry's `exits` is not asked.
///
/// # Errors
/// [`GenError::DistanceOverflow`] when a distance exceeds the counters.
pub(crate) fn solve_with_exits(
    layout: &Layout,
    exits: impl Fn(usize) -> Exits + Sync,
) -> Result<Codes, GenError> {
    let frame = Frame::new(layout);
    let red = Captures::given(&frame, Color::Red, &exits)?;
    let blue = Captures::given(&frame, Color::Blue, &exits)?;
    solve_metric(&frame, [red, blue])
}

/// Every entry's value code in the metric of `captures` (Red's, Blue's).
///
/// Level `n` examines only the configurations that can change at `n` ([`Frontier`]), so the
/// cost grows with the entries and their moves, not with the longest distance.
fn solve_metric(frame: &Frame<'_>, captures: [Captures; 2]) -> Result<Codes, GenError> {
    let layout = frame.layout;
    let material = layout.material();
    let mut sides: [SideState; 2] = std::array::from_fn(|_| SideState::new(frame));
    let frontier = Frontier::new(frame.n_outer);
    // Draws (0) where a position is legal, UNUSED elsewhere.
    let mut codes = Codes::filled(layout.len(), UNUSED);
    let mut wide = Vec::new();
    codes
        .bytes_mut()
        .par_chunks_mut(frame.n_inner)
        .enumerate()
        .for_each(|(c, chunk)| {
            for b in ones(frame.legal[c % frame.n_outer]) {
                // A draw's code, 0, fits a byte.
                chunk[usize::from(frame.inner_slot[b as usize])] = 0;
            }
        });
    let side_len = layout.side_len();

    for level in 0u32.. {
        let level16 = u16::try_from(level)
            .ok()
            .filter(|&l| l <= MAX_LEVEL)
            .ok_or(GenError::DistanceOverflow(material, level))?;
        let found = Color::ALL.map(|mover| {
            let [red, blue] = &mut sides;
            let (me, them) = match mover {
                Color::Red => (red, &*blue),
                Color::Blue => (blue, &*red),
            };
            let caps = &captures[mover.index()];
            let todo = frontier.gather(frame, mover, caps, me, them, level16);
            let me = &*me;
            todo.par_chunks(MIN_CONFIGS_PER_TASK)
                .map(|tasks| {
                    let mut part = Part::with_capacity(tasks.len());
                    for t in tasks {
                        // An examined configuration finds its pushed wins again.
                        let pushed = if t.pushed { frontier.take_wins(t.o) } else { 0 };
                        let o = t.o as usize;
                        let found = if t.examine {
                            sweep_config(frame, mover, caps, me, them, level16, o, pushed)
                        } else {
                            let win = me.open[o] & pushed;
                            (win != 0).then_some(Found {
                                o: t.o,
                                win,
                                loss: 0,
                                due: 0,
                            })
                        };
                        if let Some(f) = found {
                            part.push(f);
                        }
                    }
                    part.shrink_to_fit();
                    part
                })
                .collect::<Vec<Part>>()
        });
        let mut any = false;
        for ((side, found), mover) in sides.iter_mut().zip(found).zip(Color::ALL) {
            let first = mover.index() * side_len;
            let side_codes = &mut codes.bytes_mut()[first..first + side_len];
            wide.append(&mut write_codes(frame, side_codes, first, &found, level16));
            any |= found.iter().any(Part::resolves);
            side.apply(found, level16);
        }
        if !any && !sides.iter().any(|s| s.pending_after(level16)) {
            break;
        }
    }
    codes.add_wide(wide);
    Ok(codes)
}

#[cfg(test)]
mod tests {
    use super::{mask, mask_above, mask_equal, nonzero};

    #[test]
    fn byte_masks_agree_with_the_plain_loop() {
        let mut bytes = [0u8; 64];
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = [0, 1, 2, 7, 127, 128, 200, 254, 255][i % 9] ^ (i as u8 & 0x30);
        }
        for level in [0u16, 1, 2, 7, 126, 127, 128, 200, 254, 255, 256, 1000] {
            let equal = mask(&bytes, |b| u16::from(b) == level);
            let above = mask(&bytes, |b| u16::from(b) > level);
            assert_eq!(mask_equal(&bytes, level), equal, "== {level}");
            assert_eq!(mask_above(&bytes, level), above, "> {level}");
        }
        assert_eq!(nonzero(&bytes), mask(&bytes, |b| b != 0));
    }
}
