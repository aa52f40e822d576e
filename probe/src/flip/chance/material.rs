//! The material of a table of positions with face-down tiles: the revealed animals and the
//! hidden set, written `LvE-Tw` (the revealed animals as a [`Material`], `-`, the hidden set as
//! in the `?:` field).

use std::{error::Error, fmt, str::FromStr};

use crate::{
    flip::HiddenSet,
    material::Material,
    piece::{Animal, Color},
    position::Position,
};

/// Revealed animals and hidden set of a flip position with face-down tiles. A material and its
/// colour swap (`LvE-Tw`, `EvL-Wt`) are the same table. Its order is one for sets and maps,
/// with no meaning beyond that.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ChanceMaterial {
    revealed: Material,
    hidden: HiddenSet,
}

/// The most tiles a chance table holds: every set of up to four, and any five on request.
pub const MAX_TILES: usize = 5;

impl ChanceMaterial {
    /// The material of `revealed` animals face up and the `hidden` set face down.
    ///
    /// # Errors
    /// An animal both revealed and hidden, no face-down tile, more than [`MAX_TILES`] tiles,
    /// or a side with no animal at all (a finished game has no table).
    pub fn new(revealed: Material, hidden: HiddenSet) -> Result<ChanceMaterial, &'static str> {
        if hidden.is_empty() {
            return Err("no face-down tile (a position without one is in the revealed tables)");
        }
        if Color::ALL
            .iter()
            .any(|&c| revealed.set(c) & hidden.set(c) != 0)
        {
            return Err("an animal both face up and face down");
        }
        let m = ChanceMaterial { revealed, hidden };
        if m.tiles() > MAX_TILES {
            return Err("more than 5 tiles");
        }
        if Color::ALL.iter().any(|&c| m.count(c) == 0) {
            return Err("a side with no animal, face up or face down");
        }
        Ok(m)
    }

    /// The material of `pos`; `None` without face-down tiles or where its hidden set is not
    /// known.
    #[must_use]
    pub fn of(pos: &Position) -> Option<ChanceMaterial> {
        let hidden = pos.hidden_set().filter(|h| !h.is_empty())?;
        Some(ChanceMaterial {
            revealed: Material::of(pos),
            hidden,
        })
    }

    /// The material packed in 32 bits (revealed and hidden sets of both colours): a key that
    /// tells materials apart.
    #[must_use]
    pub const fn key(self) -> u32 {
        let r = self.revealed;
        let h = self.hidden;
        (r.set(Color::Red) as u32)
            | (r.set(Color::Blue) as u32) << 8
            | (h.set(Color::Red) as u32) << 16
            | (h.set(Color::Blue) as u32) << 24
    }

    /// The animals face up.
    #[must_use]
    pub const fn revealed(self) -> Material {
        self.revealed
    }

    /// The animals face down.
    #[must_use]
    pub const fn hidden(self) -> HiddenSet {
        self.hidden
    }

    /// Tiles on the board, face up and face down.
    #[must_use]
    pub const fn tiles(self) -> usize {
        self.revealed.total() + self.hidden.len()
    }

    /// Animals of `color`, face up or face down.
    #[must_use]
    pub const fn count(self, color: Color) -> usize {
        self.revealed.count(color) + self.hidden.set(color).count_ones() as usize
    }

    /// The same material with the colours swapped.
    #[must_use]
    pub const fn flipped(self) -> ChanceMaterial {
        ChanceMaterial {
            revealed: self.revealed.flipped(),
            hidden: self.hidden.flipped(),
        }
    }

    /// The revealed material it becomes once every tile is face up.
    #[must_use]
    pub fn face_up(self) -> Material {
        let (r, h) = (self.revealed, self.hidden);
        Material::from_sets(
            r.set(Color::Red) | h.set(Color::Red),
            r.set(Color::Blue) | h.set(Color::Blue),
        )
    }

    /// The orientation that names the table: the side with more animals is Red; with as many,
    /// the one with the stronger revealed, then hidden, animals.
    #[must_use]
    pub fn canonical(self) -> ChanceMaterial {
        let key = |m: ChanceMaterial| {
            let c = Color::Red;
            (m.count(c), m.revealed.set(c), m.hidden.set(c))
        };
        let flipped = self.flipped();
        if key(self) >= key(flipped) {
            self
        } else {
            flipped
        }
    }

    /// Every table with `min..=max` tiles (canonical orientations, both sides with an animal,
    /// at least one tile face down), fewest face-down tiles first, then fewest tiles: the order
    /// in which they can be solved (a flip leads to one face-down tile fewer, a capture to one
    /// tile fewer).
    #[must_use]
    pub fn all(min: usize, max: usize) -> Vec<ChanceMaterial> {
        let mut out = Vec::new();
        for red in 0..=u8::MAX {
            for blue in 0..=u8::MAX {
                let tiles = (red.count_ones() + blue.count_ones()) as usize;
                if tiles < min.max(1) || tiles > max {
                    continue;
                }
                // Each subset of the animals is face down: walk the subsets of both sets.
                let bits = u16::from(red) | u16::from(blue) << 8;
                let mut sub = bits;
                loop {
                    let hidden = HiddenSet::from_sets(sub as u8, (sub >> 8) as u8);
                    let revealed =
                        Material::from_sets(red & !(sub as u8), blue & !((sub >> 8) as u8));
                    if let Ok(m) = ChanceMaterial::new(revealed, hidden) {
                        if m.canonical() == m {
                            out.push(m);
                        }
                    }
                    if sub == 0 {
                        break;
                    }
                    sub = (sub - 1) & bits;
                }
            }
        }
        out.sort_by_cached_key(|m| (m.hidden.len(), m.tiles(), m.to_string()));
        out
    }
}

impl fmt::Display for ChanceMaterial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.revealed, self.hidden)
    }
}

/// A chance material's name that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadChanceMaterial {
    /// The text given.
    pub text: String,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for BadChanceMaterial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad material `{}`: {} (write the revealed animals, Red's, `v`, Blue's, then `-` \
             and the hidden set as in the `?:` field, upper case Red: `LvE-Tw`, `v-Ee`)",
            self.text, self.reason
        )
    }
}

impl Error for BadChanceMaterial {}

impl FromStr for ChanceMaterial {
    type Err = BadChanceMaterial;

    fn from_str(s: &str) -> Result<ChanceMaterial, BadChanceMaterial> {
        let bad = |reason: &str| BadChanceMaterial {
            text: s.to_owned(),
            reason: reason.to_owned(),
        };
        let (revealed, hidden) = s
            .split_once('-')
            .ok_or_else(|| bad("no `-` before the hidden set"))?;
        let (red, blue) = revealed
            .split_once('v')
            .ok_or_else(|| bad("no `v` between the revealed sides"))?;
        let mut sets = [0u8; 2];
        for (set, side) in sets.iter_mut().zip([red, blue]) {
            for c in side.chars() {
                let a = Animal::from_letter(c)
                    .ok_or_else(|| bad("unknown animal letter (use R C D W P T L E)"))?;
                if *set & (1 << a as u8) != 0 {
                    return Err(bad("an animal twice in one side"));
                }
                *set |= 1 << a as u8;
            }
        }
        let hidden = HiddenSet::parse(hidden).map_err(|e| bad(&e.to_string()))?;
        ChanceMaterial::new(Material::from_sets(sets[0], sets[1]), hidden).map_err(bad)
    }
}

/// The revealed tables the chance tables `targets` lead into with every tile face up (those
/// tables' own closures hold every revealed table the chance tables need), canonical, once each.
#[must_use]
pub fn revealed_needs(targets: &[ChanceMaterial]) -> Vec<Material> {
    let mut out: Vec<Material> = Vec::new();
    for &m in targets {
        let all = m.face_up().canonical();
        if !out.contains(&all) {
            out.push(all);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_and_the_colour_swap_is_one_table() {
        let m: ChanceMaterial = "LvE-wT".parse().unwrap();
        assert_eq!(m.to_string(), "LvE-Tw");
        assert_eq!(m.flipped().to_string(), "EvL-Wt");
        assert_eq!(m.canonical(), m.flipped().canonical());
        assert_eq!("v-Ee".parse::<ChanceMaterial>().unwrap().tiles(), 2);
        for bad in ["LvE", "LvE-", "Lv-L", "Lv-T", "LLv-e", "Lv-x", "LEDvC-Ww"] {
            assert!(bad.parse::<ChanceMaterial>().is_err(), "{bad}");
        }
    }

    #[test]
    fn counts_of_all_tables() {
        // One animal each (64 pairs), face down: the red one, the blue one or both (192), up to
        // the colour swap, which fixes only the 8 pairs of equal animals both face down.
        let two = ChanceMaterial::all(2, 2);
        assert_eq!(two.len(), (192 - 8) / 2 + 8);
        assert!(two.iter().all(|m| m.canonical() == *m && m.tiles() == 2));
        // Fewest face-down tiles first.
        let three = ChanceMaterial::all(1, 3);
        assert!(three
            .windows(2)
            .all(|w| w[0].hidden().len() <= w[1].hidden().len()));
    }
}
