//! Materials: which animals each side has, written `LRvE` (Red's animals, `v`, Blue's).

use std::{cmp::Ordering, error::Error, fmt, str::FromStr};

use crate::{
    piece::{Animal, Color, Piece},
    position::Position,
    rules::RuleSet,
};

/// The animals of each side. A table holds one material with both sides to move; a material
/// and its colour flip (`LRvE`, `EvLR`) are the same table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// Per colour, bit `a` set when animal `a` (0 = rat .. 7 = elephant) is present.
    sets: [u8; 2],
}

impl Material {
    /// The material of `red` and `blue` animal sets (bit 0 = rat .. bit 7 = elephant).
    #[must_use]
    pub const fn from_sets(red: u8, blue: u8) -> Material {
        Material { sets: [red, blue] }
    }

    /// The material of a position.
    #[must_use]
    #[inline]
    pub const fn of(pos: &Position) -> Material {
        Material {
            sets: [pos.animal_set(Color::Red), pos.animal_set(Color::Blue)],
        }
    }

    /// The animal set of `color`.
    #[must_use]
    pub const fn set(self, color: Color) -> u8 {
        self.sets[color as usize]
    }

    /// Whether `piece` is part of it.
    #[must_use]
    pub const fn has(self, piece: Piece) -> bool {
        self.sets[piece.color as usize] & (1 << piece.animal as u8) != 0
    }

    /// Number of pieces of `color`.
    #[must_use]
    pub const fn count(self, color: Color) -> usize {
        self.sets[color as usize].count_ones() as usize
    }

    /// Number of pieces in all.
    #[must_use]
    pub const fn total(self) -> usize {
        self.count(Color::Red) + self.count(Color::Blue)
    }

    /// The same material with the colours swapped.
    #[must_use]
    pub const fn flipped(self) -> Material {
        Material {
            sets: [self.sets[1], self.sets[0]],
        }
    }

    /// Whether this orientation names the table: the side with more pieces (or, with as many,
    /// the stronger animals) is Red.
    #[must_use]
    pub fn is_canonical(self) -> bool {
        let key = |c: Color| (self.count(c), self.set(c));
        key(Color::Red) >= key(Color::Blue)
    }

    /// The orientation that names the table.
    #[must_use]
    pub fn canonical(self) -> Material {
        if self.is_canonical() {
            self
        } else {
            self.flipped()
        }
    }

    /// The orientation that names this material's table under `rules`: the canonical one
    /// where the colour flip is a symmetry of the rules ([`RuleSet::colour_symmetric`]), else
    /// this one (both orientations are tables of their own).
    #[must_use]
    pub fn table_of(self, rules: RuleSet) -> Material {
        if rules.colour_symmetric() {
            self.canonical()
        } else {
            self
        }
    }

    /// Every material with `min..=max` pieces and at least one piece per side that names a
    /// table under `rules` ([`Material::all`], and their flips where the colour flip is no
    /// symmetry), in a deterministic order.
    #[must_use]
    pub fn all_tables(rules: RuleSet, min: usize, max: usize) -> Vec<Material> {
        let canonical = Material::all(min, max);
        if rules.colour_symmetric() {
            return canonical;
        }
        canonical
            .into_iter()
            .flat_map(|m| {
                let flipped = m.flipped();
                std::iter::once(m).chain((flipped != m).then_some(flipped))
            })
            .collect()
    }

    /// Whether both sides have the same animals.
    #[must_use]
    pub const fn is_symmetric(self) -> bool {
        self.sets[0] == self.sets[1]
    }

    /// The pieces in table order: Red strongest first, then Blue strongest first.
    pub fn pieces(self) -> impl Iterator<Item = Piece> {
        Color::ALL.into_iter().flat_map(move |c| {
            Animal::ALL
                .into_iter()
                .rev()
                .filter(move |&a| self.sets[c as usize] & (1 << a as u8) != 0)
                .map(move |a| Piece::new(c, a))
        })
    }

    /// The material without `piece`.
    #[must_use]
    pub const fn without(self, piece: Piece) -> Material {
        let mut sets = self.sets;
        sets[piece.color as usize] &= !(1 << piece.animal as u8);
        Material { sets }
    }

    /// The material with `piece` added.
    #[must_use]
    pub const fn with(self, piece: Piece) -> Material {
        let mut sets = self.sets;
        sets[piece.color as usize] |= 1 << piece.animal as u8;
        Material { sets }
    }

    /// Every canonical material with `min..=max` pieces and at least one piece per side, in a
    /// deterministic order: fewer pieces first, then by name.
    #[must_use]
    pub fn all(min: usize, max: usize) -> Vec<Material> {
        let mut out: Vec<Material> = (1..=255u8)
            .flat_map(|red| (1..=255u8).map(move |blue| Material::from_sets(red, blue)))
            .filter(|m| m.is_canonical() && (min..=max).contains(&m.total()))
            .collect();
        out.sort_by(|a, b| a.total().cmp(&b.total()).then_with(|| b.cmp_names(*a)));
        out
    }

    /// Orders by name strength: Red's animals, then Blue's.
    fn cmp_names(self, other: Material) -> Ordering {
        (
            self.count(Color::Red),
            self.sets[0],
            self.count(Color::Blue),
            self.sets[1],
        )
            .cmp(&(
                other.count(Color::Red),
                other.sets[0],
                other.count(Color::Blue),
                other.sets[1],
            ))
    }
}

/// The material of some pieces (a placement's, say).
impl FromIterator<Piece> for Material {
    fn from_iter<I: IntoIterator<Item = Piece>>(pieces: I) -> Material {
        pieces
            .into_iter()
            .fold(Material::from_sets(0, 0), Material::with)
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in Color::ALL.into_iter().enumerate() {
            if i == 1 {
                f.write_str("v")?;
            }
            for a in Animal::ALL.into_iter().rev() {
                if self.sets[c as usize] & (1 << a as u8) != 0 {
                    write!(f, "{}", a.letter())?;
                }
            }
        }
        Ok(())
    }
}

/// A material name that could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadMaterial {
    /// The text given.
    pub text: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

impl fmt::Display for BadMaterial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad material `{}`: {} (write Red's animals, `v`, Blue's animals, e.g. `LRvE`)",
            self.text, self.reason
        )
    }
}

impl Error for BadMaterial {}

impl FromStr for Material {
    type Err = BadMaterial;

    fn from_str(s: &str) -> Result<Material, BadMaterial> {
        let bad = |reason| BadMaterial {
            text: s.to_owned(),
            reason,
        };
        let (red, blue) = s
            .split_once('v')
            .ok_or_else(|| bad("no `v` between the sides"))?;
        let mut sets = [0u8; 2];
        for (i, side) in [red, blue].into_iter().enumerate() {
            if side.is_empty() {
                return Err(bad("each side needs at least one animal"));
            }
            for c in side.chars() {
                let a = Animal::from_letter(c)
                    .ok_or_else(|| bad("unknown animal letter (use R C D W P T L E)"))?;
                if sets[i] & (1 << a as u8) != 0 {
                    return Err(bad("an animal twice in one side"));
                }
                sets[i] |= 1 << a as u8;
            }
        }
        Ok(Material { sets })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        let m: Material = "RLvE".parse().unwrap();
        assert_eq!(m.to_string(), "LRvE");
        assert!(m.is_canonical());
        assert_eq!(m.flipped().to_string(), "EvLR");
        assert_eq!(m.flipped().canonical(), m);
        assert_eq!(
            "EvL".parse::<Material>().unwrap().canonical().to_string(),
            "EvL"
        );
        assert_eq!(
            "LvE".parse::<Material>().unwrap().canonical().to_string(),
            "EvL"
        );
        assert_eq!(
            "ERvLT".parse::<Material>().unwrap().canonical().to_string(),
            "ERvLT"
        );
        for bad in ["", "v", "LvR v", "Lv", "vL", "LLvE", "lvE", "LXvE", "L"] {
            assert!(bad.parse::<Material>().is_err(), "{bad}");
        }
    }

    #[test]
    fn counts_of_all_materials() {
        assert_eq!(Material::all(2, 2).len(), 36);
        // 2v1: 28 * 8; 2v2: C(28+1, 2) pairs up to the colour flip; 3v1: 56 * 8.
        assert_eq!(Material::all(3, 3).len(), 224);
        assert_eq!(Material::all(4, 4).len(), 406 + 448);
    }
}
