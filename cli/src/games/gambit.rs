//! The Animal Gambit side of the table commands (`stats`, `info`, `verify`; `probe` and
//! `adjudicate` are the edge's, [`jtb_edge`]): the same commands and printers' shapes as Jungle's, over
//! [`jtb_probe::Tablebase`]`<`[`Rules`]`>`.

use std::{
    io::Write,
    path::{Path, PathBuf},
};

use jtb_gen::gambit::{closure, load, SubTables, KINDS};
use jtb_probe::{
    format::family_table_path,
    gambit::{self, Rules},
    Family, Kind, SideStats, TableFile, Tablebase,
};
use serde_json::json;

use crate::CliResult;

/// `jtb stats --rules animal-gambit`: per material and side to move, wins, draws (the
/// repetition rule decides them), losses and the longest win in turns with its smallest
/// position text, from the DTM files' headers.
pub fn stats(out: &mut impl Write, root: &Path, json: bool) -> CliResult {
    let tb = Tablebase::open(root, Rules)?;
    if !json {
        writeln!(
            out,
            "{:<10} {:<6} {:>14} {:>14} {:>14} {:>8}  longest win",
            "material", "move", "wins", "draws", "losses", "longest"
        )?;
    }
    let mut ok = true;
    for m in tb.materials() {
        let sides = match side_stats(root, m).and_then(|sides| {
            // `jtb stats` shows only intact tables: every byte against the checksum.
            let path = table_path(root, m, Kind::Dtm);
            TableFile::<Rules>::open(&path)?.verify_checksum()?;
            Ok(sides)
        }) {
            Ok(s) => s,
            Err(e) => {
                ok = false;
                eprintln!("damaged: {e}");
                continue;
            }
        };
        for (side, s) in Rules::SIDES.iter().zip(&sides) {
            if json {
                writeln!(out, "{}", side_json(m, side, s))?;
            } else {
                writeln!(
                    out,
                    "{:<10} {:<6} {:>14} {:>14} {:>14} {:>8}  {}",
                    m.to_string(),
                    side,
                    s.wins,
                    s.draws,
                    s.losses,
                    s.longest_win,
                    s.longest_win_position
                )?;
            }
        }
    }
    Ok(ok)
}

/// The statistics of a material's DTM file header, Gold to move first.
///
/// # Errors
/// The file is missing, unreadable, damaged or of another table.
pub fn side_stats(
    root: &Path,
    m: gambit::Material,
) -> Result<[SideStats; 2], jtb_probe::TableError> {
    let m = m.canonical();
    let path = table_path(root, m, Kind::Dtm);
    let file = TableFile::open_expecting(&path, Rules, m, Kind::Dtm)?;
    Ok(file.header().stats.clone())
}

/// The `jtb stats --rules animal-gambit --json` object of one side to move (`gold`,
/// `silver`) of material `m` (the server's `/stats` answers the same objects).
#[must_use]
pub fn side_json(m: gambit::Material, side: &str, s: &SideStats) -> serde_json::Value {
    let position = (!s.longest_win_position.is_empty()).then_some(&s.longest_win_position);
    json!({
        "material": m.to_string(), "to_move": side, "wins": s.wins,
        "draws": s.draws, "losses": s.losses, "longest_win": s.longest_win,
        "longest_win_position": position,
    })
}

/// The path of a table's `kind` file.
fn table_path(root: &Path, m: gambit::Material, kind: Kind) -> PathBuf {
    family_table_path(root, Rules, m, kind)
}

/// Why an Animal Gambit verification could not run.
#[derive(Debug)]
pub enum VerifyError {
    /// No Animal Gambit table is there.
    NoTables(PathBuf),
    /// Tables that a table's trap removals lead into are missing or unusable: no verdict.
    Needs(gambit::Material, Vec<String>),
}

impl std::fmt::Display for VerifyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            VerifyError::NoTables(dir) => {
                write!(f, "no tables of {} under {}", Rules::NAME, dir.display())
            }
            VerifyError::Needs(m, problems) => write!(
                f,
                "cannot verify {m}: the tables it needs: {}",
                problems.join("; ")
            ),
        }
    }
}

impl std::error::Error for VerifyError {}

/// `jtb verify --rules animal-gambit`: every file's checksums, then every entry one ply deep
/// against the best of its distinct turns' results (smaller tables included), and the WDL file
/// against the DTM file.
pub fn verify(
    out: &mut impl Write,
    root: &Path,
    materials: &[gambit::Material],
    checksums_only: bool,
) -> CliResult {
    let materials: Vec<gambit::Material> = if materials.is_empty() {
        Tablebase::open(root, Rules)?.materials()
    } else {
        materials.iter().map(|m| m.canonical()).collect()
    };
    if materials.is_empty() {
        return Err(VerifyError::NoTables(root.to_owned()).into());
    }
    let intact = crate::verify::check_checksums(out, root, Rules, &materials, &KINDS)?;
    let mut ok = intact.len() == materials.len();
    if checksums_only {
        return Ok(ok);
    }
    for m in intact {
        // The table and every one it needs, read back and checked (WDL against DTM too).
        let mut tables = SubTables::new();
        let mut problems = Vec::new();
        let mut own = None;
        for needed in closure(&[m]) {
            match load(root, needed) {
                Ok(Some(t)) => tables.insert(t),
                Ok(None) if needed == m => own = Some(format!("{m} is missing")),
                Ok(None) => problems.push(format!("{needed} is missing")),
                Err(e) if needed == m => own = Some(e.to_string()),
                Err(e) => problems.push(format!("{needed} is unusable ({e})")),
            }
        }
        if !problems.is_empty() {
            return Err(VerifyError::Needs(m, problems).into());
        }
        if let Some(why) = own {
            writeln!(out, "FAIL {why}")?;
            ok = false;
            continue;
        }
        let mismatches = jtb_gen::gambit::verify(m, &tables, 10)?;
        let path = table_path(root, m, Kind::Dtm);
        for x in &mismatches {
            writeln!(
                out,
                "FAIL {}: {}: stored {}, its turns give {}",
                path.display(),
                x.position,
                x.stored,
                x.best
            )?;
        }
        if mismatches.is_empty() {
            let entries = tables.get(m).map_or(0, |t| t.layout.len());
            writeln!(out, "ok   {m}: {entries} entries agree with their turns")?;
        } else {
            ok = false;
        }
    }
    Ok(ok)
}
