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
//! The same machinery solves both metrics ([`crate::Metric`]): distance to mate, where a capture is
//! worth the smaller table's value one ply further, and distance to conversion (the clock rule,
//! RULES.md section 5), where every capture or trade is worth the smaller position's rule value
//! at clock 0, one ply away.

use jtb_probe::{
    Board, Capture, Color, Layout, Material, Piece, RuleSet, Square, SquareSet, Value,
};
use rayon::prelude::*;

use crate::{
    bits::{ones, Bits},
    GenError, Solved, SubTables,
};

/// The longest distance the solver counts: a loss in `d` is stored as the code `2d + 2`, which
/// must fit a `u16`.
const MAX_LEVEL: u16 = (u16::MAX - 2) / 2;

/// Capture marks: `ESCAPE` in the loss byte means a capture wins or draws.
const ESCAPE: u8 = u8::MAX;
const NONE: u8 = 0;

/// A destination of a piece from a square: a step or a river jump.
#[derive(Debug, Clone, Copy)]
struct Target {
    to: Square,
    /// Water crossed by a jump (empty for a step).
    path: SquareSet,
    /// The same, as a dense bitboard.
    path_bits: u64,
    /// Whether `to` is the enemy den.
    den: bool,
}

/// Every destination of `piece` from every square, by [`Square::index`].
fn targets(rules: RuleSet, bits: &Bits, piece: Piece) -> Vec<Vec<Target>> {
    let board = rules.board();
    let enemy_den = board.den(piece.color.other());
    let mut all = vec![Vec::new(); Square::LIMIT];
    for from in board.squares().filter(|&s| rules.may_enter(piece, s)) {
        let steps = board.steps(from).into_iter().flatten().map(|to| (to, 0));
        let jumps = board
            .jumps_from(from)
            .filter(|j| rules.can_jump(piece.animal, j.axis))
            .map(|j| (j.to, j.path));
        for (to, path) in steps.chain(jumps) {
            if rules.may_enter(piece, to) {
                all[from.index()].push(Target {
                    to,
                    path,
                    path_bits: bits.of_set(path),
                    den: Some(to) == enemy_den,
                });
            }
        }
    }
    all
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
    /// Index strides of the outer pieces over configurations.
    ostride: Vec<usize>,
    n_outer: usize,
    n_inner: usize,
    /// The outer squares of each configuration (`n_outer * outer.len()`).
    config_squares: Vec<Square>,
    /// Per configuration, the inner squares that make a legal position.
    legal: Vec<u64>,
    /// Dense bit of the inner piece -> its slot.
    inner_slot: [u8; 64],
    outer_targets: Vec<Vec<Vec<Target>>>,
    inner_targets: Vec<Vec<Target>>,
    /// The inner piece's river jumps: dense from-bit, dense to-bit, water crossed.
    inner_jumps: Vec<(u64, u64, SquareSet)>,
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
        let outer_targets = outer.iter().map(|&p| targets(rules, &bits, p)).collect();
        let inner_targets = targets(rules, &bits, inner);
        let inner_jumps = board
            .squares()
            .flat_map(|x| inner_targets[x.index()].iter().map(move |t| (x, t)))
            .filter(|(_, t)| t.path != 0)
            .map(|(x, t)| (1u64 << bits.bit(x), 1u64 << bits.bit(t.to), t.path))
            .collect();
        Frame {
            rules,
            board,
            layout,
            bits,
            outer,
            inner,
            ostride,
            n_outer,
            n_inner,
            config_squares,
            legal,
            inner_slot,
            outer_targets,
            inner_targets,
            inner_jumps,
        }
    }

    fn squares(&self, o: usize) -> &[Square] {
        let k = self.outer.len();
        &self.config_squares[o * k..(o + 1) * k]
    }

    /// The configuration of outer squares already in table orientation.
    fn config_of(&self, squares: &[Square]) -> usize {
        squares
            .iter()
            .enumerate()
            .map(|(i, &s)| self.layout.slot(i, s).expect("square in domain") * self.ostride[i])
            .sum()
    }

    fn outer_on(&self, squares: &[Square], set: SquareSet) -> bool {
        squares.iter().any(|&s| set & jtb_probe::bit(s) != 0)
    }

    /// Positions of `mover` to move in configuration `o` that have a quiet move into each of
    /// the two source sets (positions of the other side to move), as `(into a, into b)`.
    /// The sources are given per configuration.
    #[inline]
    fn predecessors(
        &self,
        mover: Color,
        o: usize,
        a: &[u64],
        b: impl Fn(usize) -> u64,
    ) -> (u64, u64) {
        let sq = self.squares(o);
        let (mut pa, mut pb) = (0u64, 0u64);
        for (j, piece) in self.outer.iter().enumerate() {
            if piece.color != mover {
                continue;
            }
            let x = sq[j];
            for t in &self.outer_targets[j][x.index()] {
                if t.den || sq.contains(&t.to) || (t.path != 0 && self.outer_on(sq, t.path)) {
                    continue;
                }
                let (sa, sb) = match self.layout.slot(j, t.to) {
                    Some(slot) => {
                        let o2 = o - self.layout.slot(j, x).expect("in domain") * self.ostride[j]
                            + slot * self.ostride[j];
                        (a[o2], b(o2))
                    }
                    None => {
                        // The first piece leaves its half of the board: the successor is
                        // stored mirrored.
                        let mut moved = [Square::new(0, 0); Layout::MAX_PIECES];
                        for (i, &s) in sq.iter().enumerate() {
                            let s = if i == j { t.to } else { s };
                            moved[i] = self.board.mirror_file(s);
                        }
                        let o2 = self.config_of(&moved[..sq.len()]);
                        (self.bits.mirror(a[o2]), self.bits.mirror(b(o2)))
                    }
                };
                pa |= sa & !t.path_bits;
                pb |= sb & !t.path_bits;
            }
        }
        if self.inner.color == mover {
            let (sa, sb) = (a[o], b(o));
            pa |= self.bits.step_sources(sa);
            pb |= self.bits.step_sources(sb);
            for &(from, to, path) in &self.inner_jumps {
                if (sa | sb) & to == 0 || self.outer_on(sq, path) {
                    continue;
                }
                if sa & to != 0 {
                    pa |= from;
                }
                if sb & to != 0 {
                    pb |= from;
                }
            }
        }
        let legal = self.legal[o];
        (pa & legal, pb & legal)
    }
}

/// Shortest capture win and longest capture loss per position (64 per configuration).
struct Captures {
    win: Vec<u8>,
    loss: Vec<u8>,
    /// Per configuration, the bits with a nonzero byte.
    win_any: Vec<u64>,
    loss_any: Vec<u64>,
}

impl Captures {
    /// The captures with `mover` to move in both metrics (distance to mate, distance to
    /// conversion), from one pass over the moves that leave the table.
    fn compute(
        frame: &Frame<'_>,
        subs: &SubTables,
        mover: Color,
    ) -> Result<[Captures; 2], GenError> {
        let n = frame.n_outer;
        let mut bytes: [[Vec<u8>; 2]; 2] =
            std::array::from_fn(|_| [vec![NONE; n * 64], vec![NONE; n * 64]]);
        let [[dtm_win, dtm_loss], [dtc_win, dtc_loss]] = &mut bytes;
        dtm_win
            .par_chunks_mut(64)
            .zip(dtm_loss.par_chunks_mut(64))
            .zip(dtc_win.par_chunks_mut(64).zip(dtc_loss.par_chunks_mut(64)))
            .enumerate()
            .try_for_each(|(o, (dtm, dtc))| captures_of(frame, subs, mover, o, [dtm, dtc]))?;
        let any = |bytes: &[u8]| {
            bytes
                .par_chunks(64)
                .map(|c| mask(c, |b| b != NONE))
                .collect()
        };
        Ok(bytes.map(|[win, loss]| Captures {
            win_any: any(&win),
            loss_any: any(&loss),
            win,
            loss,
        }))
    }

    fn max_distance(&self) -> u8 {
        let w = self.win.par_iter().copied().max().unwrap_or(0);
        let l = self
            .loss
            .par_iter()
            .copied()
            .filter(|&b| b != ESCAPE)
            .max()
            .unwrap_or(0);
        w.max(l)
    }
}

/// The bits of the 64 bytes that satisfy `f`.
#[inline]
fn mask(bytes: &[u8], f: impl Fn(u8) -> bool) -> u64 {
    bytes
        .iter()
        .enumerate()
        .fold(0, |m, (i, &b)| m | (u64::from(f(b)) << i))
}

/// Records that a move is worth `value` to the mover.
fn note(material: Material, value: Value, win: &mut u8, loss: &mut u8) -> Result<(), GenError> {
    let dist = |d: u16| {
        u8::try_from(d)
            .ok()
            .filter(|&d| d < ESCAPE)
            .ok_or(GenError::DistanceOverflow(material, d.into()))
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
    /// The outer pieces' squares.
    sq: &'a [Square],
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
        if let Some(s) = inner_at {
            self.placed[n] = (self.frame.inner, s);
            n += 1;
        }
        self.subs.exit_values(self.mover.other(), &self.placed[..n])
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
                if t.path != 0 && frame.outer_on(self.sq, t.path) {
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
                    for b in ones(self.legal & !t.path_bits) {
                        let inner_at = Some(frame.bits.square(b));
                        let v = match kind {
                            Capture::Trade => self.after(None, &[j, m], inner_at)?,
                            Capture::Take => self.after(Some((j, t.to)), &[m], inner_at)?,
                        };
                        self.record(b, v)?;
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
        for b in ones(self.legal) {
            let x = frame.bits.square(b);
            for t in &frame.inner_targets[x.index()] {
                if t.path != 0 && frame.outer_on(self.sq, t.path) {
                    continue;
                }
                if t.den {
                    self.record(b, DEN_ENTRY)?;
                    continue;
                }
                let Some(m) = self.sq.iter().position(|&s| s == t.to) else {
                    continue;
                };
                let victim = frame.outer[m];
                if victim.color == self.mover {
                    continue;
                }
                let Some(kind) = frame.rules.capture(frame.inner, x, victim, t.to) else {
                    continue;
                };
                let v = match kind {
                    Capture::Trade => self.after(None, &[m], None)?,
                    Capture::Take => self.after(None, &[m], Some(t.to))?,
                };
                self.record(b, v)?;
            }
        }
        Ok(())
    }
}

/// A den entry wins at once, in both metrics.
const DEN_ENTRY: [Value; 2] = [Value::Win(1); 2];

/// Level `level` for `mover`'s positions (`me`): the wins and losses found, written to `codes`
/// (that side's) and to `me.new_win`/`me.new_loss`. Returns how many were found.
fn sweep(
    frame: &Frame<'_>,
    mover: Color,
    caps: &Captures,
    me: &mut SideState,
    them: &SideState,
    codes: &mut [u16],
    level: u16,
) -> u64 {
    let resolved = &me.resolved;
    me.new_win
        .par_iter_mut()
        .zip(me.new_loss.par_iter_mut())
        .zip(codes.par_chunks_mut(frame.n_inner))
        .enumerate()
        .map(|(o, ((nw, nl), codes))| {
            let unresolved = frame.legal[o] & !resolved[o];
            if unresolved == 0 {
                (*nw, *nl) = (0, 0);
                return 0;
            }
            let (into_loss, into_non_win) = frame.predecessors(mover, o, &them.loss_prev, |o2| {
                frame.legal[o2] & !them.win[o2]
            });
            let bytes = o * 64..(o + 1) * 64;
            let capture_win = if level > 0 && caps.win_any[o] & unresolved != 0 {
                mask(&caps.win[bytes.clone()], |b| u16::from(b) == level)
            } else {
                0
            };
            let capture_blocks = if caps.loss_any[o] & unresolved != 0 {
                mask(&caps.loss[bytes], |b| u16::from(b) > level)
            } else {
                0
            };
            let w = unresolved & (into_loss | capture_win);
            let l = unresolved & !w & !into_non_win & !capture_blocks;
            for b in ones(w) {
                codes[frame.inner_slot[b as usize] as usize] = Value::Win(level).code();
            }
            for b in ones(l) {
                codes[frame.inner_slot[b as usize] as usize] = Value::Loss(level).code();
            }
            (*nw, *nl) = (w, l);
            u64::from((w | l).count_ones())
        })
        .sum()
}

/// Per side to move: the positions known won, known (won or lost), and lost at the last level.
struct SideState {
    win: Vec<u64>,
    resolved: Vec<u64>,
    loss_prev: Vec<u64>,
    new_win: Vec<u64>,
    new_loss: Vec<u64>,
}

/// Solves `material` under `rules`: every entry's value with its distance to mate, and its
/// distance to conversion.
///
/// # Errors
/// [`GenError::MissingTable`] when a table that captures lead into is not in `subs`;
/// [`GenError::DistanceOverflow`] when a distance exceeds the counters.
pub fn solve(rules: RuleSet, material: Material, subs: &SubTables) -> Result<Solved, GenError> {
    let layout = Layout::new(rules, material);
    let frame = Frame::new(&layout);
    // The captures of both metrics come from one pass; each set is dropped when its solve ends.
    // (Its peak, both sets and the DTM codes, is no higher than the DTC solve's: one set and
    // the codes of both metrics.)
    let [red_dtm, red_dtc] = Captures::compute(&frame, subs, Color::Red)?;
    let [blue_dtm, blue_dtc] = Captures::compute(&frame, subs, Color::Blue)?;
    let codes = solve_metric(&frame, [red_dtm, blue_dtm])?;
    let dtc_codes = solve_metric(&frame, [red_dtc, blue_dtc])?;
    Ok(Solved {
        layout,
        codes,
        dtc_codes,
    })
}

/// Every entry's value code in the metric of `captures` (Red's, Blue's).
fn solve_metric(frame: &Frame<'_>, captures: [Captures; 2]) -> Result<Vec<u16>, GenError> {
    let layout = frame.layout;
    let material = layout.material();
    let n = frame.n_outer;
    let max_capture = captures
        .iter()
        .map(Captures::max_distance)
        .max()
        .unwrap_or(0);
    let mut sides: [SideState; 2] = std::array::from_fn(|_| SideState {
        win: vec![0; n],
        resolved: vec![0; n],
        loss_prev: vec![0; n],
        new_win: vec![0; n],
        new_loss: vec![0; n],
    });
    let mut codes = vec![0u16; layout.len()];
    let side_len = layout.side_len();

    for level in 0u32.. {
        let level16 = u16::try_from(level)
            .ok()
            .filter(|&l| l <= MAX_LEVEL)
            .ok_or(GenError::DistanceOverflow(material, level))?;
        let mut found = 0u64;
        for mover in Color::ALL {
            let (me, them) = match mover {
                Color::Red => {
                    let (a, b) = sides.split_at_mut(1);
                    (&mut a[0], &b[0])
                }
                Color::Blue => {
                    let (a, b) = sides.split_at_mut(1);
                    (&mut b[0], &a[0])
                }
            };
            let codes = &mut codes[mover.index() * side_len..(mover.index() + 1) * side_len];
            found += sweep(
                frame,
                mover,
                &captures[mover.index()],
                me,
                them,
                codes,
                level16,
            );
        }
        for side in &mut sides {
            side.win
                .par_iter_mut()
                .zip(&side.new_win)
                .for_each(|(w, nw)| *w |= nw);
            side.resolved
                .par_iter_mut()
                .zip(side.new_win.par_iter().zip(&side.new_loss))
                .for_each(|(r, (nw, nl))| *r |= nw | nl);
            std::mem::swap(&mut side.loss_prev, &mut side.new_loss);
        }
        if found == 0 && level >= u32::from(max_capture) {
            break;
        }
    }
    Ok(codes)
}
