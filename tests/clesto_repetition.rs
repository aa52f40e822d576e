//! Searches of the real Clesto game, history included (RULES.md 6, "End of the game" 4): a
//! position is the board and the side to move; the banned side B (more animals, Red when as
//! many) may not make a move that gives a position that has already occurred three times; the
//! other side repeats freely; a side without a legal move loses. They check the forward solver
//! ([`crate::clesto_forward`]) from a fresh history (the root counts as one occurrence).
//!
//! Three facts keep them small, each proved here:
//! - **Smaller materials forget the history.** Material only shrinks, so no position of a
//!   smaller material has occurred before: entering one, the game goes on exactly as from a
//!   fresh history there, whose value the solver gives (those materials are checked the same
//!   way, down to 1v1, where every exit ends the game).
//! - **A plain win or loss reached through plain draws is the value** (rule 2, with history):
//!   the plain winner's shortest line visits only plain wins and losses with strictly falling
//!   distance, so none of them is in a history of plain draws, and none repeats; the ban only
//!   takes moves from B, which does not help the loser. So [`BanGame`] stops at the first
//!   position that is not a plain draw of the material, and its states are a plain draw
//!   together with the occurrence counts of the plain draws with U to move (B's moves give
//!   exactly those; counts of positions with B to move are never consulted; inside one
//!   material every position is at its canonical hungry set, so equal boards and sides are
//!   equal states). That key is the whole state, so memoising on it is exact; each of B's
//!   moves raises a count, so the state graph has no cycle and the search ends.
//! - **The ban never binds in the first 11 plies.** A position recurs at the earliest 4 plies
//!   later (after 2 a piece of each side has moved away), so a fourth occurrence needs 12. A
//!   search of at most 11 plies from a fresh history may therefore share results between
//!   equal positions at equal remaining depth whatever the history ([`PlainSearch`]); it still
//!   applies the ban as the rule says.
//!
//! **What they prove.** [`BanGame::winner`], where it completes, is the winner of the real
//! game from a fresh history, given two inputs from the solver: the plain wins and losses of
//! the material (rule 1, not rule 3) and the values of smaller materials (none for 1v1, whose
//! exits all end the game). So on a 1v1 table it checks rule 3 against the real rule, relative
//! to the table's plain values alone. [`BanGame::exit_within`] is the same game's exit distance
//! (B shortest, U longest) where it is within the horizon. [`PlainSearch`] needs no value of
//! the material at all: it checks the plain values (rule 1, and rule 2's claim that the ban
//! leaves them alone) to its horizon, given the smaller materials' plain values.

use std::collections::HashMap;

use jtb_probe::{banned_side, ClestoValue, Color, Material, Outcome, Position, Value, Wdl};

use crate::clesto_forward::Solution;

/// What a move leads to for the searches.
// A short-lived value, one per move: boxing the position would cost an allocation each.
#[allow(clippy::large_enum_variant)]
enum Step {
    /// The search stops here: whether the mover of the move wins.
    Leaf { mover_wins: bool },
    /// A plain draw of the material, by its number.
    Draw(u32, Position),
}

/// Occurrence counts (0..=3) of the plain draws, two bits each.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Counts(Vec<u64>);

impl Counts {
    fn new(n: usize) -> Counts {
        Counts(vec![0; n.div_ceil(32)])
    }

    fn get(&self, i: u32) -> u64 {
        (self.0[i as usize / 32] >> (2 * (i % 32))) & 3
    }

    /// Raises (`up`) or lowers count `i` by one; callers keep it within 0..=3.
    fn add(&mut self, i: u32, up: bool) {
        let one = 1u64 << (2 * (i % 32));
        let word = &mut self.0[i as usize / 32];
        *word = if up { *word + one } else { *word - one };
    }
}

/// The real game on the plain draws of one material, with the occurrence counts.
pub struct BanGame<'a> {
    solution: &'a Solution,
    material: Material,
    banned: Color,
    /// The plain draws of the material, numbered.
    draws: HashMap<Position, u32>,
    /// (plain draw, counts of every plain draw) -> whether the mover wins; the counts of
    /// positions with B to move stay 0.
    memo: HashMap<(u32, Counts), bool>,
    /// (plain draw, counts, plies left) -> B's exit distance within those plies.
    exit_memo: HashMap<(u32, Counts, u16), Option<u16>>,
    nodes: u64,
}

impl<'a> BanGame<'a> {
    /// The most results of [`BanGame::winner`] kept (a cache: forgetting them is sound).
    const MEMO_CAP: usize = 1 << 21;

    /// The game on the plain draws of `material`, which `solution` must hold.
    ///
    /// # Panics
    /// If `solution` does not hold `material`.
    #[must_use]
    pub fn new(solution: &'a Solution, material: Material) -> BanGame<'a> {
        assert!(solution.len(material) > 0, "{material} is not solved");
        let mut draws: Vec<Position> = solution
            .positions(material)
            .filter(|(_, v)| !matches!(v, ClestoValue::Plain(_)))
            .map(|(p, _)| p)
            .collect();
        draws.sort_by_key(ToString::to_string);
        let draws = draws
            .into_iter()
            .enumerate()
            .map(|(i, p)| (p, u32::try_from(i).expect("few draws")))
            .collect();
        BanGame {
            solution,
            material,
            banned: banned_side(material),
            draws,
            memo: HashMap::new(),
            exit_memo: HashMap::new(),
            nodes: 0,
        }
    }

    /// The number of plain draws of the material.
    #[must_use]
    pub fn draws(&self) -> usize {
        self.draws.len()
    }

    /// The states searched so far.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Where `mv`'s outcome leads, seen by the search (module docs): a leaf valued by the
    /// solver (a game end, a smaller material, a plain win or loss of this material) or a plain
    /// draw of this material.
    fn step(&self, outcome: Outcome) -> Step {
        match outcome {
            Outcome::Over { result, .. } => Step::Leaf {
                mover_wins: result == Wdl::Win,
            },
            Outcome::Ongoing(q) => match self.draws.get(&q) {
                Some(&j) => Step::Draw(j, q),
                None => {
                    let v = self.solution.value(&q).expect("solved");
                    assert!(
                        Material::of(&q) != self.material || matches!(v, ClestoValue::Plain(_)),
                        "{q}"
                    );
                    Step::Leaf {
                        mover_wins: v.wdl() == Wdl::Loss,
                    }
                }
            },
        }
    }

    /// The winner of the real game from `root`, a plain draw of the material, with a fresh
    /// history: an exhaustive search of every line (module docs); `None` when it visits more
    /// than `budget` states. Results are remembered between calls (up to a few million).
    ///
    /// # Panics
    /// If `root` is not a plain draw of the material.
    pub fn winner(&mut self, root: &Position, budget: u64) -> Option<Color> {
        let id = self.draws[root];
        let mut counts = Counts::new(self.draws.len());
        if root.turn() != self.banned {
            counts.add(id, true);
        }
        if self.memo.len() > Self::MEMO_CAP {
            self.memo.clear();
        }
        let limit = self.nodes + budget;
        let wins = self.wins(root, id, &mut counts, limit)?;
        Some(if wins {
            root.turn()
        } else {
            root.turn().other()
        })
    }

    /// Whether the mover wins at (`pos`, `counts`); `None` past `limit` states.
    fn wins(&mut self, pos: &Position, id: u32, counts: &mut Counts, limit: u64) -> Option<bool> {
        if let Some(&w) = self.memo.get(&(id, counts.clone())) {
            return Some(w);
        }
        self.nodes += 1;
        if self.nodes > limit {
            return None;
        }
        let by_b = pos.turn() == self.banned;
        let mut inner = Vec::new();
        let mut result = false;
        for m in pos.legal_moves() {
            match self.step(pos.play(m).expect("legal")) {
                Step::Leaf { mover_wins } => {
                    if mover_wins {
                        result = true;
                        break;
                    }
                }
                Step::Draw(j, q) => {
                    // B may not give a position a fourth occurrence.
                    if !(by_b && counts.get(j) >= 3) {
                        inner.push((j, q));
                    }
                }
            }
        }
        if !result {
            for (j, q) in inner {
                if by_b {
                    counts.add(j, true);
                }
                let theirs = self.wins(&q, j, counts, limit);
                if by_b {
                    counts.add(j, false);
                }
                if !theirs? {
                    result = true;
                    break;
                }
            }
        }
        self.memo.insert((id, counts.clone()), result);
        Some(result)
    }

    /// B's exit distance from `root`, a plain draw of the material, with a fresh history: the
    /// plies until the game leaves the plain draws at a point B wins (B shortest, U longest),
    /// when B forces that within `horizon` plies; `None` when it does not.
    ///
    /// # Panics
    /// If `root` is not a plain draw of the material.
    pub fn exit_within(&mut self, root: &Position, horizon: u16) -> Option<u16> {
        let id = self.draws[root];
        let mut counts = Counts::new(self.draws.len());
        if root.turn() != self.banned {
            counts.add(id, true);
        }
        self.exit(root, id, &mut counts, horizon)
    }

    fn exit(&mut self, pos: &Position, id: u32, counts: &mut Counts, left: u16) -> Option<u16> {
        if left == 0 {
            return None;
        }
        let key = (id, counts.clone(), left);
        if let Some(&e) = self.exit_memo.get(&key) {
            return e;
        }
        self.nodes += 1;
        let by_b = pos.turn() == self.banned;
        // B's distance after each move; `None`: B does not force a win within the horizon.
        let mut after: Vec<Option<u16>> = Vec::new();
        for m in pos.legal_moves() {
            match self.step(pos.play(m).expect("legal")) {
                Step::Leaf { mover_wins } => after.push((mover_wins == by_b).then_some(1)),
                Step::Draw(j, q) => {
                    if by_b && counts.get(j) >= 3 {
                        continue;
                    }
                    if by_b {
                        counts.add(j, true);
                    }
                    let e = self.exit(&q, j, counts, left - 1).map(|e| e + 1);
                    if by_b {
                        counts.add(j, false);
                    }
                    after.push(e);
                    if !by_b && e.is_none() {
                        break;
                    }
                }
            }
        }
        let e = if by_b {
            after.into_iter().flatten().min()
        } else {
            after
                .into_iter()
                .collect::<Option<Vec<u16>>>()
                .and_then(|a| a.into_iter().max())
        };
        self.exit_memo.insert(key, e);
        e
    }
}

/// The real game to a ply horizon of at most 11, without the solver inside the material: the
/// distance to the end of the game where one side forces it within the horizon. Moves into a
/// smaller material count its plain value one ply further (history is forgotten there; a
/// value decided by the ban there has no distance, so is never within the horizon).
pub struct PlainSearch<'a> {
    solution: &'a Solution,
    /// Occurrences of each position on the current line (board and side to move).
    line: Vec<Position>,
    /// (position, side that is to force the win, plies) -> whether it does.
    memo: HashMap<(Position, Color, u16), bool>,
}

impl<'a> PlainSearch<'a> {
    /// The longest horizon: the ban cannot bind before ply 12 (module docs).
    pub const MAX_HORIZON: u16 = 11;

    /// A search valuing smaller materials by `solution`.
    #[must_use]
    pub fn new(solution: &'a Solution) -> PlainSearch<'a> {
        PlainSearch {
            solution,
            line: Vec::new(),
            memo: HashMap::new(),
        }
    }

    /// The value of `root` (canonical hungry set, fresh history) for its mover when the game
    /// ends within `horizon` plies with best play (win shortest, loss longest); `None` when
    /// neither side forces the end within it.
    ///
    /// # Panics
    /// If `horizon` exceeds [`PlainSearch::MAX_HORIZON`].
    pub fn value_within(&mut self, root: &Position, horizon: u16) -> Option<Value> {
        assert!(horizon <= Self::MAX_HORIZON);
        assert!(root.hungry_is_canonical());
        let mover = root.turn();
        self.line = vec![root.clone()];
        for d in 0..=horizon {
            if self.forces(root, mover, d) {
                return Some(if d == 0 {
                    Value::Loss(0)
                } else {
                    Value::Win(d)
                });
            }
            if self.forces(root, mover.other(), d) {
                return Some(Value::Loss(d));
            }
        }
        None
    }

    /// Whether `side` forces the game to end in its win within `plies` from `pos`, the line
    /// so far in `self.line`.
    fn forces(&mut self, pos: &Position, side: Color, plies: u16) -> bool {
        let material = Material::of(pos);
        let key = (pos.clone(), side, plies);
        if let Some(&f) = self.memo.get(&key) {
            return f;
        }
        let banned = banned_side(material);
        let mover = pos.turn();
        // With no legal move (the ban included) the mover has lost: `all` stays true.
        let mut any = false;
        let mut all = true;
        for m in pos.legal_moves() {
            let wins = match pos.play(m).expect("legal") {
                Outcome::Over { result, .. } => {
                    plies >= 1 && (result == Wdl::Win) == (mover == side)
                }
                Outcome::Ongoing(q) if Material::of(&q) != material => {
                    match self.solution.plain(&q).expect("solved") {
                        // `q`'s mover is the other side; the move itself is one ply.
                        Value::Win(d) => d < plies && mover != side,
                        Value::Loss(d) => d < plies && mover == side,
                        Value::Draw => false,
                    }
                }
                Outcome::Ongoing(q) => {
                    let seen = self.line.iter().filter(|p| **p == q).count();
                    if mover == banned && seen >= 3 {
                        continue;
                    }
                    if plies == 0 {
                        false
                    } else {
                        self.line.push(q.clone());
                        let f = self.forces(&q, side, plies - 1);
                        self.line.pop();
                        f
                    }
                }
            };
            any |= wins;
            all &= wins;
            if (mover == side && any) || (mover != side && !all) {
                break;
            }
        }
        let f = if mover == side { any } else { all };
        self.memo.insert(key, f);
        f
    }
}
