//! Animal Gambit's probes: how its positions find their tables ([`Game`] for [`AnimalGambit`]) and
//! its verdicts (a table draw is a game the repetition rule decides). The probe path itself,
//! the files and the block caches are the ones every game shares ([`crate::Tablebase`]).

use std::{collections::HashMap, fmt};

use super::{
    index::{AnimalGambit, Layout},
    material::Material,
    position::Position,
    turn::{Next, Turn},
};
use crate::Tablebase;
use crate::{
    core::{Game, Indexed, Moves, ProbeResult, Successor},
    format::Kind,
    value::{Value, Wdl},
};

impl Indexed for AnimalGambit {
    type Position = Position;
    type Layout = Layout;
    type Slots = HashMap<Material, usize>;

    const FILE_KINDS: &'static [Kind] = &[Kind::Wdl, Kind::Dtm];

    fn layout(self, material: Material) -> Layout {
        Layout::new(material)
    }

    fn pieces(material: Material) -> usize {
        material.total()
    }

    fn is_table_material(self, material: Material) -> bool {
        // Only the orientation that names a table; other names are not tables.
        material.canonical() == material
    }

    fn alias(self, material: Material) -> Option<Material> {
        Some(material.flipped())
    }

    fn material_of(pos: &Position) -> Material {
        Material::of(pos.board())
    }

    fn check_position(self, _: &Position) -> ProbeResult<()> {
        // A position whose game is over does not parse: every one has a table.
        Ok(())
    }

    fn index_of(layout: &Layout, pos: &Position) -> usize {
        layout
            .index_of(pos)
            .expect("a position of the table's material has an entry")
    }
}

impl Moves for AnimalGambit {
    type Move = Turn;

    const MOVE_NOUN: &'static str = "turn";

    fn without_clocks(pos: &Position) -> Position {
        *pos
    }

    fn successors(pos: &Position) -> Vec<(Turn, Successor<Position>)> {
        pos.turns()
            .into_iter()
            .map(|turn| (turn, successor(pos.play(&turn))))
            .collect()
    }

    fn play(pos: &Position, turn: Turn) -> Option<Successor<Position>> {
        // A turn carries its end board: playing it only runs the end-of-turn checks.
        Some(successor(pos.play(&turn)))
    }
}

impl Game for AnimalGambit {}

/// A turn's outcome as the probe path sees it.
fn successor(next: Next) -> Successor<Position> {
    match next {
        Next::Continues(next) => Successor::Next(next),
        Next::Over(end) if end.mover_wins() => Successor::End(Wdl::Win),
        Next::Over(_) => Successor::End(Wdl::Loss),
    }
}

/// What a value means in the game (RULES.md section 7, "Values in a table").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Category {
    /// The side to move forces the end of the game in its favour.
    Win,
    /// The opponent does.
    Loss,
    /// Neither side can force an end: the real game is decided by the repetition rule, which
    /// depends on the history the table does not see.
    Repetition,
}

impl Category {
    /// The category of a table value.
    #[must_use]
    pub const fn of(value: Value) -> Category {
        match value {
            Value::Win(_) => Category::Win,
            Value::Loss(_) => Category::Loss,
            Value::Draw => Category::Repetition,
        }
    }

    /// `win`, `loss` or `repetition`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Category::Win => "win",
            Category::Loss => "loss",
            Category::Repetition => "repetition",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What the tables say of a game: Animal Gambit has no move-count draw, so a covered position
/// is always settled, by a forced win or loss with its distance in turns, or as a game the
/// repetition rule decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    /// Win, loss, or repetition (neither side can force an end).
    pub category: Category,
    /// Turns to the end of the game with best play (`None` for a repetition).
    pub dtm: Option<u16>,
}

impl Tablebase<AnimalGambit> {
    /// Whether the tables settle `pos` and how ([`Verdict`]); the one adjudication of Animal
    /// Gambit positions the CLI (and any program) uses.
    ///
    /// # Errors
    /// As [`Tablebase::probe_dtm`]: a position the tables do not cover is an error
    /// ([`crate::ProbeError::MissingTable`]), not a verdict.
    pub fn adjudicate(&self, pos: &Position) -> ProbeResult<Verdict> {
        let value = self.probe_dtm(pos)?;
        Ok(Verdict {
            category: Category::of(value),
            dtm: value.dtm(),
        })
    }
}
