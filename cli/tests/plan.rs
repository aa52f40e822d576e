//! `jtb plan` (list, make, slurm) and the single-table tasks it runs (`jtb gen --no-deps`).
//! The plans run on a real Slurm and GNU make in `tests/cluster/plan_on_slurm_and_make.sh`;
//! here their structure is checked, the Slurm script against a stand-in `sbatch`.

mod cli_support;

use cli_support::{jtb, stderr, stdout};
use std::{
    collections::{BTreeMap, BTreeSet},
    fs,
    os::unix::fs::PermissionsExt,
    path::Path,
    process::Command,
};

/// The list plan: (piece count, material, needs) per line.
fn list(args: &[&str]) -> Vec<(usize, String, Vec<String>)> {
    let mut all = vec!["plan", "--format", "list"];
    all.extend_from_slice(args);
    let o = jtb(&all);
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
        .lines()
        .map(|l| {
            let mut words = l.split(' ').map(str::to_owned);
            let n = words.next().unwrap().parse().unwrap();
            let m = words.next().unwrap();
            (n, m, words.collect())
        })
        .collect()
}

#[test]
fn the_list_is_in_dependency_order() {
    let plan = list(&["--max-pieces", "4"]);
    assert_eq!(plan.len(), 1114, "every mistboard table up to 4 pieces");
    let mut seen = BTreeSet::new();
    let mut pieces = 0;
    for (n, m, needs) in &plan {
        assert!(*n >= pieces, "piece counts never decrease");
        pieces = *n;
        assert_eq!(m.len() - 1, *n, "{m} has {n} pieces");
        for need in needs {
            assert!(seen.contains(need), "{m} needs {need}, listed later");
            assert_eq!(need.len(), m.len() - 1);
        }
        assert!(seen.insert(m.clone()), "{m} listed twice");
    }
    let lrvet = plan.iter().find(|(_, m, _)| m == "ETvLR").unwrap();
    let needs: BTreeSet<&str> = lrvet.2.iter().map(String::as_str).collect();
    assert_eq!(needs, BTreeSet::from(["ETvL", "ETvR", "LRvE", "LRvT"]));

    // A named material brings exactly what it needs; either orientation names it.
    let plan = list(&["--material", "LRvET"]);
    let names: Vec<&str> = plan.iter().map(|(_, m, _)| m.as_str()).collect();
    assert_eq!(plan.len(), 9, "{names:?}");
    assert_eq!(names.last(), Some(&"ETvLR"));
    assert_eq!(list(&["--material", "ETvLR"]), plan);
}

#[test]
fn the_makefile_needs_each_tables_captures() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tables");
    let o = jtb(&[
        "plan",
        "--format",
        "make",
        "--material",
        "LRvE",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let wdl = |m: &str| format!("{}/mistboard/{m}.wdl", out.display());
    let rule = text
        .lines()
        .find(|l| l.starts_with(&format!("{}:", wdl("LRvE"))))
        .expect("a rule for LRvE");
    let prerequisites: BTreeSet<&str> = rule.split_once(": ").unwrap().1.split(' ').collect();
    let expected = [wdl("EvL"), wdl("EvR")];
    assert_eq!(
        prerequisites,
        expected.iter().map(String::as_str).collect::<BTreeSet<_>>()
    );
    let jtb_path = fs::canonicalize(env!("CARGO_BIN_EXE_jtb")).unwrap();
    assert!(
        text.contains(&format!("JTB := {}", jtb_path.display())),
        "the binary that wrote the plan, by its absolute path"
    );
    assert!(text.contains("--no-deps"));

    // A path make cannot take is refused, naming it.
    let o = jtb(&["plan", "--format", "make", "--out", "/tmp/a b"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("/tmp/a b"), "{}", stderr(&o));
}

/// A stand-in for `sbatch` that records its arguments and the job script it reads, and answers
/// job ids 1, 2, ... as `--parsable` does.
fn fake_sbatch(dir: &Path) {
    let script = "#!/usr/bin/env bash\n\
        n=$(( $(ls \"$FAKE_DIR\"/job-*.args 2>/dev/null | wc -l) + 1 ))\n\
        printf '%s\\n' \"$@\" > \"$FAKE_DIR/job-$n.args\"\n\
        cat > \"$FAKE_DIR/job-$n.sh\"\n\
        echo \"$n;cluster\"\n";
    let path = dir.join("sbatch");
    fs::write(&path, script).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
}

/// Writes the slurm plan of the mistboard set up to 5 pieces with `extra` options, runs it
/// against [`fake_sbatch`], and returns each job's sbatch arguments and script, in order.
fn submitted_slurm_plan(extra: &[&str]) -> Vec<(String, String)> {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("plan.sh");
    let out = dir.path().join("shared tables");
    let mut args = vec![
        "plan",
        "--format",
        "slurm",
        "--max-pieces",
        "5",
        "--out",
        out.to_str().unwrap(),
        "--throttle",
        "7",
        "--jtb",
        "/opt/jtb/bin/jtb",
        "--sbatch-args",
        "--partition=long --time=2:00:00",
    ];
    args.extend_from_slice(extra);
    let o = jtb(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    fs::write(&plan, stdout(&o)).unwrap();
    fake_sbatch(dir.path());
    let path = format!(
        "{}:{}",
        dir.path().display(),
        std::env::var("PATH").unwrap()
    );
    let run = Command::new("bash")
        .arg(&plan)
        .env("PATH", path)
        .env("FAKE_DIR", dir.path())
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", stderr(&run));
    let jobs = fs::read_dir(dir.path())
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension() == Some("args".as_ref()))
        .count();
    assert!(
        stdout(&run).ends_with(&format!("verify: job {jobs}\n")),
        "the last job verifies: {}",
        stdout(&run)
    );
    (1..=jobs)
        .map(|job| {
            let read = |ext| fs::read_to_string(dir.path().join(format!("job-{job}.{ext}")));
            (read("args").unwrap(), read("sh").unwrap())
        })
        .collect()
}

#[test]
fn the_slurm_script_submits_levels_in_arrays_of_at_most_1001() {
    let jobs = submitted_slurm_plan(&[]);
    // Which tables each job's tasks generate or verify, and what each job waits for.
    let levels = list(&["--max-pieces", "5"]);
    let mut by_count: BTreeMap<usize, BTreeSet<String>> = BTreeMap::new();
    for (n, m, _) in &levels {
        by_count.entry(*n).or_default().insert(m.clone());
    }
    let mut unverified = by_count.clone();
    let mut gen_jobs: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    let mut verify_jobs: Vec<usize> = Vec::new();
    for (i, (args, script)) in jobs.iter().enumerate() {
        let job = i + 1;
        let syntax = Command::new("bash")
            .args(["-n", "-c", script])
            .status()
            .unwrap();
        assert!(syntax.success(), "job {job}'s script is bash");
        assert!(
            args.contains("--partition=long\n--time=2:00:00\n"),
            "{args}"
        );
        assert!(args.contains("--parsable"));
        assert!(
            script.contains("/opt/jtb/bin/jtb"),
            "--jtb overrides the binary"
        );
        assert!(
            script.contains("'"),
            "the table path with a space is quoted"
        );
        if job < jobs.len() {
            assert!(
                script.contains("--threads \"${SLURM_CPUS_PER_TASK:-1}\""),
                "each task's threads are its allocation: {script}"
            );
        }
        let mut dependency: Vec<usize> = args
            .lines()
            .find_map(|l| l.strip_prefix("--dependency=afterok:"))
            .map(|d| d.split(':').map(|j| j.parse().unwrap()).collect())
            .unwrap_or_default();
        dependency.sort_unstable();
        if job == jobs.len() {
            assert!(args.contains("--job-name=jtb-mistboard-verify\n"), "{args}");
            assert!(script.contains("verify --rules mistboard"));
            assert!(script.contains("--checksums-only"));
            let mut all: Vec<usize> = verify_jobs.clone();
            all.extend(&gen_jobs[&5]);
            all.sort_unstable();
            assert_eq!(dependency, all, "the last job waits for all");
            continue;
        }
        let array = args
            .lines()
            .find_map(|l| l.strip_prefix("--array=0-"))
            .unwrap();
        let (last, throttle) = array.split_once('%').unwrap();
        assert_eq!(throttle, "7");
        let tables_line = script.lines().find(|l| l.starts_with("tables=(")).unwrap();
        let tables: Vec<String> = tables_line["tables=(".len()..tables_line.len() - 1]
            .split(' ')
            .map(str::to_owned)
            .collect();
        assert_eq!(tables.len(), last.parse::<usize>().unwrap() + 1);
        assert!(tables.len() <= 1001, "Slurm's default MaxArraySize");
        let n = tables[0].len() - 1;
        if args.contains(&format!("--job-name=jtb-mistboard-{n}-verify\n")) {
            assert!(script.contains(" verify --tables "), "{script}");
            let mut generated = gen_jobs[&n].clone();
            generated.sort_unstable();
            assert_eq!(
                dependency, generated,
                "job {job} verifies its level once generated"
            );
            for t in tables {
                assert!(
                    unverified.get_mut(&n).unwrap().remove(&t),
                    "{t} verified once"
                );
            }
            verify_jobs.push(job);
            continue;
        }
        assert!(
            args.contains(&format!("--job-name=jtb-mistboard-{n}-gen\n")),
            "{args}"
        );
        assert!(script.contains(" gen --out "), "{script}");
        let previous = gen_jobs
            .range(..n)
            .next_back()
            .map(|(_, j)| j.clone())
            .unwrap_or_default();
        assert_eq!(dependency, previous, "job {job} waits for the level before");
        for t in tables {
            assert!(
                by_count.get_mut(&n).unwrap().remove(&t),
                "{t} once, in its level"
            );
        }
        gen_jobs.entry(n).or_default().push(job);
    }
    assert!(
        by_count.values().all(BTreeSet::is_empty),
        "every table planned"
    );
    assert!(
        unverified.values().all(BTreeSet::is_empty),
        "every table verified"
    );
    assert_eq!(
        gen_jobs[&5].len(),
        3,
        "2,128 five-piece tables in three arrays"
    );
    assert_eq!(verify_jobs.len(), 6);
}

#[test]
fn checksums_only_plans_verify_no_entries() {
    let jobs = submitted_slurm_plan(&["--checksums-only"]);
    assert_eq!(jobs.len(), 7, "six generation arrays and the last job");
    assert!(jobs[..6]
        .iter()
        .all(|(_, script)| script.contains(" gen --out ")));
    assert!(jobs[6].1.contains("verify --rules mistboard"));
    assert!(jobs[6].1.contains("--checksums-only"));
    let make = |extra: &[&str]| {
        let mut args = vec!["plan", "--format", "make", "--max-pieces", "3"];
        args.extend_from_slice(extra);
        let text = stdout(&jtb(&args));
        let verify = text.lines().skip_while(|l| *l != "verify: all").nth(1);
        verify.unwrap().to_owned()
    };
    assert!(!make(&[]).contains("--checksums-only"));
    assert!(make(&["--checksums-only"]).contains("verify --rules mistboard"));
    assert!(make(&["--checksums-only"]).ends_with("--checksums-only"));
}

#[test]
fn plan_input_errors_are_clear() {
    for (args, needle) in [
        (vec!["--rules", "chess"], "unknown rule set `chess`"),
        (vec!["--material", "LRvXE"], "bad material `LRvXE`"),
        (vec!["--max-pieces", "9"], "9 is not in 2..=8"),
        (vec!["--max-pieces", "1"], "1 is not in 2..=8"),
        (vec!["--throttle", "0"], "0 is not in 1.."),
    ] {
        let mut all = vec!["plan", "--format", "slurm"];
        all.extend(args);
        let o = jtb(&all);
        assert_eq!(o.status.code(), Some(2), "{all:?}");
        assert!(stderr(&o).contains(needle), "{all:?}: {}", stderr(&o));
    }
    let o = jtb(&["plan", "--format", "yaml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("invalid value 'yaml'"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_single_table_task_refuses_missing_or_damaged_needs_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_str().unwrap();
    let tables = dir.path().join("mistboard");
    let task = |m: &str| {
        jtb(&[
            "gen",
            "--out",
            root,
            "--no-deps",
            "--quiet",
            "--material",
            m,
        ])
    };

    let o = task("LRvE");
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("EvL is missing") && err.contains("EvR is missing"),
        "{err}"
    );
    assert!(!tables.join("LRvE.wdl").exists() && !tables.join("LRvE.dtm").exists());

    // The 2-piece tasks need nothing; then LRvE's needs are there, one of them damaged.
    for m in ["EvL", "EvR"] {
        let o = task(m);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let evr = tables.join("EvR.dtm");
    let good = fs::read(&evr).unwrap();
    fs::write(&evr, &good[..good.len() - 3]).unwrap();
    let o = task("LRvE");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("EvR is unusable") && stderr(&o).contains("EvR.dtm"),
        "{}",
        stderr(&o)
    );
    assert!(!tables.join("LRvE.dtc").exists());

    // Mended, the task writes exactly its own table; again, it keeps it.
    fs::write(&evr, &good).unwrap();
    let o = jtb(&["gen", "--out", root, "--no-deps", "--material", "LRvE"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("generated 1 table "), "{}", stderr(&o));
    let written = fs::read(tables.join("LRvE.wdl")).unwrap();
    let o = jtb(&["gen", "--out", root, "--no-deps", "--material", "LRvE"]);
    assert!(stderr(&o).contains("generated 0 tables"), "{}", stderr(&o));
    assert_eq!(fs::read(tables.join("LRvE.wdl")).unwrap(), written);

    // A task killed after writing some of its files: the rerun finishes the table.
    fs::remove_file(tables.join("LRvE.wdl")).unwrap();
    let o = task("LRvE");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(fs::read(tables.join("LRvE.wdl")).unwrap(), written);

    // --no-deps names the tables it generates.
    let o = jtb(&["gen", "--out", root, "--no-deps"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--material"), "{}", stderr(&o));
}

#[test]
fn the_slurm_script_counts_each_level_in_words() {
    let o = jtb(&["plan", "--format", "slurm", "--material", "LvE"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let script = stdout(&o);
    // One table: "1 table", never "1 tables".
    assert!(script.contains("(1 table)\""), "{script}");
    assert!(!script.contains("(1 tables)"), "{script}");
    assert!(script.contains("(1 in 1 level)"), "{script}");
    let o = jtb(&["plan", "--format", "slurm", "--max-pieces", "3"]);
    let levels = list(&["--max-pieces", "3"]);
    let twos = levels.iter().filter(|(n, _, _)| *n == 2).count();
    assert!(twos > 1);
    assert!(
        stdout(&o).contains(&format!("2 pieces, gen: job $gen_l1_0 ({twos} tables)")),
        "{}",
        stdout(&o)
    );
}

/// Under flip4x4 the chance tables' levels follow the revealed tables' with the same piece
/// counts again: each level's jobs have variables of their own, and the last job waits for
/// every level's checks.
#[test]
fn every_level_of_a_slurm_script_has_its_own_jobs() {
    let o = jtb(&[
        "plan",
        "--format",
        "slurm",
        "--rules",
        "flip4x4",
        "--material",
        "CvL-EWt",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let script = stdout(&o);
    let assigned: Vec<&str> = script
        .lines()
        .filter_map(|l| l.split_once("=$(submit").map(|(var, _)| var))
        .collect();
    let mut unique = assigned.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), assigned.len(), "{assigned:?}");
    let last = script
        .lines()
        .find(|l| l.starts_with("verify=$(submit"))
        .unwrap();
    for var in assigned.iter().filter(|v| v.starts_with("verify_")) {
        assert!(
            last.contains(&format!("${var}:")) || last.contains(&format!("${var} ")),
            "{var}: {last}"
        );
    }
}
