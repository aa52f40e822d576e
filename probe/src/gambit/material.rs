//! Animal Gambit materials: how many pieces of each animal each side has, written `ERvRR`
//! (Gold's pieces strongest first, `v`, Silver's, all in upper case).

use std::{error::Error, fmt, str::FromStr};

use super::{
    piece::{Animal, Color, Piece},
    position::Board,
};

/// How many pieces of each animal each side has. A table holds one material with both sides to
/// move; a material and its colour flip (`ERvR`, `RvER`) are the same table, named by the
/// orientation [`Material::canonical`] gives.
///
/// A material of a table has a rabbit on each side (else the game is over) and at most the
/// pieces a side has (RULES.md section 7); [`Material::from_str`] refuses anything else.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// Per colour, the count of each animal, rabbit first.
    counts: [[u8; 6]; 2],
}

impl Material {
    /// The material of the pieces on `board`.
    #[must_use]
    pub fn of(board: &Board) -> Material {
        let mut counts = [[0; 6]; 2];
        for color in Color::ALL {
            for animal in Animal::ALL {
                // At most 64 pieces stand on a board.
                counts[color.index()][animal.index()] =
                    board.count(Piece::new(color, animal)) as u8;
            }
        }
        Material { counts }
    }

    /// How many `piece`s there are.
    #[must_use]
    pub const fn count(self, piece: Piece) -> u8 {
        self.counts[piece.color.index()][piece.animal.index()]
    }

    /// Pieces of `color`.
    #[must_use]
    pub fn side_count(self, color: Color) -> usize {
        self.counts[color.index()]
            .iter()
            .map(|&c| usize::from(c))
            .sum()
    }

    /// Pieces in all.
    #[must_use]
    pub fn total(self) -> usize {
        self.side_count(Color::Gold) + self.side_count(Color::Silver)
    }

    /// The material with the colours swapped.
    #[must_use]
    pub const fn flipped(self) -> Material {
        Material {
            counts: [self.counts[1], self.counts[0]],
        }
    }

    /// The key that orders a side's pieces by name: more pieces first, then stronger ones.
    fn side_key(self, color: Color) -> (usize, [u8; 6]) {
        let mut strongest_first = self.counts[color.index()];
        strongest_first.reverse();
        (self.side_count(color), strongest_first)
    }

    /// Whether this orientation names the table: Gold has more pieces, or as many and the
    /// stronger ones.
    #[must_use]
    pub fn is_canonical(self) -> bool {
        self.side_key(Color::Gold) >= self.side_key(Color::Silver)
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

    /// The groups of identical pieces, in table order: Gold's strongest first, then Silver's
    /// strongest first; each with how many there are.
    pub fn groups(self) -> impl Iterator<Item = (Piece, u8)> {
        Color::ALL.into_iter().flat_map(move |color| {
            Animal::ALL.into_iter().rev().filter_map(move |animal| {
                let piece = Piece::new(color, animal);
                let n = self.count(piece);
                (n > 0).then_some((piece, n))
            })
        })
    }

    /// The materials one piece fewer that a trap removal can lead to and the game go on: each
    /// side keeps a rabbit. Deduplicated, in no particular orientation.
    #[must_use]
    pub fn smaller(self) -> Vec<Material> {
        let mut out: Vec<Material> = self
            .groups()
            .filter(|&(piece, n)| piece.animal != Animal::Rabbit || n > 1)
            .map(|(piece, _)| {
                let mut m = self;
                m.counts[piece.color.index()][piece.animal.index()] -= 1;
                m
            })
            .collect();
        out.dedup();
        out
    }

    /// The materials one piece fewer, whichever piece goes (also a side's last rabbit: the
    /// rest of a turn is played there). Deduplicated, in no particular orientation.
    #[must_use]
    pub fn fewer(self) -> Vec<Material> {
        self.groups()
            .map(|(piece, _)| {
                let mut m = self;
                m.counts[piece.color.index()][piece.animal.index()] -= 1;
                m
            })
            .collect()
    }

    /// Every canonical material of `min..=max` pieces (each side a rabbit, at most the pieces
    /// a side has), fewer pieces first, then by name.
    #[must_use]
    pub fn all(min: usize, max: usize) -> Vec<Material> {
        let mut sides: Vec<[u8; 6]> = vec![[0; 6]];
        for animal in Animal::ALL {
            sides = sides
                .into_iter()
                .flat_map(|side| {
                    (0..=animal.max_count() as u8).map(move |n| {
                        let mut s = side;
                        s[animal.index()] = n;
                        s
                    })
                })
                .filter(|s| s.iter().map(|&c| usize::from(c)).sum::<usize>() < max)
                .collect();
        }
        sides.retain(|s| s[Animal::Rabbit.index()] > 0);
        let mut out: Vec<Material> = sides
            .iter()
            .flat_map(|&gold| {
                sides.iter().map(move |&silver| Material {
                    counts: [gold, silver],
                })
            })
            .filter(|m| m.is_canonical() && (min..=max).contains(&m.total()))
            .collect();
        out.sort_by_key(|m| (m.total(), m.to_string()));
        out
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for color in Color::ALL {
            if color == Color::Silver {
                f.write_str("v")?;
            }
            for animal in Animal::ALL.into_iter().rev() {
                for _ in 0..self.count(Piece::new(color, animal)) {
                    write!(f, "{}", animal.letter())?;
                }
            }
        }
        Ok(())
    }
}

/// An Animal Gambit material name that could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadMaterial {
    /// The text given.
    pub text: String,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for BadMaterial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad Animal Gambit material `{}`: {} (write Gold's pieces, `v`, Silver's, in upper \
             case, e.g. `ERvRR`)",
            self.text, self.reason
        )
    }
}

impl Error for BadMaterial {}

impl FromStr for Material {
    type Err = BadMaterial;

    fn from_str(s: &str) -> Result<Material, BadMaterial> {
        let bad = |reason: String| BadMaterial {
            text: s.to_owned(),
            reason,
        };
        let (gold, silver) = s
            .split_once('v')
            .ok_or_else(|| bad("no `v` between the sides".into()))?;
        let mut counts = [[0u8; 6]; 2];
        for (color, side) in Color::ALL.into_iter().zip([gold, silver]) {
            for c in side.chars() {
                let animal = Animal::from_letter(c)
                    .ok_or_else(|| bad(format!("`{c}` is no piece letter (use E M H D C R)")))?;
                let n = &mut counts[color.index()][animal.index()];
                *n += 1;
                if u32::from(*n) > animal.max_count() {
                    return Err(bad(format!(
                        "more than {} {}s of {color}",
                        animal.max_count(),
                        animal.name()
                    )));
                }
            }
            if counts[color.index()][Animal::Rabbit.index()] == 0 {
                return Err(bad(format!(
                    "{color} has no rabbit (the game would be over)"
                )));
            }
        }
        Ok(Material { counts })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_orientation() {
        let m: Material = "RRvER".parse().unwrap();
        assert_eq!(m.to_string(), "RRvER");
        assert!(!m.is_canonical());
        assert_eq!(m.canonical().to_string(), "ERvRR");
        assert_eq!("RERvR".parse::<Material>().unwrap().to_string(), "ERRvR");
        for bad in [
            "",
            "v",
            "RvE",
            "EvR",
            "Rv",
            "RRRRRRRRRvR",
            "EERvR",
            "rvR",
            "RxvR",
            "R",
        ] {
            assert!(bad.parse::<Material>().is_err(), "{bad}");
        }
    }

    #[test]
    fn counts_of_all_materials() {
        assert_eq!(Material::all(2, 2).len(), 1);
        // Gold a rabbit and any of six animals against a rabbit.
        assert_eq!(Material::all(3, 3).len(), 6);
        let m: Material = "ERvR".parse().unwrap();
        assert_eq!(m.smaller(), vec!["RvR".parse().unwrap()]);
        let m: Material = "ERRvR".parse().unwrap();
        assert_eq!(m.smaller().len(), 2);
    }
}
