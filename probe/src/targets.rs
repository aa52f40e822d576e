//! The tables a generation is asked for, in their game's materials: what a user's names (read
//! at the edge, `jtb_edge::Rules::targets`) give the generator (`jtb_gen::targets`), so that the
//! generator needs nothing above the probe library.

use crate::{flip::ChanceMaterial, gambit, Material, RuleSet};

/// The tables a generation is asked for, in their game's materials.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Targets {
    /// Tables of a Jungle-family rule set, and under flip4x4 the chance tables of positions
    /// with face-down tiles (the revealed tables they lead into among the first).
    Jungle(RuleSet, Vec<Material>, Vec<ChanceMaterial>),
    /// Animal Gambit tables.
    Gambit(Vec<gambit::Material>),
}

impl Targets {
    /// The id of the rule set of the tables (the name of their folder).
    #[must_use]
    pub const fn rules_id(&self) -> &'static str {
        match self {
            Targets::Jungle(rules, ..) => rules.name(),
            Targets::Gambit(_) => gambit::AnimalGambit::NAME,
        }
    }
}
