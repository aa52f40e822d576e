//! The Jungle family's rule sets in the one table format: what [`Family`] asks of them (ids,
//! material names, sides, entries), and the path of a table's file.

use std::path::{Path, PathBuf};

use crate::{
    format::{family_table_path, Family, Kind},
    material::Material,
    rules::RuleSet,
};

impl Family for RuleSet {
    type Material = Material;
    const SIDES: [&'static str; 2] = ["red", "blue"];
    const DISTANCE_UNIT: Option<&'static str> = Some("plies");

    fn from_id(id: &str) -> Option<RuleSet> {
        id.parse().ok()
    }

    fn id(self) -> &'static str {
        self.name()
    }

    fn material_named(name: &str) -> Option<Material> {
        name.parse().ok()
    }

    fn table_of(self, material: Material) -> Material {
        material.table_of(self)
    }

    fn entries(self, material: Material) -> u64 {
        crate::Layout::new(self, material).len() as u64
    }
}

/// The path of the `kind` file of `material` under `rules` in the table root `root`:
/// `root/<rules>/<material>.<wdl|dtm|dtc|ban>`, the material in the orientation that names its
/// table ([`Material::table_of`]).
#[must_use]
pub fn table_path(root: &Path, rules: RuleSet, material: Material, kind: Kind) -> PathBuf {
    family_table_path(root, rules, material, kind)
}
