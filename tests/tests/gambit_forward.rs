//! Animal Gambit tables against the slow forward solver (`jtb_tests::gambit_forward`), which
//! shares nothing with the generator but the value type: every position of each material
//! checked, and the symmetries of values (file mirror, colour flip) on the forward solver's own
//! values, which knows neither.

use jtb_gen::gambit::{solve_all, summarize};
use jtb_probe::gambit::{Material, Position};
use jtb_tests::{
    gambit_forward::{counts, positions, Counts, Forward, Key},
    gambit_naive as naive,
};

fn position(&(g, gold): &Key) -> Position {
    format!("{} {}", naive::text(&g), if gold { 'g' } else { 's' })
        .parse()
        .expect("a valid grid")
}

/// The counts of a material in this orientation, from its name (Gold's letters, `v`,
/// Silver's), read here and not by the library.
fn counts_of(name: &str) -> Counts {
    let (gold, silver) = name.split_once('v').unwrap();
    let mut c = [[0; 6]; 2];
    for (side, letters) in [gold, silver].into_iter().enumerate() {
        for l in letters.chars() {
            c[side]["RCDHME".find(l).unwrap()] += 1;
        }
    }
    c
}

/// Checks every position of `name` (canonical orientation) against the forward solver, and
/// that the table counts as many positions per side as there are.
fn agrees(name: &str, forward: &mut Forward) -> usize {
    let material: Material = name.parse().unwrap();
    assert_eq!(material.canonical(), material, "{name} names its table");
    let tables = solve_all(&[material]).unwrap();
    let table = tables.get(material).unwrap();
    let values = forward.values(&counts_of(name));
    let mut per_side = [0u64; 2];
    for (key, want) in values {
        let pos = position(key);
        let got = table.value(pos.board(), pos.turn());
        assert_eq!(got, Some(*want), "{pos}");
        per_side[usize::from(!key.1)] += 1;
    }
    let stats = summarize(table);
    for (s, n) in stats.iter().zip(per_side) {
        assert_eq!(s.wins + s.draws + s.losses, n, "{name}: positions per side");
    }
    values.len()
}

#[test]
fn two_pieces_agree_with_the_forward_solver() {
    let mut forward = Forward::new();
    assert!(agrees("RvR", &mut forward) > 5000);
}

/// Every position of `CRvR`. The other four 3-piece tables with a piece stronger than a rabbit
/// (`DRvR`, `ERvR`, `HRvR`, `MRvR`) are covered through it: against a lone enemy rabbit each
/// such kind moves, freezes, pushes and pulls alike, so their tables hold `CRvR`'s values
/// entry by entry ([`a_lone_rabbit_meets_every_stronger_kind_alike`]). The forward solver
/// costs minutes of CPU a 3-piece table, too much to run it on all six in the suite.
#[test]
fn crvr_agrees_with_the_forward_solver() {
    agrees("CRvR", &mut Forward::new());
}

/// Every position of the 4-piece `RRRvR` (the smallest 4-piece table; its solve by the
/// forward solver takes tens of CPU minutes and gigabytes, so it runs by hand:
/// `cargo test -p jtb-tests --test gambit_forward -- --ignored`).
#[test]
#[ignore = "tens of CPU minutes: run by hand"]
fn rrrvr_agrees_with_the_forward_solver() {
    assert!(agrees("RRRvR", &mut Forward::new()) > 1_000_000);
}

/// Every position of `RRvR`; and the forward solver's values of `RRvR` and of its colour flip
/// `RvRR`, solved apart, agree position by position, as do each position and its mirror image.
#[test]
fn rrvr_agrees_and_the_values_keep_the_mirror_and_the_colour_flip() {
    let mut forward = Forward::new();
    agrees("RRvR", &mut forward);
    let flip = |(g, gold): &Key| -> Key {
        let mut f = [None; 64];
        for (sq, p) in g.iter().enumerate() {
            f[sq ^ 56] = p.map(|(c, s)| (!c, s));
        }
        (f, !gold)
    };
    let mirror = |(g, gold): &Key| -> Key {
        let mut m = [None; 64];
        for (sq, p) in g.iter().enumerate() {
            m[sq ^ 7] = *p;
        }
        (m, *gold)
    };
    let a = forward.values(&counts_of("RRvR")).clone();
    let b = forward.values(&counts_of("RvRR")).clone();
    assert_eq!(a.len(), b.len());
    for (key, v) in &a {
        assert_eq!(b[&flip(key)], *v, "{}", position(key));
        assert_eq!(a[&mirror(key)], *v, "{}", position(key));
    }
    assert_eq!(positions(&counts_of("RRvR")).len(), a.len());
    assert_eq!(counts(&a.keys().next().unwrap().0), counts_of("RRvR"));
}

#[test]
fn a_lone_rabbit_meets_every_stronger_kind_alike() {
    let names = ["CRvR", "DRvR", "ERvR", "HRvR", "MRvR"];
    let materials: Vec<Material> = names.iter().map(|n| n.parse().unwrap()).collect();
    let tables = solve_all(&materials).unwrap();
    let cat = tables.get(materials[0]).unwrap();
    for &m in &materials[1..] {
        assert_eq!(tables.get(m).unwrap().codes, cat.codes, "{m}");
    }
}
