//! Colours, animals and pieces of Animal Gambit.

use std::fmt;

/// A side: Gold (upper-case letters, moves first, goal rank 8) or Silver (goal rank 1).
///
/// A colour of its own rather than the Jungle [`crate::Color`]: the sides have other names and
/// letters (`g`, `s`). Its [`index`](Color::index) follows the same convention (the first player
/// is 0), so code shared by the games can index arrays by either.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Upper-case letters; moves first; its rabbits run toward rank 8.
    Gold = 0,
    /// Lower-case letters; its rabbits run toward rank 1.
    Silver = 1,
}

impl Color {
    /// Both colours, Gold first.
    pub const ALL: [Color; 2] = [Color::Gold, Color::Silver];

    /// The other side.
    #[must_use]
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::Gold => Color::Silver,
            Color::Silver => Color::Gold,
        }
    }

    /// 0 for Gold, 1 for Silver.
    #[must_use]
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The side-to-move letter of the position text (`g` or `s`).
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Color::Gold => 'g',
            Color::Silver => 's',
        }
    }

    /// Parses `g` or `s`.
    #[must_use]
    pub const fn from_letter(c: char) -> Option<Color> {
        match c {
            'g' => Some(Color::Gold),
            's' => Some(Color::Silver),
            _ => None,
        }
    }

    /// The 0-based rank its rabbits must reach: 7 (rank 8) for Gold, 0 (rank 1) for Silver.
    #[must_use]
    #[inline]
    pub const fn goal_rank(self) -> u8 {
        match self {
            Color::Gold => 7,
            Color::Silver => 0,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Gold => "gold",
            Color::Silver => "silver",
        })
    }
}

/// The six animals, weakest first, so that a stronger animal compares greater.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Animal {
    /// `R`: the weakest; never steps toward its own side; reaching the far rank wins.
    Rabbit = 0,
    /// `C`.
    Cat = 1,
    /// `D`.
    Dog = 2,
    /// `H`.
    Horse = 3,
    /// `M`.
    Camel = 4,
    /// `E`: the strongest.
    Elephant = 5,
}

impl Animal {
    /// All animals, weakest first.
    pub const ALL: [Animal; 6] = [
        Animal::Rabbit,
        Animal::Cat,
        Animal::Dog,
        Animal::Horse,
        Animal::Camel,
        Animal::Elephant,
    ];

    /// 0 (rabbit) to 5 (elephant).
    #[must_use]
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The animal of index `i` (0 = rabbit … 5 = elephant).
    ///
    /// # Panics
    /// If `i > 5`.
    #[must_use]
    pub const fn from_index(i: usize) -> Animal {
        Animal::ALL[i]
    }

    /// Upper-case letter (`R C D H M E`).
    #[must_use]
    pub const fn letter(self) -> char {
        b"RCDHME"[self as usize] as char
    }

    /// Parses an upper-case letter.
    #[must_use]
    pub fn from_letter(c: char) -> Option<Animal> {
        "RCDHME".find(c).map(Animal::from_index)
    }

    /// How many a side may have: 8 rabbits; 2 cats, dogs and horses; 1 camel and elephant.
    #[must_use]
    pub const fn max_count(self) -> u32 {
        match self {
            Animal::Rabbit => 8,
            Animal::Cat | Animal::Dog | Animal::Horse => 2,
            Animal::Camel | Animal::Elephant => 1,
        }
    }

    /// The English name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Animal::Rabbit => "rabbit",
            Animal::Cat => "cat",
            Animal::Dog => "dog",
            Animal::Horse => "horse",
            Animal::Camel => "camel",
            Animal::Elephant => "elephant",
        }
    }
}

/// An animal of a colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    /// Its side.
    pub color: Color,
    /// Its animal.
    pub animal: Animal,
}

impl Piece {
    /// A piece of `color` and `animal`.
    #[must_use]
    pub const fn new(color: Color, animal: Animal) -> Piece {
        Piece { color, animal }
    }

    /// Its letter: upper case for Gold, lower case for Silver.
    #[must_use]
    pub const fn letter(self) -> char {
        let c = self.animal.letter();
        match self.color {
            Color::Gold => c,
            Color::Silver => c.to_ascii_lowercase(),
        }
    }

    /// Parses a piece letter (`E M H D C R`, lower case for Silver).
    #[must_use]
    pub fn from_letter(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::Gold
        } else {
            Color::Silver
        };
        Animal::from_letter(c.to_ascii_uppercase())
            .filter(|_| c.is_ascii_alphabetic())
            .map(|animal| Piece::new(color, animal))
    }
}

impl fmt::Display for Piece {
    /// `gold elephant`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.color, self.animal.name())
    }
}
