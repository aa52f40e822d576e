//! A naive forward solver, independent of the generator: it shares only the move generator
//! (`Position::legal_moves` and `Position::play`). Each position's successors are listed
//! once; then every pass goes over every position until a pass changes nothing and no longer
//! capture is still to come. Its cost grows with positions x moves x the longest distance: the
//! yardstick the generator's retrograde solve is measured against (`benches/frontier.rs`), and
//! a check of its values (`tests/forward_solver.rs`).

use std::collections::HashMap;

use jtb_probe::{Color, Material, Outcome, Position, RuleSet, Value, Wdl};

/// Where a move leads.
#[derive(Debug, Clone, Copy)]
pub enum Succ {
    /// The game ended or left the material: the value for the mover is known.
    Known(Value),
    /// Another position of the same material, by its number.
    Node(u32),
}

/// The successors of `pos`: `index` numbers the positions of its material (`None`: another
/// material), `smaller` values those of smaller materials for their side to move.
pub fn successors(
    pos: &Position,
    index: impl Fn(&Position) -> Option<usize>,
    smaller: impl Fn(&Position) -> Value,
) -> Vec<Succ> {
    pos.legal_moves()
        .into_iter()
        .map(|m| match pos.play(m).expect("a legal move") {
            Outcome::Over { result, .. } => Succ::Known(match result {
                Wdl::Win => Value::Win(1),
                Wdl::Draw => Value::Draw,
                Wdl::Loss => Value::Loss(1),
            }),
            Outcome::Ongoing(q) => match index(&q) {
                Some(j) => Succ::Node(u32::try_from(j).expect("fewer than 2^32 positions")),
                None => Succ::Known(smaller(&q).back_one_ply()),
            },
        })
        .collect()
}

/// The value of every position (for its side to move) from the successor lists of all of
/// them, by forward iteration: at pass `n`, a position wins in `n` when a move reaches a loss
/// in `n - 1` (or a known win in `n`), and loses in `n` when every move reaches a win and the
/// longest of those losses for it is `n`.
pub fn iterate(succs: &[Vec<Succ>]) -> Vec<Value> {
    let horizon = succs
        .iter()
        .flatten()
        .filter_map(|s| match s {
            Succ::Known(v) => v.dtm(),
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
                let v = match s {
                    Succ::Known(v) => Some(*v),
                    Succ::Node(j) => values[*j as usize].map(Value::back_one_ply),
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

/// Every legal placement of `material` in both orientations (`LvE` and `EvL`), both sides to
/// move: no table layout and no symmetry.
fn all_positions(rules: RuleSet, material: Material) -> Vec<Position> {
    let mut orientations = vec![material];
    if !material.is_symmetric() {
        orientations.push(material.flipped());
    }
    orientations
        .into_iter()
        .flat_map(|m| Color::ALL.map(|t| crate::placements(rules, m, t)))
        .flatten()
        .collect()
}

/// Solves `material` over [`all_positions`], numbered by a hash map, given the values of every
/// smaller material: the most naive form of the forward solver, with nothing taken from the
/// generator's table layout.
///
/// # Panics
///
/// If a capture leads to a position missing from `smaller`.
pub fn solve_by_hash_map(
    rules: RuleSet,
    material: Material,
    smaller: &HashMap<Position, Value>,
) -> HashMap<Position, Value> {
    let nodes = all_positions(rules, material);
    let index: HashMap<&Position, usize> = nodes.iter().enumerate().map(|(i, p)| (p, i)).collect();
    let succs: Vec<Vec<Succ>> = nodes
        .iter()
        .map(|p| successors(p, |q| index.get(q).copied(), |q| smaller[q]))
        .collect();
    drop(index);
    nodes.into_iter().zip(iterate(&succs)).collect()
}
