//! What the rest of a turn is worth once a trap removal has taken it into a smaller material:
//! for every board of a solved table and every count of steps already taken (1 to 3), the best
//! value the mover can still reach, ending the turn there or stepping on (RULES.md section 7:
//! a capture mid-turn continues the turn in the smaller material). No start board can be
//! reached there again, so these values need no exclusion of it.

use jtb_probe::{
    gambit::{Board, Color, Layout, Material, MAX_STEPS},
    Value,
};
use rayon::prelude::*;

use super::{GambitError, SubTables};

/// Steps already taken, for [`Continuation`]'s stored layers (1 to 3; after 4 the turn ends).
const STORED: std::ops::RangeInclusive<u8> = 1..=3;

/// The best value of the rest of a turn, per board of one material and steps already taken.
#[derive(Debug, Clone)]
pub struct Continuation {
    layout: Layout,
    /// `layers[t - 1][idx]`: the code of the best value with `t` steps taken.
    layers: Vec<Vec<u16>>,
}

/// The value for `mover` of a turn that ends on `board`: the end-of-turn checks, else one turn
/// more than the value of the opponent's position in its table.
///
/// # Errors
/// [`GambitError::MissingTable`] when that table is absent.
pub fn end_value(board: &Board, mover: Color, subs: &SubTables) -> Result<Value, GambitError> {
    match board.turn_end(mover) {
        Some(end) if end.mover_wins() => Ok(Value::Win(1)),
        Some(_) => Ok(Value::Loss(1)),
        None => Ok(subs.value(board, mover.other())?.back_one_ply()),
    }
}

/// The best value for `mover` of the rest of a turn on `board` after `taken` steps (1 to 4),
/// from the tables and continuations in `subs`.
///
/// # Errors
/// [`GambitError::MissingTable`] when a table or its continuation is absent.
///
/// # Panics
/// When `taken` is 0 (a turn's start is no continuation).
pub fn value_after(
    board: &Board,
    mover: Color,
    taken: u8,
    subs: &SubTables,
) -> Result<Value, GambitError> {
    assert!(taken >= 1, "a continuation starts after a step");
    if taken >= MAX_STEPS {
        return end_value(board, mover, subs);
    }
    let material = Material::of(board);
    let cont = subs
        .continuation(material)
        .ok_or(GambitError::MissingTable(material.canonical()))?;
    let idx = cont
        .layout
        .index_of_board(board, mover)
        .expect("the continuation's own material");
    Ok(Value::from_code(cont.layers[usize::from(taken - 1)][idx]).expect("a valid board's value"))
}

impl Continuation {
    /// The continuation of `material`, whose table and every smaller one (with their
    /// continuations) are in `subs`.
    ///
    /// # Errors
    /// [`GambitError::MissingTable`] when one is absent.
    pub fn build(material: Material, subs: &SubTables) -> Result<Continuation, GambitError> {
        let layout = Layout::new(material);
        let mut layers: Vec<Vec<u16>> = Vec::new();
        for taken in STORED.rev() {
            let later = &layers;
            let layer: Vec<u16> = (0..layout.len())
                .into_par_iter()
                .map(|idx| {
                    let Some((board, mover)) = layout.board(idx) else {
                        return Ok(0);
                    };
                    if board.unguarded_on_traps().is_nonempty() {
                        return Ok(0);
                    }
                    let mut best = end_value(&board, mover, subs)?;
                    let mut err = None;
                    board.for_each_action(mover, MAX_STEPS - taken, |action, next| {
                        let after = taken + action.steps();
                        let v = if after < MAX_STEPS && Material::of(next) == layout.material() {
                            // The layers are built from the last step back: `later` ends with
                            // `taken + 1`, the one before with `taken + 2`.
                            let (j, _) = layout.locate(next, mover);
                            let layer = &later[later.len() - usize::from(after - taken)];
                            Value::from_code(layer[j]).expect("a valid board's value")
                        } else {
                            match value_after(next, mover, after, subs) {
                                Ok(v) => v,
                                Err(e) => {
                                    err.get_or_insert(e);
                                    return;
                                }
                            }
                        };
                        best = best.max(v);
                    });
                    err.map_or(Ok(best.code()), Err)
                })
                .collect::<Result<_, GambitError>>()?;
            layers.push(layer);
        }
        layers.reverse();
        Ok(Continuation { layout, layers })
    }
}
