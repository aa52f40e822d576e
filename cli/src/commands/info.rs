//! `jtb info`: what table files hold.

use std::io::Write;
use std::path::{Path, PathBuf};

use jtb_edge::Rules;
use jtb_probe::{
    flip::Chance, Family, Header, Kind, RuleSet, TableError, TableErrorKind, TableFile,
};
use serde_json::json;

use crate::{games, CliResult};

#[derive(clap::Args)]
pub struct Args {
    /// A table file, or a directory (searched with its rule-set subdirectories).
    path: PathBuf,
    /// One JSON object per file.
    #[arg(long)]
    json: bool,
}

/// Table files at `path`: the file itself, or the files of a directory and of its
/// subdirectories whose extension is a kind of table file's (`.wdl`, `.dtm`, `.dtc`, `.ban`,
/// `.chance`), sorted.
pub fn table_files(path: &Path) -> std::io::Result<Vec<PathBuf>> {
    if !path.is_dir() {
        std::fs::metadata(path)?;
        return Ok(vec![path.to_owned()]);
    }
    let mut out = Vec::new();
    for entry in std::fs::read_dir(path)? {
        let p = entry?.path();
        if p.is_dir() {
            out.extend(table_files(&p)?);
        } else if p
            .extension()
            .and_then(|e| e.to_str())
            .and_then(Kind::from_extension)
            .is_some()
        {
            out.push(p);
        }
    }
    out.sort();
    Ok(out)
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
                "longest_win_position": crate::games::shown(&s.longest_win_position),
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

/// Why `info` found nothing to show.
#[derive(Debug)]
pub enum InfoError {
    /// The path cannot be read.
    Read(PathBuf, std::io::Error),
    /// No table file is there.
    NoTables(PathBuf),
}

impl std::fmt::Display for InfoError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InfoError::Read(p, e) => write!(f, "{}: {e}", p.display()),
            InfoError::NoTables(p) => write!(f, "{}: no table files", p.display()),
        }
    }
}

impl std::error::Error for InfoError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            InfoError::Read(_, e) => Some(e),
            InfoError::NoTables(_) => None,
        }
    }
}

pub fn run(args: &Args) -> CliResult {
    let mut out = std::io::stdout().lock();
    let files = table_files(&args.path).map_err(|e| InfoError::Read(args.path.clone(), e))?;
    if files.is_empty() {
        return Err(InfoError::NoTables(args.path.clone()).into());
    }
    let mut ok = true;
    for path in files {
        match show_any(&mut out, &path, args.json) {
            Ok(written) => written?,
            Err(e) => {
                ok = false;
                if args.json {
                    writeln!(
                        out,
                        "{}",
                        json!({"file": path.display().to_string(), "error": format!("damaged: {e}")})
                    )?;
                } else {
                    writeln!(out, "damaged: {e}")?;
                }
            }
        }
    }
    Ok(ok)
}

/// What `jtb info` made of a file: written (or writing failed), or why the file cannot be shown.
pub type Shown = Result<std::io::Result<()>, TableError>;

/// Shows the file at `path` of any game. A file names its rule set in its header: the Jungle
/// family's reader takes its own, and a rule set of another type of tables is read by that
/// type's reader ([`games::TableSet::info`]); the flip game's chance tables go by their
/// extension.
fn show_any(out: &mut dyn Write, path: &Path, json: bool) -> Shown {
    if path
        .extension()
        .is_some_and(|e| e == Kind::Chance.extension())
    {
        return show_file::<Chance>(out, path, json);
    }
    match show_file::<RuleSet>(out, path, json) {
        Err(e) => match &e.kind {
            TableErrorKind::UnknownRuleSet(id) => match id.parse::<Rules>() {
                Ok(rules) => games::tables_of(rules, |t| t.info(out, path, json)),
                _ => Err(e),
            },
            _ => Err(e),
        },
        shown => shown,
    }
}

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
