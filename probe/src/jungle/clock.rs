//! The clock rule (RULES.md section 5): distance to conversion (DTC), rule values at any clock,
//! and the five categories.
//!
//! The game is drawn when the half-move clock reaches the rule set's limit `L`
//! ([`RuleSet::clock_limit`]: 100 in Jungle, 40 in the flip game); a capture or trade resets it.
//! A table's DTC file gives every position its distance to the first conversion (or the end of
//! the game), with conversions valued by the smaller position's rule value at clock 0. The rule
//! value at clock `c` is then one comparison: a win (loss) when the DTC is a win (loss) in at
//! most `L - c` plies, else a draw.

use std::fmt;

use crate::{
    rules::RuleSet,
    value::{Value, Wdl},
};

/// The rule value at clock `clock` of a position whose DTC is `dtc`, under a clock limit of
/// `limit` (RULES.md 5.4): a win or loss when it comes within the `limit - clock` plies left,
/// otherwise a draw. At `clock >= limit` the game is drawn.
#[must_use]
pub const fn rule_wdl(dtc: Value, clock: u32, limit: u32) -> Wdl {
    if clock >= limit {
        return Wdl::Draw;
    }
    let left = limit - clock;
    match dtc {
        Value::Win(d) if d as u32 <= left => Wdl::Win,
        Value::Loss(d) if d as u32 <= left => Wdl::Loss,
        _ => Wdl::Draw,
    }
}

/// The DTC value, for the side that made it, of a conversion (a capture or trade that leaves
/// both sides a piece) into a position whose rule value at clock 0 is `after` for the side then
/// to move: a win or loss in 1, or a draw (RULES.md 5.3).
#[must_use]
pub const fn conversion_value(after: Wdl) -> Value {
    after.flipped().of_final_move()
}

/// Where a position stands under the clock rule at clock 0 (RULES.md 5.5), as in Syzygy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Category {
    /// A plain loss that the side to move loses under the rule too.
    Loss,
    /// A plain loss that the clock saves: a rule draw at clock 0.
    BlessedLoss,
    /// A plain draw.
    Draw,
    /// A plain win that the clock spoils: a rule draw at clock 0.
    CursedWin,
    /// A plain win that the side to move wins under the rule too.
    Win,
}

impl Category {
    /// The category of a position from its plain value and its DTC, under `limit`.
    #[must_use]
    pub const fn of(plain: Wdl, dtc: Value, limit: u32) -> Category {
        match (plain, rule_wdl(dtc, 0, limit)) {
            (_, Wdl::Win) => Category::Win,
            (_, Wdl::Loss) => Category::Loss,
            (Wdl::Win, Wdl::Draw) => Category::CursedWin,
            (Wdl::Loss, Wdl::Draw) => Category::BlessedLoss,
            (Wdl::Draw, Wdl::Draw) => Category::Draw,
        }
    }

    /// The category when the DTC alone settles it: a DTC win or loss implies the same plain
    /// value, so only a DTC draw needs the plain value. `None` for a DTC draw.
    #[must_use]
    pub const fn of_decided_dtc(dtc: Value, limit: u32) -> Option<Category> {
        match dtc {
            Value::Draw => None,
            Value::Win(_) => Some(Category::of(Wdl::Win, dtc, limit)),
            Value::Loss(_) => Some(Category::of(Wdl::Loss, dtc, limit)),
        }
    }

    /// `win`, `cursed-win`, `draw`, `blessed-loss` or `loss`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Category::Loss => "loss",
            Category::BlessedLoss => "blessed-loss",
            Category::Draw => "draw",
            Category::CursedWin => "cursed-win",
            Category::Win => "win",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The answer of a rule probe: the position's value under the clock rule at its clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use]
pub struct RuleValue {
    /// The clock the value is for.
    pub clock: u32,
    /// The clock limit of the rule set.
    pub limit: u32,
    /// Win, draw or loss under the rule at `clock`.
    pub wdl: Wdl,
    /// The distance to conversion (a draw where no conversion or game end can be forced).
    pub dtc: Value,
    /// The category at clock 0.
    pub category: Category,
}

impl RuleValue {
    /// The rule value of a position with this DTC and category at `clock` under `rules`.
    pub const fn new(rules: RuleSet, clock: u32, dtc: Value, category: Category) -> RuleValue {
        let limit = rules.clock_limit();
        RuleValue {
            clock,
            limit,
            wdl: rule_wdl(dtc, clock, limit),
            dtc,
            category,
        }
    }

    /// Whether the position is drawn under the rule at its clock: a dead draw.
    #[must_use]
    pub fn is_draw(&self) -> bool {
        self.wdl == Wdl::Draw
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_value_compares_dtc_with_the_plies_left() {
        assert_eq!(rule_wdl(Value::Win(60), 40, 100), Wdl::Win);
        assert_eq!(rule_wdl(Value::Win(61), 40, 100), Wdl::Draw);
        assert_eq!(rule_wdl(Value::Loss(0), 99, 100), Wdl::Loss);
        assert_eq!(rule_wdl(Value::Loss(0), 100, 100), Wdl::Draw);
        assert_eq!(rule_wdl(Value::Win(1), 99, 100), Wdl::Win);
        assert_eq!(rule_wdl(Value::Draw, 0, 100), Wdl::Draw);
        assert_eq!(rule_wdl(Value::Win(101), 0, 100), Wdl::Draw);
    }

    #[test]
    fn categories() {
        assert_eq!(Category::of(Wdl::Win, Value::Win(100), 100), Category::Win);
        assert_eq!(
            Category::of(Wdl::Win, Value::Win(101), 100),
            Category::CursedWin
        );
        assert_eq!(Category::of(Wdl::Win, Value::Draw, 40), Category::CursedWin);
        assert_eq!(
            Category::of(Wdl::Loss, Value::Loss(41), 40),
            Category::BlessedLoss
        );
        assert_eq!(Category::of(Wdl::Draw, Value::Draw, 40), Category::Draw);
        assert_eq!(Category::of_decided_dtc(Value::Draw, 40), None);
        assert_eq!(
            Category::of_decided_dtc(Value::Loss(2), 40),
            Some(Category::Loss)
        );
        assert_eq!(conversion_value(Wdl::Loss), Value::Win(1));
        assert_eq!(conversion_value(Wdl::Win), Value::Loss(1));
        assert_eq!(conversion_value(Wdl::Draw), Value::Draw);
    }
}
