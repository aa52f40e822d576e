//! The forward solver's Clesto values against searches of the real game with its repetition
//! counts ([`jtb_tests::clesto_repetition`]), from a fresh history:
//! - every plain draw of every 2-piece table with at most 40 of them, searched exhaustively
//!   (every line of the game with history until it leaves the plain draws): the winner agrees;
//! - every plain draw of CvDR: B's exit distance, where B forces one within 9 plies, agrees;
//!   the exhaustive search agrees on every win of B and on the sampled wins of U it completes;
//! - samples of every kind of value of 2- and 3-piece tables: a search of the game to a
//!   horizon of 9 (2-piece) or 6 (3-piece) plies, with no solver inside the material, finds the
//!   plain distance to mate exactly where it is within the horizon, and nothing elsewhere.

use jtb_probe::{ClestoValue, Color, Material, RuleSet, Value};
use jtb_tests::clesto_forward::{solve, solve_all, Solution};
use jtb_tests::clesto_repetition::{BanGame, PlainSearch};

fn material(name: &str) -> Material {
    name.parse().unwrap()
}

/// The value's winner (the mover or not) from the searched winner.
fn agrees(v: ClestoValue, mover: Color, winner: Color) -> bool {
    (v.wdl() == jtb_probe::Wdl::Win) == (winner == mover)
}

#[test]
fn the_plain_draws_of_small_two_piece_tables_exhaustively() {
    let all = Material::all_tables(RuleSet::Clesto, 2, 2);
    let s = solve_all(&all);
    let mut searched = 0;
    let mut tables = 0;
    for &m in &all {
        let mut game = BanGame::new(&s, m);
        if game.draws() == 0 || game.draws() > 40 {
            continue;
        }
        tables += 1;
        for (p, v) in s
            .positions(m)
            .filter(|(_, v)| !matches!(v, ClestoValue::Plain(_)))
        {
            let winner = game
                .winner(&p, 1_000_000)
                .unwrap_or_else(|| panic!("{m}: {p} not searched within the budget"));
            assert!(
                agrees(v, p.turn(), winner),
                "{m}: {p}: {v} but {winner} wins"
            );
            searched += 1;
        }
    }
    eprintln!("{searched} plain draws of {tables} tables searched exhaustively");
    assert!(tables >= 20 && searched >= 500);
}

#[test]
fn the_plain_draws_of_cvdr() {
    let m = material("CvDR");
    let s = solve(m);
    let mut game = BanGame::new(&s, m);
    let draws: Vec<_> = s
        .positions(m)
        .filter(|(_, v)| !matches!(v, ClestoValue::Plain(_)))
        .collect();
    let mut within = 0;
    for (p, v) in &draws {
        let expected = v.ban_part().dtm().filter(|&e| e <= 9);
        assert_eq!(game.exit_within(p, 9), expected, "{p}: {v}");
        within += usize::from(expected.is_some());
    }
    // Exhaustively: every win of B (B's winning lines are short), and a sample of U's wins
    // (most of those need more states than a test can afford: U wins only when B, which may
    // not cycle, has run out of positions).
    let (mut b_wins, mut u_tried, mut u_decided) = (0, 0, 0);
    for (i, (p, v)) in draws.iter().enumerate() {
        let b_wins_here = v.ban_part() != Value::Draw;
        if !b_wins_here && i % 25 != 0 {
            continue;
        }
        let budget = if b_wins_here { 10_000 } else { 20_000 };
        let winner = game.winner(p, budget);
        if let Some(winner) = winner {
            assert!(agrees(*v, p.turn(), winner), "{p}: {v} but {winner} wins");
        }
        if b_wins_here {
            assert!(winner.is_some(), "{p}: {v} not decided within the budget");
            b_wins += 1;
        } else {
            u_tried += 1;
            u_decided += usize::from(winner.is_some());
        }
    }
    eprintln!(
        "CvDR: {} plain draws, {within} with B's exit within 9 plies; exhaustive search: all \
         {b_wins} wins of B, {u_decided} of {u_tried} sampled wins of U within the budget",
        draws.len(),
    );
    assert!(within > 200 && b_wins == within);
}

/// The search to a horizon against every `step`-th position of `m`'s table.
fn plain_samples(s: &Solution, m: Material, step: usize, horizon: u16) -> (usize, usize) {
    let mut search = PlainSearch::new(s);
    let (mut n, mut found) = (0, 0);
    for (p, v) in s.positions(m).step_by(step) {
        let expected = match v {
            ClestoValue::Plain(v) if v.dtm().is_some_and(|d| d <= horizon) => Some(v),
            _ => None,
        };
        assert_eq!(search.value_within(&p, horizon), expected, "{m}: {p}: {v}");
        n += 1;
        found += usize::from(expected.is_some());
    }
    (n, found)
}

#[test]
fn plain_values_to_a_horizon() {
    let s = solve_all(&[material("CvD"), material("EvR")]);
    for m in ["CvD", "EvR"] {
        let (n, found) = plain_samples(&s, material(m), 7, 9);
        eprintln!("{m}: {n} positions searched to 9 plies, {found} ended within it");
        assert!(found > 100);
    }
    let s = solve(material("EvDR"));
    let (n, found) = plain_samples(&s, material("EvDR"), 2001, 6);
    eprintln!("EvDR: {n} positions searched to 6 plies, {found} ended within it");
    assert!(found > 50);
}
