//! The table commands of the Jungle family's rule sets (Jungle, the flip game and Clesto, whose
//! tables share one type): `jtb stats` from the headers of each material's DTM file and its
//! second file (DTC, or Clesto's ban file), with their distance histograms, `jtb verify` of
//! the set (under flip4x4 with the chance tables of positions with face-down tiles) and
//! `jtb info`'s reader, on [`FamilyTables`] (whose API table routes are in `family_api.rs`,
//! reading [`MaterialStats`] and [`histograms`] as `jtb stats` does). Where
//! Clesto's printers differ (no draws, its ban file), its [`super::FamilyStats`] says so.

use std::{io::Write, path::Path};

use jtb_probe::{
    flip::{Chance, ChanceMaterial},
    format::table_path,
    histogram, Kind, Layout, Material, RuleSet, SideHistogram, SideStats, TableError, TableFile,
};
use serde_json::json;

use super::{family_stats, histogram_json, histogram_lines, histograms_if};
use crate::{
    table_set::{self, Shown, StatsAsked, TableSet, TablesOf, VerifyAsked},
    CliResult,
};

/// The tables of a rule set of the Jungle family.
pub struct FamilyTables(pub RuleSet);

impl TablesOf for RuleSet {
    type Tables = FamilyTables;

    fn tables(self) -> FamilyTables {
        FamilyTables(self)
    }
}

impl TableSet for FamilyTables {
    fn print_stats(&self, out: &mut dyn Write, asked: &StatsAsked) -> CliResult {
        let StatsAsked {
            root,
            json,
            histogram,
        } = *asked;
        let rules = self.0;
        let materials = jtb_edge::jungle_materials(root, rules)?;
        let printer = family_stats(rules);
        if !json {
            printer.header(out)?;
        }
        let mut ok = true;
        for m in materials {
            let stats = match MaterialStats::read_checked(root, rules, m) {
                Ok(stats) => stats,
                Err(e) => {
                    ok = false;
                    eprintln!("damaged: {e}");
                    continue;
                }
            };
            let Ok(counted) = histograms_if(histogram, || histograms(root, rules, m)) else {
                ok = false;
                continue;
            };
            if json {
                for (side, mut obj) in stats.json().into_iter().enumerate() {
                    if let Some([dtm, dtc]) = &counted {
                        // The second file is DTC, or Clesto's ban file: named by its extension.
                        let second = rules.second_kind().extension();
                        obj["histogram"] = json!({"dtm": histogram_json(&dtm[side]),
                                                  second: histogram_json(&dtc[side])});
                    }
                    writeln!(out, "{obj}")?;
                }
                continue;
            }
            for (side, (s, r)) in ["red", "blue"].iter().zip(&stats.sides) {
                printer.row(out, m, side, s, r)?;
            }
            if let Some(counted) = &counted {
                let second = rules.second_kind().extension().to_uppercase();
                for (metric, h) in ["DTM", second.as_str()].iter().zip(counted) {
                    histogram_lines(out, &m.to_string(), ["red", "blue"], 5, metric, h)?;
                }
            }
        }
        Ok(ok)
    }

    /// Under flip4x4 the chance tables too: every one present, or those a name with `-` gives.
    fn verify(&self, out: &mut dyn Write, asked: &VerifyAsked) -> CliResult {
        let (rules, root) = (self.0, asked.root);
        let (materials, chance): (Vec<Material>, Vec<ChanceMaterial>) = if asked.named.is_empty() {
            let chance = if rules == RuleSet::Flip4x4 {
                jtb_edge::Tables::new(root, jtb_probe::DEFAULT_CACHE_BYTES)
                    .chance()?
                    .chance()
                    .materials()
            } else {
                Vec::new()
            };
            (jtb_edge::jungle_materials(root, rules)?, chance)
        } else {
            // Under flip4x4 a material with `-` names a chance table (RULES.md 8).
            (
                asked
                    .named
                    .iter()
                    .filter_map(|n| Some(n.jungle()?.table_of(rules)))
                    .collect(),
                asked
                    .named
                    .iter()
                    .filter_map(|n| Some(n.chance()?.canonical()))
                    .collect(),
            )
        };
        if materials.is_empty() && chance.is_empty() {
            return Err(table_set::NoTables(rules.name(), root.to_owned()).into());
        }
        let mut ok = true;
        if !materials.is_empty() {
            let game = jtb_gen::run::Family::new(root, rules);
            let kinds = rules.table_kinds();
            ok &= table_set::verify_set(out, &game, rules, &materials, &kinds, asked)?;
        }
        if rules == RuleSet::Flip4x4 && !materials.is_empty() && !asked.checksums_only {
            ok &= verify_revealed_dte(out, root, &materials)?;
        }
        if !chance.is_empty() {
            let game = jtb_gen::chance::OnDisk::new(root);
            let kinds = [Kind::Chance, Kind::Dte];
            ok &= table_set::verify_set(out, &game, Chance, &chance, &kinds, asked)?;
        }
        Ok(ok)
    }

    fn info(&self, out: &mut dyn Write, path: &Path, json: bool) -> Shown {
        table_set::show_file::<RuleSet>(out, path, json)
    }
}

/// Checks the DTE file of each revealed flip table of `materials` that has one (those the chance
/// tables' last flips lead into, RULES.md 8): every entry at every clock one ply deep against
/// its moves, as `jtb verify` checks the others. Returns whether all agree.
fn verify_revealed_dte(out: &mut dyn Write, root: &Path, materials: &[Material]) -> CliResult {
    let mut ok = true;
    let mut tables = None;
    for &m in materials {
        let path = jtb_gen::dte::revealed_dte_path(root, m);
        if !path.exists() {
            continue;
        }
        let tables = match &tables {
            Some(t) => t,
            None => tables.insert(jtb_probe::flip::ChanceTables::open(root)?),
        };
        match jtb_gen::dte::verify_revealed(tables, root, m) {
            Ok((checked, None)) => writeln!(
                out,
                "ok   {m} DTE: {checked} entries agree with their moves at every clock"
            )?,
            Ok((_, Some((position, stored, best)))) => {
                let distance = |d: Option<u32>| d.map_or("none".to_owned(), |d| d.to_string());
                writeln!(
                    out,
                    "FAIL {}: {position}: stored DTE {}, its moves give {}",
                    path.display(),
                    distance(stored),
                    distance(best)
                )?;
                ok = false;
            }
            Err(e) => {
                writeln!(out, "FAIL {m} DTE: {e}")?;
                ok = false;
            }
        }
    }
    Ok(ok)
}

/// Positions per distance of a material's DTM file, then its DTC file (Clesto: its ban file),
/// each Red to move first ([`jtb_probe::histogram`]).
pub type Histograms = [[SideHistogram; 2]; 2];

/// Counts the positions per distance of `material`'s DTM and DTC files under `dir` (in Clesto
/// its DTM and ban files).
///
/// # Errors
/// The first of the two files that is missing, unreadable, damaged or of other rules.
pub fn histograms(
    dir: &Path,
    rules: RuleSet,
    material: Material,
) -> Result<Histograms, TableError> {
    let material = material.table_of(rules);
    let layout = Layout::new(rules, material);
    let count = |kind: Kind| {
        let path = table_path(dir, rules, material, kind);
        TableFile::open_expecting(&path, rules, material, kind)
            .and_then(|file| histogram(&file, &layout))
    };
    Ok([count(Kind::Dtm)?, count(rules.second_kind())?])
}

/// One material's statistics, Red to move first: what its DTM file and its DTC file say (in
/// Clesto its ban file: the positions the ban decides, and B's longest way out).
pub struct MaterialStats {
    /// The rule set.
    pub rules: RuleSet,
    /// The material, in the orientation that names its table.
    pub material: Material,
    /// Per side to move: the DTM file's statistics and the DTC (or ban) file's.
    pub sides: [(SideStats, SideStats); 2],
}

impl MaterialStats {
    /// Reads the statistics from the headers of `material`'s DTM and DTC files under `dir`.
    ///
    /// # Errors
    /// The first of the two files that is missing, unreadable, damaged or of other rules.
    pub fn read(dir: &Path, rules: RuleSet, material: Material) -> Result<Self, TableError> {
        MaterialStats::read_files(dir, rules, material, false)
    }

    /// As [`MaterialStats::read`], with every byte of both files checked against their
    /// trailing checksums (`jtb stats` shows only intact tables).
    ///
    /// # Errors
    /// As [`MaterialStats::read`], and a checksum mismatch.
    pub fn read_checked(
        dir: &Path,
        rules: RuleSet,
        material: Material,
    ) -> Result<Self, TableError> {
        MaterialStats::read_files(dir, rules, material, true)
    }

    fn read_files(
        dir: &Path,
        rules: RuleSet,
        material: Material,
        checked: bool,
    ) -> Result<Self, TableError> {
        let material = material.table_of(rules);
        let open = |kind: Kind| {
            let path = table_path(dir, rules, material, kind);
            let file = TableFile::open_expecting(&path, rules, material, kind)?;
            if checked {
                file.verify_checksum()?;
            }
            Ok::<_, TableError>(file)
        };
        let (dtm, dtc) = (open(Kind::Dtm)?, open(rules.second_kind())?);
        let [s0, s1] = dtm.header().stats.clone();
        let [r0, r1] = dtc.header().stats.clone();
        Ok(MaterialStats {
            rules,
            material,
            sides: [(s0, r0), (s1, r1)],
        })
    }

    /// The `jtb stats --json` object of each side to move, Red first.
    #[must_use]
    pub fn json(&self) -> [serde_json::Value; 2] {
        let printer = family_stats(self.rules);
        let side =
            |name: &str, (s, r): &(SideStats, SideStats)| printer.json(self.material, name, s, r);
        [side("red", &self.sides[0]), side("blue", &self.sides[1])]
    }
}
