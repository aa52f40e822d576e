//! Chance values (RULES.md 8): a score with its win and draw probabilities, exact.

use std::{cmp::Ordering, fmt};

use crate::value::Wdl;

/// The common denominator of every chance value with up to five face-down tiles: 2 x 5!. A
/// score with k face-down tiles is a multiple of 1 / (2 k!), a probability of 1 / k!.
pub const DENOMINATOR: u32 = 240;
const D: u8 = DENOMINATOR as u8;

/// The exact value of a flip position for the side to move (RULES.md 8): the score (expected
/// result, win 1, draw 1/2, loss 0) and the probabilities of a win and a draw under the stated
/// way of playing. Ordered as the players choose: by score, then by the chance of a win.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ChanceValue {
    /// Score times [`DENOMINATOR`].
    score: u8,
    /// Probability of a win times [`DENOMINATOR`].
    win: u8,
}

impl ChanceValue {
    /// A certain win.
    pub const WIN: ChanceValue = ChanceValue { score: D, win: D };
    /// A certain draw.
    pub const DRAW: ChanceValue = ChanceValue {
        score: D / 2,
        win: 0,
    };
    /// A certain loss.
    pub const LOSS: ChanceValue = ChanceValue { score: 0, win: 0 };

    /// The value of a result known for certain.
    #[must_use]
    pub const fn certain(wdl: Wdl) -> ChanceValue {
        match wdl {
            Wdl::Win => ChanceValue::WIN,
            Wdl::Draw => ChanceValue::DRAW,
            Wdl::Loss => ChanceValue::LOSS,
        }
    }

    /// The value of a score and a win probability given over [`DENOMINATOR`]; `None` unless
    /// `0 <= win <= score` and the draw probability `2 (score - win)` leaves room for the win.
    #[must_use]
    pub fn new(score: u32, win: u32) -> Option<ChanceValue> {
        let draw = 2 * score.checked_sub(win)?;
        (win + draw <= DENOMINATOR).then_some(ChanceValue {
            score: score as u8,
            win: win as u8,
        })
    }

    /// The score: the expected result for the side to move.
    #[must_use]
    pub fn score(self) -> Fraction {
        Fraction::new(self.score.into())
    }

    /// The probability that the side to move wins.
    #[must_use]
    pub fn win(self) -> Fraction {
        Fraction::new(self.win.into())
    }

    /// The probability of a draw.
    #[must_use]
    pub fn draw(self) -> Fraction {
        Fraction::new(self.draw_part())
    }

    /// The probability that the side to move loses.
    #[must_use]
    pub fn loss(self) -> Fraction {
        Fraction::new(DENOMINATOR - u32::from(self.win) - self.draw_part())
    }

    /// The score, win and draw probabilities over [`DENOMINATOR`].
    #[must_use]
    pub fn parts(self) -> [u32; 3] {
        [self.score.into(), self.win.into(), self.draw_part()]
    }

    fn draw_part(self) -> u32 {
        2 * u32::from(self.score - self.win)
    }

    /// Whether the result is certain (probability 1 of a win, a draw or a loss).
    #[must_use]
    pub fn is_certain(self) -> bool {
        [ChanceValue::WIN, ChanceValue::DRAW, ChanceValue::LOSS].contains(&self)
    }

    /// This position's value seen by the side that moved into it: one minus the score, and
    /// the win and loss exchanged.
    #[must_use]
    pub const fn for_mover(self) -> ChanceValue {
        let draw = 2 * (self.score - self.win);
        ChanceValue {
            score: D - self.score,
            win: D - self.win - draw,
        }
    }

    /// The exact average of the outcomes of a flip, each equally likely; `None` for no
    /// outcomes, or an average that is not a multiple of 1 / [`DENOMINATOR`] (more than five
    /// outcomes).
    #[must_use]
    pub fn average(outcomes: &[ChanceValue]) -> Option<ChanceValue> {
        let n = u32::try_from(outcomes.len()).ok().filter(|&n| n > 0)?;
        let sum = |f: fn(&ChanceValue) -> u8| outcomes.iter().map(|v| u32::from(f(v))).sum::<u32>();
        let (score, win) = (sum(|v| v.score), sum(|v| v.win));
        (score % n == 0 && win % n == 0).then(|| ChanceValue {
            score: (score / n) as u8,
            win: (win / n) as u8,
        })
    }

    /// The code stored for this value in a table with `hidden` face-down tiles: the score over
    /// 2 k! times k! + 1, plus the win probability over k!. `None` when the value is not a
    /// multiple of those denominators (or `hidden` is 0 or above 5).
    #[must_use]
    pub fn code(self, hidden: usize) -> Option<u16> {
        let [score_unit, win_unit, wins] = units(hidden)?;
        let (score, win) = (u32::from(self.score), u32::from(self.win));
        (score % score_unit == 0 && win % win_unit == 0)
            .then(|| (score / score_unit * wins + win / win_unit) as u16)
    }

    /// The value of a stored code ([`ChanceValue::code`]); `None` for a code no table with
    /// `hidden` face-down tiles holds.
    #[must_use]
    pub fn from_code(code: u16, hidden: usize) -> Option<ChanceValue> {
        let [score_unit, win_unit, wins] = units(hidden)?;
        let code = u32::from(code);
        ChanceValue::new(code / wins * score_unit, code % wins * win_unit)
    }

    /// The largest code of a table with `hidden` face-down tiles.
    #[must_use]
    pub fn max_code(hidden: usize) -> Option<u16> {
        ChanceValue::WIN.code(hidden)
    }
}

/// Per count of face-down tiles k: the score's step (1 / (2 k!) over [`DENOMINATOR`]), the win
/// probability's step (1 / k!), and the number of win probabilities (k! + 1).
fn units(hidden: usize) -> Option<[u32; 3]> {
    let factorial = match hidden {
        1..=5 => (1..=hidden as u32).product::<u32>(),
        _ => return None,
    };
    Some([
        DENOMINATOR / (2 * factorial),
        DENOMINATOR / factorial,
        factorial + 1,
    ])
}

impl fmt::Display for ChanceValue {
    /// `score 5/8 (win 1/2, draw 1/4, loss 1/4)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "score {} (win {}, draw {}, loss {})",
            self.score(),
            self.win(),
            self.draw(),
            self.loss()
        )
    }
}

/// An exact fraction between 0 and 1, printed in lowest terms (`5/8`, `0`, `1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fraction {
    /// Numerator, lowest terms.
    pub numerator: u32,
    /// Denominator, lowest terms (1 for 0 and 1).
    pub denominator: u32,
}

impl Fraction {
    fn new(over_denominator: u32) -> Fraction {
        let g = gcd(over_denominator, DENOMINATOR);
        Fraction {
            numerator: over_denominator / g,
            denominator: DENOMINATOR / g,
        }
    }

    /// As a percentage, for display.
    #[must_use]
    pub fn percent(self) -> f64 {
        100.0 * f64::from(self.numerator) / f64::from(self.denominator)
    }
}

impl PartialOrd for Fraction {
    fn partial_cmp(&self, other: &Fraction) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Fraction {
    fn cmp(&self, other: &Fraction) -> Ordering {
        (u64::from(self.numerator) * u64::from(other.denominator))
            .cmp(&(u64::from(other.numerator) * u64::from(self.denominator)))
    }
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

impl fmt::Display for Fraction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.denominator == 1 {
            write!(f, "{}", self.numerator)
        } else {
            write!(f, "{}/{}", self.numerator, self.denominator)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mover_sees_the_complement() {
        let v = ChanceValue::new(150, 60).unwrap(); // score 5/8, win 1/4, draw 3/4
        assert_eq!(v.to_string(), "score 5/8 (win 1/4, draw 3/4, loss 0)");
        let m = v.for_mover();
        assert_eq!(m.to_string(), "score 3/8 (win 0, draw 3/4, loss 1/4)");
        assert_eq!(m.for_mover(), v);
        assert_eq!(ChanceValue::WIN.for_mover(), ChanceValue::LOSS);
        assert_eq!(ChanceValue::DRAW.for_mover(), ChanceValue::DRAW);
    }

    #[test]
    fn codes_round_trip_for_every_value_of_every_tile_count() {
        for hidden in 1..=5 {
            let mut seen = 0;
            for score in 0..=DENOMINATOR {
                for win in 0..=score {
                    let Some(v) = ChanceValue::new(score, win) else {
                        continue;
                    };
                    if let Some(code) = v.code(hidden) {
                        assert_eq!(ChanceValue::from_code(code, hidden), Some(v));
                        assert!(code <= ChanceValue::max_code(hidden).unwrap());
                        seen += 1;
                    }
                }
            }
            assert!(seen > 2, "{hidden}");
        }
        assert_eq!(ChanceValue::max_code(3), Some(90));
        assert_eq!(ChanceValue::max_code(4), Some(1224));
        assert_eq!(ChanceValue::new(100, 120), None);
        assert_eq!(ChanceValue::new(240, 0), None);
    }

    #[test]
    fn averages_are_exact_or_refused() {
        let avg = ChanceValue::average(&[ChanceValue::WIN, ChanceValue::LOSS]).unwrap();
        assert_eq!(avg.to_string(), "score 1/2 (win 1/2, draw 0, loss 1/2)");
        assert!(avg > ChanceValue::DRAW, "the gamble beats the certain draw");
        assert_eq!(ChanceValue::average(&[]), None);
        let third = ChanceValue::average(&[ChanceValue::WIN, ChanceValue::LOSS, ChanceValue::DRAW]);
        assert_eq!(third.unwrap().score().to_string(), "1/2");
        assert_eq!(third.unwrap().win().to_string(), "1/3");
    }
}
