//! Clesto's probes (RULES.md 6), on `Tablebase<Clesto>`: the value of a position with the
//! repetition ban, every move's value for its mover, the best move and the best line. A table
//! is a DTM file and a ban file per material, with a WDL file of the values with the ban.

use super::Clesto;
use crate::{
    adjudicate::{not_covered, Verdict, VerdictReason},
    core::{Indexed, ProbeError, ProbeResult},
    format::Kind,
    moves::Move,
    position::Position,
    value::{Value, Wdl},
    ClestoValue,
};
use crate::{LineStep, Tablebase};

impl Tablebase<Clesto> {
    /// Win or loss for the side to move (Clesto has no draws): a win by the ban is a win. One
    /// read of the WDL file, which holds the values with the ban; a position at a
    /// non-canonical hungry set is valued one move ahead.
    ///
    /// # Errors
    /// A [`ProbeError`]: a position no table holds (a finished game, another rule set), too
    /// many pieces, a missing table, or a bad file.
    pub fn probe_wdl(&self, pos: &Position) -> ProbeResult<Wdl> {
        if !pos.hungry_is_canonical() {
            return Ok(self.probe_clesto(pos)?.wdl());
        }
        self.stored_wdl(pos)
    }

    /// The value of a Clesto position (RULES.md 6): a plain win or loss with its distance to
    /// mate, or a win or loss by the repetition ban, with B's exit distance on B's side. A
    /// position at a non-canonical hungry set is valued one move ahead.
    ///
    /// # Errors
    /// As [`Tablebase::probe_wdl`]; [`ProbeError::Inconsistent`] when the DTM and ban files
    /// contradict each other.
    pub fn probe_clesto(&self, pos: &Position) -> ProbeResult<ClestoValue> {
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
    pub fn clesto_line(&self, pos: &Position) -> ProbeResult<Vec<LineStep<ClestoValue, Clesto>>> {
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

/// Whether a Clesto position is decided: Clesto has no draws, so it is never a dead draw, and
/// where `tables` cover it they give the forced result ([`VerdictReason::NoDraws`]); a
/// position they do not cover is [`VerdictReason::NotCovered`].
///
/// # Errors
/// [`ProbeError::GameOver`] for a finished game, [`ProbeError::WrongRules`] for a position of
/// another rule set, and errors of damaged table files.
pub fn adjudicate_clesto(
    tables: Option<&Tablebase<Clesto>>,
    pos: &Position,
) -> ProbeResult<Verdict> {
    if pos.is_game_over() {
        return Err(ProbeError::GameOver);
    }
    Clesto.check_position(pos)?;
    let value = match tables.map(|tb| tb.probe_clesto(pos)) {
        Some(Ok(v)) => v,
        Some(Err(e)) if e.is_missing() => {
            return Ok(not_covered(Some(e), 0, 1));
        }
        Some(Err(e)) => return Err(e),
        None => return Ok(not_covered(None, 0, 1)),
    };
    let winner = match value.wdl() {
        Wdl::Win => pos.turn(),
        _ => pos.turn().other(),
    };
    Ok(Verdict {
        dead_draw: false,
        value: match value {
            ClestoValue::Plain(v) => Some(v),
            _ => None,
        },
        rule: None,
        reason: VerdictReason::NoDraws { winner, value },
    })
}
