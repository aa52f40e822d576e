//! Shared parts of the end-to-end tests: the reference vectors, compiled in (see
//! `data/reference/PROVENANCE.md`), so that no test depends on files outside the repository;
//! and the naive forward solver ([`forward`]).

pub mod forward;

/// Positions with values and DTM from a solver outside this project: `rules`, position, value
/// for the side to move, DTM (`-` for a draw), tab-separated, `#` comments.
pub const KNOWN_VALUES: &str = include_str!("data/reference/known-values.tsv");

/// The published Leiden 2-piece table (van Rijn & Vis 2014; OpenML 41027), one CSV row per
/// position with Red to move.
pub const LEIDEN_2PC: &str = include_str!("data/reference/leiden-2pc-openml41027.csv");
