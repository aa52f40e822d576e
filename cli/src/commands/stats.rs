//! `jtb stats`: win/draw/loss counts and longest wins per material and side to move, and what
//! the clock rule changes: the longest DTC, cursed wins and blessed losses. `jtb serve` answers
//! the same objects per material ([`MaterialStats`]).

use std::{io::Write, path::Path};

use jtb_probe::{
    flip::{ChanceTables, DENOMINATOR},
    format::table_path,
    histogram, Kind, Layout, Material, RuleSet, SideHistogram, SideStats, TableError, TableFile,
};
use serde_json::json;

use crate::{input, CliResult};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    set: input::TableSetArgs,
    /// One JSON object per material and side to move.
    #[arg(long)]
    json: bool,
    /// Also count the positions per distance, DTM and DTC (reads every entry of every table:
    /// a minute or more for a large set).
    #[arg(long)]
    histogram: bool,
    /// The flip game's chance tables (positions with face-down tiles, RULES.md 8) instead: per
    /// table the positions, the mean score, the certain wins, draws and losses, how often a
    /// flip is best, and the largest swing of one flip, all at clock 0 (reads and checks every
    /// entry one ply deep).
    #[arg(long)]
    chance: bool,
}

/// Positions per distance of a material's DTM file, then its DTC file (Clesto: its ban file),
/// each Red to move first ([`jtb_probe::histogram`]).
pub type Histograms = [[SideHistogram; 2]; 2];

/// Counts the positions per distance of `material`'s DTM and DTC files under `dir` (in Clesto
/// its DTM and ban files).
///
/// # Errors
/// The first of the two files that is missing, unreadable, damaged or of other rules.
pub fn histograms(
    dir: &Path,
    rules: RuleSet,
    material: Material,
) -> Result<Histograms, TableError> {
    let material = material.table_of(rules);
    let layout = Layout::new(rules, material);
    let count = |kind: Kind| {
        let path = table_path(dir, rules, material, kind);
        TableFile::open_expecting(&path, rules, material, kind)
            .and_then(|file| histogram(&file, &layout))
    };
    Ok([count(Kind::Dtm)?, count(rules.second_kind())?])
}

/// One side's histogram as JSON: `wins[d]` and `losses[d]` positions in `d` plies, and draws.
#[must_use]
pub fn histogram_json(h: &SideHistogram) -> serde_json::Value {
    json!({"wins": h.wins, "losses": h.losses, "draws": h.draws})
}

/// Non-zero counts as `d:n`, for the text output.
fn spread(counts: &[u64]) -> String {
    let cells: Vec<String> = counts
        .iter()
        .enumerate()
        .filter(|(_, &n)| n != 0)
        .map(|(d, n)| format!("{d}:{n}"))
        .collect();
    if cells.is_empty() {
        "-".to_owned()
    } else {
        cells.join(" ")
    }
}

/// One material's statistics, Red to move first: what its DTM file and its DTC file say (in
/// Clesto its ban file: the positions the ban decides, and B's longest way out).
pub struct MaterialStats {
    /// The rule set.
    pub rules: RuleSet,
    /// The material, in the orientation that names its table.
    pub material: Material,
    /// Per side to move: the DTM file's statistics and the DTC (or ban) file's.
    pub sides: [(SideStats, SideStats); 2],
}

impl MaterialStats {
    /// Reads the statistics from the headers of `material`'s DTM and DTC files under `dir`.
    ///
    /// # Errors
    /// The first of the two files that is missing, unreadable, damaged or of other rules.
    pub fn read(dir: &Path, rules: RuleSet, material: Material) -> Result<Self, TableError> {
        MaterialStats::read_files(dir, rules, material, false)
    }

    /// As [`MaterialStats::read`], with every byte of both files checked against their
    /// trailing checksums (`jtb stats` shows only intact tables).
    ///
    /// # Errors
    /// As [`MaterialStats::read`], and a checksum mismatch.
    pub fn read_checked(
        dir: &Path,
        rules: RuleSet,
        material: Material,
    ) -> Result<Self, TableError> {
        MaterialStats::read_files(dir, rules, material, true)
    }

    fn read_files(
        dir: &Path,
        rules: RuleSet,
        material: Material,
        checked: bool,
    ) -> Result<Self, TableError> {
        let material = material.table_of(rules);
        let open = |kind: Kind| {
            let path = table_path(dir, rules, material, kind);
            let file = TableFile::open_expecting(&path, rules, material, kind)?;
            if checked {
                file.verify_checksum()?;
            }
            Ok::<_, TableError>(file)
        };
        let (dtm, dtc) = (open(Kind::Dtm)?, open(rules.second_kind())?);
        let [s0, s1] = dtm.header().stats.clone();
        let [r0, r1] = dtc.header().stats.clone();
        Ok(MaterialStats {
            rules,
            material,
            sides: [(s0, r0), (s1, r1)],
        })
    }

    /// The `jtb stats --json` object of each side to move, Red first.
    #[must_use]
    pub fn json(&self) -> [serde_json::Value; 2] {
        let printer = crate::games::family_stats(self.rules);
        let side =
            |name: &str, (s, r): &(SideStats, SideStats)| printer.json(self.material, name, s, r);
        [side("red", &self.sides[0]), side("blue", &self.sides[1])]
    }
}

pub fn run(args: &Args) -> CliResult {
    let mut out = std::io::stdout().lock();
    if args.chance {
        return chance_stats(&mut out, args);
    }
    let rules = match args.set.rules {
        input::Rules::Jungle(r) => r,
        input::Rules::AnimalGambit if args.histogram => {
            return Err("--histogram is not available for animal-gambit yet".into())
        }
        input::Rules::AnimalGambit => {
            return crate::gambit::stats(&mut out, &args.set.tables.dir, args.json)
        }
    };
    let materials = jtb_edge::jungle_materials(&args.set.tables.dir, rules)?;
    let printer = crate::games::family_stats(rules);
    if !args.json {
        printer.header(&mut out)?;
    }
    let mut ok = true;
    for m in materials {
        let stats = match MaterialStats::read_checked(&args.set.tables.dir, rules, m) {
            Ok(stats) => stats,
            Err(e) => {
                ok = false;
                eprintln!("damaged: {e}");
                continue;
            }
        };
        let counted = if args.histogram {
            match histograms(&args.set.tables.dir, rules, m) {
                Ok(h) => Some(h),
                Err(e) => {
                    ok = false;
                    eprintln!("{e}");
                    continue;
                }
            }
        } else {
            None
        };
        if args.json {
            for (side, mut obj) in stats.json().into_iter().enumerate() {
                if let Some([dtm, dtc]) = &counted {
                    // The second file is DTC, or Clesto's ban file: named by its extension.
                    let second = rules.second_kind().extension();
                    obj["histogram"] = json!({"dtm": histogram_json(&dtm[side]),
                                              second: histogram_json(&dtc[side])});
                }
                writeln!(out, "{obj}")?;
            }
            continue;
        }
        for (side, (s, r)) in ["red", "blue"].iter().zip(&stats.sides) {
            printer.row(&mut out, m, side, s, r)?;
        }
        if let Some(counted) = &counted {
            let second = rules.second_kind().extension().to_uppercase();
            for (metric, h) in ["DTM", second.as_str()].iter().zip(counted) {
                for (side, h) in ["red", "blue"].iter().zip(h) {
                    let m = m.to_string();
                    writeln!(out, "{m:<10} {side:<5} {metric} wins   {}", spread(&h.wins))?;
                    writeln!(
                        out,
                        "{m:<10} {side:<5} {metric} losses {}",
                        spread(&h.losses)
                    )?;
                }
            }
        }
    }
    Ok(ok)
}

/// `jtb stats --chance`: the figures of every chance table ([`jtb_gen::chance::analyse`]).
fn chance_stats(out: &mut impl Write, args: &Args) -> CliResult {
    if args.set.rules != input::Rules::Jungle(RuleSet::Flip4x4) {
        return Err(
            "--chance is for --rules flip4x4 (only the flip game has face-down tiles)".into(),
        );
    }
    let root = &args.set.tables.dir;
    let tables = ChanceTables::open(root)?;
    let materials = tables.chance().materials();
    if materials.is_empty() {
        return Err(format!("no chance tables under {}", root.join("flip4x4").display()).into());
    }
    if !args.json {
        writeln!(
            out,
            "{:<10} {:>9} {:>7} {:>9} {:>9} {:>9} {:>10}  largest swing of one flip",
            "material", "positions", "mean", "wins", "draws", "losses", "flip best"
        )?;
    }
    let mut ok = true;
    for m in materials {
        let r = match jtb_gen::chance::analyse(&tables, root, m) {
            Ok(r) if r.mismatch.is_none() => r,
            Ok(r) => {
                ok = false;
                if let Some((p, stored, best)) = r.mismatch {
                    eprintln!("inconsistent: {m}: {p}: stored {stored}, its moves give {best}");
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
        if args.json {
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
                    "largest_flip_gap_position": crate::games::shown(&r.largest_gap.1),
                })
            )?;
        } else {
            writeln!(
                out,
                "{:<10} {:>9} {:>7.4} {:>9} {:>9} {:>9} {:>9.1}%  {swing} ({})",
                m.to_string(),
                r.positions,
                mean,
                r.certain[0],
                r.certain[1],
                r.certain[2],
                100.0 * r.flip_best as f64 / n,
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
