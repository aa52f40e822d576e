//! `jtb gen`: generate tables with progress.

use std::{
    fmt::Display,
    io::IsTerminal,
    path::PathBuf,
    sync::Mutex,
    time::{Duration, Instant},
};

use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use jtb_gen::{
    driver::{Progress, Silent, Summary},
    run::available_memory,
    targets::{self, Generated, Options},
};

use crate::{input, CliResult};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    choice: input::TableChoice,
    /// Table root directory (tables go to DIR/<rules>/).
    #[arg(long, default_value = "tables", value_name = "DIR")]
    out: PathBuf,
    #[command(flatten)]
    threads: input::ThreadsArg,
    /// Memory the generation may use, in MiB (default: what the machine has available).
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..=u64::MAX >> 20))]
    memory_limit: Option<u64>,
    /// Generate only the tables named by --material: the smaller tables they need must already
    /// be present and intact, else it fails naming them and writes nothing. One task of a
    /// `jtb plan`.
    #[arg(long, requires = "materials")]
    no_deps: bool,
    /// No progress output.
    #[arg(long)]
    quiet: bool,
}

/// Progress bars on a terminal: the whole plan, and a spinner for each table being solved.
struct Bars {
    multi: MultiProgress,
    overall: ProgressBar,
    working: Mutex<Vec<(String, ProgressBar)>>,
    tables: Mutex<(usize, usize)>,
}

impl Bars {
    fn new() -> Result<Bars, indicatif::style::TemplateError> {
        let multi = MultiProgress::new();
        let overall = multi.add(ProgressBar::new(0));
        overall.set_style(
            ProgressStyle::with_template(
                "{msg:>14} [{bar:30}] {percent:>3}% {human_pos}/{human_len} positions, {rate}, ETA {eta}",
            )?
            .with_key("rate", |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.1} M/s", state.per_sec() / 1e6);
            })
            .progress_chars("=> "),
        );
        Ok(Bars {
            multi,
            overall,
            working: Mutex::new(Vec::new()),
            tables: Mutex::new((0, 0)),
        })
    }
}

impl<T: Display> Progress<T> for Bars {
    fn planned(&self, tables: usize, entries: u64) {
        // A second plan (the chance tables') adds to the first.
        self.overall
            .set_length(self.overall.length().unwrap_or(0) + entries);
        let mut t = self.tables.lock().unwrap();
        t.1 += tables;
        self.overall.set_message(format!("{}/{} tables", t.0, t.1));
    }
    fn kept(&self, _: T) {
        self.tables.lock().unwrap().0 += 1;
    }
    fn replacing(&self, table: T, why: &str) {
        let _ = self.multi.println(format!("regenerating {table}: {why}"));
    }
    fn started(&self, table: T, entries: u64) {
        let bar = self.multi.add(ProgressBar::new_spinner());
        bar.set_message(format!("solving {table} ({entries} entries)"));
        bar.enable_steady_tick(Duration::from_millis(200));
        self.working.lock().unwrap().push((table.to_string(), bar));
    }
    fn finished(&self, table: T, entries: u64, _: Duration) {
        let name = table.to_string();
        let mut working = self.working.lock().unwrap();
        if let Some(i) = working.iter().position(|(w, _)| *w == name) {
            let (_, bar) = working.remove(i);
            bar.finish_and_clear();
            self.multi.remove(&bar);
        }
        let mut t = self.tables.lock().unwrap();
        t.0 += 1;
        self.overall.set_message(format!("{}/{} tables", t.0, t.1));
        self.overall.inc(entries);
    }
}

/// Plain log lines when standard error is not a terminal.
struct Log {
    start: Instant,
}

impl<T: Display> Progress<T> for Log {
    fn planned(&self, tables: usize, entries: u64) {
        eprintln!(
            "plan: {}, {entries} entries to generate",
            super::tables(tables, "")
        );
    }
    fn kept(&self, _: T) {}
    fn replacing(&self, table: T, why: &str) {
        eprintln!("regenerating {table}: {why}");
    }
    fn started(&self, _: T, _: u64) {}
    fn finished(&self, table: T, entries: u64, took: Duration) {
        eprintln!(
            "[{:>8.1}s] solved {table}: {entries} entries in {:.2}s",
            self.start.elapsed().as_secs_f64(),
            took.as_secs_f64()
        );
    }
}

/// Peak resident memory of this process in bytes, where the system tells.
pub fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? * 1024)
}

/// Runs the generation with the progress display `jtb gen` shows: none when quiet, bars on a
/// terminal, log lines otherwise. The same for every game's tables.
fn with_progress(
    quiet: bool,
    start: Instant,
    generate: impl FnOnce(&dyn Progress<String>) -> Result<Generated, jtb_gen::GenError>,
) -> Result<Generated, Box<dyn std::error::Error>> {
    if quiet {
        return Ok(generate(&Silent)?);
    }
    if std::io::stderr().is_terminal() {
        let bars = Bars::new()?;
        let generated = generate(&bars)?;
        bars.overall.finish();
        return Ok(generated);
    }
    Ok(generate(&Log { start })?)
}

pub fn run(args: &Args) -> CliResult {
    args.threads.apply()?;
    // The parser bounds the limit, so that it fits in bytes.
    let memory_limit = args
        .memory_limit
        .map_or_else(|| available_memory().unwrap_or(u64::MAX), |mib| mib << 20);
    let (quiet, start) = (args.quiet, Instant::now());
    let targets = if args.no_deps {
        args.choice.named_targets()?
    } else {
        args.choice.targets()?
    };
    let opts = Options {
        out: &args.out,
        memory_limit,
        only_targets: args.no_deps,
    };
    let generated = with_progress(quiet, start, |p| targets::generate(&targets, opts, p))?;
    if !quiet {
        let peak =
            peak_memory().map_or_else(String::new, |b| format!(", peak memory {} MiB", b >> 20));
        let Said {
            tables,
            chance,
            phases,
        } = said_of(&generated.tables, generated.chance.as_ref());
        eprintln!(
            "{tables}{chance}, in {:.1}s{peak}{phases}",
            start.elapsed().as_secs_f64()
        );
    }
    Ok(true)
}

/// The summary line's parts: the tables, the flip game's chance tables, and where the time
/// went (each game's phases).
struct Said {
    tables: String,
    chance: String,
    phases: String,
}

fn said_of(summary: &Summary<String>, chance: Option<&Summary<String>>) -> Said {
    let from_flip = match summary.from_flip.len() {
        0 => String::new(),
        1 => " (1 from its colour flip)".to_owned(),
        n => format!(" ({n} from their colour flip)"),
    };
    let tables = format!(
        "generated {}{from_flip} ({} entries), kept {}",
        super::tables(summary.generated.len(), ""),
        summary.entries,
        summary.kept.len()
    );
    let chance_part = chance.map_or_else(String::new, |c| {
        format!(
            ", {} ({} entries), kept {}",
            super::tables(c.generated.len(), "chance"),
            c.entries,
            c.kept.len()
        )
    });
    let phases_of = |phases: &[(&str, std::time::Duration)]| {
        let phases: Vec<String> = phases
            .iter()
            .map(|(name, took)| format!("{name} {:.1}s", took.as_secs_f64()))
            .collect();
        phases.join(", ")
    };
    let mut phases = String::new();
    if !summary.phases.is_empty() {
        phases = format!("; {}", phases_of(&summary.phases));
    }
    if let Some(c) = chance.filter(|c| !c.phases.is_empty()) {
        phases += &format!("; chance tables: {}", phases_of(&c.phases));
    }
    Said {
        tables,
        chance: chance_part,
        phases,
    }
}
