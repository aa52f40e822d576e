//! A naive forward solver of the flip game with face-down tiles (rule set `flip4x4`, RULES.md
//! section 8): the exact score, P(win) and P(draw) of a position for its side to move, at any
//! clock.
//!
//! It is independent of the generator and of any table: no index, no symmetry, no retrograde
//! pass. It shares with the library only the move model: the face-down tiles
//! ([`Position::hidden`], [`Position::hidden_set`]), [`Position::flip_outcomes`] and
//! [`Position::revealed_moves`] say which moves exist and what a flip may reveal. Everything
//! else is its own: it plays steps, captures and trades by rebuilding the board square by
//! square, applies section 8's end rules itself, and values (position, clock) pairs by plain
//! memoised backward induction. The recursion is finite because a step raises the clock
//! (clock 40 is a draw) and a flip, capture or trade lowers the number of face-down tiles or of
//! animals.
//!
//! It also gives each certain result its distance to the end (DTE, RULES.md 8, "Certain results
//! and their distance"), from the same recursion: a move's DTE worth is 1 + the largest DTE of
//! the positions it can give (an ended game counting 0), a certain win takes the smallest worth
//! of its moves that keep it, a certain loss the largest of all its moves.
//!
//! Values are integer numerators over [`DENOM`] = 240 = 2 * 5!: exact for every position with
//! up to five face-down tiles (RULES.md 8: scores are multiples of 1/(2 k!), probabilities of
//! 1/k!). Every division is checked to be exact.
//!
//! What a position is worth depends on how it is reached, in one corner only: a position at
//! clock 40 whose mover has no legal move is a draw when probed ([`Solver::value`], RULES.md 8
//! end rule 4: "a position probed at clock 40 is a draw whatever moves it has"), but a step
//! played at clock 39 into it wins (end rule 2 is checked before end rule 4 after a move).

use std::{
    collections::HashMap,
    fmt,
    hash::{BuildHasherDefault, Hasher},
    thread,
};

use jtb_probe::{bit, Move, Piece, Position, RuleSet, Square};

/// The common denominator of every value: 240 = 2 * 5!.
pub const DENOM: u32 = 240;
/// The flip game's clock limit: a position at this clock is drawn (RULES.md 5 rule 1).
pub const CLOCK_LIMIT: u32 = 40;
/// The most face-down tiles whose values [`DENOM`] holds exactly.
pub const MAX_FACE_DOWN: usize = 5;

thread_local! {
    /// Whether this thread is one the solver started, with a deep stack.
    static ON_DEEP_STACK: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Stack of the thread the recursion runs on: one frame pair per ply of the longest line
/// (up to 40 plies between conversions, one conversion per flip or capture).
const STACK_BYTES: usize = 256 << 20;

/// The values of a position for its side to move, each a numerator over [`DENOM`]: the score
/// (win 1, draw 1/2, loss 0), the probability of a win and that of a draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Chance {
    /// Expected result: P(win) + P(draw) / 2.
    pub score: u32,
    /// Probability that the side to move wins.
    pub win: u32,
    /// Probability of a draw.
    pub draw: u32,
}

impl Chance {
    /// A certain win.
    pub const WIN: Chance = Chance {
        score: DENOM,
        win: DENOM,
        draw: 0,
    };
    /// A certain draw.
    pub const DRAW: Chance = Chance {
        score: DENOM / 2,
        win: 0,
        draw: DENOM,
    };
    /// A certain loss.
    pub const LOSS: Chance = Chance {
        score: 0,
        win: 0,
        draw: 0,
    };

    /// Probability that the side to move loses, over [`DENOM`].
    #[must_use]
    pub const fn loss(self) -> u32 {
        DENOM - self.win - self.draw
    }

    /// The same game for the other side: what a move is worth to its mover, from the value of
    /// the position it gives to the opponent (the game is zero-sum in score; the opponent's
    /// loss is the mover's win).
    #[must_use]
    pub const fn for_other_side(self) -> Chance {
        Chance {
            score: DENOM - self.score,
            win: self.loss(),
            draw: self.draw,
        }
    }

    /// The average of equally likely outcomes (a flip).
    ///
    /// # Panics
    /// If there are none, or an average is not a whole number of 1/[`DENOM`] (more than
    /// [`MAX_FACE_DOWN`] face-down tiles).
    #[must_use]
    pub fn mean(outcomes: &[Chance]) -> Chance {
        let n = u32::try_from(outcomes.len()).expect("few outcomes");
        assert!(n > 0, "a flip has outcomes");
        let exact = |sum: u32| {
            assert_eq!(sum % n, 0, "{sum}/{n} is not a multiple of 1/{DENOM}");
            sum / n
        };
        let total = |f: fn(&Chance) -> u32| outcomes.iter().map(f).sum::<u32>();
        Chance {
            score: exact(total(|c| c.score)),
            win: exact(total(|c| c.win)),
            draw: exact(total(|c| c.draw)),
        }
    }

    /// Whether the three numbers fit together: probabilities in range, score = win + draw / 2.
    #[must_use]
    pub const fn is_consistent(self) -> bool {
        self.win + self.draw <= DENOM && 2 * self.score == 2 * self.win + self.draw
    }

    /// Whether the result is a certain win or loss: those have a distance.
    fn is_decisive(self) -> bool {
        self == Chance::WIN || self == Chance::LOSS
    }
}

/// A value with its DTE (`None` unless the value is a certain win or loss).
type Valued = (Chance, Option<u32>);

/// What RULES.md 8's way of playing prefers among moves: the score, then in a certain win the
/// smallest DTE worth, in a certain loss the largest, otherwise the own P(win). Larger is
/// better.
fn preference((worth, dte): Valued) -> (u32, u32, i64) {
    let d = i64::from(dte.unwrap_or(0));
    let by_distance = if worth == Chance::WIN {
        -d
    } else if worth == Chance::LOSS {
        d
    } else {
        0
    };
    (worth.score, worth.win, by_distance)
}

impl fmt::Display for Chance {
    /// `score 5/8 win 1/2 draw 1/4`, fractions in lowest terms.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "score {} win {} draw {}",
            fraction(self.score),
            fraction(self.win),
            fraction(self.draw)
        )
    }
}

/// `n / DENOM` in lowest terms: `0`, `1`, `5/8`.
#[must_use]
pub fn fraction(n: u32) -> String {
    fn gcd(a: u32, b: u32) -> u32 {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }
    let g = gcd(n, DENOM);
    match (n / g, DENOM / g) {
        (num, 1) => num.to_string(),
        (num, den) => format!("{num}/{den}"),
    }
}

/// One move of the side to move: a flip of a face-down tile or a step of a revealed animal.
#[derive(Debug, Clone, Copy)]
enum Play {
    Flip(Square),
    Step(Move),
}

impl Play {
    /// `?a4` for a flip, `a1a2` for a step: ASCII order puts every flip first.
    fn text(self) -> String {
        match self {
            Play::Flip(sq) => format!("?{sq}"),
            Play::Step(mv) => mv.to_string(),
        }
    }
}

/// The 16 squares of the flip board, by rank then file (cheaper than the board's own iterator,
/// which filters the squares of the largest board).
fn squares() -> impl Iterator<Item = Square> {
    (0..4).flat_map(|rank| (0..4).map(move |file| Square::new(file, rank)))
}

/// Whether `sq` holds a face-down tile.
fn face_down(pos: &Position, sq: Square) -> bool {
    pos.hidden() & bit(sq) != 0
}

/// Every move of the side to move, in no set order (empty once the game is over): a flip of
/// each face-down tile (what [`Position::flips`] lists), then the steps.
fn plays(pos: &Position) -> Vec<Play> {
    let flips = squares().filter(|&sq| face_down(pos, sq)).map(Play::Flip);
    flips
        .chain(pos.revealed_moves().into_iter().map(Play::Step))
        .collect()
}

/// End rule 1: a side with no animal left, face up or face down, has lost; both none is a
/// draw. The value for the side to move, or `None` while both sides have an animal.
fn material_end(pos: &Position) -> Option<Chance> {
    let hidden = pos.hidden_set().expect("checked: the hidden set is known");
    let alive = |c| pos.count(c) > 0 || hidden.has(c);
    match (alive(pos.turn()), alive(pos.turn().other())) {
        (true, true) => None,
        (true, false) => Some(Chance::WIN),
        (false, true) => Some(Chance::LOSS),
        (false, false) => Some(Chance::DRAW),
    }
}

/// The position after the step `mv` played at `clock`, and its clock: built afresh square by
/// square, so that it shares nothing with the library's own `play`.
fn after_step(pos: &Position, clock: u32, mv: Move) -> (Position, u32) {
    let piece = pos.piece_at(mv.from).expect("a step moves an animal");
    let target = pos.piece_at(mv.to);
    let mut next = Position::empty(RuleSet::Flip4x4, pos.turn().other());
    for (p, sq) in pos.pieces().filter(|&(_, sq)| sq != mv.from && sq != mv.to) {
        next.put(p, sq).expect("a legal placement stays legal");
    }
    for sq in squares().filter(|&sq| face_down(pos, sq)) {
        next.put_hidden(sq).expect("tiles stay where they were");
    }
    // Equal animals (one of each per colour: equal ranks) trade: both leave the board.
    if target.is_none_or(|t| t.animal != piece.animal) {
        next.put(piece, mv.to).expect("the destination is free now");
    }
    next.set_hidden_set(pos.hidden_set())
        .expect("a step reveals nothing");
    // A capture or trade restarts the clock; a plain step advances it.
    let clock = if target.is_some() { 0 } else { clock + 1 };
    (next, clock)
}

/// The memo key: each square (5 bits: empty, one of the 16 animals, face-down), the hidden
/// set (16 bits), the side to move and the clock. Unique for a flip position and clock.
fn key(pos: &Position, clock: u32) -> u128 {
    let code = |p: Piece| p.color.index() as u128 * 8 + p.animal as u128;
    let mut k = 0u128;
    for sq in squares() {
        let square = if face_down(pos, sq) {
            17
        } else {
            pos.piece_at(sq).map_or(0, |p| 1 + code(p))
        };
        k = (k << 5) | square;
    }
    let hidden = pos.hidden_set().expect("checked: the hidden set is known");
    let set = hidden.pieces().fold(0u128, |s, p| s | 1 << code(p));
    k = (k << 16) | set;
    k = (k << 1) | pos.turn().index() as u128;
    (k << 6) | u128::from(clock)
}

/// Panics unless `pos` and `clock` are something this solver can value exactly.
fn check(pos: &Position, clock: u32) {
    assert_eq!(pos.rules(), RuleSet::Flip4x4, "{pos}: not a flip position");
    assert!(pos.hidden_set().is_some(), "{pos}: hidden set not known");
    let tiles = pos.hidden().count_ones() as usize;
    assert!(tiles <= MAX_FACE_DOWN, "{pos}: {tiles} face-down tiles");
    assert!(clock <= CLOCK_LIMIT, "clock {clock} above {CLOCK_LIMIT}");
}

/// A hasher for the memo's `u128` keys: a multiply-xor mix (the default SipHash was a tenth
/// of the solver's time).
#[derive(Debug, Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        // The splitmix64 finaliser over the running state: every bit reaches the high bits
        // the table's control bytes use.
        let mut x = (self.0 ^ n).wrapping_add(0x9e37_79b9_7f4a_7c15);
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        self.0 = x ^ (x >> 31);
    }

    fn write_u128(&mut self, n: u128) {
        self.write_u64(n as u64);
        self.write_u64((n >> 64) as u64);
    }
}

/// Memoised backward induction over (position, clock). Keep one solver for many queries: the
/// memo is shared.
#[derive(Debug, Default)]
pub struct Solver {
    memo: HashMap<u128, Valued, BuildHasherDefault<KeyHasher>>,
}

impl Solver {
    /// A solver with an empty memo.
    #[must_use]
    pub fn new() -> Solver {
        Solver::default()
    }

    /// How many (position, clock) pairs are memoised.
    #[must_use]
    pub fn states(&self) -> usize {
        self.memo.len()
    }

    /// The values of `pos` for its side to move, probed at `clock` (the position's own clock
    /// field is ignored). A finished game (end rule 1) gives its result; at clock 40 any other
    /// position is a draw.
    ///
    /// # Panics
    /// Outside the flip game, with an unknown hidden set, more than [`MAX_FACE_DOWN`] tiles, or
    /// a clock above 40.
    pub fn value(&mut self, pos: &Position, clock: u32) -> Chance {
        self.valued(pos, clock).0
    }

    /// The DTE of `pos` probed at `clock` (RULES.md 8): the plies within which the side sure to
    /// win ends the game whatever the flips show; `None` unless the value is a certain win or
    /// loss. A finished game (end rule 1) has DTE 0.
    ///
    /// # Panics
    /// As [`Solver::value`].
    pub fn dte(&mut self, pos: &Position, clock: u32) -> Option<u32> {
        self.valued(pos, clock).1
    }

    /// The value and DTE of `pos` probed at `clock`.
    fn valued(&mut self, pos: &Position, clock: u32) -> Valued {
        check(pos, clock);
        if let Some(v) = material_end(pos) {
            return (v, v.is_decisive().then_some(0));
        }
        if clock >= CLOCK_LIMIT {
            return (Chance::DRAW, None);
        }
        if let Some(&v) = self.memo.get(&key(pos, clock)) {
            return v;
        }
        self.deep(|s| s.reached(pos, clock))
    }

    /// Every move of `pos` at `clock` with its worth to the mover, sorted by move text (flips
    /// `?a4` first); empty when the game is over at once (end rule 1, no legal move, clock 40).
    ///
    /// # Panics
    /// As [`Solver::value`].
    pub fn moves(&mut self, pos: &Position, clock: u32) -> Vec<(String, Chance)> {
        self.moves_with_dte(pos, clock)
            .into_iter()
            .map(|(text, worth, _)| (text, worth))
            .collect()
    }

    /// As [`Solver::moves`], each move with its DTE worth where its worth is a certain win or
    /// loss.
    ///
    /// # Panics
    /// As [`Solver::value`].
    pub fn moves_with_dte(
        &mut self,
        pos: &Position,
        clock: u32,
    ) -> Vec<(String, Chance, Option<u32>)> {
        check(pos, clock);
        if material_end(pos).is_some() || clock >= CLOCK_LIMIT {
            return Vec::new();
        }
        let mut moves = self.deep(|s| {
            plays(pos)
                .into_iter()
                .map(|p| {
                    let (worth, dte) = s.worth(pos, clock, p);
                    (p.text(), worth, dte)
                })
                .collect::<Vec<_>>()
        });
        moves.sort_by(|a, b| a.0.cmp(&b.0));
        moves
    }

    /// The move RULES.md 8's way of playing chooses: the best score, then in a certain win the
    /// smallest DTE worth and in a certain loss the largest, otherwise the highest own P(win),
    /// then the smallest move text. `None` when the game is over at once.
    ///
    /// # Panics
    /// As [`Solver::value`].
    pub fn best_move(&mut self, pos: &Position, clock: u32) -> Option<String> {
        let mut best: Option<(String, Valued)> = None;
        // In text order, so a later move replaces the best only when strictly better.
        for (text, worth, dte) in self.moves_with_dte(pos, clock) {
            if best
                .as_ref()
                .is_none_or(|b| preference((worth, dte)) > preference(b.1))
            {
                best = Some((text, (worth, dte)));
            }
        }
        best.map(|b| b.0)
    }

    /// Runs `f` with the solver on one thread with a deep stack: many queries in a row then
    /// start no thread each.
    pub fn on_deep_stack<T: Send>(&mut self, f: impl FnOnce(&mut Solver) -> T + Send) -> T {
        self.deep(f)
    }

    /// Runs `f` on a thread with a deep stack (the recursion goes one call per ply), unless
    /// this thread is one.
    fn deep<T: Send>(&mut self, f: impl FnOnce(&mut Solver) -> T + Send) -> T {
        if ON_DEEP_STACK.get() {
            return f(self);
        }
        thread::scope(|scope| {
            thread::Builder::new()
                .stack_size(STACK_BYTES)
                .spawn_scoped(scope, || {
                    ON_DEEP_STACK.set(true);
                    f(self)
                })
                .expect("spawn the solver thread")
                .join()
                .unwrap_or_else(|e| std::panic::resume_unwind(e))
        })
    }

    /// The value and DTE for its mover of a position reached by a move, at `clock`, memoised.
    fn reached(&mut self, pos: &Position, clock: u32) -> Valued {
        let key = key(pos, clock);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let v = self.solve(pos, clock);
        debug_assert!(v.0.is_consistent(), "{pos} at {clock}: {v:?}");
        debug_assert_eq!(v.0.is_decisive(), v.1.is_some(), "{pos} at {clock}: {v:?}");
        self.memo.insert(key, v);
        v
    }

    /// RULES.md 8's end rules in their order, then the best move; a game that has ended has
    /// DTE 0.
    fn solve(&mut self, pos: &Position, clock: u32) -> Valued {
        // End rule 1.
        if let Some(v) = material_end(pos) {
            return (v, v.is_decisive().then_some(0));
        }
        // End rule 2, before the clock: a step at clock 39 that leaves the opponent without a
        // move wins.
        let plays = plays(pos);
        if plays.is_empty() {
            return (Chance::LOSS, Some(0));
        }
        // End rule 3 (one animal each, fully revealed, dead draw at its clock) needs no code:
        // RULES.md 5 rules 4 and 7 define the dead draw as a draw under the clock rule, and
        // that is exactly this recursion's value of a fully revealed position (no chance, so
        // a drawn one has P(draw) = 1 either way). `tests/tests/chance_forward.rs` checks it
        // against `dead_draw` on every one-each position and clock.
        // End rule 4.
        if clock >= CLOCK_LIMIT {
            return (Chance::DRAW, None);
        }
        let mut best: Option<Valued> = None;
        for p in plays {
            let worth = self.worth(pos, clock, p);
            if best.is_none_or(|b| preference(worth) > preference(b)) {
                best = Some(worth);
            }
        }
        best.expect("a move exists")
    }

    /// What `play` is worth to the mover of `pos` at `clock`, with its DTE worth where that
    /// is a certain win or loss: 1 + the largest DTE of the positions it can give.
    fn worth(&mut self, pos: &Position, clock: u32, play: Play) -> Valued {
        let gives: Vec<Valued> = match play {
            Play::Flip(sq) => {
                let outcomes = pos.flip_outcomes(sq).expect("a face-down tile, known set");
                outcomes
                    .iter()
                    .map(|o| self.reached(&o.position, 0))
                    .collect()
            }
            Play::Step(mv) => {
                let (next, clock) = after_step(pos, clock, mv);
                vec![self.reached(&next, clock)]
            }
        };
        let worths: Vec<Chance> = gives.iter().map(|g| g.0.for_other_side()).collect();
        let worth = Chance::mean(&worths);
        let dte = worth.is_decisive().then(|| {
            let longest = gives.iter().map(|g| g.1.expect("every outcome is certain"));
            1 + longest.max().expect("a move gives a position")
        });
        (worth, dte)
    }
}
