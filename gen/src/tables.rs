//! Solved tables in memory, and the set of smaller tables that captures lead into.

use std::{collections::HashMap, sync::Arc};

use jtb_probe::{Color, Layout, Material, Piece, RuleSet, Square, Value};

use crate::GenError;

/// A solved table: its layout and one value code per entry ([`Value::code`]; unused entries
/// hold 0).
#[derive(Debug, Clone)]
pub struct Solved {
    /// The index scheme.
    pub layout: Layout,
    /// One code per entry.
    pub codes: Vec<u16>,
}

impl Solved {
    /// The value of entry `idx` for its side to move.
    ///
    /// # Panics
    /// If `idx` is out of range or the code is the unused code 1 (never written by the solver).
    #[must_use]
    pub fn value(&self, idx: usize) -> Value {
        Value::from_code(self.codes[idx]).expect("the solver writes only valid codes")
    }
}

/// Solved tables by canonical material: what captures lead into.
#[derive(Debug, Default, Clone)]
pub struct SubTables {
    rules: Option<RuleSet>,
    tables: HashMap<Material, Arc<Solved>>,
}

impl SubTables {
    /// An empty set.
    #[must_use]
    pub fn new() -> SubTables {
        SubTables::default()
    }

    /// Adds a solved table.
    ///
    /// # Panics
    /// If it is of another rule set than the tables already added.
    pub fn insert(&mut self, table: Arc<Solved>) {
        let rules = table.layout.rules();
        assert!(
            self.rules.is_none_or(|r| r == rules),
            "sub-tables of one rule set only"
        );
        self.rules = Some(rules);
        self.tables.insert(table.layout.material(), table);
    }

    /// The table of `material` (either orientation), if present.
    #[must_use]
    pub fn get(&self, material: Material) -> Option<&Arc<Solved>> {
        self.tables.get(&material.canonical())
    }

    /// Whether the table of `material` (either orientation) is present.
    #[must_use]
    pub fn contains(&self, material: Material) -> bool {
        self.get(material).is_some()
    }

    /// The value of `pos` for its side to move (see [`SubTables::value`]).
    ///
    /// # Errors
    /// [`GenError::MissingTable`] when the position's table is not present.
    pub fn value_of_position(&self, pos: &jtb_probe::Position) -> Result<Value, GenError> {
        let placed: Vec<(Piece, Square)> = pos.pieces().collect();
        self.value(pos.turn(), &placed)
    }

    /// The value for `turn` of the placement `placed`: a finished game when a side has no piece
    /// (the side to move has lost, won, or both are gone: a draw), else the table's entry.
    ///
    /// # Errors
    /// [`GenError::MissingTable`] when the placement's table is not present.
    pub fn value(&self, turn: Color, placed: &[(Piece, Square)]) -> Result<Value, GenError> {
        let mut material = Material::from_sets(0, 0);
        for &(p, _) in placed {
            material = material.with(p);
        }
        let (mine, theirs) = (material.count(turn), material.count(turn.other()));
        match (mine, theirs) {
            (0, 0) => return Ok(Value::Draw),
            (0, _) => return Ok(Value::Loss(0)),
            (_, 0) => return Ok(Value::Win(0)),
            _ => {}
        }
        let table = self
            .get(material)
            .ok_or(GenError::MissingTable(material.canonical()))?;
        let idx = table
            .layout
            .index_of_placement(turn, placed)
            .expect("a legal placement of the table's material has an index");
        Ok(table.value(idx))
    }
}
