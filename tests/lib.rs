//! Shared parts of the end-to-end tests: the reference vectors, compiled in (see
//! `data/reference/PROVENANCE.md`), so that no test depends on files outside the repository;
//! the naive forward solver ([`forward`]); the flip game's naive chance solver with face-down
//! tiles ([`chance_forward`]); Clesto's forward solver ([`clesto_forward`]) and its searches of
//! the game with history ([`clesto_repetition`]); Animal Gambit's naive turn enumerator
//! ([`gambit_naive`]) and forward solver ([`gambit_forward`]); and every placement of a
//! material ([`placements`]).

pub mod chance_forward;
pub mod clesto_forward;
pub mod clesto_repetition;
pub mod forward;
pub mod gambit_forward;
pub mod gambit_naive;

use jtb_probe::{Color, Material, Piece, Position, RuleSet};

/// Every legal placement of `material`, in this orientation, with `turn` to move (no table
/// layout, no symmetry: square by square through `Position::put`).
pub fn placements(rules: RuleSet, material: Material, turn: Color) -> Vec<Position> {
    let mut out = Vec::new();
    for_each_placement(rules, material, turn, |p| out.push(p.clone()));
    out
}

/// Calls `f` on every legal placement of `material` with `turn` to move, in the order of
/// [`placements`] (the pieces of [`Material::pieces`] one after the other, each through the
/// squares by increasing index), without keeping them.
pub fn for_each_placement(
    rules: RuleSet,
    material: Material,
    turn: Color,
    mut f: impl FnMut(&Position),
) {
    fn place(pos: &Position, pieces: &[Piece], f: &mut impl FnMut(&Position)) {
        let Some((&piece, rest)) = pieces.split_first() else {
            f(pos);
            return;
        };
        for sq in pos.board().squares() {
            let mut q = pos.clone();
            if q.put(piece, sq).is_ok() {
                place(&q, rest, f);
            }
        }
    }
    let pieces: Vec<Piece> = material.pieces().collect();
    place(&Position::empty(rules, turn), &pieces, &mut f);
}

/// Positions with values and DTM from a solver outside this project: `rules`, position, value
/// for the side to move, DTM (`-` for a draw), tab-separated, `#` comments.
pub const KNOWN_VALUES: &str = include_str!("data/reference/known-values.tsv");

/// The published Leiden 2-piece table (van Rijn & Vis 2014; OpenML 41027), one CSV row per
/// position with Red to move.
pub const LEIDEN_2PC: &str = include_str!("data/reference/leiden-2pc-openml41027.csv");
