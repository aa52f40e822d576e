//! Jungle and the flip game as a game of the probe path: [`Jungle`], the game type of the
//! default `Tablebase<Jungle>`, whose tables hold a distance to mate for every position. Its
//! positions, moves, materials, file names and index are the Jungle family's, which Clesto
//! shares: the functions here that take a [`RuleSet`] are both games' impls.

use std::fmt;

use crate::{
    core::{Game, Indexed, MaterialSlots, Moves, ProbeError, ProbeResult, Successor},
    format::{Family, Kind},
    index::Layout,
    material::Material,
    moves::{Move, Outcome},
    piece::Color,
    position::Position,
    rules::RuleSet,
    value::{Value, Wdl},
};

/// The game type of Jungle's and the flip game's tables, `Tablebase<Jungle>` (the default
/// `Tablebase`): the rule sets of the Jungle family whose tables hold a value with its distance
/// to mate for every position, a DTC file for the clock rule beside it. Clesto, the family's
/// other rule set, has tables of its own values and a game type of its own ([`crate::Clesto`]),
/// so its tables cannot be opened as these:
///
/// ```compile_fail
/// use jtb_probe::{Jungle, Tablebase};
///
/// let tb = Tablebase::open("tables", Jungle::Clesto);
/// ```
///
/// ```no_run
/// use jtb_probe::{Jungle, Position, Tablebase, Value};
///
/// let tb = Tablebase::open("tables", Jungle::Mistboard)?; // tables/mistboard/*.{wdl,dtm,dtc}
/// let pos = Position::parse("7/7/7/7/7/3l3/7/3E3/7 r", None)?;
/// let value: Value = tb.probe_dtm(&pos)?;
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Jungle {
    /// Jungle as the Mistboard engine plays it ([`RuleSet::Mistboard`]).
    #[default]
    Mistboard,
    /// Mistboard before 21 Sept 2026 ([`RuleSet::TigerLengthwise`]).
    TigerLengthwise,
    /// The research rules of van Rijn & Vis ([`RuleSet::Leiden`]).
    Leiden,
    /// The Mistboard 4x4 flip game, fully revealed ([`RuleSet::Flip4x4`]).
    Flip4x4,
}

impl Jungle {
    /// Every rule set of this game type, in the order of [`RuleSet::ALL`].
    pub const ALL: [Jungle; 4] = [
        Jungle::Mistboard,
        Jungle::TigerLengthwise,
        Jungle::Leiden,
        Jungle::Flip4x4,
    ];

    /// The rule set: its positions' and its table files'.
    #[must_use]
    #[inline]
    pub const fn rule_set(self) -> RuleSet {
        match self {
            Jungle::Mistboard => RuleSet::Mistboard,
            Jungle::TigerLengthwise => RuleSet::TigerLengthwise,
            Jungle::Leiden => RuleSet::Leiden,
            Jungle::Flip4x4 => RuleSet::Flip4x4,
        }
    }

    /// The game type of `rules`' tables when it is this one: `None` for Clesto's, which are
    /// [`crate::Clesto`]'s.
    ///
    /// ```
    /// use jtb_probe::{Jungle, RuleSet};
    ///
    /// assert_eq!(Jungle::of(RuleSet::Flip4x4), Some(Jungle::Flip4x4));
    /// assert_eq!(Jungle::of(RuleSet::Clesto), None);
    /// ```
    #[must_use]
    pub const fn of(rules: RuleSet) -> Option<Jungle> {
        match rules {
            RuleSet::Mistboard => Some(Jungle::Mistboard),
            RuleSet::TigerLengthwise => Some(Jungle::TigerLengthwise),
            RuleSet::Leiden => Some(Jungle::Leiden),
            RuleSet::Flip4x4 => Some(Jungle::Flip4x4),
            RuleSet::Clesto => None,
        }
    }

    /// The rule-set id (`mistboard`), as stored in table files.
    #[must_use]
    pub const fn name(self) -> &'static str {
        self.rule_set().name()
    }
}

impl From<Jungle> for RuleSet {
    fn from(game: Jungle) -> RuleSet {
        game.rule_set()
    }
}

impl fmt::Display for Jungle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.rule_set().fmt(f)
    }
}

impl Family for Jungle {
    type Material = Material;
    const SIDES: [&'static str; 2] = RuleSet::SIDES;
    const DISTANCE_UNIT: Option<&'static str> = RuleSet::DISTANCE_UNIT;

    fn from_id(id: &str) -> Option<Jungle> {
        RuleSet::from_id(id).and_then(Jungle::of)
    }

    fn id(self) -> &'static str {
        self.name()
    }

    fn material_named(name: &str) -> Option<Material> {
        RuleSet::material_named(name)
    }

    fn table_of(self, material: Material) -> Material {
        self.rule_set().table_of(material)
    }

    fn entries(self, material: Material) -> u64 {
        self.rule_set().entries(material)
    }
}

/// The tables present by material, in one array lookup (a material is two bytes).
pub struct JungleSlots(Box<[u16]>);

impl JungleSlots {
    #[inline]
    fn key(m: Material) -> usize {
        usize::from(m.set(Color::Red)) << 8 | usize::from(m.set(Color::Blue))
    }
}

impl Default for JungleSlots {
    fn default() -> JungleSlots {
        JungleSlots(vec![0; 1 << 16].into_boxed_slice())
    }
}

// `#[inline]` on what a probe calls every time (here and in the index, the material and the
// position): the generic probe path may be compiled in another codegen unit or in the caller's
// crate, where a function of this crate is inlined only when marked so.
impl MaterialSlots<Material> for JungleSlots {
    #[inline]
    fn get(&self, material: Material) -> Option<usize> {
        // 0: absent; else the place plus one.
        usize::from(self.0[JungleSlots::key(material)]).checked_sub(1)
    }

    fn insert(&mut self, material: Material, place: usize) {
        let slot = &mut self.0[JungleSlots::key(material)];
        if *slot == 0 {
            *slot = u16::try_from(place + 1).expect("fewer tables than materials");
        }
    }
}

impl Indexed for Jungle {
    type Position = Position;
    type Layout = Layout;
    type Slots = JungleSlots;

    const FILE_KINDS: &'static [Kind] = &[Kind::Wdl, Kind::Dtm, Kind::Dtc];

    fn layout(self, material: Material) -> Layout {
        Layout::new(self.rule_set(), material)
    }

    fn pieces(material: Material) -> usize {
        material.total()
    }

    fn is_table_material(self, material: Material) -> bool {
        is_table_material(self.rule_set(), material)
    }

    fn alias(self, material: Material) -> Option<Material> {
        alias(self.rule_set(), material)
    }

    #[inline]
    fn material_of(pos: &Position) -> Material {
        Material::of(pos)
    }

    #[inline]
    fn check_position(self, pos: &Position) -> ProbeResult<()> {
        check_position(self.rule_set(), pos)
    }

    #[inline]
    fn index_of(layout: &Layout, pos: &Position) -> usize {
        index_of(layout, pos)
    }
}

impl Moves for Jungle {
    type Move = Move;

    const MOVE_NOUN: &'static str = "move";

    fn without_clocks(pos: &Position) -> Position {
        pos.without_clocks()
    }

    fn successors(pos: &Position) -> Vec<(Move, Successor<Position>)> {
        successors(pos)
    }

    fn play(pos: &Position, mv: Move) -> Option<Successor<Position>> {
        play(pos, mv)
    }
}

// The provided probes again, as functions of this crate: compiled here, with the store's code
// inlined into them, where a provided (generic) method is compiled in the caller's crate and
// calls into this one (7-10% slower cached WDL and DTM probes in `cargo bench -p jtb-tests
// --bench probe`).
impl Game for Jungle {
    fn probe_wdl(tb: &Tablebase, pos: &Position) -> ProbeResult<Wdl> {
        tb.stored_wdl(pos)
    }

    fn probe_dtm(tb: &Tablebase, pos: &Position) -> ProbeResult<Value> {
        tb.stored_value(pos, Kind::Dtm)
    }
}

/// Whether a file named after `material` can be a table of `rules`: both sides have pieces, no
/// more than a table holds, in the orientation that names the table.
pub(crate) fn is_table_material(rules: RuleSet, material: Material) -> bool {
    material.total() <= Layout::MAX_PIECES
        && material.count(Color::Red) > 0
        && material.count(Color::Blue) > 0
        && material == material.table_of(rules)
}

/// The colour flip of `material`, where it names the same table under `rules`.
pub(crate) fn alias(rules: RuleSet, material: Material) -> Option<Material> {
    rules.colour_symmetric().then(|| material.flipped())
}

/// Whether `pos` can be probed in the tables of `rules`.
#[inline]
pub(crate) fn check_position(rules: RuleSet, pos: &Position) -> ProbeResult<()> {
    if pos.rules() != rules {
        return Err(ProbeError::WrongRules {
            tablebase: rules.name(),
            position: pos.rules().name(),
        });
    }
    if pos.hidden() != 0 {
        return Err(ProbeError::HiddenTiles);
    }
    if pos.is_game_over() {
        return Err(ProbeError::GameOver);
    }
    Ok(())
}

/// The entry of `pos` in the table of `layout`.
#[inline]
pub(crate) fn index_of(layout: &Layout, pos: &Position) -> usize {
    layout
        .index_of(pos)
        .expect("a legal position of the table's material has an index")
}

/// Every legal move of `pos` in move order, with what it leads to (without clocks).
pub(crate) fn successors(pos: &Position) -> Vec<(Move, Successor<Position>)> {
    let pos = pos.without_clocks();
    let mut moves = Vec::new();
    pos.for_each_outcome(|mv, outcome| moves.push((mv, successor(outcome))));
    moves.sort_unstable_by_key(|&(mv, _)| mv);
    moves
}

/// What `mv` leads to from `pos`, clocks advanced; `None` where it is not legal.
pub(crate) fn play(pos: &Position, mv: Move) -> Option<Successor<Position>> {
    pos.play(mv).ok().map(successor)
}

/// A move's outcome as the probe path sees it.
fn successor(outcome: Outcome) -> Successor<Position> {
    match outcome {
        Outcome::Ongoing(next) => Successor::Next(next),
        Outcome::Over { result, .. } => Successor::End(result),
    }
}

/// The tables of one rule set of a game ([`crate::core::Tablebase`]): Jungle's and the flip
/// game's ([`Jungle`]) unless another game is named, as `Tablebase<Clesto>`.
pub type Tablebase<G = Jungle> = crate::core::Tablebase<G>;

/// A move with the value it leads to for the mover ([`crate::core::ScoredMove`]): Jungle's
/// unless another game is named.
pub type ScoredMove<G = Jungle> = crate::core::ScoredMove<G>;

/// A step of a line ([`crate::core::LineStep`]): a Jungle move with the value after it unless
/// said otherwise.
pub type LineStep<V = Value, G = Jungle> = crate::core::LineStep<V, G>;

#[cfg(test)]
mod tests {
    use super::*;

    /// `Jungle` is every rule set of the family but Clesto, in `RuleSet::ALL`'s order, and
    /// names each by the same id.
    #[test]
    fn jungle_is_the_family_but_clesto() {
        let of: Vec<Jungle> = RuleSet::ALL.into_iter().filter_map(Jungle::of).collect();
        assert_eq!(of, Jungle::ALL);
        for game in Jungle::ALL {
            assert_eq!(Jungle::of(game.rule_set()), Some(game));
            assert_eq!(Jungle::from_id(game.id()), Some(game));
            assert_eq!(game.to_string(), game.rule_set().name());
        }
        assert_eq!(Jungle::of(RuleSet::Clesto), None);
        assert_eq!(Jungle::from_id("clesto"), None);
    }
}
