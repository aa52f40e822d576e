//! The positions a table holds, packed ([`crate::PACKED_LEN`] bytes each): for a program that
//! scans a whole table or samples it (the Python package's `jtb.positions`).

use std::fmt;

use jtb_probe::{flip::ChanceMaterial, gambit, Layout};

use crate::{AnyPosition, Rules, TableName, TableNameError};

/// Which of a table's positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pick {
    /// Every one, in the table's index order.
    All,
    /// `count` drawn uniformly among the table's positions, with replacement, by a generator
    /// seeded with `seed` (the same seed gives the same positions).
    Sample {
        /// How many.
        count: usize,
        /// The seed.
        seed: u64,
    },
}

/// Why a table's positions cannot be listed.
#[derive(Debug)]
pub enum ScanError {
    /// The name is no table of the rule set.
    Name(TableNameError),
    /// A flip-game chance table: its positions are not listed (they are revealed positions
    /// with face-down tiles, at every clock).
    Chance(ChanceMaterial),
}

impl fmt::Display for ScanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScanError::Name(e) => e.fmt(f),
            ScanError::Chance(m) => write!(
                f,
                "{m} is a chance table: its positions are not listed (name a revealed table)"
            ),
        }
    }
}

impl std::error::Error for ScanError {}

/// The positions of the table `name` under `rules` (either orientation of its material names
/// it), packed one after another: every legal position the table stores, both sides to move,
/// one of each pair that a symmetry of the table folds together (the stored orientation), or a
/// sample of them. A table with no legal position gives none.
///
/// # Errors
/// A name that is no table of the rule set, or a chance table's.
pub fn table_records(rules: Rules, name: &str, pick: Pick) -> Result<Vec<u8>, ScanError> {
    let mut out = Vec::new();
    let mut keep = |pos: AnyPosition| out.extend_from_slice(&pos.pack());
    match rules.table_name(name).map_err(ScanError::Name)? {
        TableName::Jungle(material) => {
            let Rules::Jungle(rule_set) = rules else {
                unreachable!("a Jungle material is named under a Jungle rule set")
            };
            let layout = Layout::new(rule_set, material.table_of(rule_set));
            let at = |idx| layout.position(idx).map(AnyPosition::of_family);
            match pick {
                Pick::All => layout.for_each_used_entry(|idx, _| {
                    if let Some(pos) = at(idx) {
                        keep(pos);
                    }
                }),
                Pick::Sample { count, seed } => sample(layout.len(), count, seed, at, keep),
            }
        }
        TableName::Gambit(material) => {
            let layout = gambit::Layout::new(material.canonical());
            let at = |idx| {
                let (board, turn) = layout.board(idx)?;
                gambit::Position::new(board, turn)
                    .ok()
                    .map(AnyPosition::Gambit)
            };
            match pick {
                Pick::All => (0..layout.len()).filter_map(at).for_each(keep),
                Pick::Sample { count, seed } => sample(layout.len(), count, seed, at, keep),
            }
        }
        TableName::Chance(material) => return Err(ScanError::Chance(material)),
    }
    Ok(out)
}

/// Draws `count` positions by uniform entries of `0..len` (an entry that is no position drawn
/// again), each given to `keep`. Stops short where the entries are almost all unused (a table
/// with no legal position).
fn sample(
    len: usize,
    count: usize,
    seed: u64,
    at: impl Fn(usize) -> Option<AnyPosition>,
    mut keep: impl FnMut(AnyPosition),
) {
    if len == 0 {
        return;
    }
    // SplitMix64: a well-mixed stream from any seed, 0 included.
    let mut state = seed;
    let mut next = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let (mut kept, mut tries) = (0, 0usize);
    let most_tries = count.saturating_mul(64).saturating_add(4096);
    while kept < count && tries < most_tries {
        tries += 1;
        // A multiply-shift maps 64 random bits onto 0..len without a division's bias to speak of.
        let idx = ((u128::from(next()) * len as u128) >> 64) as usize;
        if let Some(pos) = at(idx) {
            keep(pos);
            kept += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PACKED_LEN;

    fn positions(rules: &str, name: &str, pick: Pick) -> Vec<AnyPosition> {
        table_records(rules.parse().unwrap(), name, pick)
            .unwrap()
            .chunks(PACKED_LEN)
            .map(|r| AnyPosition::unpack(r).unwrap())
            .collect()
    }

    /// Every position of a table, each of its material, distinct, both sides to move; the count
    /// of a table whose every placement is legal.
    #[test]
    fn a_whole_table_lists_each_stored_position_once() {
        let all = positions("flip4x4", "LvE", Pick::All);
        // Two animals on 16 squares, both sides to move, one of each of the square's eight
        // symmetries' orbits where the table folds them.
        assert!(
            all.len() > 16 * 15 * 2 / 8 && all.len() <= 16 * 15 * 2,
            "{}",
            all.len()
        );
        let mut texts: Vec<String> = all.iter().map(ToString::to_string).collect();
        texts.sort();
        texts.dedup();
        assert_eq!(texts.len(), all.len());
        for pos in &all {
            assert_eq!(pos.rules().name(), "flip4x4");
        }
        // Either orientation names the table.
        assert_eq!(positions("flip4x4", "EvL", Pick::All).len(), all.len());
        let gambit = positions("animal-gambit", "RvR", Pick::All);
        assert!(gambit.len() > 1000);
        assert!(gambit.iter().all(|p| p.rules() == Rules::AnimalGambit));
    }

    #[test]
    fn a_sample_is_drawn_from_the_table_and_follows_its_seed() {
        let all: std::collections::HashSet<String> = positions("mistboard", "LRvE", Pick::All)
            .iter()
            .map(ToString::to_string)
            .collect();
        let pick = Pick::Sample {
            count: 500,
            seed: 7,
        };
        let drawn = positions("mistboard", "LRvE", pick);
        assert_eq!(drawn.len(), 500);
        assert!(drawn.iter().all(|p| all.contains(&p.to_string())));
        assert_eq!(
            table_records("mistboard".parse().unwrap(), "LRvE", pick).unwrap(),
            table_records("mistboard".parse().unwrap(), "LRvE", pick).unwrap()
        );
        let other = Pick::Sample {
            count: 500,
            seed: 8,
        };
        assert_ne!(positions("mistboard", "LRvE", other), drawn);
        let gambit = positions(
            "animal-gambit",
            "RRvR",
            Pick::Sample {
                count: 100,
                seed: 0,
            },
        );
        assert_eq!(gambit.len(), 100);
    }

    #[test]
    fn names_that_are_no_revealed_table_are_refused() {
        let flip: Rules = "flip4x4".parse().unwrap();
        let e = table_records(flip, "LvE-Tw", Pick::All).unwrap_err();
        assert!(e.to_string().contains("LvE-Tw is a chance table"), "{e}");
        assert!(table_records(flip, "LvX", Pick::All).is_err());
        assert!(table_records(Rules::AnimalGambit, "LvE", Pick::All).is_err());
    }
}
