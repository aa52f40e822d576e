//! Colours, animals and pieces.

use std::fmt;

/// A side: Red (upper-case letters, moves first, den at the bottom) or Blue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Upper-case letters; Red's den is `d1`.
    Red = 0,
    /// Lower-case letters; Blue's den is `d9`.
    Blue = 1,
}

impl Color {
    /// Both colours, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Blue];

    /// The other side.
    #[must_use]
    pub const fn other(self) -> Color {
        match self {
            Color::Red => Color::Blue,
            Color::Blue => Color::Red,
        }
    }

    /// 0 for Red, 1 for Blue.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The side-to-move letter of the position text (`r` or `b`).
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Color::Red => 'r',
            Color::Blue => 'b',
        }
    }

    /// Parses `r` or `b`.
    #[must_use]
    pub fn from_letter(c: char) -> Option<Color> {
        match c {
            'r' => Some(Color::Red),
            'b' => Some(Color::Blue),
            _ => None,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Red => "red",
            Color::Blue => "blue",
        })
    }
}

/// The eight animals, weakest first, so that `animal as u8 + 1` is its rank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Animal {
    /// Rank 1, `R`: swims, and takes the elephant from land.
    Rat = 0,
    /// Rank 2, `C`.
    Cat = 1,
    /// Rank 3, `D`.
    Dog = 2,
    /// Rank 4, `W`.
    Wolf = 3,
    /// Rank 5, `P`.
    Leopard = 4,
    /// Rank 6, `T`: jumps rivers.
    Tiger = 5,
    /// Rank 7, `L`: jumps rivers.
    Lion = 6,
    /// Rank 8, `E`: never takes the rat.
    Elephant = 7,
}

impl Animal {
    /// All animals, weakest first.
    pub const ALL: [Animal; 8] = [
        Animal::Rat,
        Animal::Cat,
        Animal::Dog,
        Animal::Wolf,
        Animal::Leopard,
        Animal::Tiger,
        Animal::Lion,
        Animal::Elephant,
    ];

    /// Strength 1 (rat) to 8 (elephant).
    #[must_use]
    pub const fn rank(self) -> u8 {
        self as u8 + 1
    }

    /// The animal of index `i` (0 = rat … 7 = elephant).
    ///
    /// # Panics
    /// If `i > 7`.
    #[must_use]
    pub const fn from_index(i: usize) -> Animal {
        Animal::ALL[i]
    }

    /// Upper-case letter (`R C D W P T L E`).
    #[must_use]
    pub const fn letter(self) -> char {
        b"RCDWPTLE"[self as usize] as char
    }

    /// Parses an upper-case animal letter.
    #[must_use]
    pub fn from_letter(c: char) -> Option<Animal> {
        "RCDWPTLE".find(c).map(Animal::from_index)
    }

    /// The English name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Animal::Rat => "rat",
            Animal::Cat => "cat",
            Animal::Dog => "dog",
            Animal::Wolf => "wolf",
            Animal::Leopard => "leopard",
            Animal::Tiger => "tiger",
            Animal::Lion => "lion",
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

    /// The position-text letter: upper case for Red, lower case for Blue.
    #[must_use]
    pub fn letter(self) -> char {
        match self.color {
            Color::Red => self.animal.letter(),
            Color::Blue => self.animal.letter().to_ascii_lowercase(),
        }
    }

    /// Parses a position-text letter.
    #[must_use]
    pub fn from_letter(c: char) -> Option<Piece> {
        if c.is_ascii_uppercase() {
            Animal::from_letter(c).map(|a| Piece::new(Color::Red, a))
        } else {
            Animal::from_letter(c.to_ascii_uppercase()).map(|a| Piece::new(Color::Blue, a))
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.color, self.animal.name())
    }
}
