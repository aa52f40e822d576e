//! The flip game's face-down tiles (RULES.md 8): the hidden set, the `?:` field of position
//! text, and what a flip reveals.

use std::{error::Error, fmt};

use crate::{
    board::{bit, Square},
    piece::{Animal, Color, Piece},
    position::Position,
};

/// The animals under the face-down tiles of a flip position (RULES.md 8): both players know
/// them, not which tile holds which. At most one of each animal per colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct HiddenSet(u16);

/// The ladder order of the `?:` field: elephant first.
const LADDER: [Animal; 8] = [
    Animal::Elephant,
    Animal::Lion,
    Animal::Tiger,
    Animal::Leopard,
    Animal::Wolf,
    Animal::Dog,
    Animal::Cat,
    Animal::Rat,
];

const fn bit_of(piece: Piece) -> u16 {
    1 << (piece.color as u16 * 8 + piece.animal as u16)
}

impl HiddenSet {
    /// No animal.
    pub const EMPTY: HiddenSet = HiddenSet(0);

    /// Whether `piece` is in the set.
    #[must_use]
    pub const fn contains(self, piece: Piece) -> bool {
        self.0 & bit_of(piece) != 0
    }

    /// The set with `piece` added.
    #[must_use]
    pub const fn with(self, piece: Piece) -> HiddenSet {
        HiddenSet(self.0 | bit_of(piece))
    }

    /// The set without `piece`.
    #[must_use]
    pub const fn without(self, piece: Piece) -> HiddenSet {
        HiddenSet(self.0 & !bit_of(piece))
    }

    /// How many animals.
    #[must_use]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether it holds no animal.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The set of `red` and `blue` animal sets, as [`crate::Material::from_sets`] (bit 0 =
    /// rat .. bit 7 = elephant).
    #[must_use]
    pub const fn from_sets(red: u8, blue: u8) -> HiddenSet {
        HiddenSet(red as u16 | (blue as u16) << 8)
    }

    /// The animal set of `color` (bit 0 = rat .. bit 7 = elephant).
    #[must_use]
    pub const fn set(self, color: Color) -> u8 {
        (self.0 >> (color as u16 * 8)) as u8
    }

    /// The same animals with the colours swapped.
    #[must_use]
    pub const fn flipped(self) -> HiddenSet {
        HiddenSet(self.0.rotate_left(8))
    }

    /// Whether it holds an animal of `color`.
    #[must_use]
    pub const fn has(self, color: Color) -> bool {
        self.0 >> (color as u16 * 8) & 0xff != 0
    }

    /// The animals in canonical order: Red's first, each colour in ladder order (`E L T P W D
    /// C R`).
    pub fn pieces(self) -> impl Iterator<Item = Piece> {
        Color::ALL
            .into_iter()
            .flat_map(|c| LADDER.into_iter().map(move |a| Piece::new(c, a)))
            .filter(move |&p| self.contains(p))
    }

    /// Every animal that `pos` does not show face up: the hidden set where nothing has been
    /// captured yet (RULES.md 8, Decision).
    #[must_use]
    pub fn unrevealed(pos: &Position) -> HiddenSet {
        Color::ALL
            .into_iter()
            .flat_map(|c| Animal::ALL.into_iter().map(move |a| Piece::new(c, a)))
            .filter(|&p| pos.square_of(p).is_none())
            .fold(HiddenSet::EMPTY, HiddenSet::with)
    }

    /// Parses the letters of a `?:` field (without the `?:`), in any order.
    ///
    /// # Errors
    /// A letter that is no animal's, or an animal named twice.
    pub fn parse(letters: &str) -> Result<HiddenSet, HiddenSetError> {
        letters.chars().try_fold(HiddenSet::EMPTY, |set, c| {
            let piece = Piece::from_letter(c).ok_or(HiddenSetError::UnknownLetter(c))?;
            if set.contains(piece) {
                return Err(HiddenSetError::Repeated(piece));
            }
            Ok(set.with(piece))
        })
    }
}

impl fmt::Display for HiddenSet {
    /// The letters of the `?:` field, canonical order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.pieces().try_for_each(|p| write!(f, "{}", p.letter()))
    }
}

/// Why a `?:` field (the hidden set) is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HiddenSetError {
    /// A letter that is no animal's.
    UnknownLetter(char),
    /// An animal named twice.
    Repeated(Piece),
    /// An animal that also stands face up on the board.
    Revealed(Piece, Square),
    /// As many animals as face-down tiles are needed.
    WrongCount {
        /// Animals named.
        named: usize,
        /// Face-down tiles on the board.
        tiles: usize,
    },
    /// A `?:` field outside the flip game, which alone has face-down tiles.
    NotFlip(&'static str),
}

impl fmt::Display for HiddenSetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HiddenSetError::UnknownLetter(c) => {
                write!(f, "hidden set (`?:` field): `{c}` is no animal's letter")
            }
            HiddenSetError::Repeated(p) => write!(
                f,
                "hidden set (`?:` field) names {p} `{}` twice",
                p.letter()
            ),
            HiddenSetError::Revealed(p, sq) => write!(
                f,
                "hidden set (`?:` field) names {p} `{}`, which stands face up on {sq}",
                p.letter()
            ),
            HiddenSetError::WrongCount { named, tiles } => write!(
                f,
                "hidden set (`?:` field) names {named} animal{}, but the board has {tiles} \
                 face-down tile{}",
                if *named == 1 { "" } else { "s" },
                if *tiles == 1 { "" } else { "s" }
            ),
            HiddenSetError::NotFlip(rules) => write!(
                f,
                "a hidden set (`?:` field) is given, but rule set {rules} has no face-down \
                 tiles (only flip4x4 has them)"
            ),
        }
    }
}

impl Error for HiddenSetError {}

/// One outcome of a flip: the animal revealed, its chance (one in `of`), and the position it
/// gives (the opponent to move, clock 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlipOutcome {
    /// The animal revealed on the tile's square.
    pub piece: Piece,
    /// The outcomes there are, all equally likely: this one's chance is `1/of`.
    pub of: usize,
    /// The position after the flip.
    pub position: Position,
}

impl FlipOutcome {
    /// The chance as an exact fraction in lowest terms: `1/2`, or `1` for the last tile.
    #[must_use]
    pub fn probability(&self) -> String {
        match self.of {
            1 => "1".to_owned(),
            n => format!("1/{n}"),
        }
    }
}

impl Position {
    /// The flips of this position: every face-down square, in ASCII order of `?a4` texts.
    #[must_use]
    pub fn flips(&self) -> Vec<Square> {
        let mut squares: Vec<Square> = self
            .board()
            .squares()
            .filter(|&sq| self.hidden() & bit(sq) != 0)
            .collect();
        squares.sort_unstable();
        squares
    }

    /// What flipping the tile on `sq` may reveal: each animal of the hidden set with the same
    /// chance (RULES.md 8), in canonical order. `None` when `sq` holds no face-down tile or the
    /// hidden set is not known.
    #[must_use]
    pub fn flip_outcomes(&self, sq: Square) -> Option<Vec<FlipOutcome>> {
        let hidden = self.hidden_set()?;
        if self.hidden() & bit(sq) == 0 {
            return None;
        }
        let of = hidden.len();
        Some(
            hidden
                .pieces()
                .map(|piece| {
                    let mut position = self.clone();
                    position.reveal(sq, piece, hidden.without(piece));
                    FlipOutcome {
                        piece,
                        of,
                        position,
                    }
                })
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_field_prints_red_first_in_ladder_order() {
        let set = HiddenSet::parse("rTwE").unwrap();
        assert_eq!(set.to_string(), "ETwr");
        assert_eq!(set.len(), 4);
        assert!(set.has(Color::Red) && set.has(Color::Blue));
        assert_eq!(HiddenSet::parse("").unwrap(), HiddenSet::EMPTY);
    }

    #[test]
    fn bad_letters_and_repeats_are_refused() {
        assert_eq!(
            HiddenSet::parse("Tx"),
            Err(HiddenSetError::UnknownLetter('x'))
        );
        let tiger = Piece::new(Color::Red, Animal::Tiger);
        assert_eq!(
            HiddenSet::parse("TwT"),
            Err(HiddenSetError::Repeated(tiger))
        );
    }
}
