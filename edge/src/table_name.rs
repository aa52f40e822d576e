//! A table as a user names it (`--material`, the Python package's `materials`), read under the
//! rules it belongs to: one parser for every front end.

use std::{error::Error, fmt};

use jtb_probe::{
    flip::{BadChanceMaterial, ChanceMaterial},
    gambit, BadMaterial, Layout, Material, Targets,
};

use crate::{RuleFamily, Rules};

/// A table named under a rule set: one variant per type of rule sets (as [`Rules`]), each
/// holding its type's own name of a table ([`RuleFamily::Table`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableName {
    /// A table of a Jungle-family rule set.
    Jungle(JungleTable),
    /// An Animal Gambit table.
    Gambit(gambit::Material),
}

/// A table of a Jungle-family rule set, as named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JungleTable {
    /// A table of revealed pieces (the flip game's revealed tables among them), in either
    /// orientation.
    Revealed(Material),
    /// A flip-game chance table (`LvE-Tw`: the revealed animals, `-`, the face-down ones).
    Chance(ChanceMaterial),
}

impl From<JungleTable> for TableName {
    fn from(table: JungleTable) -> TableName {
        TableName::Jungle(table)
    }
}

impl From<gambit::Material> for TableName {
    fn from(table: gambit::Material) -> TableName {
        TableName::Gambit(table)
    }
}

impl JungleTable {
    /// The material of revealed pieces, if it is one.
    #[must_use]
    pub fn revealed(self) -> Option<Material> {
        match self {
            JungleTable::Revealed(m) => Some(m),
            JungleTable::Chance(_) => None,
        }
    }

    /// The chance material, if it is one.
    #[must_use]
    pub fn chance(self) -> Option<ChanceMaterial> {
        match self {
            JungleTable::Chance(m) => Some(m),
            JungleTable::Revealed(_) => None,
        }
    }
}

impl TableName {
    /// The Jungle-family material of revealed pieces, if it is one.
    #[must_use]
    pub fn jungle(self) -> Option<Material> {
        match self {
            TableName::Jungle(t) => t.revealed(),
            TableName::Gambit(_) => None,
        }
    }

    /// The chance material, if it is one.
    #[must_use]
    pub fn chance(self) -> Option<ChanceMaterial> {
        match self {
            TableName::Jungle(t) => t.chance(),
            TableName::Gambit(_) => None,
        }
    }

    /// The Animal Gambit material, if it is one.
    #[must_use]
    pub fn gambit(self) -> Option<gambit::Material> {
        match self {
            TableName::Gambit(m) => Some(m),
            TableName::Jungle(_) => None,
        }
    }
}

/// Why a name is no table of its rule set.
#[derive(Debug)]
pub enum TableNameError {
    /// Not a material.
    Bad(BadMaterial),
    /// Not an Animal Gambit material.
    Gambit(gambit::BadMaterial),
    /// Not a material of the flip game's chance tables.
    Chance(BadChanceMaterial),
    /// More pieces than a table holds: the material's name and its pieces (at most
    /// [`Layout::MAX_PIECES`] in every game).
    TooManyPieces(String, usize),
}

impl fmt::Display for TableNameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableNameError::Bad(e) => e.fmt(f),
            TableNameError::Gambit(e) => e.fmt(f),
            TableNameError::Chance(e) => e.fmt(f),
            TableNameError::TooManyPieces(m, pieces) => write!(
                f,
                "{m} has {pieces} pieces; tables hold at most {}",
                Layout::MAX_PIECES
            ),
        }
    }
}

impl Error for TableNameError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            TableNameError::Bad(e) => Some(e),
            TableNameError::Gambit(e) => Some(e),
            TableNameError::Chance(e) => Some(e),
            TableNameError::TooManyPieces(..) => None,
        }
    }
}

/// A Jungle-family material that tables can hold: a side of each colour and at most
/// [`Layout::MAX_PIECES`] pieces.
///
/// # Errors
/// Not a material, or one of too many pieces.
pub fn table_material(text: &str) -> Result<Material, TableNameError> {
    let m: Material = text.parse().map_err(TableNameError::Bad)?;
    if m.total() > Layout::MAX_PIECES {
        return Err(TableNameError::TooManyPieces(m.to_string(), m.total()));
    }
    Ok(m)
}

impl Rules {
    /// The tables `names` ask for and no others, for a generation of the targets alone (`jtb
    /// gen --no-deps`, a task of a plan): as [`Rules::targets`], without the revealed tables the
    /// flip game's chance tables lead into unless they are named too (the chance tables'
    /// generation checks that they are there).
    ///
    /// # Errors
    /// As [`Rules::targets`].
    pub fn named_targets(
        self,
        names: &[impl AsRef<str>],
        max_pieces: usize,
    ) -> Result<Targets, TableNameError> {
        self.resolve(names, max_pieces, names.is_empty())
    }

    /// The tables `names` ask for under these rules (each read by [`Rules::table_name`]), or
    /// without names every table of 2 up to `max_pieces` pieces (under flip4x4 also every
    /// chance table of up to `max_pieces` tiles); under flip4x4 the revealed tables the chance
    /// tables lead into are added to the first list.
    ///
    /// # Errors
    /// A name that is no table of these rules, or a chance table whose tiles face up make more
    /// pieces than a table holds.
    pub fn targets(
        self,
        names: &[impl AsRef<str>],
        max_pieces: usize,
    ) -> Result<Targets, TableNameError> {
        self.resolve(names, max_pieces, true)
    }

    /// [`Rules::targets`], with the revealed tables the chance tables lead into added to the
    /// first list only if `with_needs`.
    fn resolve(
        self,
        names: &[impl AsRef<str>],
        max_pieces: usize,
        with_needs: bool,
    ) -> Result<Targets, TableNameError> {
        each_family!(self, |r, F| {
            let named = names
                .iter()
                .map(|m| F::table_name(r, m.as_ref()))
                .collect::<Result<Vec<_>, _>>()?;
            F::targets_of(r, &named, max_pieces, with_needs)
        })
    }

    /// The table `text` names under these rules: under `flip4x4` a name with `-` is a chance
    /// table (RULES.md 8), any other a revealed one.
    ///
    /// # Errors
    /// `text` is no table of these rules.
    pub fn table_name(self, text: &str) -> Result<TableName, TableNameError> {
        each_family!(self, |r, F| F::table_name(r, text).map(TableName::from))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jtb_probe::RuleSet;

    #[test]
    fn a_name_is_read_under_its_rules() {
        let flip = Rules::Jungle(RuleSet::Flip4x4);
        assert!(matches!(
            flip.table_name("LvE"),
            Ok(TableName::Jungle(JungleTable::Revealed(_)))
        ));
        assert!(matches!(
            flip.table_name("LvE-Tw"),
            Ok(TableName::Jungle(JungleTable::Chance(_)))
        ));
        // Only the flip game has chance tables.
        let mist = Rules::Jungle(RuleSet::Mistboard);
        assert!(matches!(
            mist.table_name("LvE-Tw"),
            Err(TableNameError::Bad(_))
        ));
        assert!(matches!(
            Rules::AnimalGambit.table_name("ERvMR"),
            Ok(TableName::Gambit(_))
        ));
        assert!(matches!(
            mist.table_name("ELRCvEDRCP"),
            Err(TableNameError::TooManyPieces(..))
        ));
        // A plan of a material this large never ends (its closure is every smaller one).
        let big = Rules::AnimalGambit.table_name("ERHMDCRRRRRRvEDRRRRMDRCR");
        assert_eq!(
            big.unwrap_err().to_string(),
            "EMHDCRRRRRRRvEMDDCRRRRRR has 23 pieces; tables hold at most 8"
        );
        assert!(Rules::AnimalGambit.table_name("EMHRvEMDR").is_ok());
        assert!(matches!(
            Rules::AnimalGambit.table_name("LvE"),
            Err(TableNameError::Gambit(_))
        ));
    }

    #[test]
    fn a_chance_target_brings_the_revealed_table_of_its_last_flip() {
        let flip = Rules::Jungle(RuleSet::Flip4x4);
        let Ok(Targets::Jungle(_, revealed, chance)) = flip.targets(&["LvE-Tw"], 4) else {
            panic!("flip4x4 targets");
        };
        assert_eq!(chance.len(), 1);
        // L and T against E and W, every tile face up, in the orientation that names it.
        let all: Material = "LTvEW".parse().unwrap();
        assert_eq!(revealed, [all.table_of(RuleSet::Flip4x4)]);
        // Without names: every table up to the count, the chance tables too under flip4x4.
        let Ok(Targets::Jungle(_, revealed, chance)) = flip.targets(&[] as &[&str], 2) else {
            panic!("flip4x4 targets");
        };
        assert_eq!(revealed, Material::all_tables(RuleSet::Flip4x4, 2, 2));
        assert_eq!(chance, ChanceMaterial::all(2, 2));
        let mist = Rules::Jungle(RuleSet::Mistboard);
        assert!(matches!(
            mist.targets(&[] as &[&str], 2),
            Ok(Targets::Jungle(_, _, c)) if c.is_empty()
        ));
    }

    #[test]
    fn named_targets_are_the_tables_named_alone() {
        let flip = Rules::Jungle(RuleSet::Flip4x4);
        let all: Material = "LTvEW".parse().unwrap();
        let Ok(Targets::Jungle(_, revealed, chance)) = flip.named_targets(&["LvE-Tw"], 4) else {
            panic!("flip4x4 targets");
        };
        assert!(revealed.is_empty());
        assert_eq!(chance.len(), 1);
        let Ok(Targets::Jungle(_, revealed, _)) = flip.named_targets(&["LvE-Tw", "EWvLT"], 4)
        else {
            panic!("flip4x4 targets");
        };
        assert_eq!(revealed, [all.table_of(RuleSet::Flip4x4)]);
        // Without names, every table up to the count.
        assert_eq!(
            flip.named_targets(&[] as &[&str], 3).unwrap(),
            flip.targets(&[] as &[&str], 3).unwrap()
        );
        assert_eq!(
            Rules::AnimalGambit
                .named_targets(&["ERvMR"], 4)
                .unwrap()
                .rules_id(),
            Rules::AnimalGambit.name()
        );
    }
}
