//! Game values: win/draw/loss and distance to mate.

use std::fmt;

/// Win, draw or loss, for the side to move unless said otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Wdl {
    /// The side loses with best play.
    Loss,
    /// Neither side can force a result.
    Draw,
    /// The side wins with best play.
    Win,
}

impl Wdl {
    /// The same result seen from the other side.
    #[must_use]
    pub const fn flipped(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
            Wdl::Win => Wdl::Loss,
        }
    }

    /// The value, for the side that made it, of a move that ended the game with this result:
    /// a win or a loss one ply away, or a draw (RULES.md section 3).
    #[must_use]
    pub const fn of_final_move(self) -> Value {
        match self {
            Wdl::Win => Value::Win(1),
            Wdl::Draw => Value::Draw,
            Wdl::Loss => Value::Loss(1),
        }
    }

    /// `win`, `draw` or `loss`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Wdl::Loss => "loss",
            Wdl::Draw => "draw",
            Wdl::Win => "win",
        }
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A value with its distance to mate: a draw, or a win or loss in a number of plies.
///
/// Ordered from the mover's point of view: a shorter win is better than a longer one, a longer
/// loss better than a shorter one, and any win better than a draw better than any loss.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Value {
    /// Win in this many plies (at least 1).
    Win(u16),
    /// Draw.
    Draw,
    /// Loss in this many plies (0: the mover has no move).
    Loss(u16),
}

impl Value {
    /// Win, draw or loss.
    #[must_use]
    pub const fn wdl(self) -> Wdl {
        match self {
            Value::Win(_) => Wdl::Win,
            Value::Draw => Wdl::Draw,
            Value::Loss(_) => Wdl::Loss,
        }
    }

    /// Plies to the end of the game, `None` for a draw.
    #[must_use]
    pub const fn dtm(self) -> Option<u16> {
        match self {
            Value::Win(n) | Value::Loss(n) => Some(n),
            Value::Draw => None,
        }
    }

    /// The value of the position before a move that leads to `self` (seen from the side that
    /// moves next): one ply further, and from the other side.
    #[must_use]
    pub const fn back_one_ply(self) -> Value {
        match self {
            Value::Win(n) => Value::Loss(n + 1),
            Value::Draw => Value::Draw,
            Value::Loss(n) => Value::Win(n + 1),
        }
    }

    /// The 16-bit code of the table files: 0 draw, `2d + 1` win in `d`, `2d + 2` loss in `d`.
    #[must_use]
    pub const fn code(self) -> u16 {
        match self {
            Value::Draw => 0,
            Value::Win(d) => 2 * d + 1,
            Value::Loss(d) => 2 * d + 2,
        }
    }

    /// The value of a code ([`Value::code`]); `None` for the unused code 1 (a win in 0).
    #[must_use]
    pub const fn from_code(code: u16) -> Option<Value> {
        match code {
            0 => Some(Value::Draw),
            1 => None,
            c if c % 2 == 1 => Some(Value::Win(c / 2)),
            c => Some(Value::Loss(c / 2 - 1)),
        }
    }

    /// A number that orders values as [`Ord`] does, from the mover's point of view: larger is
    /// better. [`Value::from_order_key`] turns it back into the value.
    #[must_use]
    #[inline]
    pub const fn order_key(self) -> i32 {
        match self {
            Value::Win(n) => Value::KEY_BASE - n as i32,
            Value::Draw => 0,
            Value::Loss(n) => -Value::KEY_BASE + n as i32,
        }
    }

    /// The value of an [`Value::order_key`]; `None` for a number that is no value's key.
    #[must_use]
    pub const fn from_order_key(key: i32) -> Option<Value> {
        let d = Value::KEY_BASE - key.abs();
        if key == 0 {
            Some(Value::Draw)
        } else if d < 0 || d > u16::MAX as i32 {
            None
        } else if key > 0 {
            Some(Value::Win(d as u16))
        } else {
            Some(Value::Loss(d as u16))
        }
    }

    /// Above every distance: wins score near it, losses near its negative.
    const KEY_BASE: i32 = 1 << 20;
}

impl PartialOrd for Value {
    #[inline]
    fn partial_cmp(&self, other: &Value) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Value {
    #[inline]
    fn cmp(&self, other: &Value) -> std::cmp::Ordering {
        self.order_key().cmp(&other.order_key())
    }
}

/// A count of plies for messages.
///
/// ```
/// use jtb_probe::Plies;
///
/// assert_eq!(Plies(1).to_string(), "1 ply");
/// assert_eq!(Plies(17).to_string(), "17 plies");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plies(pub u16);

impl fmt::Display for Plies {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            1 => f.write_str("1 ply"),
            n => write!(f, "{n} plies"),
        }
    }
}

/// A distance in Animal Gambit's turns, as text: `1 turn`, `5 turns`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Turns(pub u16);

impl fmt::Display for Turns {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            1 => f.write_str("1 turn"),
            n => write!(f, "{n} turns"),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(n) => write!(f, "win in {n}"),
            Value::Draw => f.write_str("draw"),
            Value::Loss(n) => write!(f, "loss in {n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_keys_order_as_values_do_and_turn_back() {
        let values: Vec<Value> = (0..300)
            .flat_map(|d| [Value::Win(d), Value::Loss(d)])
            .chain([Value::Draw, Value::Win(u16::MAX), Value::Loss(u16::MAX)])
            .collect();
        for &a in &values {
            assert_eq!(Value::from_order_key(a.order_key()), Some(a));
            for &b in &values {
                assert_eq!(a.order_key().cmp(&b.order_key()), a.cmp(&b), "{a} {b}");
            }
        }
        assert_eq!(Value::from_order_key(1 << 22), None);
    }
}
