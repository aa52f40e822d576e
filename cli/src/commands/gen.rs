//! `jtb gen`: generate tables with progress.

use std::{
    io::IsTerminal,
    path::PathBuf,
    sync::Mutex,
    time::{Duration, Instant},
};

use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use jtb_gen::run::{available_memory, generate, GenOptions, Progress, Silent};
use jtb_probe::Material;

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

/// Progress bars on a terminal.
struct Bars {
    multi: MultiProgress,
    overall: ProgressBar,
    working: Mutex<Vec<(Material, ProgressBar)>>,
    tables: Mutex<(usize, usize)>,
}

impl Progress for Bars {
    fn planned(&self, tables: usize, entries: u64) {
        self.overall.set_length(entries);
        *self.tables.lock().unwrap() = (0, tables);
        self.overall.set_message(format!("0/{tables} tables"));
    }
    fn kept(&self, _: Material) {
        self.tables.lock().unwrap().0 += 1;
    }
    fn replacing(&self, m: Material, why: &str) {
        let _ = self.multi.println(format!("regenerating {m}: {why}"));
    }
    fn started(&self, m: Material, entries: u64) {
        let bar = self.multi.add(ProgressBar::new_spinner());
        bar.set_message(format!("solving {m} ({entries} entries)"));
        bar.enable_steady_tick(Duration::from_millis(200));
        self.working.lock().unwrap().push((m, bar));
    }
    fn finished(&self, m: Material, entries: u64, _: Duration) {
        let mut working = self.working.lock().unwrap();
        if let Some(i) = working.iter().position(|(w, _)| *w == m) {
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

impl Progress for Log {
    fn planned(&self, tables: usize, entries: u64) {
        eprintln!("plan: {tables} tables, {entries} entries to generate");
    }
    fn kept(&self, _: Material) {}
    fn replacing(&self, m: Material, why: &str) {
        eprintln!("regenerating {m}: {why}");
    }
    fn started(&self, _: Material, _: u64) {}
    fn finished(&self, m: Material, entries: u64, took: Duration) {
        eprintln!(
            "[{:>8.1}s] solved {m}: {entries} entries in {:.2}s",
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

pub fn run(args: &Args) -> CliResult {
    args.threads.apply()?;
    let (rules, targets, chance) = match args.choice.targets()? {
        input::Targets::Jungle(rules, targets, chance) => (rules, targets, chance),
        input::Targets::Gambit(targets) => return gambit(args, &targets),
    };
    // The parser bounds the limit, so that it fits in bytes.
    let memory_limit = args
        .memory_limit
        .map_or_else(|| available_memory().unwrap_or(u64::MAX), |mib| mib << 20);
    let opts = GenOptions {
        rules,
        targets,
        out: args.out.clone(),
        memory_limit,
        only_targets: args.no_deps,
    };
    let start = Instant::now();
    let summary = if args.quiet {
        generate(&opts, &Silent)?
    } else if std::io::stderr().is_terminal() {
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
        let bars = Bars {
            multi,
            overall,
            working: Mutex::new(Vec::new()),
            tables: Mutex::new((0, 0)),
        };
        let s = generate(&opts, &bars)?;
        bars.overall.finish();
        s
    } else {
        generate(&opts, &Log { start })?
    };
    let chance = if chance.is_empty() {
        None
    } else {
        Some(chance_tables(args, &chance, start)?)
    };
    if !args.quiet {
        let peak =
            peak_memory().map_or_else(String::new, |b| format!(", peak memory {} MiB", b >> 20));
        let chance = chance.map_or_else(String::new, |c| {
            format!(
                ", {} chance tables ({} entries), kept {}",
                c.generated.len(),
                c.generated.iter().map(|g| g.1).sum::<u64>(),
                c.kept.len()
            )
        });
        let from_flip = match summary.from_flip.len() {
            0 => String::new(),
            n => format!(" ({n} from their colour flip)"),
        };
        eprintln!(
            "generated {} tables{from_flip} ({} entries), kept {}{chance}, in {:.1}s{peak}",
            summary.generated.len(),
            summary.entries,
            summary.kept.len(),
            start.elapsed().as_secs_f64()
        );
    }
    Ok(true)
}

/// The flip game's chance tables (RULES.md 8), after the revealed tables they lead into: one
/// log line per table solved unless quiet.
fn chance_tables(
    args: &Args,
    targets: &[jtb_probe::flip::ChanceMaterial],
    start: Instant,
) -> Result<jtb_gen::chance::ChanceSummary, jtb_gen::GenError> {
    let quiet = args.quiet;
    let report = |m: jtb_probe::flip::ChanceMaterial, entries: Option<u64>, done, total| {
        if let (false, Some(entries)) = (quiet, entries) {
            eprintln!(
                "[{:>8.1}s] solved chance table {m}: {entries} entries ({done}/{total})",
                start.elapsed().as_secs_f64()
            );
        }
    };
    jtb_gen::chance::generate(&args.out, targets, &report)
}

/// `jtb gen --rules animal-gambit`: the tables and every one they need, in increasing piece
/// count, each read back when present and intact (with `--no-deps` the smaller ones must be).
fn gambit(args: &Args, targets: &[jtb_probe::gambit::Material]) -> CliResult {
    use jtb_gen::gambit::{generate, Cost, Done};
    let start = Instant::now();
    let quiet = args.quiet;
    let report = |d: &Done| {
        if let (false, Done::Generated(m, entries, took, cost)) = (quiet, d) {
            eprintln!(
                "[{:>8.1}s] solved {m}: {entries} entries in {:.2}s (actions {:.2}s, levels \
                 {:.2}s, files {:.2}s)",
                start.elapsed().as_secs_f64(),
                took.as_secs_f64(),
                cost.actions.as_secs_f64(),
                cost.levels.as_secs_f64(),
                cost.files.as_secs_f64()
            );
        }
    };
    let memory_limit = args
        .memory_limit
        .map_or_else(|| available_memory().unwrap_or(u64::MAX), |mib| mib << 20);
    let done = generate(&args.out, targets, memory_limit, args.no_deps, &report)?;
    if !quiet {
        let generated = done
            .iter()
            .filter(|d| matches!(d, Done::Generated(..)))
            .count();
        let mut entries = 0;
        let mut cost = Cost::default();
        for d in &done {
            if let Done::Generated(_, n, _, c) = d {
                entries += n;
                cost += *c;
            }
        }
        let peak =
            peak_memory().map_or_else(String::new, |b| format!(", peak memory {} MiB", b >> 20));
        eprintln!(
            "generated {generated} tables ({entries} entries), kept {}, in {:.1}s{peak}; \
             actions {:.1}s, levels {:.1}s, files {:.1}s",
            done.len() - generated,
            start.elapsed().as_secs_f64(),
            cost.actions.as_secs_f64(),
            cost.levels.as_secs_f64(),
            cost.files.as_secs_f64()
        );
    }
    Ok(true)
}
