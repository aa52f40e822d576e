//! The distance to the end of the flip game's certain results (DTE, RULES.md 8): in how many
//! plies the winner of a position whose score is 1 (or 0) is sure to finish the game, whatever
//! the flips show, at every clock.
//!
//! Each table of the flip game has a `.dte` file beside its values: a chance table's beside its
//! `.chance` file (the same entries: position times clock), a revealed table's beside its WDL,
//! DTM and DTC files (the revealed table's positions times [`CLOCKS`]: DTE depends on the
//! clock, DTC does not). A revealed table's DTE is what a last flip leads into; its values and
//! best move stay those of sections 3 and 5. The revealed `.dte` files are a game of the core of
//! their own ([`RevealedDte`]), so that the Jungle family's files and probes are untouched.

use std::fmt;

use super::layout::CLOCKS;
use crate::Tablebase;
use crate::{
    core::{Indexed, ProbeResult},
    format::{Family, Kind},
    index::Layout,
    jungle::game::{alias, check_position, index_of, is_table_material, JungleSlots},
    material::Material,
    position::Position,
    rules::RuleSet,
};

/// A stored DTE code: 0 where the position has no distance (its score is not 0 or 1, or a
/// certain draw), else the distance in plies plus one (a position whose mover has no move is
/// lost at once: distance 0).
pub struct Dte;

impl Dte {
    /// The code stored for `dte`.
    #[must_use]
    pub const fn code(dte: Option<u32>) -> u32 {
        match dte {
            Some(d) => d + 1,
            None => 0,
        }
    }

    /// The distance a stored code gives.
    #[must_use]
    pub const fn from_code(code: u16) -> Option<u32> {
        (code as u32).checked_sub(1)
    }
}

/// The DTE files of the flip game's revealed tables (`<material>.dte` beside their WDL, DTM
/// and DTC files), entry `index * CLOCKS + clock`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct RevealedDte;

impl fmt::Display for RevealedDte {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl Family for RevealedDte {
    type Material = Material;
    const SIDES: [&'static str; 2] = RuleSet::SIDES;
    const DISTANCE_UNIT: Option<&'static str> = RuleSet::DISTANCE_UNIT;

    fn from_id(id: &str) -> Option<RevealedDte> {
        (id == RuleSet::Flip4x4.name()).then_some(RevealedDte)
    }

    fn id(self) -> &'static str {
        RuleSet::Flip4x4.name()
    }

    fn material_named(name: &str) -> Option<Material> {
        RuleSet::material_named(name)
    }

    fn table_of(self, material: Material) -> Material {
        RuleSet::Flip4x4.table_of(material)
    }

    fn entries(self, material: Material) -> u64 {
        RuleSet::Flip4x4.entries(material) * CLOCKS as u64
    }
}

impl Indexed for RevealedDte {
    type Position = Position;
    type Layout = Layout;
    type Slots = JungleSlots;

    const TABLE_KIND: Kind = Kind::Dte;
    const FILE_KINDS: &'static [Kind] = &[Kind::Dte];

    fn layout(self, material: Material) -> Layout {
        Layout::new(RuleSet::Flip4x4, material)
    }

    fn pieces(material: Material) -> usize {
        material.total()
    }

    fn is_table_material(self, material: Material) -> bool {
        is_table_material(RuleSet::Flip4x4, material)
    }

    fn alias(self, material: Material) -> Option<Material> {
        alias(RuleSet::Flip4x4, material)
    }

    fn material_of(pos: &Position) -> Material {
        Material::of(pos)
    }

    fn check_position(self, pos: &Position) -> ProbeResult<()> {
        check_position(RuleSet::Flip4x4, pos)
    }

    fn index_of(layout: &Layout, pos: &Position) -> usize {
        let clock = (pos.clock().unwrap_or(0) as usize).min(CLOCKS - 1);
        index_of(layout, pos) * CLOCKS + clock
    }
}

impl<G: Indexed<Position = Position>> Tablebase<G> {
    /// The stored DTE of `pos` at its clock (none: 0) from its table's `.dte` file: `None`
    /// where its score is not 0 or 1 (or it is a certain draw), and at clock 40.
    ///
    /// # Errors
    /// As the table's other probes: a position the tables do not hold, a missing table or DTE
    /// file, a bad file.
    pub(crate) fn stored_dte(&self, pos: &Position) -> ProbeResult<Option<u32>> {
        if pos.at_clock_limit() {
            self.covers(pos)?;
            return Ok(None);
        }
        self.with_entry(pos, Kind::Dte, |file, block, i| {
            file.code_entry(block, i).map(Dte::from_code)
        })
    }
}

impl Tablebase<RevealedDte> {
    /// The DTE of a fully revealed flip position at its clock (none: 0): the plies within which
    /// the side that wins under the clock rule is sure to end the game; `None` for a draw
    /// under the rule, and at clock 40.
    ///
    /// # Errors
    /// As [`Tablebase::probe_wdl`] of the revealed tables, naming the `.dte` file.
    pub fn probe_dte(&self, pos: &Position) -> ProbeResult<Option<u32>> {
        self.stored_dte(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for d in [None, Some(0), Some(1), Some(254), Some(700)] {
            let code = u16::try_from(Dte::code(d)).unwrap();
            assert_eq!(Dte::from_code(code), d);
        }
        assert_eq!(Dte::code(None), 0);
    }

    #[test]
    fn a_revealed_dte_file_holds_every_clock() {
        let m: Material = "LvE".parse().unwrap();
        assert_eq!(
            RevealedDte.entries(m),
            RuleSet::Flip4x4.entries(m) * CLOCKS as u64
        );
        assert_eq!(RevealedDte::from_id("flip4x4"), Some(RevealedDte));
        assert_eq!(RevealedDte::from_id("mistboard"), None);
    }
}
