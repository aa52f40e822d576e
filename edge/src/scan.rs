//! The positions a table holds, packed ([`crate::PACKED_LEN`] bytes each): for a program that
//! scans a whole table or samples it (the Python package's `jtb.positions`).

use std::fmt;

use jtb_probe::flip::ChanceMaterial;

use crate::{AnyPosition, RuleFamily, Rules, TableNameError};

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
    each_family!(rules, |r, F| F::table_positions(r, name, pick, &mut keep))?;
    Ok(out)
}

/// Draws `count` positions by uniform entries of `0..len` (an entry that is no position drawn
/// again), each given to `keep`. Stops short where the entries are almost all unused (a table
/// with no legal position).
pub(crate) fn sample(
    len: usize,
    count: usize,
    seed: u64,
    at: impl Fn(usize) -> Option<AnyPosition>,
    keep: &mut dyn FnMut(AnyPosition),
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

    /// Every legal position with `pieces` on the board of `rules`, both sides to move, placed
    /// square by square through the placement rules (no index).
    fn every_placement(
        rules: jtb_probe::RuleSet,
        pieces: &[jtb_probe::Piece],
        placed: &mut Vec<(jtb_probe::Piece, jtb_probe::Square)>,
        every: &mut std::collections::HashSet<jtb_probe::Position>,
    ) {
        let Some(&piece) = pieces.get(placed.len()) else {
            for turn in jtb_probe::Color::ALL {
                let pos = jtb_probe::Position::from_pieces(rules, turn, placed.iter().copied());
                every.extend(pos.ok());
            }
            return;
        };
        for rank in 0..9 {
            for file in 0..8 {
                placed.push((piece, jtb_probe::Square::new(file, rank)));
                every_placement(rules, pieces, placed, every);
                placed.pop();
            }
        }
    }

    /// A table's listing against every legal placement of its animals: each placement is a
    /// listed position or the file mirror of one (the fold of the Jungle family's tables), and
    /// nothing else is listed.
    #[test]
    fn a_table_and_its_mirror_images_are_every_legal_placement() {
        use jtb_probe::{Material, Piece, RuleSet};
        for (rules, name) in [
            (RuleSet::Mistboard, "LvE"),
            (RuleSet::Leiden, "RvE"),
            (RuleSet::Flip4x4, "LvE"),
            (RuleSet::Mistboard, "LRvE"),
        ] {
            let pieces: Vec<Piece> = name
                .parse::<Material>()
                .unwrap()
                .table_of(rules)
                .pieces()
                .collect();
            let mut every = std::collections::HashSet::new();
            every_placement(rules, &pieces, &mut Vec::new(), &mut every);
            let listed = positions(rules.name(), name, Pick::All);
            let mut covered = std::collections::HashSet::new();
            for pos in &listed {
                let AnyPosition::Jungle(pos) = pos else {
                    panic!("{pos}: not of {rules}")
                };
                assert!(every.contains(pos), "{pos} is no legal placement");
                covered.insert(pos.clone());
                covered.insert(pos.mirrored());
            }
            assert_eq!(covered.len(), every.len(), "{rules} {name}");
            assert!(
                listed.len() < every.len(),
                "{rules} {name}: the table folds the mirror"
            );
        }
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
