//! Animal Gambit's step-level solver (`solve`) against the turn-graph solver
//! (`solve_by_graph`), which values whole turns from the probe library's turn generator, where
//! a turn can never end on the board it started from: every table up to 3 pieces and the
//! 4-piece `RRRvR` and `RRvRR` (the one table up to 4 pieces without a single piece, so the
//! one whose boards can be their own mirror images), entry by entry. And the rule that a turn must change the board decides
//! positions of these tables, so the agreement tests how the step-level solver leaves a
//! turn's start board out: in a zugzwang, a pass (were it allowed) would be better than every
//! turn.

use jtb_gen::gambit::{closure, solve, solve_by_graph, Solved, SubTables};
use jtb_probe::{
    gambit::{Color, Material, Position},
    Value,
};

/// Positions of `table` whose value is worse than what passing would give: the same board
/// with the other side to move, one turn later.
fn zugzwangs(table: &Solved) -> usize {
    let layout = &table.layout;
    (0..layout.len())
        .filter_map(|idx| {
            let pos = layout.position(idx)?;
            let value = Value::from_code(table.codes[idx])?;
            let passed = table.value(pos.board(), pos.turn().other())?;
            (passed.back_one_ply() > value).then_some(())
        })
        .count()
}

#[test]
fn steps_and_whole_turns_give_the_same_tables() {
    let mut targets = Material::all(2, 3);
    targets.push("RRRvR".parse().unwrap());
    targets.push("RRvRR".parse().unwrap());
    let (mut steps, mut turns) = (SubTables::new(), SubTables::new());
    let mut zugzwang = 0;
    for m in closure(&targets) {
        let by_steps = solve(m, &mut steps).unwrap();
        let by_turns = solve_by_graph(m, &turns).unwrap();
        let differ = (0..by_steps.codes.len())
            .filter(|&i| by_steps.codes[i] != by_turns.codes[i])
            .map(|i| {
                let pos = by_steps.layout.position(i);
                format!("{pos:?}: {:?} / {:?}", by_steps.codes[i], by_turns.codes[i])
            })
            .take(5)
            .collect::<Vec<_>>();
        assert!(differ.is_empty(), "{m}: {differ:?}");
        zugzwang += zugzwangs(&by_steps);
        steps.insert(by_steps);
        turns.insert(by_turns);
    }
    assert!(
        zugzwang > 0,
        "no position where the start board's exclusion matters"
    );
}

/// A mutual zugzwang worked out by hand (RULES.md section 7: a turn must change the board).
/// Gold's rabbit on b4 and Silver's on b5 block each other. The side to move must step aside
/// (a rabbit never steps back), which frees the other rabbit's four squares to its goal; its
/// own rabbit is then five steps from its goal: a loss in 2 turns, whoever moves. Stepping aside
/// and back would be a pass that wins in 3; it is no turn.
#[test]
fn two_blocked_rabbits_are_a_mutual_zugzwang() {
    let material: Material = "RvR".parse().unwrap();
    let mut tables = SubTables::new();
    let table = solve(material, &mut tables).unwrap();
    for text in ["8/8/8/1r6/1R6/8/8/8 g", "8/8/8/1r6/1R6/8/8/8 s"] {
        let pos: Position = text.parse().unwrap();
        assert_eq!(
            table.value(pos.board(), pos.turn()),
            Some(Value::Loss(2)),
            "{text}"
        );
        assert!(
            pos.parse_turn(if pos.turn() == Color::Gold {
                "Rb4w Ra4e"
            } else {
                "rb5w ra5e"
            })
            .is_err(),
            "{text}: back to the start board is no turn"
        );
    }
}
