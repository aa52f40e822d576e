//! What each game of the Jungle family's rule-set type generates its own way: Jungle's and the
//! flip game's tables ([`Plain`], in this folder: distances to mate and to conversion) and
//! Clesto's (`crate::clesto::Clesto`: distances to mate and the repetition ban). The plan, the
//! driver ([`crate::run`]), the writer and `jtb verify` are written once over [`FamilyGame`];
//! [`game_of`] is the one place the generator tells the games apart.

use std::{collections::BTreeSet, io, path::Path};

use jtb_probe::{
    format::{table_path, Kind, SideStats},
    Color, Layout, Material, Piece, RuleSet, Wdl,
};

use crate::{
    codes::Codes,
    write::{summarize, Compressed, Summary},
    GenError, Metric, Solved, SubTables,
};

/// What a solve hands each metric's codes to as soon as they are done (the generator
/// compresses them there, on cores the solve leaves idle at times).
pub type Then<'a> = dyn Fn(Metric, &Codes) -> io::Result<Compressed> + Sync + 'a;

/// A game of the Jungle family's rule-set type, as the generator makes and checks its tables.
/// Its methods take the rule set, so that one game serves several (Jungle's and the flip
/// game's).
pub trait FamilyGame: Sync {
    /// The materials one move from `material` leads into, in any orientation, finished games
    /// (a side without pieces) included: the game's captures and trades, and what else its
    /// moves take off the board.
    fn next_materials(&self, rules: RuleSet, material: Material) -> BTreeSet<Material>;

    /// Bytes, from above, to solve and write `material`, the smaller tables it reads aside.
    fn solve_bytes(&self, rules: RuleSet, material: Material) -> u64;

    /// Solves `material` given every smaller table its moves lead into.
    ///
    /// # Errors
    /// [`GenError::MissingTable`] when a smaller table is absent; a distance or a table too
    /// large for the solver.
    fn solve(
        &self,
        rules: RuleSet,
        material: Material,
        subs: &SubTables,
    ) -> Result<Solved, GenError>;

    /// Solves `material` like [`FamilyGame::solve`], handing each metric's codes to `then`;
    /// returns what `then` gave, distance to mate first.
    ///
    /// # Errors
    /// As [`FamilyGame::solve`].
    fn solve_then(
        &self,
        rules: RuleSet,
        material: Material,
        subs: &SubTables,
        then: &Then<'_>,
    ) -> Result<(Solved, [io::Result<Compressed>; 2]), GenError>;

    /// Whether a table's colour flip, where it is a table of its own, is best solved from the
    /// table, solved ([`FamilyGame::solve_flip_of`]), rather than alone.
    fn solves_flips(&self) -> bool {
        false
    }

    /// Solves the colour flip of `other`'s material (where it is a table of its own), with
    /// `other` solved.
    ///
    /// # Errors
    /// As [`FamilyGame::solve`].
    fn solve_flip_of(&self, other: &Solved, subs: &SubTables) -> Result<Solved, GenError>;

    /// Whether the WDL file is written with the DTM file, from its codes (else the game makes
    /// it in [`FamilyGame::summarize`], from both metrics).
    fn wdl_with_dtm(&self) -> bool {
        true
    }

    /// The statistics a solved table's files' headers carry, and the blocks of its WDL file
    /// where the game makes that from both metrics.
    ///
    /// # Errors
    /// Compressing the WDL file failed.
    fn summarize(&self, solved: &Solved) -> io::Result<(Summary, Option<Compressed>)> {
        Ok((summarize(solved), None))
    }

    /// The statistics in the WDL file's header.
    fn wdl_stats(&self, summary: &Summary) -> [SideStats; 2] {
        summary.plain.clone()
    }

    /// What the WDL file holds for entry `idx` of `table`.
    fn wdl_of(&self, table: &Solved, idx: usize) -> Wdl {
        table.value(idx).wdl()
    }

    /// What `jtb verify` checks a table's entries against, for its report.
    fn checked_against(&self) -> &'static str;

    /// Checks every entry of `table` one ply deep against `tables` (the tables its moves lead
    /// into), `limit` failures at most, each a line naming the file under `root`.
    ///
    /// # Errors
    /// A table a move leads into is missing.
    fn one_ply_failures(
        &self,
        root: &Path,
        table: Solved,
        tables: SubTables,
        limit: usize,
    ) -> Result<Vec<String>, GenError>;
}

/// The game of the tables of `rules`.
#[must_use]
pub fn game_of(rules: RuleSet) -> &'static dyn FamilyGame {
    match rules {
        RuleSet::Clesto => &crate::clesto::Clesto,
        _ => &Plain,
    }
}

/// Jungle's and the flip game's tables: every entry's value with its distance to mate, and its
/// distance to conversion (the clock rule).
pub struct Plain;

impl FamilyGame for Plain {
    fn next_materials(&self, rules: RuleSet, material: Material) -> BTreeSet<Material> {
        let mut out = BTreeSet::new();
        for p in material.pieces() {
            out.insert(material.without(p));
            // The flip game's equal ranks trade.
            if !rules.is_jungle() && p.color == Color::Red {
                let twin = Piece::new(Color::Blue, p.animal);
                if material.has(twin) {
                    out.insert(material.without(p).without(twin));
                }
            }
        }
        out
    }

    fn solve_bytes(&self, rules: RuleSet, material: Material) -> u64 {
        crate::run::plain_solve_bytes(&Layout::new(rules, material))
    }

    fn solve(
        &self,
        rules: RuleSet,
        material: Material,
        subs: &SubTables,
    ) -> Result<Solved, GenError> {
        crate::solve::solve_then(rules, material, subs, |_, _| ()).map(|(solved, _)| solved)
    }

    fn solve_then(
        &self,
        rules: RuleSet,
        material: Material,
        subs: &SubTables,
        then: &Then<'_>,
    ) -> Result<(Solved, [io::Result<Compressed>; 2]), GenError> {
        crate::solve::solve_then(rules, material, subs, then)
    }

    fn solve_flip_of(&self, other: &Solved, subs: &SubTables) -> Result<Solved, GenError> {
        // No shortcut: the colour flip, where it is a table of its own, is solved alone.
        let layout = &other.layout;
        self.solve(layout.rules(), layout.material().flipped(), subs)
    }

    fn checked_against(&self) -> &'static str {
        "their successors (DTM and DTC)"
    }

    fn one_ply_failures(
        &self,
        root: &Path,
        table: Solved,
        tables: SubTables,
        limit: usize,
    ) -> Result<Vec<String>, GenError> {
        let layout = &table.layout;
        let found = crate::verify::verify_table(&table, &tables, limit)?;
        Ok(found
            .iter()
            .map(|x| {
                let (kind, what) = match x.check {
                    crate::verify::Check::OnePly(metric) => (metric.kind(), "successors give"),
                    crate::verify::Check::DtcImpliesPlain => (Kind::Dtc, "but the plain value is"),
                };
                let path = table_path(root, layout.rules(), layout.material(), kind);
                format!(
                    "{}: {}: stored {}, {what} {}",
                    path.display(),
                    x.position,
                    x.stored,
                    x.computed
                )
            })
            .collect())
    }
}
