//! Clesto's values (RULES.md section 6): no draws. A position is a plain win or loss with its
//! distance to mate, or, where the game without the ban would be drawn, a win of one side by
//! the repetition ban.

mod game;
pub(crate) mod hunger;
mod probe;

pub use self::{game::Clesto, probe::adjudicate_clesto};

use std::fmt;

use crate::{
    material::Material,
    moves::{Move, Outcome},
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

    /// The banned side's exit distance where the ban decides and it has one (a win of B, a
    /// loss of U); `None` for plain values and where B cannot get out.
    #[must_use]
    pub const fn exit(self) -> Option<u16> {
        match self {
            ClestoValue::BanWin { exit } | ClestoValue::BanLoss { exit } => exit,
            ClestoValue::Plain(_) => None,
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
/// can lead to (`value_of`, called once per move): the best of its moves' values
/// ([`ClestoValue::after_move`]), a loss in 0 without moves. This is how a position at a
/// non-canonical hungry set is valued (RULES.md 6: it arises only on entering a smaller
/// material, and each of its moves again stays in a material at a canonical set or leaves it),
/// and what a one-ply check of a stored value compares it with.
///
/// # Errors
/// The first error of `value_of`.
pub fn value_by_lookahead<E>(
    pos: &Position,
    value_of: impl FnMut(&Position) -> Result<ClestoValue, E>,
) -> Result<ClestoValue, E> {
    let mut best = None;
    for_each_move_value(pos, value_of, |_, v| {
        best = Some(best.map_or(v, |b: ClestoValue| b.max(v)));
    })?;
    Ok(best.unwrap_or(ClestoValue::Plain(Value::Loss(0))))
}

/// Calls `f` with every legal move of `pos` and its value for the mover
/// ([`ClestoValue::after_move`]), the positions it leads to valued by `value_of`.
///
/// # Errors
/// The first error of `value_of`; `f` is not called after it.
pub fn for_each_move_value<E>(
    pos: &Position,
    mut value_of: impl FnMut(&Position) -> Result<ClestoValue, E>,
    mut f: impl FnMut(Move, ClestoValue),
) -> Result<(), E> {
    let material = Material::of(pos);
    let mover_is_banned = pos.turn() == banned_side(material);
    let mut err = None;
    pos.for_each_outcome(|mv, outcome| {
        if err.is_some() {
            return;
        }
        let value = match outcome {
            Outcome::Over { result, .. } => ClestoValue::Plain(result.of_final_move()),
            Outcome::Ongoing(next) => match value_of(&next) {
                Ok(v) => v.after_move(Material::of(&next) == material, mover_is_banned),
                Err(e) => {
                    err = Some(e);
                    return;
                }
            },
        };
        f(mv, value);
    });
    err.map_or(Ok(()), Err)
}

impl ClestoValue {
    /// What a move into a position of value `self` (for its side to move, the opponent) is
    /// worth to the mover: plain values one ply further; a ban value for the other side, with
    /// B's exit distance one ply longer when the move stays in the material (`same_material`)
    /// and 1 when it leaves it (B has then left at a position it wins).
    ///
    /// # Panics
    /// If `self` lacks the exit distance its side to move must have in the mover's material.
    #[must_use]
    pub fn after_move(self, same_material: bool, mover_is_banned: bool) -> ClestoValue {
        let exit = |e: Option<u16>| {
            Some(if same_material {
                e.expect("B's exit distance in B's own material") + 1
            } else {
                1
            })
        };
        match (self, mover_is_banned) {
            (ClestoValue::Plain(v), _) => ClestoValue::Plain(v.back_one_ply()),
            (ClestoValue::BanLoss { exit: e }, true) => ClestoValue::BanWin { exit: exit(e) },
            (ClestoValue::BanLoss { .. }, false) => ClestoValue::BanWin { exit: None },
            (ClestoValue::BanWin { .. }, true) => ClestoValue::BanLoss { exit: None },
            (ClestoValue::BanWin { exit: e }, false) => ClestoValue::BanLoss { exit: exit(e) },
        }
    }

    /// A number that orders values from the mover's point of view (larger is better): plain
    /// wins (the shorter the better), ban wins (the shorter B's way out the better), ban losses
    /// (the longer the better), plain losses (the longer the better).
    const fn score(self) -> i32 {
        match self {
            ClestoValue::Plain(Value::Win(n)) => 300_000 - n as i32,
            ClestoValue::BanWin { exit: Some(e) } => 200_000 - e as i32,
            ClestoValue::BanWin { exit: None } => 100_000,
            ClestoValue::BanLoss { exit: None } => -100_000,
            ClestoValue::BanLoss { exit: Some(e) } => -200_000 + e as i32,
            ClestoValue::Plain(Value::Loss(n)) => -300_000 + n as i32,
            ClestoValue::Plain(Value::Draw) => 0,
        }
    }
}

impl PartialOrd for ClestoValue {
    fn partial_cmp(&self, other: &ClestoValue) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for ClestoValue {
    fn cmp(&self, other: &ClestoValue) -> std::cmp::Ordering {
        self.score().cmp(&other.score())
    }
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
