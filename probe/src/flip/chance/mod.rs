//! The flip game with face-down tiles (RULES.md 8): chance values at every clock.
//!
//! A flip is a chance event: each hidden animal comes up with the same probability. The chance
//! tables hold, for every position with face-down tiles of a material ([`ChanceMaterial`]) and
//! every clock 0..=39, its exact [`ChanceValue`]: the score (expected result) and the
//! probabilities of a win and a draw. They are a game of the one core ([`Chance`], probed as
//! `Tablebase<Chance>`); [`ChanceTables`] adds the revealed tables a last flip leads into and
//! answers every flip position: its value, each move's worth (a flip's with each outcome), the
//! best move.

mod dte;
mod layout;
mod material;
mod tables;
mod value;

pub use self::{
    dte::{Dte, RevealedDte},
    layout::{ChanceEntry, ChanceLayout, CLOCKS},
    material::{revealed_needs, BadChanceMaterial, ChanceMaterial, MAX_TILES},
    tables::{ChanceMove, ChanceTables, ScoredChanceMove},
    value::{ChanceValue, Fraction, DENOMINATOR},
};

use std::{
    collections::HashMap,
    fmt,
    hash::{BuildHasherDefault, Hasher},
};

use crate::Tablebase;
use crate::{
    core::{Indexed, MaterialSlots, ProbeError, ProbeResult},
    format::{Family, Kind},
    position::Position,
    rules::RuleSet,
};

/// The chance tables of the flip game (rule set `flip4x4`, files `<material>.chance` beside
/// its revealed tables).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Chance;

impl fmt::Display for Chance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl Family for Chance {
    type Material = ChanceMaterial;
    const SIDES: [&'static str; 2] = ["red", "blue"];
    const DISTANCE_UNIT: Option<&'static str> = None;

    fn from_id(id: &str) -> Option<Chance> {
        (id == RuleSet::Flip4x4.name()).then_some(Chance)
    }

    fn id(self) -> &'static str {
        RuleSet::Flip4x4.name()
    }

    fn material_named(name: &str) -> Option<ChanceMaterial> {
        name.parse().ok()
    }

    fn table_of(self, material: ChanceMaterial) -> ChanceMaterial {
        material.canonical()
    }

    fn entries(self, material: ChanceMaterial) -> u64 {
        (ChanceLayout::new(material).positions() * CLOCKS) as u64
    }
}

impl Indexed for Chance {
    type Position = Position;
    type Layout = ChanceLayout;
    type Slots = ChanceSlots;

    const TABLE_KIND: Kind = Kind::Chance;

    const FILE_KINDS: &'static [Kind] = &[Kind::Chance, Kind::Dte];

    fn layout(self, material: ChanceMaterial) -> ChanceLayout {
        ChanceLayout::new(material)
    }

    fn pieces(material: ChanceMaterial) -> usize {
        material.tiles()
    }

    fn is_table_material(self, material: ChanceMaterial) -> bool {
        material.canonical() == material
    }

    fn alias(self, material: ChanceMaterial) -> Option<ChanceMaterial> {
        Some(material.flipped())
    }

    fn material_of(pos: &Position) -> ChanceMaterial {
        ChanceMaterial::of(pos).expect("checked: face-down tiles with a known hidden set")
    }

    fn check_position(self, pos: &Position) -> ProbeResult<()> {
        if pos.rules() != RuleSet::Flip4x4 {
            return Err(ProbeError::WrongRules {
                tablebase: self.id(),
                position: pos.rules().name(),
            });
        }
        if pos.hidden() == 0 {
            return Err(ProbeError::NoFaceDownTiles);
        }
        if pos.hidden_set().is_none() {
            return Err(ProbeError::HiddenSetUnknown);
        }
        if pos.is_game_over() {
            return Err(ProbeError::GameOver);
        }
        Ok(())
    }

    fn beyond_tables(self, pos: &Position) -> Option<ProbeError> {
        const _: () = assert!(MAX_TILES == 5, "the message below says 5");
        let tiles = crate::Material::of(pos).total() + pos.hidden().count_ones() as usize;
        // No table can hold it, so no `jtb gen` command to name.
        (tiles > MAX_TILES).then(|| ProbeError::NotForRules {
            rules: self.id(),
            what: "its chance tables hold positions of at most 5 tiles, face up and face down",
        })
    }

    fn index_of(layout: &ChanceLayout, pos: &Position) -> usize {
        let clock = (pos.clock().unwrap_or(0) as usize).min(CLOCKS - 1);
        let idx = layout
            .index_of(pos)
            .expect("a position of the table's material has an entry");
        idx * CLOCKS + clock
    }
}

/// The chance tables present by material: a hash map keyed by the packed material
/// ([`ChanceMaterial::key`]) with a multiplicative hash, cheap beside a probe.
#[derive(Default)]
pub struct ChanceSlots(HashMap<u32, usize, BuildHasherDefault<KeyHasher>>);

impl MaterialSlots<ChanceMaterial> for ChanceSlots {
    fn get(&self, material: ChanceMaterial) -> Option<usize> {
        self.0.get(&material.key()).copied()
    }

    fn insert(&mut self, material: ChanceMaterial, place: usize) {
        self.0.entry(material.key()).or_insert(place);
    }
}

/// Fibonacci hashing of a 32-bit key: its bits spread over the high bits the map uses.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u32(u32::from(b));
        }
    }

    fn write_u32(&mut self, key: u32) {
        self.0 = (self.0 ^ u64::from(key)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

impl Tablebase<Chance> {
    /// The stored value of `pos`, a position with face-down tiles, at its clock (none: 0);
    /// at clock 40 a draw.
    ///
    /// # Errors
    /// A [`ProbeError`]: a position of another rule set or without face-down tiles, an unknown
    /// hidden set, a finished game, too many tiles, a missing table, or a bad file.
    pub fn probe_stored(&self, pos: &Position) -> ProbeResult<ChanceValue> {
        if pos.at_clock_limit() {
            self.rules().check_position(pos)?;
            return Ok(ChanceValue::DRAW);
        }
        // The table's lookup checks the position first.
        let hidden = pos.hidden().count_ones() as usize;
        self.with_entry(pos, Kind::Chance, |file, block, i| {
            let code = file.code_entry(block, i)?;
            ChanceValue::from_code(code, hidden).ok_or_else(|| file.bad_code(code))
        })
    }
}
