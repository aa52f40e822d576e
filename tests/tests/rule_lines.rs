//! Lines under the clock rule, read from table files and replayed move by move with the clock:
//! from a rule win or loss they reach the first conversion after exactly DTC plies, the clock
//! never runs out on the way, and the game ends with the promised result (RULES.md 5.6); from a
//! rule draw they are empty, and the rule best move keeps the draw.

use jtb_gen::{
    driver::Silent,
    run::{generate, GenOptions},
    solve_all,
};
use jtb_probe::{
    adjudicate, clock::rule_wdl, Category, Jungle, Material, Outcome, Position, RuleSet, Tablebase,
    Wdl,
};

fn tables(rules: RuleSet, targets: &[&str]) -> (tempfile::TempDir, Tablebase, Vec<Material>) {
    let dir = tempfile::tempdir().unwrap();
    let targets: Vec<Material> = targets.iter().map(|m| m.parse().unwrap()).collect();
    let opts = GenOptions {
        rules,
        targets: targets.clone(),
        out: dir.path().to_owned(),
        memory_limit: u64::MAX,
        only_targets: false,
    };
    generate(&opts, &Silent).unwrap();
    let tb = Tablebase::open(dir.path(), Jungle::of(rules).unwrap()).unwrap();
    (dir, tb, targets)
}

/// Replays the rule line of `pos` (which carries its clock) and checks it; returns the rule
/// value.
fn check_rule_line(tb: &Tablebase, pos: &Position) -> Wdl {
    let limit = pos.rules().clock_limit();
    let root = tb.probe_rule(pos).unwrap();
    let line = tb.rule_line(pos).unwrap();
    if root.wdl == Wdl::Draw {
        assert!(line.is_empty(), "{pos}");
        if let Some(best) = tb.rule_best_move(pos).unwrap() {
            assert_eq!(
                best.wdl,
                Wdl::Draw,
                "{pos}: the rule best move keeps the draw"
            );
        }
        return root.wdl;
    }
    let dtc = usize::from(root.dtc.dtm().unwrap());
    let mut current = pos.clone();
    let mut converted_at = None;
    for (i, step) in line.iter().enumerate() {
        let clock = current.clock().unwrap();
        assert!(clock < limit, "{pos}: ply {i} is played at clock {clock}");
        let before = tb.probe_rule(&current).unwrap();
        // Whoever moves, the side that wins at the root keeps winning.
        let mover_wins = (i % 2 == 0) == (root.wdl == Wdl::Win);
        assert_eq!(
            before.wdl,
            if mover_wins { Wdl::Win } else { Wdl::Loss },
            "{pos}: ply {i} from {current}"
        );
        let pieces = current.pieces().count();
        match current.play(step.mv).unwrap() {
            Outcome::Over { result, .. } => {
                assert_eq!(
                    i + 1,
                    line.len(),
                    "{pos}: the game ends at the end of the line"
                );
                assert_eq!(result == Wdl::Win, mover_wins, "{pos}: result {result}");
                converted_at.get_or_insert(i + 1);
            }
            Outcome::Ongoing(next) => {
                if next.pieces().count() < pieces {
                    converted_at.get_or_insert(i + 1);
                    assert_eq!(next.clock(), Some(0));
                }
                assert_eq!(step.position.as_ref(), Some(&next));
                current = next;
            }
        }
    }
    assert!(!line.is_empty() || root.dtc.dtm() == Some(0), "{pos}");
    if dtc > 0 {
        assert_eq!(
            converted_at,
            Some(dtc),
            "{pos}: first conversion after DTC plies"
        );
    }
    root.wdl
}

/// Checks the rule lines of `positions`; every value must occur often.
fn check_all(tb: &Tablebase, positions: &[Position]) {
    let mut seen = std::collections::BTreeMap::new();
    for pos in positions {
        *seen.entry(check_rule_line(tb, pos)).or_insert(0) += 1;
    }
    assert!(
        seen.values().all(|&n| n > 50) && seen.len() == 3,
        "{seen:?}"
    );
}

/// Positions of `targets` spread over the tables, each at a clock that varies with it.
fn sample(rules: RuleSet, targets: &[Material], every: usize) -> Vec<Position> {
    let solved = solve_all(rules, targets).unwrap();
    let limit = rules.clock_limit();
    let mut out = Vec::new();
    for &m in targets {
        let t = solved.get(m).unwrap();
        let mut n = 0usize;
        t.layout.for_each_used_entry(|idx, _| {
            n += 1;
            if n % every == 0 {
                let mut pos = t.layout.position(idx).unwrap();
                // Clocks near DTC's boundary matter most: L - DTC and either side of it.
                let near = t.dtc(idx).dtm().map_or(0, u32::from);
                let clock = match n / every % 4 {
                    0 => ((n as u64 * 7919) % u64::from(limit + 1)) as u32,
                    k => (limit.saturating_sub(near) + k as u32 - 2).min(limit),
                };
                pos.set_clock(Some(clock)).unwrap();
                out.push(pos);
            }
        });
    }
    out
}

#[test]
fn jungle_rule_lines_reach_the_conversion_in_dtc_plies() {
    let (_dir, tb, targets) = tables(RuleSet::Mistboard, &["LRvET", "ERvC", "DCvW"]);
    let positions = sample(RuleSet::Mistboard, &targets, 4_001);
    assert!(positions.len() > 800);
    check_all(&tb, &positions);
    // The 83-ply win: a rule win at clock 17, a dead draw at clock 18.
    let mut pos = Position::parse("7/5e1/7/7/7/7/t6/5R1/L6 r", None).unwrap();
    let dtc = tb.probe_dtc(&pos).unwrap().dtm().unwrap();
    pos.set_clock(Some(100 - u32::from(dtc))).unwrap();
    assert_eq!(tb.probe_rule(&pos).unwrap().wdl, Wdl::Win);
    check_rule_line(&tb, &pos);
    pos.set_clock(Some(101 - u32::from(dtc))).unwrap();
    assert_eq!(tb.probe_rule(&pos).unwrap().wdl, Wdl::Draw);
    assert!(adjudicate(Some(&tb), &pos).unwrap().dead_draw);
}

#[test]
fn flip_rule_lines_and_categories() {
    let (_dir, tb, targets) = tables(RuleSet::Flip4x4, &["ERvER", "LCvTR", "WDCvP", "TRvLC"]);
    let positions = sample(RuleSet::Flip4x4, &targets, 101);
    assert!(positions.len() > 800);
    check_all(&tb, &positions);
    // The categories agree with their definition (RULES.md 5.5) on every position.
    let solved = solve_all(RuleSet::Flip4x4, &targets).unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for &m in &targets {
        let t = solved.get(m).unwrap();
        t.layout.for_each_used_entry(|idx, _| {
            let pos = t.layout.position(idx).unwrap();
            let rule = tb.probe_rule(&pos).unwrap();
            let plain = t.value(idx).wdl();
            let at_zero = rule_wdl(t.dtc(idx), 0, 40);
            let expected = match (plain, at_zero) {
                (Wdl::Win, Wdl::Win) => Category::Win,
                (Wdl::Win, Wdl::Draw) => Category::CursedWin,
                (Wdl::Draw, Wdl::Draw) => Category::Draw,
                (Wdl::Loss, Wdl::Draw) => Category::BlessedLoss,
                (Wdl::Loss, Wdl::Loss) => Category::Loss,
                other => panic!("{pos}: rule value at clock 0 {other:?} is not the plain one"),
            };
            assert_eq!(rule.category, expected, "{pos}");
            seen.insert(expected);
        });
    }
    eprintln!("categories seen: {seen:?}");
    assert!(seen.contains(&Category::Win) && seen.contains(&Category::Draw));
}
