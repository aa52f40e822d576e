//! The flip game's positions with face-down tiles in `jtb probe` (RULES.md 8): exact chance
//! values as fractions and percentages.

use jtb_edge::ChanceAnswer;
use jtb_probe::flip::{ChanceValue, Fraction};

/// A chance value as text: `score 5/8 (62.5%): win 1/2 (50.0%), draw 1/4 (25.0%), loss 1/4
/// (25.0%)`.
fn chance_text(v: ChanceValue) -> String {
    let part = |f: Fraction| format!("{f} ({:.1}%)", f.percent());
    format!(
        "score {}: win {}, draw {}, loss {}",
        part(v.score()),
        part(v.win()),
        part(v.draw()),
        part(v.loss())
    )
}

/// What `jtb probe` prints of a flip position with face-down tiles (`text`, as given): its exact
/// value at its clock and every move's worth, a flip's with each outcome.
pub fn probe_text(text: &str, a: &ChanceAnswer) -> String {
    let mut s = format!("{text}\nrules: {}\n", a.pos.rules());
    s += &format!(
        "value: {} for {} to move at clock {}\n",
        chance_text(a.value),
        a.pos.turn(),
        a.pos.clock().unwrap_or(0)
    );
    if let Some(b) = &a.best {
        s += &format!("best: {}\n", b.text);
    }
    s += "moves:\n";
    for m in &a.moves {
        s += &format!("  {:<5} {}\n", m.text, chance_text(m.value));
        for (animal, chance, v, pos) in &m.outcomes {
            s += &format!("        {animal} {chance:<4} {}  {pos}\n", chance_text(*v));
        }
    }
    s.trim_end().to_owned()
}
