//! A slow forward solver of Clesto (RULES.md section 6, "Values in a table"), independent of
//! the generator: it shares only the probe library's rules (`Position::put`, `legal_moves`,
//! `play`, the hungry sets, [`banned_side`]). Positions are every placement of a material's
//! pieces (both sides to move, canonical hungry sets), numbered by the order of their keys
//! (the squares of the pieces and the side to move); no table layout. A position is rebuilt
//! from its key when needed, and each material's moves are built once, as lists of node numbers
//! (or known values of moves that leave the material): about 50 bytes a position, so a 4-piece
//! material fits in some 500 MB.
//!
//! For each material, fewest pieces first:
//! 1. **Plain values** (rule 1): passes over every position until a fixpoint, as the Jungle
//!    forward solver does ([`crate::forward`]): at pass `n` a position wins in `n` when a move
//!    reaches a loss in `n - 1`, and loses in `n` when every move reaches a win, the longest
//!    in `n - 1`. Moves that end the game count one ply (a starvation of the mover's last
//!    animal: a loss in 1); moves into a smaller material count its plain value one ply
//!    further.
//! 2. **Ban resolution** of the plain draws (rule 3), with `B = banned_side(material)`: the
//!    attractor of B's targets, level by level. A target is a move after which B wins for
//!    good: a move into a smaller material at a position B wins there by its full value
//!    (rules 1-3), a move into a position of this material that B wins plainly, a move that
//!    ends the game in B's favour (U's starvation of its last animal). A plain draw with B to
//!    move is in the attractor at level `n` when its best move reaches a target (`n = 1`) or a
//!    node at level `n - 1`; with U to move, when every move does, `n` being 1 + the longest.
//!    `n` is B's exit distance. Outside the attractor U wins.
//!
//! A position of a smaller material with a *non-canonical* hungry set (right after a
//! starvation) is in no table: it is valued by looking one move ahead, on plain values for
//! rule 1 and on full values for rule 3 (each of its moves stays in its material at a
//! canonical set or leaves it again, so this ends).

use std::collections::HashMap;

use jtb_probe::{
    banned_side, ClestoValue, Color, Material, Outcome, Piece, Position, RuleSet, Square, Value,
    Wdl,
};

const RULES: RuleSet = RuleSet::Clesto;

/// `material` and every material it can lead into (each side keeps a non-empty subset of its
/// animals), fewest pieces first: the order they are solved in.
#[must_use]
pub fn sub_materials(material: Material) -> Vec<Material> {
    fn subsets(set: u8) -> Vec<u8> {
        let mut out = Vec::new();
        let mut s = set;
        while s != 0 {
            out.push(s);
            s = (s - 1) & set;
        }
        out
    }
    let mut out: Vec<Material> = subsets(material.set(Color::Red))
        .into_iter()
        .flat_map(|r| {
            subsets(material.set(Color::Blue))
                .into_iter()
                .map(move |b| Material::from_sets(r, b))
        })
        .collect();
    out.sort_by_key(|m| (m.total(), *m));
    out
}

/// The bits of one square in a [`key`] (a packed square is below [`Square::LIMIT`] = 72).
const SQUARE_BITS: u32 = 7;

/// Flags a successor in [`Graph::succs`] as an index into [`Graph::known`] rather than a node.
const KNOWN: u32 = 1 << 31;

/// A number for a position within its material: the squares of its pieces in the order
/// `Position::pieces` gives them (that of `Material::pieces`), seven bits each, after the side
/// to move. At most 9 pieces, so it fits.
fn key(pos: &Position) -> u64 {
    pos.pieces()
        .fold(u64::from(pos.turn() == Color::Blue), |k, (_, sq)| {
            (k << SQUARE_BITS) | sq.index() as u64
        })
}

/// One material's values.
struct Table {
    /// The material's pieces in the order of their squares in a key.
    pieces: Vec<Piece>,
    /// The key of every placement (both sides to move, canonical hungry sets), increasing: a
    /// position's number is its place here. Positions are rebuilt from their keys.
    keys: Vec<u64>,
    /// Every position's value; its plain value is [`ClestoValue::plain_part`].
    full: Vec<ClestoValue>,
    /// The moves out of this material that starve into a non-canonical hungry set.
    non_canonical: NonCanonical,
}

impl Table {
    /// The keys of every placement of `material` (square by square through `Position::put`).
    fn new(material: Material) -> Table {
        assert!(material.total() <= 9, "{material}: a key holds 9 pieces");
        let mut keys = Vec::new();
        for turn in Color::ALL {
            crate::for_each_placement(RULES, material, turn, |p| keys.push(key(p)));
        }
        keys.sort_unstable();
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "keys are distinct");
        assert!(
            keys.len() < KNOWN as usize,
            "node numbers leave room for the flag"
        );
        Table {
            pieces: material.pieces().collect(),
            keys,
            full: Vec::new(),
            non_canonical: NonCanonical::default(),
        }
    }

    fn len(&self) -> usize {
        self.keys.len()
    }

    /// The number of a canonical position of this material (`None`: not a placement).
    fn number(&self, pos: &Position) -> Option<usize> {
        self.keys.binary_search(&key(pos)).ok()
    }

    fn turn(&self, i: usize) -> Color {
        let shift = SQUARE_BITS * self.pieces.len() as u32;
        if self.keys[i] >> shift == 1 {
            Color::Blue
        } else {
            Color::Red
        }
    }

    /// Position number `i`, at the canonical hungry set.
    fn position(&self, i: usize) -> Position {
        let k = self.keys[i];
        let n = self.pieces.len();
        let squares = self.pieces.iter().enumerate().map(|(j, &piece)| {
            let index = (k >> (SQUARE_BITS * (n - 1 - j) as u32)) & ((1 << SQUARE_BITS) - 1);
            let index = u8::try_from(index).expect("seven bits");
            (piece, Square::new(index & 7, index >> 3))
        });
        let pos = Position::from_pieces(RULES, self.turn(i), squares).expect("a placement's key");
        debug_assert_eq!(key(&pos), k);
        pos
    }
}

/// The moves of one material's positions out of it that starve into a position with a
/// non-canonical hungry set of a smaller material (valued by looking one move ahead).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NonCanonical {
    /// How many moves, over every position of the material.
    pub moves: u64,
    /// How many of them reach a value other than that of the same board at its canonical set.
    pub changed: u64,
}

/// What a move that ends the game or leaves the material gives the mover.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Known {
    /// The move's plain value (one ply included).
    plain: Value,
    /// Whether the mover wins by the full value.
    wins: bool,
}

/// Where a move of a position being solved leads.
#[derive(Debug, Clone, Copy)]
enum Succ {
    /// Another position of the same material, by its number.
    Node(u32),
    /// The game ended, or left the material.
    Known(Known),
}

/// The moves of every position of a material, built once: those of node `i` are
/// `succs[starts[i]..starts[i + 1]]`, each a node number or, flagged by [`KNOWN`], an index
/// into `known`.
struct Graph {
    starts: Vec<u32>,
    succs: Vec<u32>,
    /// Each distinct [`Known`] of the material's moves, once.
    known: Vec<Known>,
}

impl Graph {
    fn len(&self) -> usize {
        self.starts.len() - 1
    }

    fn moves(&self, i: usize) -> impl Iterator<Item = Succ> + '_ {
        self.succs[self.starts[i] as usize..self.starts[i + 1] as usize]
            .iter()
            .map(|&s| {
                if s & KNOWN == 0 {
                    Succ::Node(s)
                } else {
                    Succ::Known(self.known[(s & !KNOWN) as usize])
                }
            })
    }
}

/// The values of a material and of everything it leads into.
pub struct Solution {
    tables: HashMap<Material, Table>,
    order: Vec<Material>,
}

/// Solves `material` and every material it leads into.
#[must_use]
pub fn solve(material: Material) -> Solution {
    solve_all(&[material])
}

/// Solves `materials` and every material they lead into.
#[must_use]
pub fn solve_all(materials: &[Material]) -> Solution {
    let mut all: Vec<Material> = materials.iter().flat_map(|&m| sub_materials(m)).collect();
    all.sort_by_key(|m| (m.total(), *m));
    all.dedup();
    let mut solution = Solution {
        tables: HashMap::new(),
        order: Vec::new(),
    };
    for m in all {
        let table = solution.solve_one(m);
        solution.tables.insert(m, table);
        solution.order.push(m);
    }
    solution
}

impl Solution {
    /// The materials solved, fewest pieces first.
    #[must_use]
    pub fn materials(&self) -> &[Material] {
        &self.order
    }

    /// Every (canonical) position of a solved material with its value, in a fixed order (piece
    /// by piece through the squares, Red to move first); empty for a material not solved.
    pub fn positions(
        &self,
        material: Material,
    ) -> impl Iterator<Item = (Position, ClestoValue)> + '_ {
        self.tables
            .get(&material)
            .into_iter()
            .flat_map(|t| (0..t.len()).map(move |i| (t.position(i), t.full[i])))
    }

    /// The number of positions of a solved material (0 if not solved).
    #[must_use]
    pub fn len(&self, material: Material) -> usize {
        self.tables.get(&material).map_or(0, Table::len)
    }

    /// The moves of a solved material's positions that starve into a non-canonical hungry set
    /// (zero for a material not solved).
    #[must_use]
    pub fn non_canonical(&self, material: Material) -> NonCanonical {
        self.tables
            .get(&material)
            .map_or_else(NonCanonical::default, |t| t.non_canonical)
    }

    /// The value (RULES.md 6, rules 1-3) of a position of a solved material for its side to
    /// move, at any hungry set (a non-canonical one by looking one move ahead); `None` for a
    /// finished game or a material not solved.
    #[must_use]
    pub fn value(&self, pos: &Position) -> Option<ClestoValue> {
        self.values(&pos.without_clocks()).map(|(_, full)| full)
    }

    /// The plain value (rule 1: the game without the ban) of a position of a solved material,
    /// at any hungry set; `None` as for [`Solution::value`].
    #[must_use]
    pub fn plain(&self, pos: &Position) -> Option<Value> {
        self.values(&pos.without_clocks()).map(|(plain, _)| plain)
    }

    /// Plain and full value of `pos`.
    fn values(&self, pos: &Position) -> Option<(Value, ClestoValue)> {
        if pos.rules() != RULES || pos.is_game_over() {
            return None;
        }
        let material = Material::of(pos);
        let table = self.tables.get(&material)?;
        if pos.hungry_is_canonical() {
            let full = table.full[table.number(pos)?];
            return Some((full.plain_part(), full));
        }
        Some(self.look_ahead(pos))
    }

    /// The value of a position of a solved material that is in no table (a non-canonical
    /// hungry set), from its moves.
    fn look_ahead(&self, pos: &Position) -> (Value, ClestoValue) {
        let material = Material::of(pos);
        let mover = pos.turn();
        let banned = banned_side(material);
        let mut plain = Value::Loss(0);
        // B's side of each move: whether B wins after it, and the plies it still needs.
        let mut b_wins_after = Vec::new();
        let mut mover_wins = false;
        for m in pos.legal_moves() {
            let (v, wins, remaining) = match pos.play(m).expect("a legal move") {
                Outcome::Over { result, .. } => (one_ply(result), result == Wdl::Win, Some(0)),
                Outcome::Ongoing(q) => {
                    let (qp, qf) = self.values(&q).expect("smaller materials are solved");
                    let remaining = if Material::of(&q) == material && qp == Value::Draw {
                        exit_of(qf)
                    } else {
                        Some(0)
                    };
                    (qp.back_one_ply(), qf.wdl() == Wdl::Loss, remaining)
                }
            };
            plain = plain.max(v);
            mover_wins |= wins;
            let b_wins = (mover == banned) == wins;
            b_wins_after.push(b_wins.then_some(remaining.expect("B wins there")));
        }
        if plain != Value::Draw {
            return (plain, ClestoValue::Plain(plain));
        }
        let exit = if mover == banned {
            b_wins_after.iter().flatten().min().map(|e| e + 1)
        } else if b_wins_after.iter().all(Option::is_some) {
            b_wins_after.iter().flatten().max().map(|e| e + 1)
        } else {
            None
        };
        debug_assert_eq!(exit.is_some(), (mover == banned) == mover_wins);
        (plain, full_of_draw(mover == banned, exit))
    }

    /// Solves one material, every smaller one being solved.
    fn solve_one(&self, material: Material) -> Table {
        let mut table = Table::new(material);
        let graph = self.graph(material, &mut table);
        let plain = plain_values(&graph);
        let banned = banned_side(material);
        let exits = exit_distances(&graph, &plain, |i| table.turn(i) == banned);
        table.full = plain
            .iter()
            .zip(&exits)
            .enumerate()
            .map(|(i, (&v, &exit))| match v {
                Value::Draw => full_of_draw(table.turn(i) == banned, exit),
                v => ClestoValue::Plain(v),
            })
            .collect();
        table
    }

    /// The moves of every position of `table` (whose keys are set), counting in it the moves
    /// into a non-canonical hungry set.
    fn graph(&self, material: Material, table: &mut Table) -> Graph {
        let mut graph = Graph {
            starts: Vec::with_capacity(table.len() + 1),
            succs: Vec::new(),
            known: Vec::new(),
        };
        graph.starts.push(0);
        let mut known_index: HashMap<Known, u32> = HashMap::new();
        let mut non_canonical = NonCanonical::default();
        for i in 0..table.len() {
            let p = table.position(i);
            for m in p.legal_moves() {
                let succ = match p.play(m).expect("a legal move") {
                    Outcome::Over { result, .. } => Succ::Known(Known {
                        plain: one_ply(result),
                        wins: result == Wdl::Win,
                    }),
                    Outcome::Ongoing(q) if Material::of(&q) == material => {
                        assert!(q.hungry_is_canonical(), "{q}: no starvation, canonical");
                        let j = table.number(&q).expect("a placement");
                        Succ::Node(u32::try_from(j).expect("below the flag"))
                    }
                    Outcome::Ongoing(q) => {
                        let (qp, qf) = self.values(&q).expect("smaller materials are solved");
                        if !q.hungry_is_canonical() {
                            let mut canonical = q.clone();
                            canonical.set_hungry(None).expect("the canonical set");
                            non_canonical.moves += 1;
                            non_canonical.changed += u64::from(self.value(&canonical) != Some(qf));
                        }
                        Succ::Known(Known {
                            plain: qp.back_one_ply(),
                            wins: qf.wdl() == Wdl::Loss,
                        })
                    }
                };
                graph.succs.push(match succ {
                    Succ::Node(j) => j,
                    Succ::Known(k) => {
                        let next = u32::try_from(graph.known.len()).expect("few known values");
                        let index = *known_index.entry(k).or_insert_with(|| {
                            graph.known.push(k);
                            next
                        });
                        KNOWN | index
                    }
                });
            }
            graph
                .starts
                .push(u32::try_from(graph.succs.len()).expect("fewer than 2^32 moves"));
        }
        table.non_canonical = non_canonical;
        graph
    }
}

/// A move that ends the game, for the mover: one ply.
fn one_ply(result: Wdl) -> Value {
    match result {
        Wdl::Win => Value::Win(1),
        Wdl::Loss => Value::Loss(1),
        Wdl::Draw => unreachable!("Clesto has no drawn game end"),
    }
}

/// B's exit distance in a value of a plain draw (`None`: B does not win it).
fn exit_of(v: ClestoValue) -> Option<u16> {
    match v {
        ClestoValue::BanWin { exit } | ClestoValue::BanLoss { exit } => exit,
        ClestoValue::Plain(_) => unreachable!("a plain draw has a ban value"),
    }
}

/// The value of a plain draw for its mover, from B's exit distance (`None`: U wins).
fn full_of_draw(mover_is_banned: bool, exit: Option<u16>) -> ClestoValue {
    match (mover_is_banned, exit.is_some()) {
        (true, true) | (false, false) => ClestoValue::BanWin {
            exit: exit.filter(|_| mover_is_banned),
        },
        (true, false) | (false, true) => ClestoValue::BanLoss {
            exit: exit.filter(|_| !mover_is_banned),
        },
    }
}

/// Rule 1 by forward passes: at pass `n`, a position wins in `n` when a move reaches a loss in
/// `n - 1` (or a known win in `n`), and loses in `n` when every move is a known loss, the
/// longest in `n`. The passes go on while something changes, and at least past the longest
/// distance of a move out of the material. Each pass looks only at the positions still
/// without a value.
fn plain_values(graph: &Graph) -> Vec<Value> {
    let horizon = graph
        .known
        .iter()
        .filter_map(|k| k.plain.dtm())
        .max()
        .unwrap_or(0);
    let mut values: Vec<Option<Value>> = vec![None; graph.len()];
    let mut open: Vec<usize> = (0..graph.len()).collect();
    for level in 0u16.. {
        let mut updates = Vec::new();
        for &i in &open {
            let mut wins_now = false;
            let mut all_lose = true;
            let mut longest = 0;
            for s in graph.moves(i) {
                let v = match s {
                    Succ::Known(k) => Some(k.plain),
                    Succ::Node(j) => values[j as usize].map(Value::back_one_ply),
                };
                match v {
                    Some(Value::Win(d)) => {
                        wins_now |= d == level;
                        all_lose = false;
                    }
                    Some(Value::Loss(d)) => longest = longest.max(d),
                    _ => all_lose = false,
                }
            }
            if wins_now {
                updates.push((i, Value::Win(level)));
            } else if all_lose && longest == level {
                updates.push((i, Value::Loss(level)));
            }
        }
        if updates.is_empty() && level > horizon {
            break;
        }
        for (i, v) in updates {
            values[i] = Some(v);
        }
        open.retain(|&i| values[i].is_none());
    }
    values
        .into_iter()
        .map(|v| v.unwrap_or(Value::Draw))
        .collect()
}

/// Rule 3: B's exit distance for every plain draw that B wins by the ban (`None` elsewhere), as
/// the attractor of B's targets (module docs), level by level; `banned(i)`: whether B is to
/// move in node `i`. Every target is one ply away, so a pass that assigns nothing ends it.
fn exit_distances(
    graph: &Graph,
    plain: &[Value],
    banned: impl Fn(usize) -> bool,
) -> Vec<Option<u16>> {
    let mut exits: Vec<Option<u16>> = vec![None; graph.len()];
    let mut open: Vec<usize> = (0..graph.len())
        .filter(|&i| plain[i] == Value::Draw)
        .collect();
    for level in 1u16.. {
        let mut updates = Vec::new();
        for &i in &open {
            let mover_is_banned = banned(i);
            // After each move: `Some(plies B still needs)` when B wins there (as far as known).
            let after = graph.moves(i).map(|s| match s {
                Succ::Known(k) => (mover_is_banned == k.wins).then_some(0),
                Succ::Node(j) => match plain[j as usize] {
                    // The mover of `j` is the other side: it wins `j` plainly, or loses it.
                    Value::Win(_) => (!mover_is_banned).then_some(0),
                    Value::Loss(_) => mover_is_banned.then_some(0),
                    Value::Draw => exits[j as usize],
                },
            });
            let exit = if mover_is_banned {
                after.flatten().min().map(|e| e + 1)
            } else {
                after
                    .collect::<Option<Vec<u16>>>()
                    .and_then(|a| a.into_iter().max())
                    .map(|e| e + 1)
            };
            if let Some(e) = exit {
                assert_eq!(e, level, "levels come in order");
                updates.push((i, e));
            }
        }
        if updates.is_empty() {
            break;
        }
        for (i, e) in updates {
            exits[i] = Some(e);
        }
        open.retain(|&i| exits[i].is_none());
    }
    exits
}
