//! What only Jungle's and the flip game's tables answer (`Tablebase<Jungle>`, see
//! [`crate::Jungle`]): the distance to conversion and the clock rule.

use crate::{
    clock::{self, Category, RuleValue},
    core::{ProbeError, ProbeResult},
    format::Kind,
    material::Material,
    moves::{Move, Outcome},
    placement::Placement,
    position::Position,
    value::{Value, Wdl},
};
use crate::{LineStep, Tablebase};

/// A move with what it is worth under the clock rule, for the side that makes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleMove {
    /// The move.
    pub mv: Move,
    /// Its DTC value for the mover: a capture, trade or game end is a win, draw or loss in 1.
    pub dtc: Value,
    /// The rule value for the mover after it, at the clock it leaves (0 after a capture).
    pub wdl: Wdl,
}

/// A step of a line under the clock rule.
pub type RuleStep = LineStep<RuleValue>;

impl Tablebase {
    /// [`Tablebase::probe_wdl`] of the position of each of `placements`, `each(i, wdl)` in
    /// order, as [`Tablebase::probe_wdl_many`] reads them, with no [`Position`] built: the
    /// bulk probe of positions kept compactly (packed records).
    pub fn probe_wdl_placements(
        &self,
        placements: &[Placement],
        each: impl FnMut(usize, ProbeResult<Wdl>),
    ) {
        let rules = self.rules().rule_set();
        self.wdl_entries(
            placements.len(),
            |i| {
                let p = &placements[i];
                let table = (p.rules() == rules)
                    .then(|| self.table_of_material(p.material()))
                    .flatten();
                let Some(table) = table else {
                    // Why no table holds it, in the probe's words (a rare path).
                    let why = self.covers(&p.position()).err();
                    return Err(why.expect("a position of no table here"));
                };
                let idx = table
                    .layout
                    .index_of_squares(p.material(), p.turn(), |piece| p.square_of(piece))
                    .expect("a placement's pieces stand on squares of their table's index");
                Ok((table, idx))
            },
            each,
        );
    }

    /// The distance to conversion for the side to move, from the DTC file (RULES.md 5.3): a win
    /// or loss in so many plies to the first capture, trade or end of the game, with captures
    /// valued by the clock rule; a draw where neither can be forced. The clock is ignored.
    ///
    /// # Errors
    /// As [`Tablebase::probe_wdl`].
    pub fn probe_dtc(&self, pos: &Position) -> ProbeResult<Value> {
        self.stored_value(pos, Kind::Dtc)
    }

    /// The value under the clock rule at the position's half-move clock (0 when it has none):
    /// win, draw or loss, with the DTC and the category at clock 0 (RULES.md 5.4, 5.5). One DTC
    /// lookup; a DTC draw also reads the WDL file for its category.
    ///
    /// # Errors
    /// As [`Tablebase::probe_wdl`].
    pub fn probe_rule(&self, pos: &Position) -> ProbeResult<RuleValue> {
        let dtc = self.probe_dtc(pos)?;
        let limit = self.rules().rule_set().clock_limit();
        let category = match Category::of_decided_dtc(dtc, limit) {
            Some(c) => c,
            None => Category::of(self.probe_wdl(pos)?, dtc, limit),
        };
        Ok(RuleValue::new(
            self.rules().rule_set(),
            pos.clock().unwrap_or(0),
            dtc,
            category,
        ))
    }

    /// Every legal move with what it is worth under the clock rule at the position's clock, in
    /// move order (ASCII). A position at the clock limit is drawn and has no such moves.
    ///
    /// # Errors
    /// As [`Tablebase::probe_dtc`], for the position or any successor.
    pub fn rule_moves(&self, pos: &Position) -> ProbeResult<Vec<RuleMove>> {
        self.covers(pos)?;
        let limit = self.rules().rule_set().clock_limit();
        let clock = pos.clock().unwrap_or(0);
        if clock >= limit {
            return Ok(Vec::new());
        }
        let material = Material::of(pos);
        let mut outcomes = Vec::new();
        pos.for_each_outcome(|mv, outcome| outcomes.push((mv, outcome)));
        outcomes.sort_unstable_by_key(|&(mv, _)| mv);
        outcomes
            .into_iter()
            .map(|(mv, outcome)| {
                let (dtc, wdl) = match outcome {
                    Outcome::Over { result, .. } => (result.of_final_move(), result),
                    Outcome::Ongoing(next) => {
                        let after = self.probe_dtc(&next)?;
                        if Material::of(&next) != material {
                            let at_zero = clock::rule_wdl(after, 0, limit);
                            (clock::conversion_value(at_zero), at_zero.flipped())
                        } else {
                            let wdl = clock::rule_wdl(after, clock + 1, limit).flipped();
                            (after.back_one_ply(), wdl)
                        }
                    }
                };
                Ok(RuleMove { mv, dtc, wdl })
            })
            .collect()
    }

    /// The best move under the clock rule at the position's clock (RULES.md 5.6): in a rule win
    /// the move that keeps it with the smallest DTC, in a rule loss the largest DTC, in a rule
    /// draw the first move that keeps the draw; among equals the smallest in ASCII order.
    /// `None` when the side to move has no move, or the clock has reached the limit (the game
    /// is drawn).
    ///
    /// # Errors
    /// As [`Tablebase::rule_moves`], and [`ProbeError::Inconsistent`] when the moves contradict
    /// the position's stored DTC.
    pub fn rule_best_move(&self, pos: &Position) -> ProbeResult<Option<RuleMove>> {
        let root = self.probe_rule(pos)?;
        let moves = self.rule_moves(pos)?;
        if moves.is_empty() {
            return Ok(None);
        }
        let best = match root.wdl {
            Wdl::Draw => moves.into_iter().find(|m| m.wdl == Wdl::Draw),
            wdl => moves
                .into_iter()
                .rev()
                .filter(|m| m.wdl == wdl)
                .max_by_key(|m| m.dtc)
                .filter(|m| m.dtc == root.dtc),
        };
        match best {
            Some(m) => Ok(Some(m)),
            None => Err(ProbeError::Inconsistent {
                position: pos.to_string(),
                noun: "move",
                kind: Kind::Dtc,
                stored: root.dtc,
                best: None,
            }),
        }
    }

    /// The whole line under the clock rule from `pos` at its clock to the end of the game: rule
    /// best moves by both sides, the clock advancing and restarting at each capture (empty for a
    /// rule draw). It reaches the first conversion after exactly DTC plies.
    ///
    /// # Errors
    /// As [`Tablebase::rule_best_move`].
    pub fn rule_line(&self, pos: &Position) -> ProbeResult<Vec<RuleStep>> {
        if self.probe_rule(pos)?.is_draw() {
            return Ok(Vec::new());
        }
        let mut start = pos.clone();
        start
            .set_rule_clock(None)
            .expect("the position's own clock is within the limit");
        self.play_line(
            start,
            |p| Ok(self.rule_best_move(p)?.map(|m| m.mv)),
            |p| self.probe_rule(p),
        )
    }
}
