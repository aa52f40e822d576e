//! The flip game's positions with face-down tiles (RULES.md 8) in `jtb probe` (exact chance
//! values as fractions and percentages) and in `jtb moves` (each flip's outcomes).

use jtb_edge::ChanceAnswer;
use jtb_probe::{
    flip::{ChanceValue, Fraction},
    FlipOutcome, Position, Square,
};
use serde_json::json;

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

/// A flip's outcomes as the JSON answers give them: each animal, its chance as an exact
/// fraction and the position it gives (`jtb moves --json`'s `flips`, the API's
/// `flip_outcomes`).
pub fn outcomes_json(outcomes: &[FlipOutcome]) -> serde_json::Value {
    outcomes
        .iter()
        .map(|o| {
            json!({
                "animal": o.piece.letter().to_string(),
                "probability": o.probability(),
                "position": o.position.to_string(),
            })
        })
        .collect()
}

/// What `jtb moves` prints of a position with face-down tiles, the game not over (`moves`: a
/// flip of each tile, `?a4`, and the revealed animals' steps, in ASCII order): the moves, then
/// a line per flip with its outcomes, each equally likely (RULES.md 8), where the hidden set is
/// known (the `?:` field, or nothing captured yet); the JSON adds `flips`, each with its
/// outcomes or `null`.
pub fn moves_text(text: &str, pos: &Position, moves: &[String], json: bool) -> String {
    let flips: Vec<(&str, Option<Vec<FlipOutcome>>)> = moves
        .iter()
        .filter_map(|mv| Square::parse(mv.strip_prefix('?')?, pos.board()).map(|sq| (mv, sq)))
        .map(|(mv, sq)| (mv.as_str(), pos.flip_outcomes(sq)))
        .collect();
    if json {
        let flips: Vec<serde_json::Value> = flips
            .iter()
            .map(|(mv, o)| json!({"move": mv, "outcomes": o.as_deref().map(outcomes_json)}))
            .collect();
        return json!({"position": text, "moves": moves, "flips": flips}).to_string();
    }
    let mut out = moves.join(" ");
    for (mv, outcomes) in flips {
        if let Some(o) = outcomes {
            let shown: Vec<String> = o
                .iter()
                .map(|o| format!("{} {} {}", o.piece.letter(), o.probability(), o.position))
                .collect();
            out += &format!("\n  {mv}: {}", shown.join("; "));
        }
    }
    out
}
