//! What every game's generation shares, whichever tables it makes: its plan (closure, resume,
//! the tables it needs, the memory limit: [`plan()`]), how the plan's tables are solved group
//! by group and written ([`run()`] over the game's [`Solver`]; files written atomically by
//! [`files`]), the events it reports as it goes ([`Progress`], one interface for every front
//! end) and what it did ([`Summary`]); and how `jtb verify` checks a table ([`verify()`]: its
//! needs, its memory, then the game's one-ply check). How a group of tables is solved is the
//! game's.
//!
//! `T` names a table: a Jungle-family [`jtb_probe::Material`], an Animal Gambit
//! [`jtb_probe::gambit::Material`] or a flip-game [`jtb_probe::flip::ChanceMaterial`].

use std::time::Duration;

pub mod files;
pub mod plan;
pub mod run;
pub mod verify;

pub use self::{
    plan::{levels_by, plan, Plan, Refused, Tables, Task},
    run::{run, Made, Out, Solver, Started},
    verify::{verify, Checked, Unchecked, Verify},
};

/// Events of a generation, for progress display. Called from worker threads; the plan comes
/// first, then the tables kept, then each table solved (a table found damaged may be named
/// before the plan). A generation in two phases (the flip game's chance tables after the
/// revealed tables they lead into) reports a plan for each: the counts add up.
pub trait Progress<T>: Sync {
    /// The plan: tables to consider, and the entries of those still to generate.
    fn planned(&self, tables: usize, entries: u64);
    /// A table already present and intact was kept.
    fn kept(&self, table: T);
    /// A table present but unusable is generated again.
    fn replacing(&self, table: T, why: &str);
    /// Solving a table began.
    fn started(&self, table: T, entries: u64);
    /// A table was solved and written.
    fn finished(&self, table: T, entries: u64, took: Duration);
    /// Whether the front end asks the generation to stop (Python's Ctrl-C, a callback that
    /// raised). Asked before each table is started: the tables written so far stay, and the
    /// run ends with an [`std::io::ErrorKind::Interrupted`] error ([`run::cancelled`]).
    fn cancelled(&self) -> bool {
        false
    }
}

/// Reports a generation of any game's tables to a sink of tables named as text: how a front end
/// that shows every game alike takes the events of one game's generation.
pub struct Named<'a>(pub &'a dyn Progress<String>);

impl<T: std::fmt::Display> Progress<T> for Named<'_> {
    fn planned(&self, tables: usize, entries: u64) {
        self.0.planned(tables, entries);
    }
    fn kept(&self, table: T) {
        self.0.kept(table.to_string());
    }
    fn replacing(&self, table: T, why: &str) {
        self.0.replacing(table.to_string(), why);
    }
    fn started(&self, table: T, entries: u64) {
        self.0.started(table.to_string(), entries);
    }
    fn finished(&self, table: T, entries: u64, took: Duration) {
        self.0.finished(table.to_string(), entries, took);
    }
    fn cancelled(&self) -> bool {
        self.0.cancelled()
    }
}

/// A progress sink that shows nothing.
pub struct Silent;

impl<T> Progress<T> for Silent {
    fn planned(&self, _: usize, _: u64) {}
    fn kept(&self, _: T) {}
    fn replacing(&self, _: T, _: &str) {}
    fn started(&self, _: T, _: u64) {}
    fn finished(&self, _: T, _: u64, _: Duration) {}
}

/// What a generation did.
#[derive(Debug, Clone)]
pub struct Summary<T> {
    /// Tables written.
    pub generated: Vec<T>,
    /// Tables found complete and kept.
    pub kept: Vec<T>,
    /// Entries solved.
    pub entries: u64,
    /// Of the tables written, those solved from their colour flip (Clesto: the flip solved in
    /// the same run, or complete on disk), their plain values taken from it.
    pub from_flip: Vec<T>,
    /// Where the time went, by the game's own phases (summed over the tables, and over the
    /// threads where tables are solved side by side), in the order they were first named;
    /// `writing` (encoding the files where the game does it apart from solving, and writing
    /// them, on a thread of their own beside the solving) for every game.
    pub phases: Vec<(&'static str, Duration)>,
}

impl<T> Default for Summary<T> {
    fn default() -> Summary<T> {
        Summary {
            generated: Vec::new(),
            kept: Vec::new(),
            entries: 0,
            from_flip: Vec::new(),
            phases: Vec::new(),
        }
    }
}

impl<T: std::fmt::Display> Summary<T> {
    /// The summary with its tables named as text.
    #[must_use]
    pub fn named(self) -> Summary<String> {
        let names = |tables: Vec<T>| tables.iter().map(ToString::to_string).collect();
        Summary {
            generated: names(self.generated),
            kept: names(self.kept),
            entries: self.entries,
            from_flip: names(self.from_flip),
            phases: self.phases,
        }
    }
}

impl<T> Summary<T> {
    /// Adds `took` to the phase `name`.
    pub fn add_phase(&mut self, name: &'static str, took: Duration) {
        match self.phases.iter_mut().find(|(n, _)| *n == name) {
            Some((_, total)) => *total += took,
            None => self.phases.push((name, took)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_add_up_by_name_in_first_named_order() {
        let mut s = Summary::<u8>::default();
        s.add_phase("levels", Duration::from_secs(2));
        s.add_phase("actions", Duration::from_secs(1));
        s.add_phase("levels", Duration::from_secs(3));
        assert_eq!(
            s.phases,
            [
                ("levels", Duration::from_secs(5)),
                ("actions", Duration::from_secs(1))
            ]
        );
    }
}
