//! One module per command: its arguments, and how it answers over the games.

pub mod adjudicate;
pub mod gen;
pub mod info;
pub mod moves;
pub mod plan;
pub mod probe;
pub mod site;
pub mod stats;
pub mod verify;

/// `n` tables, in words: `1 table`, `2 tables` (`kind` before the noun: `1 chance table`).
#[must_use]
pub fn tables(n: usize, kind: &str) -> String {
    let noun = if n == 1 { "table" } else { "tables" };
    if kind.is_empty() {
        format!("{n} {noun}")
    } else {
        format!("{n} {kind} {noun}")
    }
}
