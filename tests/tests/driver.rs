//! One progress interface and one summary for every game's generation: the same test body runs
//! over the Jungle family (Clesto's tables among them), the flip game's chance tables and
//! Animal Gambit. A first generation plans, then solves and reports every table; a second keeps
//! every one; a damaged table is named and made again. Every game's tables are written by one
//! writer: temporaries of killed runs cleared, a directory that cannot be written named.

use std::{path::Path, sync::Mutex, time::Duration};

use jtb_gen::driver::{Progress, Silent, Summary};
use jtb_probe::{flip::ChanceMaterial, gambit, Material, RuleSet};

/// Every event, in order, with the table's name.
#[derive(Default)]
struct Recorder(Mutex<Vec<String>>);

impl<T: std::fmt::Display> Progress<T> for Recorder {
    fn planned(&self, tables: usize, entries: u64) {
        self.push(format!("planned {tables} {entries}"));
    }
    fn kept(&self, table: T) {
        self.push(format!("kept {table}"));
    }
    fn replacing(&self, table: T, why: &str) {
        assert!(!why.is_empty());
        self.push(format!("replacing {table}"));
    }
    fn started(&self, table: T, _: u64) {
        self.push(format!("started {table}"));
    }
    fn finished(&self, table: T, entries: u64, _: Duration) {
        assert!(entries > 0);
        self.push(format!("finished {table}"));
    }
}

impl Recorder {
    fn push(&self, event: String) {
        self.0.lock().unwrap().push(event);
    }

    fn events(&self) -> Vec<String> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }
}

/// Generates a game's tables under a root, reporting to a progress sink; the error as the
/// generator words it.
type Generate<T> = Box<dyn Fn(&Path, &dyn Progress<T>) -> Result<Summary<T>, String>>;
/// A file of a table under a root.
type FileOf<T> = Box<dyn Fn(&Path, T) -> std::path::PathBuf>;

/// A game's generation as the test sees it: its tables generated under a root, the directory
/// they go to, and a file of each (the one the test damages).
struct Game<T> {
    name: &'static str,
    generate: Generate<T>,
    dir: &'static str,
    file_of: FileOf<T>,
}

impl<T> Game<T> {
    fn generate(&self, root: &Path, progress: &dyn Progress<T>) -> Summary<T> {
        (self.generate)(root, progress).unwrap_or_else(|e| panic!("{}: {e}", self.name))
    }
}

fn jungle(rules: RuleSet, names: &[&str]) -> Game<Material> {
    let targets: Vec<Material> = names.iter().map(|m| m.parse().unwrap()).collect();
    Game {
        name: rules.name(),
        generate: Box::new(move |root, progress| {
            let opts = jtb_gen::run::GenOptions {
                rules,
                targets: targets.clone(),
                out: root.to_path_buf(),
                memory_limit: u64::MAX,
                only_targets: false,
            };
            jtb_gen::run::generate(&opts, progress).map_err(|e| e.to_string())
        }),
        dir: rules.name(),
        file_of: Box::new(move |root, m| {
            jtb_probe::format::table_path(root, rules, m, jtb_probe::Kind::Wdl)
        }),
    }
}

fn check<T: Copy + std::fmt::Display + PartialEq + std::fmt::Debug>(game: &Game<T>) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let recorder = Recorder::default();
    let first = game.generate(root, &recorder);
    let events = recorder.events();
    let name = game.name;
    assert!(events[0].starts_with("planned "), "{name}: {events:?}");
    let planned: Vec<u64> = events[0]
        .split(' ')
        .skip(1)
        .map(|n| n.parse().unwrap())
        .collect();
    assert_eq!(planned[0] as usize, first.generated.len(), "{name}");
    assert_eq!(planned[1], first.entries, "{name}");
    assert!(
        first.kept.is_empty() && !first.generated.is_empty(),
        "{name}"
    );
    for t in &first.generated {
        let (started, finished) = (format!("started {t}"), format!("finished {t}"));
        let s = events.iter().position(|e| *e == started);
        let f = events.iter().position(|e| *e == finished);
        assert!(s.is_some() && s < f, "{name}: {t} in {events:?}");
    }
    assert_eq!(
        events.len(),
        1 + 2 * first.generated.len(),
        "{name}: {events:?}"
    );

    // Again: the plan, then every table kept, none solved.
    let again = game.generate(root, &recorder);
    let events = recorder.events();
    assert_eq!(again.kept.len(), first.generated.len(), "{name}");
    assert!(again.generated.is_empty(), "{name}");
    assert_eq!(
        events[0],
        format!("planned {} 0", again.kept.len()),
        "{name}"
    );
    assert!(
        events[1..].iter().all(|e| e.starts_with("kept ")),
        "{name}: {events:?}"
    );

    // A damaged table: named, made again, the same bytes.
    let last = *first.generated.last().unwrap();
    let file = (game.file_of)(root, last);
    let good = std::fs::read(&file).unwrap();
    let mut bad = good.clone();
    let at = bad.len() - 20;
    bad[at] ^= 0x40;
    std::fs::write(&file, &bad).unwrap();
    let repaired = game.generate(root, &recorder);
    let events = recorder.events();
    assert_eq!(repaired.generated, [last], "{name}");
    assert!(
        events.contains(&format!("replacing {last}")),
        "{name}: {events:?}"
    );
    assert_eq!(std::fs::read(&file).unwrap(), good, "{name}");
    // And silently.
    assert!(game.generate(root, &Silent).generated.is_empty(), "{name}");
}

#[test]
fn every_game_reports_its_generation_through_one_interface() {
    check(&jungle(RuleSet::Mistboard, &["LvE", "RvD"]));
    check(&jungle(RuleSet::Clesto, &["CvD"]));
    check(&gambit());
    check(&chance());
}

#[test]
fn every_game_writes_through_one_writer() {
    written(&jungle(RuleSet::Mistboard, &["LvE", "RvD"]));
    written(&jungle(RuleSet::Clesto, &["CvD"]));
    written(&gambit());
    written(&chance());
}

/// A killed run's temporary in the game's directory is removed (one of another host stays);
/// a directory that cannot be made fails the generation, naming it.
fn written<T>(game: &Game<T>) {
    let name = game.name;
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join(game.dir);
    std::fs::create_dir_all(&tables).unwrap();
    // (pid 4999999 is above the largest pid_max, 2^22: a process that no longer runs.)
    let host = jtb_gen::driver::files::host_name();
    let stale = tables.join(format!(".XvY.dtm.{host}.4999999.tmp"));
    let foreign = tables.join(".XvY.dtm.other-host.4999999.tmp");
    std::fs::write(&stale, b"partial").unwrap();
    std::fs::write(&foreign, b"partial").unwrap();
    assert!(!game.generate(dir.path(), &Silent).generated.is_empty());
    assert!(!stale.exists(), "{name}: a stale temporary stays");
    assert!(foreign.exists(), "{name}: another host's temporary removed");

    // The tables' directory is a file.
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join(game.dir);
    std::fs::write(&tables, b"not a directory").unwrap();
    let Err(e) = (game.generate)(dir.path(), &Silent) else {
        panic!("{name}: generated into a file");
    };
    assert!(
        e.contains(&tables.display().to_string()),
        "{name}: {e} does not name {}",
        tables.display()
    );
    assert_eq!(std::fs::read(&tables).unwrap(), b"not a directory");
}

fn gambit() -> Game<gambit::Material> {
    Game {
        name: "animal-gambit",
        generate: Box::new(|root, progress| {
            let targets = ["RRvR".parse().unwrap()];
            jtb_gen::gambit::generate(root, &targets, u64::MAX, false, progress)
                .map_err(|e| e.to_string())
        }),
        dir: "animal-gambit",
        file_of: Box::new(|root, m| jtb_gen::gambit::path(root, m, jtb_probe::Kind::Wdl)),
    }
}

fn chance() -> Game<ChanceMaterial> {
    let chance: Vec<ChanceMaterial> = vec!["LvE-Tw".parse().unwrap()];
    Game {
        name: "flip4x4 chance",
        generate: Box::new(move |root, progress| {
            // The revealed tables first, quietly: the chance tables lead into them.
            let opts = jtb_gen::run::GenOptions {
                rules: RuleSet::Flip4x4,
                targets: jtb_gen::chance::revealed_needs(&chance),
                out: root.to_path_buf(),
                memory_limit: u64::MAX,
                only_targets: false,
            };
            jtb_gen::run::generate(&opts, &Silent).map_err(|e| e.to_string())?;
            jtb_gen::chance::generate(root, &chance, u64::MAX, false, progress)
                .map_err(|e| e.to_string())
        }),
        dir: "flip4x4",
        file_of: Box::new(jtb_gen::chance::table_path),
    }
}
