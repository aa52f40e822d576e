//! A slow forward solver of Clesto (RULES.md section 6, "Values in a table"), independent of
//! the generator: it shares only the probe library's rules (`Position::put`, `legal_moves`,
//! `play`, the hungry sets, [`banned_side`]). Positions are every placement of a material's
//! pieces (both sides to move, canonical hungry sets), numbered by a hash map; no table layout.
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
    banned_side, ClestoValue, Color, Material, Outcome, Position, RuleSet, Value, Wdl,
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

/// Every position of `material` in this orientation, both sides to move, at the canonical
/// hungry set: square by square through `Position::put`.
fn positions_of(material: Material) -> Vec<Position> {
    Color::ALL
        .into_iter()
        .flat_map(|turn| crate::placements(RULES, material, turn))
        .collect()
}

/// One material's values.
struct Table {
    /// Every position, in the order of [`positions_of`].
    positions: Vec<Position>,
    /// [`key`] -> number.
    index: HashMap<u128, u32>,
    plain: Vec<Value>,
    full: Vec<ClestoValue>,
}

/// A number for a position within its material: the squares of its pieces in the order
/// `Position::pieces` gives them (fixed by the material), seven bits each, and the side to move.
fn key(pos: &Position) -> u128 {
    pos.pieces()
        .fold(u128::from(pos.turn() == Color::Blue), |k, (_, sq)| {
            (k << 7) | sq.index() as u128
        })
}

/// Where a move of a position being solved leads.
#[derive(Debug, Clone, Copy)]
enum Succ {
    /// Another position of the same material, by its number.
    Node(u32),
    /// The game ended, or left the material: `plain` is the move's plain value for the mover
    /// (one ply included), `wins` whether the mover wins by the full value.
    Known { plain: Value, wins: bool },
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
    ) -> impl Iterator<Item = (&Position, ClestoValue)> + '_ {
        self.tables
            .get(&material)
            .into_iter()
            .flat_map(|t| t.positions.iter().zip(t.full.iter().copied()))
    }

    /// The number of positions of a solved material (0 if not solved).
    #[must_use]
    pub fn len(&self, material: Material) -> usize {
        self.tables.get(&material).map_or(0, |t| t.plain.len())
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
            let i = *table.index.get(&key(pos))? as usize;
            debug_assert_eq!(&table.positions[i], pos);
            return Some((table.plain[i], table.full[i]));
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
        let positions = positions_of(material);
        let index: HashMap<u128, u32> = positions
            .iter()
            .enumerate()
            .map(|(i, p)| (key(p), u32::try_from(i).expect("fewer than 2^32 positions")))
            .collect();
        assert_eq!(index.len(), positions.len(), "keys are distinct");
        let succs: Vec<Vec<Succ>> = positions
            .iter()
            .map(|p| {
                p.legal_moves()
                    .into_iter()
                    .map(|m| match p.play(m).expect("a legal move") {
                        Outcome::Over { result, .. } => Succ::Known {
                            plain: one_ply(result),
                            wins: result == Wdl::Win,
                        },
                        Outcome::Ongoing(q) if Material::of(&q) == material => {
                            assert!(q.hungry_is_canonical(), "{q}: no starvation, canonical");
                            Succ::Node(index[&key(&q)])
                        }
                        Outcome::Ongoing(q) => {
                            let (qp, qf) = self.values(&q).expect("smaller materials are solved");
                            Succ::Known {
                                plain: qp.back_one_ply(),
                                wins: qf.wdl() == Wdl::Loss,
                            }
                        }
                    })
                    .collect()
            })
            .collect();
        let plain = plain_values(&succs);
        let turns: Vec<Color> = positions.iter().map(Position::turn).collect();
        let exits = exit_distances(&succs, &plain, &turns, banned_side(material));
        let full = plain
            .iter()
            .zip(&exits)
            .zip(&turns)
            .map(|((&v, &exit), &turn)| match v {
                Value::Draw => full_of_draw(turn == banned_side(material), exit),
                v => ClestoValue::Plain(v),
            })
            .collect();
        Table {
            positions,
            index,
            plain,
            full,
        }
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
/// distance of a move out of the material.
fn plain_values(succs: &[Vec<Succ>]) -> Vec<Value> {
    let horizon = succs
        .iter()
        .flatten()
        .filter_map(|s| match s {
            Succ::Known { plain, .. } => plain.dtm(),
            Succ::Node(_) => None,
        })
        .max()
        .unwrap_or(0);
    let mut values: Vec<Option<Value>> = vec![None; succs.len()];
    for level in 0u16.. {
        let mut updates = Vec::new();
        for (i, moves) in succs.iter().enumerate() {
            if values[i].is_some() {
                continue;
            }
            let mut wins_now = false;
            let mut all_lose = true;
            let mut longest = 0;
            for s in moves {
                let v = match *s {
                    Succ::Known { plain, .. } => Some(plain),
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
    }
    values
        .into_iter()
        .map(|v| v.unwrap_or(Value::Draw))
        .collect()
}

/// Rule 3: B's exit distance for every plain draw that B wins by the ban (`None` elsewhere), as
/// the attractor of B's targets (module docs), level by level. Every target is one ply away,
/// so a pass that assigns nothing ends it.
fn exit_distances(
    succs: &[Vec<Succ>],
    plain: &[Value],
    turns: &[Color],
    banned: Color,
) -> Vec<Option<u16>> {
    let mut exits: Vec<Option<u16>> = vec![None; succs.len()];
    for level in 1u16.. {
        let mut updates = Vec::new();
        for (i, moves) in succs.iter().enumerate() {
            if plain[i] != Value::Draw || exits[i].is_some() {
                continue;
            }
            let mover = turns[i];
            // After each move: `Some(plies B still needs)` when B wins there (as far as known).
            let after = moves.iter().map(|s| match *s {
                Succ::Known { wins, .. } => ((mover == banned) == wins).then_some(0),
                Succ::Node(j) => match plain[j as usize] {
                    // The mover of `j` is the other side: it wins `j` plainly, or loses it.
                    Value::Win(_) => (mover != banned).then_some(0),
                    Value::Loss(_) => (mover == banned).then_some(0),
                    Value::Draw => exits[j as usize],
                },
            });
            let exit = if mover == banned {
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
    }
    exits
}
