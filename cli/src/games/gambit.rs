//! Animal Gambit in the CLI: its table commands on [`GambitTables`] (`stats` with its
//! histograms, `verify` through the generator's one driver, `info`; the server's table routes
//! are on the same type, in `gambit_api.rs`) and what `jtb moves` lists (`probe` and
//! `adjudicate` ask the edge, [`jtb_edge`], and print its answers): the same commands and
//! printers' shapes as Jungle's, over
//! [`jtb_probe::Tablebase`]`<`[`AnimalGambit`]`>`.

use std::{
    io::Write,
    path::{Path, PathBuf},
};

use jtb_edge::games::EdgeGame;
use jtb_probe::{
    format::family_table_path,
    gambit::{self, AnimalGambit},
    Family, Kind, SideHistogram, SideStats, TableFile,
};
use serde_json::json;

use super::{histogram_json, histogram_lines, histograms_if, plain_moves_text, MovesText};
use crate::{
    table_set::{self, Shown, StatsAsked, TableSet, TablesOf, VerifyAsked},
    CliResult,
};

/// Animal Gambit's tables.
pub struct GambitTables;

impl TablesOf for AnimalGambit {
    type Tables = GambitTables;

    fn tables(self) -> GambitTables {
        GambitTables
    }
}

impl TableSet for GambitTables {
    /// Per material and side to move, wins, draws (the repetition rule decides them), losses
    /// and the longest win in turns with its smallest position text, from the DTM files'
    /// headers; with `histogram` the positions per distance in turns, from every entry.
    fn print_stats(&self, out: &mut dyn Write, asked: &StatsAsked) -> CliResult {
        let StatsAsked {
            root,
            json,
            histogram,
        } = *asked;
        let tb = jtb_edge::Tables::new(root, jtb_probe::DEFAULT_CACHE_BYTES).gambit()?;
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
                TableFile::<AnimalGambit>::open(&path)?.verify_checksum()?;
                Ok(sides)
            }) {
                Ok(s) => s,
                Err(e) => {
                    ok = false;
                    eprintln!("damaged: {e}");
                    continue;
                }
            };
            let Ok(counted) = histograms_if(histogram, || histograms(root, m)) else {
                ok = false;
                continue;
            };
            for (i, (side, s)) in AnimalGambit::SIDES.iter().zip(&sides).enumerate() {
                if json {
                    let mut obj = side_json(m, side, s);
                    if let Some(h) = &counted {
                        obj["histogram"] = json!({"dtm": histogram_json(&h[i])});
                    }
                    writeln!(out, "{obj}")?;
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
            if let (Some(counted), false) = (&counted, json) {
                histogram_lines(out, &m.to_string(), AnimalGambit::SIDES, 6, "DTM", counted)?;
            }
        }
        Ok(ok)
    }

    fn verify(&self, out: &mut dyn Write, asked: &VerifyAsked) -> CliResult {
        let root = asked.root;
        let materials: Vec<gambit::Material> = if asked.named.is_empty() {
            jtb_edge::Tables::new(root, jtb_probe::DEFAULT_CACHE_BYTES)
                .gambit()?
                .materials()
        } else {
            asked
                .named
                .iter()
                .filter_map(|n| Some(n.gambit()?.canonical()))
                .collect()
        };
        if materials.is_empty() {
            return Err(table_set::NoTables(AnimalGambit::NAME, root.to_owned()).into());
        }
        let game = jtb_gen::gambit::OnDisk::new(root);
        table_set::verify_set(
            out,
            &game,
            AnimalGambit,
            &materials,
            &jtb_gen::gambit::KINDS,
            asked,
        )
    }

    fn info(&self, out: &mut dyn Write, path: &Path, json: bool) -> Shown {
        table_set::show_file::<AnimalGambit>(out, path, json)
    }
}

/// Positions per distance in turns of a material's table, Gold to move first, from every entry
/// of its DTM file (read back and checked whole: [`jtb_gen::gambit::load_dtm`]).
///
/// # Errors
/// The file is missing, unreadable, damaged or of another table.
pub fn histograms(
    root: &Path,
    m: gambit::Material,
) -> Result<[SideHistogram; 2], jtb_probe::TableError> {
    let m = m.canonical();
    match jtb_gen::gambit::load_dtm(root, m)? {
        Some(solved) => Ok(jtb_gen::gambit::histogram(&solved)),
        // Removed since the tables were listed.
        None => Err(jtb_probe::TableError::new(
            table_path(root, m, Kind::Dtm),
            jtb_probe::TableErrorKind::Io(std::io::ErrorKind::NotFound.into()),
        )),
    }
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
    let file = TableFile::open_expecting(&path, AnimalGambit, m, Kind::Dtm)?;
    Ok(file.header().stats.clone())
}

/// The `jtb stats --rules animal-gambit --json` object of one side to move (`gold`,
/// `silver`) of material `m` (the server's `/stats` answers the same objects).
#[must_use]
pub fn side_json(m: gambit::Material, side: &str, s: &SideStats) -> serde_json::Value {
    let position = super::shown(&s.longest_win_position);
    json!({
        "material": m.to_string(), "to_move": side, "wins": s.wins,
        "draws": s.draws, "losses": s.losses, "longest_win": s.longest_win,
        "longest_win_position": position,
    })
}

/// The path of a table's `kind` file.
fn table_path(root: &Path, m: gambit::Material, kind: Kind) -> PathBuf {
    family_table_path(root, AnimalGambit, m, kind)
}

/// An Animal Gambit position's turns, separated by `, ` (a turn's text has spaces).
impl MovesText for jtb_edge::games::Gambit {
    fn moves_text(text: &str, pos: &gambit::Position, json: bool) -> String {
        plain_moves_text(text, &Self::moves(pos), ", ", json)
    }
}
