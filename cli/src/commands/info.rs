//! `jtb info`: what table files hold.

use std::io::Write;
use std::path::{Path, PathBuf};

use jtb_edge::Rules;
use jtb_probe::{flip::Chance, Kind, RuleSet, TableErrorKind};
use serde_json::json;

use crate::{
    table_set::{show_file, tables_of, Shown},
    CliResult,
};

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

/// Shows the file at `path` of any game. A file names its rule set in its header: the Jungle
/// family's reader takes its own, and a rule set of another type of tables is read by that
/// type's reader ([`crate::table_set::TableSet::info`]); the flip game's chance tables go by their
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
                Ok(rules) => tables_of(rules, |t| t.info(out, path, json)),
                _ => Err(e),
            },
            _ => Err(e),
        },
        shown => shown,
    }
}
