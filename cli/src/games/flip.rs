//! The flip game's positions with face-down tiles (RULES.md 8) in `jtb moves` (each flip's
//! outcomes) and in `jtb stats --chance` (each chance table's figures); `jtb probe`'s exact
//! chance values are the edge's (`jtb_edge::ChanceAnswer`).

use std::{io::Write, path::Path};

use jtb_edge::Rules;
use jtb_probe::{
    flip::{Chance, ChanceMaterial, ChanceTables, DENOMINATOR},
    format::Family,
    FlipOutcome, Position, RuleSet, Square,
};
use serde_json::json;

use crate::CliResult;

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
            .map(|(mv, o)| json!({"move": mv, "outcomes": o.as_deref().map(jtb_edge::outcomes_json)}))
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

/// `jtb stats --chance`: the figures of every chance table ([`jtb_gen::chance::analyse`]).
///
/// # Errors
/// `rules` is not the flip game's (only it has face-down tiles), or no chance tables are there.
pub fn chance_stats(
    out: &mut dyn Write,
    rules: Rules,
    root: &Path,
    only: &[String],
    json: bool,
) -> CliResult {
    if rules != Rules::Jungle(RuleSet::Flip4x4) {
        return Err(
            "--chance is for --rules flip4x4 (only the flip game has face-down tiles)".into(),
        );
    }
    let tables = ChanceTables::open(root)?;
    let mut materials = tables.chance().materials();
    if materials.is_empty() {
        return Err(format!("no chance tables under {}", root.join("flip4x4").display()).into());
    }
    if !only.is_empty() {
        let asked = only
            .iter()
            .map(|name| {
                let m: ChanceMaterial = name.parse().map_err(|e| format!("{name}: {e}"))?;
                Ok::<_, String>(Chance.table_of(m))
            })
            .collect::<Result<Vec<_>, _>>()?;
        if let Some(absent) = asked.iter().find(|m| !materials.contains(m)) {
            let dir = root.join("flip4x4");
            return Err(format!("no chance table {absent} under {}", dir.display()).into());
        }
        materials.retain(|m| asked.contains(m));
    }
    if !json {
        writeln!(
            out,
            "{:<10} {:>9} {:>7} {:>9} {:>9} {:>9} {:>10} {:>9}  largest swing of one flip",
            "material", "positions", "mean", "wins", "draws", "losses", "flip best", "sure win"
        )?;
    }
    let mut ok = true;
    for m in materials {
        let r = match jtb_gen::chance::analyse(&tables, root, m) {
            Ok(r) if r.mismatch.is_none() && r.dte_mismatch.is_none() => r,
            Ok(r) => {
                ok = false;
                if let Some((p, stored, best)) = r.mismatch {
                    eprintln!("inconsistent: {m}: {p}: stored {stored}, its moves give {best}");
                }
                if let Some((p, stored, best)) = r.dte_mismatch {
                    let d = |d: Option<u32>| d.map_or("none".to_owned(), |d| d.to_string());
                    eprintln!(
                        "inconsistent: {m}: {p}: stored DTE {}, its moves give {}",
                        d(stored),
                        d(best)
                    );
                }
                continue;
            }
            Err(e) => {
                ok = false;
                eprintln!("damaged: {e}");
                continue;
            }
        };
        let n = r.positions.max(1) as f64;
        let mean = r.score_sum as f64 / f64::from(DENOMINATOR) / n;
        let swing = fraction(r.largest_swing.0);
        if json {
            writeln!(
                out,
                "{}",
                json!({
                    "material": m.to_string(),
                    "positions": r.positions,
                    "mean_score": mean,
                    "certain_wins": r.certain[0],
                    "certain_draws": r.certain[1],
                    "certain_losses": r.certain[2],
                    "flip_best": r.flip_best,
                    "largest_swing": swing,
                    "largest_swing_position": r.largest_swing.1,
                    "largest_flip_gap": fraction(r.largest_gap.0),
                    "largest_flip_gap_position": super::shown(&r.largest_gap.1),
                    "longest_certain_win": r.longest_win.0,
                    "longest_certain_win_position": super::shown(&r.longest_win.1),
                })
            )?;
        } else {
            writeln!(
                out,
                "{:<10} {:>9} {:>7.4} {:>9} {:>9} {:>9} {:>9.1}% {:>9}  {swing} ({})",
                m.to_string(),
                r.positions,
                mean,
                r.certain[0],
                r.certain[1],
                r.certain[2],
                100.0 * r.flip_best as f64 / n,
                r.longest_win.0,
                r.largest_swing.1
            )?;
        }
    }
    Ok(ok)
}

/// A score over [`DENOMINATOR`] as a fraction in lowest terms.
fn fraction(over: u32) -> String {
    let g = gcd(over, DENOMINATOR);
    match DENOMINATOR / g {
        1 => (over / g).to_string(),
        d => format!("{}/{d}", over / g),
    }
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}
