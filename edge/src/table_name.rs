//! A table as a user names it (`--material`, the Python package's `materials`), read under the
//! rules it belongs to: one parser for every front end.

use std::{error::Error, fmt};

use jtb_probe::{
    flip::{BadChanceMaterial, ChanceMaterial},
    gambit, BadMaterial, Layout, Material, RuleSet,
};

use crate::Rules;

/// A table named under a rule set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableName {
    /// A table of a Jungle-family rule set (the flip game's revealed tables among them), as
    /// named (either orientation).
    Jungle(Material),
    /// A flip-game chance table (`LvE-Tw`: the revealed animals, `-`, the face-down ones).
    Chance(ChanceMaterial),
    /// An Animal Gambit table.
    Gambit(gambit::Material),
}

impl TableName {
    /// The Jungle-family material, if it is one.
    #[must_use]
    pub fn jungle(self) -> Option<Material> {
        match self {
            TableName::Jungle(m) => Some(m),
            _ => None,
        }
    }

    /// The chance material, if it is one.
    #[must_use]
    pub fn chance(self) -> Option<ChanceMaterial> {
        match self {
            TableName::Chance(m) => Some(m),
            _ => None,
        }
    }

    /// The Animal Gambit material, if it is one.
    #[must_use]
    pub fn gambit(self) -> Option<gambit::Material> {
        match self {
            TableName::Gambit(m) => Some(m),
            _ => None,
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
    /// More pieces than a table holds.
    TooManyPieces(Material),
}

impl fmt::Display for TableNameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableNameError::Bad(e) => e.fmt(f),
            TableNameError::Gambit(e) => e.fmt(f),
            TableNameError::Chance(e) => e.fmt(f),
            TableNameError::TooManyPieces(m) => write!(
                f,
                "{m} has {} pieces; tables hold at most {}",
                m.total(),
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
            TableNameError::TooManyPieces(_) => None,
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
        return Err(TableNameError::TooManyPieces(m));
    }
    Ok(m)
}

impl Rules {
    /// The table `text` names under these rules: under `flip4x4` a name with `-` is a chance
    /// table (RULES.md 8), any other a revealed one.
    ///
    /// # Errors
    /// `text` is no table of these rules.
    pub fn table_name(self, text: &str) -> Result<TableName, TableNameError> {
        match self {
            Rules::Jungle(RuleSet::Flip4x4) if text.contains('-') => text
                .parse()
                .map(TableName::Chance)
                .map_err(TableNameError::Chance),
            Rules::Jungle(_) => table_material(text).map(TableName::Jungle),
            Rules::AnimalGambit => text
                .parse()
                .map(TableName::Gambit)
                .map_err(TableNameError::Gambit),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_read_under_its_rules() {
        let flip = Rules::Jungle(RuleSet::Flip4x4);
        assert!(matches!(flip.table_name("LvE"), Ok(TableName::Jungle(_))));
        assert!(matches!(
            flip.table_name("LvE-Tw"),
            Ok(TableName::Chance(_))
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
            Err(TableNameError::TooManyPieces(_))
        ));
        assert!(matches!(
            Rules::AnimalGambit.table_name("LvE"),
            Err(TableNameError::Gambit(_))
        ));
    }
}
