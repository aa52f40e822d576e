//! A generation named at run time: the tables of any game ([`Targets`], as
//! `jtb_edge::Rules::targets` reads the names a user gives), made ([`generate`]) or planned as
//! independent tasks ([`tasks`]). The one place where the generator's front ends (`jtb gen`,
//! `jtb plan`, the Python package) meet each game's generator.

use std::path::Path;

use jtb_probe::{RuleSet, Targets};

use crate::{
    chance,
    driver::{Named, Progress, Summary, Task},
    gambit, plan,
    run::{self, GenOptions},
    GenError,
};

/// Where and how a generation runs.
#[derive(Debug, Clone, Copy)]
pub struct Options<'a> {
    /// The table root directory (files go to `out/<rules>/`).
    pub out: &'a Path,
    /// Bytes of memory the generation may use; a table whose estimate exceeds it is refused
    /// before anything is written.
    pub memory_limit: u64,
    /// Generate the targets only: the tables they need must be present and intact (one task of
    /// a plan).
    pub only_targets: bool,
}

/// What a generation made, its tables named as text.
#[derive(Debug, Clone)]
pub struct Generated {
    /// The tables of the game's rule set.
    pub tables: Summary<String>,
    /// The flip game's chance tables, where any were asked for (made after the revealed tables
    /// they lead into).
    pub chance: Option<Summary<String>>,
}

/// Generates `targets` and, unless `only_targets`, every table they need, keeping the tables
/// already on disk and intact (an interrupted generation resumes). A table too large for the
/// memory limit is refused before any file is written (the chance tables' too).
///
/// # Errors
/// The game's generation failed; tables written before the failure are complete.
pub fn generate(
    targets: &Targets,
    opts: Options<'_>,
    progress: &dyn Progress<String>,
) -> Result<Generated, GenError> {
    let progress = Named(progress);
    match targets {
        Targets::Jungle(rules, revealed, chance_tables) => {
            chance::check_memory(chance_tables, opts.memory_limit)?;
            let run = GenOptions {
                rules: *rules,
                targets: revealed.clone(),
                out: opts.out.to_path_buf(),
                memory_limit: opts.memory_limit,
                only_targets: opts.only_targets,
            };
            let tables = run::generate(&run, &progress)?.named();
            if *rules == RuleSet::Flip4x4 && !revealed.is_empty() && !opts.only_targets {
                // A revealed table of the flip game holds its distances to the end too (RULES.md
                // 8), as those made for the chance tables above them do; each file present and
                // intact is kept. A plan's task (`only_targets`) leaves them to the chance
                // tasks, which make those their last flips lead into: its done-marker is the
                // revealed table's last file written.
                crate::flip::dte::generate_revealed(opts.out, revealed)?;
            }
            let chance = if chance_tables.is_empty() {
                None
            } else {
                let made = chance::generate(
                    opts.out,
                    chance_tables,
                    opts.memory_limit,
                    opts.only_targets,
                    &progress,
                )?;
                Some(made.named())
            };
            Ok(Generated { tables, chance })
        }
        Targets::Gambit(targets) => {
            let made = gambit::generate(
                opts.out,
                targets,
                opts.memory_limit,
                opts.only_targets,
                &progress,
            )?;
            Ok(Generated {
                tables: made.named(),
                chance: None,
            })
        }
    }
}

/// The tasks that generate `targets` and every table they need under `out`, by level: a level's
/// tables need only those of earlier levels (`jtb plan`).
#[must_use]
pub fn tasks(targets: &Targets, out: &Path) -> Vec<Vec<Task>> {
    match targets {
        Targets::Jungle(rules, revealed, chance_tables) => {
            let mut levels = plan::tasks(*rules, revealed, out);
            levels.extend(chance::tasks(chance_tables, out));
            levels
        }
        Targets::Gambit(targets) => gambit::tasks(targets, out),
    }
}
