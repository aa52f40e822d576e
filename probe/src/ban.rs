//! Clesto's values (RULES.md section 6): no draws. A position is a plain win or loss with its
//! distance to mate, or, where the game without the ban would be drawn, a win of one side by
//! the repetition ban.

use std::fmt;

use crate::{
    material::Material,
    moves::Outcome,
    piece::Color,
    position::Position,
    value::{Value, Wdl},
};

/// The side the repetition ban binds in `material`: the one with more animals, Red when both
/// have as many (RULES.md 6, "End of the game" 4). It may not repeat a position a fourth time.
#[must_use]
pub fn banned_side(material: Material) -> Color {
    if material.count(Color::Blue) > material.count(Color::Red) {
        Color::Blue
    } else {
        Color::Red
    }
}

/// The value of a Clesto position for its side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClestoValue {
    /// A plain win or loss (RULES.md 6, values 1-2): the game ends in this many plies with best
    /// play, the ban aside. Never a draw.
    Plain(Value),
    /// A plain draw that the side to move wins by the ban (values 3). `exit` is set when the
    /// mover is the banned side B: the plies until it forces the game into a smaller material at
    /// a position it wins there (B shortest, the other side longest).
    BanWin {
        /// B's exit distance, when the mover is B.
        exit: Option<u16>,
    },
    /// A plain draw that the side to move loses by the ban. `exit` is set when the mover is the
    /// unbanned side U, whom B forces out of the material in that many plies.
    BanLoss {
        /// B's exit distance, when the mover is U.
        exit: Option<u16>,
    },
}

impl ClestoValue {
    /// Win or loss: Clesto has no draws.
    #[must_use]
    pub const fn wdl(self) -> Wdl {
        match self {
            ClestoValue::Plain(v) => v.wdl(),
            ClestoValue::BanWin { .. } => Wdl::Win,
            ClestoValue::BanLoss { .. } => Wdl::Loss,
        }
    }

    /// The distance to mate of a plain value; `None` where the ban decides.
    #[must_use]
    pub const fn dtm(self) -> Option<u16> {
        match self {
            ClestoValue::Plain(v) => v.dtm(),
            _ => None,
        }
    }

    /// `win`, `loss`, `ban-win` or `ban-loss`.
    #[must_use]
    pub const fn category(self) -> &'static str {
        match self {
            ClestoValue::Plain(Value::Win(_)) => "win",
            ClestoValue::Plain(_) => "loss",
            ClestoValue::BanWin { .. } => "ban-win",
            ClestoValue::BanLoss { .. } => "ban-loss",
        }
    }

    /// The value from its two stored parts: `plain` (the DTM file's value) and `ban` (the
    /// ban file's: a win or loss in B's exit distance inside B's reach, a draw outside it).
    /// `None` when they contradict each other (a damaged or foreign file).
    #[must_use]
    pub const fn from_parts(
        plain: Value,
        ban: Value,
        mover_is_banned: bool,
    ) -> Option<ClestoValue> {
        Some(match (plain, ban, mover_is_banned) {
            (Value::Draw, Value::Win(e), true) => ClestoValue::BanWin { exit: Some(e) },
            (Value::Draw, Value::Loss(e), false) => ClestoValue::BanLoss { exit: Some(e) },
            (Value::Draw, Value::Draw, true) => ClestoValue::BanLoss { exit: None },
            (Value::Draw, Value::Draw, false) => ClestoValue::BanWin { exit: None },
            (Value::Draw, _, _) => return None,
            (plain, _, _) => ClestoValue::Plain(plain),
        })
    }

    /// The ban file's value of this one ([`ClestoValue::from_parts`]): B's exit distance as a
    /// win or loss of the mover, a draw otherwise (plain values included).
    #[must_use]
    pub const fn ban_part(self) -> Value {
        match self {
            ClestoValue::BanWin { exit: Some(e) } => Value::Win(e),
            ClestoValue::BanLoss { exit: Some(e) } => Value::Loss(e),
            _ => Value::Draw,
        }
    }

    /// The DTM file's value of this one: the plain value, or a draw where the ban decides.
    #[must_use]
    pub const fn plain_part(self) -> Value {
        match self {
            ClestoValue::Plain(v) => v,
            _ => Value::Draw,
        }
    }
}

impl fmt::Display for ClestoValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClestoValue::Plain(v) => v.fmt(f),
            ClestoValue::BanWin { exit: Some(e) } => {
                write!(f, "win by the ban (out of the material in {e})")
            }
            ClestoValue::BanWin { exit: None } => f.write_str("win by the ban"),
            ClestoValue::BanLoss { exit: Some(e) } => {
                write!(f, "loss by the ban (out of the material in {e})")
            }
            ClestoValue::BanLoss { exit: None } => f.write_str("loss by the ban"),
        }
    }
}

/// The value of `pos` from its moves (one ply deep), given the value of every position a move
/// can lead to (`value_of`, called once per move): how a position at a non-canonical hungry set
/// is valued (RULES.md 6: it arises only on entering a smaller material, and each of its moves
/// again stays in a material at a canonical set or leaves it), and what a one-ply check of a
/// stored value compares it with.
///
/// Plain values first: the best of the moves' plain values, one ply further (a position
/// without moves is a loss in 0). Where that is a draw, the ban decides: the mover wins when a
/// move leads to a position that its opponent loses; B's exit distance is one more than the
/// best such move's (B shortest, U longest), counting 0 for a move that leaves the material
/// or lands where B wins plainly.
///
/// # Errors
/// The first error of `value_of`.
pub fn value_by_lookahead<E>(
    pos: &Position,
    mut value_of: impl FnMut(&Position) -> Result<ClestoValue, E>,
) -> Result<ClestoValue, E> {
    let material = Material::of(pos);
    let mover_is_banned = pos.turn() == banned_side(material);
    let mut plain: Option<Value> = None;
    // Per move: whether it wins for the mover, and B's distance through it.
    let mut wins = Vec::new();
    let mut exits_when_losing = Vec::new();
    let mut err = None;
    pos.for_each_outcome(|_, outcome| {
        if err.is_some() {
            return;
        }
        let (value, after) = match outcome {
            Outcome::Over { result, .. } => (result.of_final_move(), None),
            Outcome::Ongoing(next) => match value_of(&next) {
                Ok(v) => (v.plain_part().back_one_ply(), Some((next, v))),
                Err(e) => {
                    err = Some(e);
                    return;
                }
            },
        };
        plain = Some(plain.map_or(value, |p| p.max(value)));
        // Through this move, how far B is from leaving the material at a position it wins.
        let (wins_here, exit) = match &after {
            None => (value.wdl() == Wdl::Win, 0),
            Some((next, v)) => {
                let same = Material::of(next) == material;
                let exit = match v {
                    ClestoValue::BanWin { exit: Some(e) }
                    | ClestoValue::BanLoss { exit: Some(e) }
                        if same =>
                    {
                        *e
                    }
                    _ => 0,
                };
                (v.wdl() == Wdl::Loss, exit)
            }
        };
        if wins_here {
            wins.push(exit);
        }
        exits_when_losing.push(exit);
    });
    if let Some(e) = err {
        return Err(e);
    }
    let plain = plain.unwrap_or(Value::Loss(0));
    if plain != Value::Draw {
        return Ok(ClestoValue::Plain(plain));
    }
    Ok(match (wins.iter().min(), mover_is_banned) {
        (Some(&e), true) => ClestoValue::BanWin { exit: Some(e + 1) },
        (Some(_), false) => ClestoValue::BanWin { exit: None },
        (None, true) => ClestoValue::BanLoss { exit: None },
        (None, false) => ClestoValue::BanLoss {
            exit: Some(exits_when_losing.iter().max().map_or(0, |&e| e) + 1),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_banned_side_has_more_animals_or_is_red() {
        let m = |s: &str| s.parse::<Material>().unwrap();
        assert_eq!(banned_side(m("LRvE")), Color::Red);
        assert_eq!(banned_side(m("EvLR")), Color::Blue);
        assert_eq!(banned_side(m("EvL")), Color::Red);
        assert_eq!(banned_side(m("RvE")), Color::Red);
    }

    #[test]
    fn parts_round_trip() {
        for v in [
            ClestoValue::Plain(Value::Win(3)),
            ClestoValue::Plain(Value::Loss(0)),
            ClestoValue::BanWin { exit: Some(5) },
            ClestoValue::BanLoss { exit: Some(4) },
            ClestoValue::BanWin { exit: None },
            ClestoValue::BanLoss { exit: None },
        ] {
            let banned = matches!(
                v,
                ClestoValue::BanWin { exit: Some(_) } | ClestoValue::BanLoss { exit: None }
            );
            assert_eq!(
                ClestoValue::from_parts(v.plain_part(), v.ban_part(), banned),
                Some(v)
            );
        }
        assert_eq!(
            ClestoValue::from_parts(Value::Draw, Value::Win(2), false),
            None
        );
    }
}
