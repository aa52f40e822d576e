//! An independent slow solver: plain forward iteration over every position of a material, with
//! no un-moves, no symmetry and no table layout; it shares only the move generator
//! (`Position::legal_moves` and `Position::play`) with the generator. Its values must equal the
//! generator's on every position.

use std::collections::HashMap;

use jtb_gen::solve_all;
use jtb_probe::{Color, Material, Outcome, Piece, Position, RuleSet, Value};

/// Every legal placement of `material` in both orientations (`LvE` and `EvL`), both sides to
/// move.
fn all_positions(rules: RuleSet, material: Material) -> Vec<Position> {
    let mut out = Vec::new();
    let mut orientations = vec![material];
    if !material.is_symmetric() {
        orientations.push(material.flipped());
    }
    for (m, turn) in orientations
        .into_iter()
        .flat_map(|m| Color::ALL.map(|t| (m, t)))
    {
        let pieces: Vec<Piece> = m.pieces().collect();
        let mut stack = vec![Position::empty(rules, turn)];
        for &piece in &pieces {
            stack = stack
                .into_iter()
                .flat_map(|p| {
                    rules.board().squares().filter_map(move |sq| {
                        let mut q = p.clone();
                        q.put(piece, sq).ok().map(|()| q)
                    })
                })
                .collect();
        }
        out.extend(stack);
    }
    out
}

/// Where a move leads, as the forward solver sees it.
enum Succ {
    /// The game ended or left the material: the value for the mover is known.
    Known(Value),
    /// Another position of the same material.
    Node(usize),
}

/// Solves `material` by forward iteration, given the values of every smaller material.
fn forward(
    rules: RuleSet,
    material: Material,
    smaller: &HashMap<Position, Value>,
) -> HashMap<Position, Value> {
    let nodes = all_positions(rules, material);
    let index: HashMap<&Position, usize> = nodes.iter().enumerate().map(|(i, p)| (p, i)).collect();
    let succs: Vec<Vec<Succ>> = nodes
        .iter()
        .map(|p| {
            p.legal_moves()
                .into_iter()
                .map(|m| match p.play(m).unwrap() {
                    Outcome::Over { result, .. } => Succ::Known(match result {
                        jtb_probe::Wdl::Win => Value::Win(1),
                        jtb_probe::Wdl::Draw => Value::Draw,
                        jtb_probe::Wdl::Loss => Value::Loss(1),
                    }),
                    Outcome::Ongoing(q) => match index.get(&q) {
                        Some(&j) => Succ::Node(j),
                        None => Succ::Known(smaller[&q].back_one_ply()),
                    },
                })
                .collect()
        })
        .collect();
    let horizon = succs
        .iter()
        .flatten()
        .filter_map(|s| match s {
            Succ::Known(v) => v.dtm(),
            Succ::Node(_) => None,
        })
        .max()
        .unwrap_or(0);
    let mut values: Vec<Option<Value>> = vec![None; nodes.len()];
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
                let v = match s {
                    Succ::Known(v) => Some(*v),
                    Succ::Node(j) => values[*j].map(Value::back_one_ply),
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
    nodes
        .into_iter()
        .zip(values)
        .map(|(p, v)| (p, v.unwrap_or(Value::Draw)))
        .collect()
}

/// Solves `target` and everything it needs both ways and compares every position.
fn agree(rules: RuleSet, target: &str) {
    let target: Material = target.parse().unwrap();
    let tables = solve_all(rules, &[target]).unwrap();
    let mut known: HashMap<Position, Value> = HashMap::new();
    for group in jtb_gen::plan::closure(rules, &[target]) {
        for m in group {
            let solved = forward(rules, m, &known);
            let table = tables.get(m).unwrap();
            let mut compared = 0;
            for (pos, v) in &solved {
                let idx = table.layout.index_of(pos).unwrap();
                assert_eq!(table.value(idx), *v, "{rules} {m}: {pos}");
                compared += 1;
            }
            assert!(compared > 0);
            known.extend(solved);
        }
    }
}

#[test]
fn mistboard_lion_rat_against_elephant() {
    agree(RuleSet::Mistboard, "LRvE");
}

#[test]
fn mistboard_wolf_dog_against_tiger() {
    agree(RuleSet::Mistboard, "WDvT");
}

#[test]
fn tiger_lengthwise_tiger_rat_against_leopard() {
    agree(RuleSet::TigerLengthwise, "TRvP");
}

#[test]
fn leiden_elephant_rat_against_rat() {
    agree(RuleSet::Leiden, "ERvR");
}

#[test]
fn flip_game_small_tables() {
    agree(RuleSet::Flip4x4, "ERvE");
    agree(RuleSet::Flip4x4, "LRvL");
    agree(RuleSet::Flip4x4, "CvC");
}
