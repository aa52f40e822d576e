//! `jtb plan`: the generation of a table set as independent tasks, for GNU make or Slurm.
//!
//! Neither Jungle nor Animal Gambit has promotion, so a capture (a trap removal) always leaves
//! fewer pieces: the tables of one piece count depend only on smaller ones, and each task is
//! one `jtb gen --no-deps` of one table. The plan's text is written once over each game's
//! tasks.

use std::{
    fmt::{self, Write as _},
    io::Write as _,
    path::{Path, PathBuf},
};

use jtb_gen::plan;
use jtb_probe::{flip::ChanceMaterial, format::table_path, gambit, Kind, Material, RuleSet};

use crate::CliResult;

/// How the plan is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One line per table in dependency order: piece count, material, the materials it needs.
    List,
    /// A Makefile: each table's files are a target needing the tables it captures into;
    /// `make -j K -f FILE` builds the set on one machine.
    Make,
    /// A bash script for a Slurm login node: one job array per piece count (split at 1001
    /// tasks), each level after the one before (`afterok`); job arrays verifying each level
    /// once it is generated; then a job running `jtb verify --checksums-only` on the set.
    Slurm,
}

/// How far the plan verifies the set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verify {
    /// Every entry one ply deep, and the checksums.
    OnePly,
    /// The checksums only.
    Checksums,
}

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    choice: crate::input::TableChoice,
    /// Table root directory the tasks write to (shared by every node for Slurm).
    #[arg(long, default_value = "tables", value_name = "DIR")]
    out: PathBuf,
    /// Output form.
    #[arg(long, value_enum)]
    format: Format,
    /// The jtb binary the tasks run (default: this one, by its absolute path).
    #[arg(long, value_name = "PATH")]
    jtb: Option<PathBuf>,
    /// Slurm: run at most K tasks of a job array at once (`--array=...%K`).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..))]
    throttle: Option<u32>,
    /// Slurm: extra sbatch options for every job, split at whitespace (for example
    /// "--partition=long --account=jungle --time=2:00:00 --mem=6G").
    #[arg(long, value_name = "ARGS", allow_hyphen_values = true)]
    sbatch_args: Option<String>,
    /// Verify only the checksums of the set, not every entry one ply deep (which costs more than
    /// the generation: 11-12 times for a 5-piece table).
    #[arg(long)]
    checksums_only: bool,
}

/// Why a plan cannot be written.
#[derive(Debug)]
pub enum PlanError {
    /// A path cannot be written into a Makefile.
    UnsafeForMake(PathBuf),
    /// The path of the jtb binary or of the table directory is unknown.
    Path(std::io::Error),
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlanError::UnsafeForMake(p) => write!(
                f,
                "{} cannot be written into a Makefile (spaces and the characters $#:%;=\\ \"' are not allowed)",
                p.display()
            ),
            PlanError::Path(e) => write!(f, "cannot resolve a path: {e}"),
        }
    }
}

impl std::error::Error for PlanError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PlanError::UnsafeForMake(_) => None,
            PlanError::Path(e) => Some(e),
        }
    }
}

/// Slurm's default `MaxArraySize`: array indices run below it.
const MAX_ARRAY_SIZE: usize = 1001;

/// A planned table and the tables it needs, of any game: each by its material's name and the
/// file whose presence marks it done (its WDL file, written last).
struct Task {
    material: String,
    pieces: usize,
    file: PathBuf,
    needs: Vec<(String, PathBuf)>,
}

/// Everything a plan's text needs.
struct Plan {
    /// The rule-set id.
    rules: &'static str,
    jtb: PathBuf,
    out: PathBuf,
    /// Tasks by piece count, fewest first.
    levels: Vec<Vec<Task>>,
}

impl Plan {
    /// The plan of a Jungle-family table set, and under flip4x4 of the chance tables `chance`
    /// and those they lead into, after the revealed tables (a level per count of face-down
    /// tiles and tiles).
    fn new(
        rules: RuleSet,
        targets: &[Material],
        chance: &[ChanceMaterial],
        jtb: PathBuf,
        out: PathBuf,
    ) -> Plan {
        let named = |m: Material| (m.to_string(), table_path(&out, rules, m, Kind::Wdl));
        let mut levels: Vec<Vec<Task>> = plan::closure(rules, targets)
            .into_iter()
            .map(|group| {
                group
                    .into_iter()
                    .map(|material| {
                        let (name, file) = named(material);
                        Task {
                            material: name,
                            pieces: material.total(),
                            file,
                            needs: plan::successors(rules, material)
                                .into_iter()
                                .map(named)
                                .collect(),
                        }
                    })
                    .collect()
            })
            .collect();
        let chance_named =
            |m: ChanceMaterial| (m.to_string(), jtb_gen::chance::table_path(&out, m));
        let mut level = (0, 0);
        for m in jtb_gen::chance::closure(chance) {
            let (children, last_flip) = jtb_gen::chance::successors(m);
            let task = Task {
                material: m.to_string(),
                pieces: m.tiles(),
                file: jtb_gen::chance::table_path(&out, m),
                needs: children
                    .into_iter()
                    .map(chance_named)
                    .chain(last_flip.map(named))
                    .collect(),
            };
            let key = (m.hidden().len(), m.tiles());
            match levels.last_mut() {
                Some(tasks) if level == key => tasks.push(task),
                _ => levels.push(vec![task]),
            }
            level = key;
        }
        Plan {
            rules: rules.name(),
            jtb,
            out,
            levels,
        }
    }

    /// The plan of an Animal Gambit table set: a table needs the tables one trap removal
    /// leads into.
    fn gambit(targets: &[gambit::Material], jtb: PathBuf, out: PathBuf) -> Plan {
        let named =
            |m: gambit::Material| (m.to_string(), jtb_gen::gambit::path(&out, m, Kind::Wdl));
        let mut levels: Vec<Vec<Task>> = Vec::new();
        for m in jtb_gen::gambit::closure(targets) {
            let mut needs: Vec<gambit::Material> = m
                .smaller()
                .into_iter()
                .map(gambit::Material::canonical)
                .collect();
            needs.sort_by_key(ToString::to_string);
            needs.dedup();
            let (name, file) = named(m);
            let task = Task {
                material: name,
                pieces: m.total(),
                file,
                needs: needs.into_iter().map(named).collect(),
            };
            match levels.last_mut() {
                Some(level) if level[0].pieces == task.pieces => level.push(task),
                _ => levels.push(vec![task]),
            }
        }
        Plan {
            rules: gambit::AnimalGambit::NAME,
            jtb,
            out,
            levels,
        }
    }

    fn tables(&self) -> usize {
        self.levels.iter().map(Vec::len).sum()
    }

    fn list(&self) -> String {
        let mut s = String::new();
        for task in self.levels.iter().flatten() {
            let _ = write!(s, "{} {}", task.pieces, task.material);
            for (n, _) in &task.needs {
                let _ = write!(s, " {n}");
            }
            s.push('\n');
        }
        s
    }

    fn make(&self, verify: Verify) -> Result<String, PlanError> {
        for p in [&self.jtb, &self.out] {
            if !make_safe(p) {
                return Err(PlanError::UnsafeForMake(p.clone()));
            }
        }
        let rules = self.rules;
        let mut s = format!(
            "# The {rules} tables ({} in all), generated by `jtb plan`: make -j K -f THIS_FILE\n\
             # Each table's target is its .wdl file, written last; its prerequisites are the\n\
             # tables it captures into. A complete table is kept, so a rerun redoes nothing.\n\
             JTB := {}\n\
             GEN := $(JTB) gen --rules {rules} --out {} --no-deps --quiet --material\n\n\
             .PHONY: all verify\n",
            self.tables(),
            self.jtb.display(),
            self.out.display()
        );
        let file = |p: &Path| p.display().to_string();
        let all: Vec<String> = self
            .levels
            .iter()
            .flatten()
            .map(|t| file(&t.file))
            .collect();
        let _ = writeln!(s, "all: \\\n  {}\n", all.join(" \\\n  "));
        for task in self.levels.iter().flatten() {
            let needs: Vec<String> = task.needs.iter().map(|(_, p)| file(p)).collect();
            let _ = writeln!(
                s,
                "{}: {}\n\t$(GEN) {}\n",
                file(&task.file),
                needs.join(" "),
                task.material
            );
        }
        let _ = writeln!(
            s,
            "verify: all\n\t$(JTB) verify --rules {rules} --tables {}{}",
            self.out.display(),
            match verify {
                Verify::OnePly => "",
                Verify::Checksums => " --checksums-only",
            }
        );
        Ok(s)
    }

    fn slurm(&self, throttle: Option<u32>, sbatch_args: &[String], verify: Verify) -> String {
        let rules = self.rules;
        let (jtb, out) = (quote(&self.jtb), quote(&self.out));
        let logs = quote(self.out.join("slurm-logs"));
        let throttle = throttle.map_or_else(String::new, |k| format!("%{k}"));
        let extra: String = sbatch_args
            .iter()
            .map(|a| format!(" {}", quote(a)))
            .collect();
        let checks = match verify {
            Verify::OnePly => {
                "Once a level is generated, job arrays check each of its tables one\n\
                 # ply deep (jtb verify) while the next level generates; a last job checks the\n\
                 # checksums of the whole set."
            }
            Verify::Checksums => {
                "A last job checks the checksums of the whole\n\
                 # set (jtb verify)."
            }
        };
        let mut s = format!(
            "#!/usr/bin/env bash\n\
             # The {rules} tables ({} in {}), generated by `jtb plan`. Run it on a Slurm login\n\
             # node. It submits one job array per piece count, each level after the one before\n\
             # (afterok). Each task generates one table into {out} and keeps a complete\n\
             # one, so a resubmitted plan redoes nothing finished. {checks}\n\
             # Logs go to {logs}.\n\
             set -euo pipefail\n\
             mkdir -p {logs}\n\
             submit() {{ sbatch --parsable --output={logs}/%x-%A_%a.out{extra} \"$@\" | cut -d';' -f1; }}\n",
            self.tables(),
            match self.levels.len() {
                1 => "1 level".to_owned(),
                n => format!("{n} levels"),
            },
        );
        // Job arrays of `tasks`, split at Slurm's limit, each task running `command` on its
        // table after the jobs `after`; `kind` names them. Returns the jobs' shell variables.
        let mut arrays = |kind: &str, tasks: &[Task], after: &[String], command: &str| {
            let pieces = tasks[0].pieces;
            let mut jobs = Vec::new();
            for (part, chunk) in tasks.chunks(MAX_ARRAY_SIZE).enumerate() {
                let var = format!("{kind}{pieces}_{part}");
                let names: Vec<String> = chunk.iter().map(|t| t.material.clone()).collect();
                let _ = write!(
                    s,
                    "\n{var}=$(submit --job-name=jtb-{rules}-{pieces}-{kind} --array=0-{}{throttle}{} <<'JOB'\n\
                     #!/usr/bin/env bash\n\
                     set -euo pipefail\n\
                     tables=({})\n\
                     exec {jtb} {command} --rules {rules} --material \"${{tables[$SLURM_ARRAY_TASK_ID]}}\"\n\
                     JOB\n)\n\
                     echo \"{pieces} pieces, {kind}: job ${var} ({})\"\n",
                    chunk.len() - 1,
                    dependency(after),
                    names.join(" "),
                    super::tables(chunk.len(), ""),
                );
                jobs.push(format!("${var}"));
            }
            jobs
        };
        let threads = "--threads \"${SLURM_CPUS_PER_TASK:-1}\"";
        let generate = format!("gen --out {out} --no-deps --quiet {threads}");
        let check = format!("verify --tables {out} {threads}");
        let mut previous: Vec<String> = Vec::new();
        let mut last: Vec<String> = Vec::new();
        for tasks in &self.levels {
            let generated = arrays("gen", tasks, &previous, &generate);
            if verify == Verify::OnePly {
                last.extend(arrays("verify", tasks, &generated, &check));
            }
            previous = generated;
        }
        last.extend(previous);
        let _ = write!(
            s,
            "\nverify=$(submit --job-name=jtb-{rules}-verify{} <<'JOB'\n\
             #!/usr/bin/env bash\n\
             exec {jtb} verify --rules {rules} --tables {out} --checksums-only\n\
             JOB\n)\n\
             echo \"verify: job $verify\"\n",
            dependency(&last)
        );
        s
    }
}

/// ` --dependency=afterok:A:B` on the jobs of the level before, or nothing for the first.
fn dependency(jobs: &[String]) -> String {
    if jobs.is_empty() {
        String::new()
    } else {
        format!(" --dependency=afterok:{}", jobs.join(":"))
    }
}

/// `s` quoted for bash: in single quotes, a quote inside written `'\''`.
fn quote(s: impl AsRef<std::ffi::OsStr>) -> String {
    let s = s.as_ref().to_string_lossy();
    if !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-+=,:@%".contains(&b))
    {
        return s.into_owned();
    }
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// Whether make can take `p` as it is in targets and commands.
fn make_safe(p: &Path) -> bool {
    p.to_str().is_some_and(|s| {
        !s.chars()
            .any(|c| c.is_whitespace() || "$#:%;=\\\"'".contains(c))
    })
}

pub fn run(args: &Args) -> CliResult {
    let jtb = match &args.jtb {
        Some(p) => std::path::absolute(p),
        None => std::env::current_exe(),
    }
    .map_err(PlanError::Path)?;
    let out = std::path::absolute(&args.out).map_err(PlanError::Path)?;
    let plan = match args.choice.targets()? {
        crate::input::Targets::Jungle(rules, targets, chance) => {
            Plan::new(rules, &targets, &chance, jtb, out)
        }
        crate::input::Targets::Gambit(targets) => Plan::gambit(&targets, jtb, out),
    };
    let verify = if args.checksums_only {
        Verify::Checksums
    } else {
        Verify::OnePly
    };
    let text = match args.format {
        Format::List => plan.list(),
        Format::Make => plan.make(verify)?,
        Format::Slurm => {
            let extra: Vec<String> = args
                .sbatch_args
                .iter()
                .flat_map(|a| a.split_whitespace())
                .map(str::to_owned)
                .collect();
            plan.slurm(args.throttle, &extra, verify)
        }
    };
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()?;
    Ok(true)
}
