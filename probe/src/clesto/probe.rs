//! Clesto's probes (RULES.md 6): the value of a position with the repetition ban, every
//! move's value for its mover, the best move and the best line. Clesto's tables are the Jungle
//! family's ([`RuleSet::Clesto`]): a DTM file and a ban file per material, read by the one
//! [`Tablebase`].

use crate::{
    core::{LineStep, ProbeError, ProbeResult, Tablebase},
    format::Kind,
    moves::Move,
    position::Position,
    value::Value,
    ClestoValue,
};

impl Tablebase {
    /// [`ProbeError::NotForRules`] for Clesto, whose values the other probes do not describe.
    pub(crate) fn not_clesto(&self, what: &'static str) -> ProbeResult<()> {
        if self.rules().has_hunger() {
            return Err(ProbeError::NotForRules {
                rules: self.rules().name(),
                what,
            });
        }
        Ok(())
    }

    /// The value of a Clesto position (RULES.md 6): a plain win or loss with its distance to
    /// mate, or a win or loss by the repetition ban, with B's exit distance on B's side. A
    /// position at a non-canonical hungry set is valued one move ahead.
    ///
    /// # Errors
    /// As [`Tablebase::probe_wdl`]; [`ProbeError::NotForRules`] outside Clesto;
    /// [`ProbeError::Inconsistent`] when the DTM and ban files contradict each other.
    pub fn probe_clesto(&self, pos: &Position) -> ProbeResult<ClestoValue> {
        if !self.rules().has_hunger() {
            return Err(ProbeError::NotForRules {
                rules: self.rules().name(),
                what: "a Clesto value",
            });
        }
        if !pos.hungry_is_canonical() {
            self.covers(pos)?;
            return super::value_by_lookahead(pos, |next| self.probe_clesto(next));
        }
        let (table, [plain, ban]) = self.stored_value_pair(pos, [Kind::Dtm, Kind::Ban])?;
        let banned = pos.turn() == super::banned_side(table);
        ClestoValue::from_parts(plain, ban, banned).ok_or_else(|| ProbeError::Inconsistent {
            position: pos.to_string(),
            noun: "move",
            kind: Kind::Ban,
            stored: ban,
            best: Some(plain),
        })
    }

    /// Every legal move of a Clesto position with its value for the mover
    /// ([`ClestoValue::after_move`]), in move order (ASCII).
    ///
    /// # Errors
    /// As [`Tablebase::probe_clesto`], for the position or any successor.
    pub fn clesto_moves(&self, pos: &Position) -> ProbeResult<Vec<(Move, ClestoValue)>> {
        self.probe_clesto(pos)?;
        let mut moves = Vec::new();
        super::for_each_move_value(
            pos,
            |next| self.probe_clesto(next),
            |mv, v| moves.push((mv, v)),
        )?;
        moves.sort_unstable_by_key(|&(mv, _)| mv);
        Ok(moves)
    }

    /// The best move of a Clesto position (RULES.md 6.6) and its value: the best value for the
    /// mover (shortest plain win; B's shortest way out of the material; U's moves that keep B
    /// from winning; the longest loss), the smallest in ASCII order among equals. `None` without
    /// a move.
    ///
    /// # Errors
    /// As [`Tablebase::clesto_moves`], and [`ProbeError::Inconsistent`] when the best move's
    /// value is not the position's.
    pub fn clesto_best_move(&self, pos: &Position) -> ProbeResult<Option<(Move, ClestoValue)>> {
        let root = self.probe_clesto(pos)?;
        let moves = self.clesto_moves(pos)?;
        // The first of the best: `max_by_key` keeps the last maximum, so go from the end.
        let best = moves.into_iter().rev().max_by_key(|&(_, v)| v);
        match best {
            Some((_, v)) if v != root => Err(ProbeError::Inconsistent {
                position: pos.to_string(),
                noun: "move",
                kind: Kind::Ban,
                stored: root.ban_part(),
                best: Some(v.ban_part()),
            }),
            None if root != ClestoValue::Plain(Value::Loss(0)) => Err(ProbeError::Inconsistent {
                position: pos.to_string(),
                noun: "move",
                kind: Kind::Dtm,
                stored: root.plain_part(),
                best: None,
            }),
            best => Ok(best),
        }
    }

    /// The best line of a Clesto position: best moves by both sides to the end of the game, or
    /// up to the first position that the unbanned side wins only by the ban (from there the
    /// game ends only by the ban; RULES.md 6.6). Empty when `pos` is such a position.
    ///
    /// # Errors
    /// As [`Tablebase::clesto_best_move`].
    pub fn clesto_line(&self, pos: &Position) -> ProbeResult<Vec<LineStep<ClestoValue>>> {
        let u_wins = |v: ClestoValue| {
            matches!(
                v,
                ClestoValue::BanWin { exit: None } | ClestoValue::BanLoss { exit: None }
            )
        };
        // From a position the unbanned side wins only by the ban, the line goes no further.
        self.play_line(
            pos.clone(),
            |p| {
                if u_wins(self.probe_clesto(p)?) {
                    return Ok(None);
                }
                Ok(self.clesto_best_move(p)?.map(|(mv, _)| mv))
            },
            |p| self.probe_clesto(p),
        )
    }
}
