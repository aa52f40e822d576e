//! Clesto as a game of the probe path: the Jungle board, pieces and position text with hungry
//! animals (its positions are [`Position`]s of [`RuleSet::Clesto`]), and tables of its own
//! values (a DTM, a ban and a WDL file per material), probed as `Tablebase<Clesto>`.

use std::fmt;

use crate::{
    core::{Indexed, Moves, ProbeResult, Successor},
    format::{Family, Kind},
    game::{self as family, Jungle, JungleSlots},
    index::Layout,
    material::Material,
    moves::Move,
    position::Position,
    rules::RuleSet,
};

/// Clesto's tables (RULES.md 6), the game type of `Tablebase<Clesto>`: its positions are the
/// Jungle family's, of the rule set [`RuleSet::Clesto`], and so are its files' names and index.
///
/// ```no_run
/// use jtb_probe::{Clesto, ClestoValue, Position, RuleSet, Tablebase};
///
/// let tb = Tablebase::open("tables", Clesto)?; // tables/clesto/*.{wdl,dtm,ban}
/// let pos = Position::parse("1r5/1c5/7/7/7/7/7/7/6D b", Some(RuleSet::Clesto))?;
/// let value: ClestoValue = tb.probe_clesto(&pos)?;
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
///
/// They are no Jungle rule set's tables: the rule-set type of positions, [`RuleSet`], is no game
/// type of a tablebase, and [`crate::Jungle`] has no Clesto.
///
/// ```compile_fail
/// use jtb_probe::{RuleSet, Tablebase};
///
/// let tb = Tablebase::open("tables", RuleSet::Clesto);
/// ```
///
/// Where the ban decides, a Clesto table holds no distance to mate, and Clesto has no clock:
/// the probes of those values are not there to call.
///
/// ```compile_fail
/// use jtb_probe::{Clesto, Position, Tablebase};
///
/// fn dtm(tb: &Tablebase<Clesto>, pos: &Position) {
///     let _ = tb.probe_dtm(pos);
/// }
/// ```
///
/// ```compile_fail
/// use jtb_probe::{Clesto, Position, Tablebase};
///
/// fn rule(tb: &Tablebase<Clesto>, pos: &Position) {
///     let _ = tb.probe_rule(pos);
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Clesto;

impl Clesto {
    /// The rule set of its positions.
    pub const RULES: RuleSet = RuleSet::Clesto;
}

impl fmt::Display for Clesto {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Clesto::RULES.fmt(f)
    }
}

impl Family for Clesto {
    type Material = Material;
    const SIDES: [&'static str; 2] = RuleSet::SIDES;
    const DISTANCE_UNIT: Option<&'static str> = RuleSet::DISTANCE_UNIT;

    fn from_id(id: &str) -> Option<Clesto> {
        (id == Clesto::RULES.name()).then_some(Clesto)
    }

    fn id(self) -> &'static str {
        Clesto::RULES.name()
    }

    fn material_named(name: &str) -> Option<Material> {
        RuleSet::material_named(name)
    }

    fn table_of(self, material: Material) -> Material {
        Clesto::RULES.table_of(material)
    }

    fn entries(self, material: Material) -> u64 {
        Clesto::RULES.entries(material)
    }
}

impl Indexed for Clesto {
    type Position = Position;
    type Layout = Layout;
    type Slots = JungleSlots;

    const FILE_KINDS: &'static [Kind] = &[Kind::Wdl, Kind::Dtm, Kind::Ban];

    fn layout(self, material: Material) -> Layout {
        Layout::new(Clesto::RULES, material)
    }

    fn pieces(material: Material) -> usize {
        material.total()
    }

    fn is_table_material(self, material: Material) -> bool {
        family::is_table_material(Clesto::RULES, material)
    }

    fn alias(self, material: Material) -> Option<Material> {
        family::alias(Clesto::RULES, material)
    }

    #[inline]
    fn material_of(pos: &Position) -> Material {
        Material::of(pos)
    }

    #[inline]
    fn check_position(self, pos: &Position) -> ProbeResult<()> {
        family::check_position(Clesto::RULES, pos)
    }

    #[inline]
    fn index_of(layout: &Layout, pos: &Position) -> usize {
        family::index_of(layout, pos)
    }
}

impl Moves for Clesto {
    type Move = Move;

    const MOVE_NOUN: &'static str = Jungle::MOVE_NOUN;

    fn without_clocks(pos: &Position) -> Position {
        pos.without_clocks()
    }

    fn successors(pos: &Position) -> Vec<(Move, Successor<Position>)> {
        family::successors(pos)
    }

    fn play(pos: &Position, mv: Move) -> Option<Successor<Position>> {
        family::play(pos, mv)
    }
}
