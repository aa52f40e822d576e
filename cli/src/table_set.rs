//! What the table commands (`jtb stats`, `jtb verify`, `jtb info`) ask of each type of tables
//! ([`TableSet`], reached by rule set through [`tables_of`]) and share between the games: what
//! each command was asked, the one report of a verification ([`verify_set`]) and the one view
//! of a file's header ([`show_file`]). The games' modules implement it; the commands call it.

use std::{io::Write, path::Path};

use jtb_edge::{RuleFamily, Rules, TableName};
use jtb_gen::driver::{self, Unchecked, Verify};
use jtb_probe::{format::family_table_path, Family, Header, Kind, TableError, TableFile};
use serde_json::json;

use crate::CliResult;

/// What the table commands (`jtb stats`, `jtb verify`, `jtb info`) ask of one type of tables.
/// Implemented once per type, in its game's module (`games::family::FamilyTables` for the
/// Jungle family's rule sets, `games::gambit::GambitTables`); [`tables_of`] is the one place a
/// rule set meets its type.
pub trait TableSet {
    /// `jtb stats`: per material present under `root` and side to move, the statistics in its
    /// files' headers (with `histogram` also the positions per distance), as text or one JSON
    /// object each. Tables that are damaged are reported on standard error and skipped.
    ///
    /// # Errors
    /// The tables cannot be listed, or writing failed. `Ok(false)` when a table was damaged.
    fn print_stats(&self, out: &mut dyn Write, asked: &StatsAsked) -> CliResult;

    /// `jtb verify` of the tables `asked` names (every one present without names): checksums,
    /// then each entry one ply deep ([`verify_set`]).
    ///
    /// # Errors
    /// No tables to check, or a table that cannot be checked: tables it needs are missing or
    /// damaged, or it does not fit in memory. `Ok(false)` when a check failed.
    fn verify(&self, out: &mut dyn Write, asked: &VerifyAsked) -> CliResult;

    /// `jtb info` of the file at `path`, whose header names a rule set of this type.
    fn info(&self, out: &mut dyn Write, path: &Path, json: bool) -> Shown;
}

/// A type of rule sets' tables as the table commands and the server's table routes see them:
/// implemented once per type of rule sets ([`jtb_edge::RuleFamily`]), in its game's module.
pub trait TablesOf: RuleFamily {
    /// The type of its tables.
    type Tables: TableSet;

    /// The tables of the rule set `self`.
    fn tables(self) -> Self::Tables;
}

/// Evaluates `f` with the type of tables of `rules`, through the edge's one list of the types
/// of rule sets ([`jtb_edge::each_family!`]).
pub fn tables_of<T>(rules: Rules, f: impl FnOnce(&dyn TableSet) -> T) -> T {
    jtb_edge::each_family!(rules, |r, F| f(&F::tables(r)))
}

/// What `jtb stats` was asked to show.
#[derive(Clone, Copy)]
pub struct StatsAsked<'a> {
    /// The tables' directory.
    pub root: &'a Path,
    /// One JSON object per material and side to move, else text.
    pub json: bool,
    /// The positions per distance too (every entry read).
    pub histogram: bool,
}

/// Why verification could not run at all.
#[derive(Debug)]
pub struct NoTables(pub &'static str, pub std::path::PathBuf);

impl std::fmt::Display for NoTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "no tables of {} under {}", self.0, self.1.display())
    }
}

impl std::error::Error for NoTables {}

/// What `jtb verify` was asked to check.
pub struct VerifyAsked<'a> {
    /// The tables' directory.
    pub root: &'a Path,
    /// The tables named (`--material`); none for every table present.
    pub named: &'a [TableName],
    /// Only the checksums, not the values.
    pub checksums_only: bool,
}

/// Checks the checksums of every file of `tables`, then (unless `--checksums-only`) every entry
/// of each intact one one ply deep ([`jtb_gen::driver::verify`]): one report for every game.
/// A table that cannot be checked because tables it needs are missing or damaged, or because
/// it does not fit in memory, stops the run with no verdict.
pub fn verify_set<G, R>(
    out: &mut dyn Write,
    game: &G,
    rules: R,
    tables: &[G::Table],
    kinds: &[Kind],
    asked: &VerifyAsked,
) -> CliResult
where
    G: Verify,
    R: Family<Material = G::Table>,
{
    let intact = check_checksums(out, asked.root, rules, tables, kinds)?;
    let mut ok = intact.len() == tables.len();
    if asked.checksums_only {
        return Ok(ok);
    }
    for table in intact {
        match driver::verify(game, table, 10) {
            Ok(checked) => {
                for failure in &checked.failures {
                    writeln!(out, "FAIL {failure}")?;
                }
                if checked.failures.is_empty() {
                    writeln!(
                        out,
                        "ok   {table}: {} entries agree with {}",
                        checked.entries,
                        game.checked_against(table)
                    )?;
                } else {
                    ok = false;
                }
            }
            Err(Unchecked::Failed(e)) => {
                writeln!(out, "FAIL {table}: {e}")?;
                ok = false;
            }
            Err(e) => return Err(e.into()),
        }
    }
    Ok(ok)
}

/// Checks the checksums of every `kinds` file of each of `materials` under `root`, for a table
/// of any game, reporting each failure and the count; returns the intact tables, in order.
fn check_checksums<R: Family>(
    out: &mut dyn Write,
    root: &Path,
    rules: R,
    materials: &[R::Material],
    kinds: &[Kind],
) -> std::io::Result<Vec<R::Material>> {
    let mut intact = Vec::new();
    for &m in materials {
        let mut good = true;
        for &kind in kinds {
            let path = family_table_path(root, rules, m, kind);
            let result =
                TableFile::open_expecting(&path, rules, m, kind).and_then(|f| f.verify_checksum());
            if let Err(e) = result {
                writeln!(out, "FAIL {e}")?;
                good = false;
            }
        }
        if good {
            intact.push(m);
        }
    }
    writeln!(
        out,
        "checksums: {} of {} tables intact",
        intact.len(),
        materials.len()
    )?;
    Ok(intact)
}

/// What `jtb info` made of a file: written (or writing failed), or why the file cannot be shown.
pub type Shown = Result<std::io::Result<()>, TableError>;

/// Shows the file at `path`, read as a table of `R`'s rule sets, if it is one and intact.
pub fn show_file<R: Family>(out: &mut dyn Write, path: &Path, json: bool) -> Shown {
    checked::<R>(path).map(|t| show(out, path, &t, json))
}

/// The table file at `path`, its header checked on opening and every byte against the trailing
/// checksum: a file `info` shows is intact.
fn checked<R: Family>(path: &Path) -> Result<TableFile<R>, jtb_probe::TableError> {
    let file = TableFile::open(path)?;
    file.verify_checksum()?;
    Ok(file)
}

/// Prints what one table file holds.
fn show<R: Family>(
    out: &mut dyn Write,
    path: &Path,
    t: &TableFile<R>,
    json: bool,
) -> std::io::Result<()> {
    let h = t.header();
    if json {
        return writeln!(out, "{}", header_json(path, h, t.len()));
    }
    // Every kind of file but the chance tables' counts distances, in the family's unit.
    let unit = R::DISTANCE_UNIT.unwrap_or_default();
    writeln!(out, "{}", path.display())?;
    writeln!(
        out,
        "  {} table of {} under {}, {} entries in {} blocks of {}, {} bytes ({:.3} bits/entry)",
        h.kind,
        h.material,
        h.rules,
        h.entries,
        h.blocks,
        h.block_entries,
        t.len(),
        t.len() as f64 * 8.0 / h.entries.max(1) as f64
    )?;
    writeln!(
        out,
        "  format {} / index scheme {} / {:?}, written by {}",
        jtb_probe::format::FORMAT_VERSION,
        h.index_scheme,
        h.encoding,
        h.generator
    )?;
    for (side, s) in R::SIDES.iter().zip(&h.stats) {
        let at = if s.longest_win_position.is_empty() {
            String::new()
        } else {
            format!(" ({})", s.longest_win_position)
        };
        if h.kind == Kind::Chance {
            writeln!(
                out,
                "  {side} to move at clock 0: {} certain wins, {} certain draws, {} certain \
                 losses (the other positions turn on a flip)",
                s.wins, s.draws, s.losses
            )?;
        } else if h.kind == Kind::Ban {
            writeln!(
                out,
                "  {side} to move: {} wins and {} losses by the repetition ban; longest exit {} \
                 {unit}{at}",
                s.wins, s.losses, s.longest_win
            )?;
        } else if h.kind == Kind::Dtc {
            writeln!(out, "  {side} to move, clock rule at clock 0: {} wins, {} draws ({} cursed wins, {} blessed losses), {} losses; longest DTC win {} plies{at}",
                s.wins, s.draws, s.cursed_wins, s.blessed_losses, s.losses, s.longest_win)?;
        } else {
            writeln!(
                out,
                "  {side} to move: {} wins, {} draws, {} losses; longest win {} {unit}{at}",
                s.wins, s.draws, s.losses, s.longest_win
            )?;
        }
    }
    Ok(())
}

pub fn header_json<R: Family>(path: &Path, h: &Header<R>, bytes: u64) -> serde_json::Value {
    let sides: Vec<serde_json::Value> = R::SIDES
        .iter()
        .zip(&h.stats)
        .map(|(side, s)| {
            let mut obj = json!({
                "to_move": side,
                "wins": s.wins,
                "draws": s.draws,
                "losses": s.losses,
                "longest_win": s.longest_win,
                "longest_win_position": crate::api::shown(&s.longest_win_position),
            });
            if h.kind == Kind::Dtc {
                obj["cursed_wins"] = json!(s.cursed_wins);
                obj["blessed_losses"] = json!(s.blessed_losses);
            }
            obj
        })
        .collect();
    json!({
        "file": path.display().to_string(),
        "kind": h.kind.to_string(),
        "rules": h.rules.id(),
        "material": h.material.to_string(),
        "format_version": jtb_probe::format::FORMAT_VERSION,
        "index_scheme": h.index_scheme,
        "encoding": format!("{:?}", h.encoding),
        "entries": h.entries,
        "block_entries": h.block_entries,
        "blocks": h.blocks,
        "bytes": bytes,
        "generator": h.generator,
        "stats": sides,
    })
}
