//! Position text (RULES.md section 7): `<board> g|s`, ranks 8 down to 1, parsed with errors
//! that name the problem and printed in the one canonical form.

use std::{error::Error, fmt, str::FromStr};

use super::{
    board::Square,
    piece::{Color, Piece},
    position::{Board, Position, PositionError},
};

/// Why an Animal Gambit position text was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// Nothing but white space.
    Empty,
    /// The board is not followed by a side to move.
    MissingSide,
    /// A third field: Animal Gambit text is exactly a board and a side to move.
    TrailingText(String),
    /// The board has the shape of a Jungle board (9 ranks) or of the flip game's (4 ranks).
    JungleBoard {
        /// Ranks found in the text.
        ranks: usize,
    },
    /// The board does not have 8 ranks.
    RankCount(usize),
    /// A rank does not describe exactly 8 squares.
    RankLength {
        /// Rank number (1-8).
        rank: u8,
        /// Squares described.
        found: usize,
    },
    /// A character that is neither a piece letter nor a digit.
    UnknownLetter {
        /// Rank number (1-8).
        rank: u8,
        /// The character.
        letter: char,
    },
    /// A zero, a 9, or two digits side by side: the canonical text never has them.
    NonCanonicalDigits {
        /// Rank number (1-8).
        rank: u8,
    },
    /// The side to move is not `g` or `s`.
    BadSide(String),
    /// The board breaks a placement rule.
    Position(PositionError),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty => f.write_str("empty position text"),
            ParseError::MissingSide => {
                f.write_str("missing side to move after the board (`g` or `s`)")
            }
            ParseError::TrailingText(t) => write!(
                f,
                "unexpected `{t}` after the side to move: Animal Gambit position text is a board and a side to move, nothing more"
            ),
            ParseError::JungleBoard { ranks } => write!(
                f,
                "board has {ranks} ranks: that is a {} board, not an Animal Gambit one (8x8)",
                if *ranks == 9 { "Jungle (7x9)" } else { "flip game (4x4)" }
            ),
            ParseError::RankCount(n) => {
                write!(f, "board has {n} ranks: an Animal Gambit board has 8")
            }
            ParseError::RankLength { rank, found } => {
                write!(f, "rank {rank} describes {found} squares, expected 8")
            }
            ParseError::UnknownLetter { rank, letter } => write!(
                f,
                "rank {rank}: unknown letter `{letter}` (pieces are E M H D C R, lower case for silver)"
            ),
            ParseError::NonCanonicalDigits { rank } => write!(
                f,
                "rank {rank}: empty squares must be one digit from 1 to 8 (no zero, no two digits side by side)"
            ),
            ParseError::BadSide(s) => {
                write!(f, "bad side to move `{s}`: expected `g` (gold) or `s` (silver)")
            }
            ParseError::Position(e) => e.fmt(f),
        }
    }
}

impl Error for ParseError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            ParseError::Position(e) => Some(e),
            _ => None,
        }
    }
}

impl From<PositionError> for ParseError {
    fn from(e: PositionError) -> ParseError {
        ParseError::Position(e)
    }
}

impl FromStr for Board {
    type Err = ParseError;

    /// Parses the board field alone (ranks 8 down to 1), with no placement rule checked.
    fn from_str(text: &str) -> Result<Board, ParseError> {
        let rows: Vec<&str> = text.split('/').collect();
        match rows.len() {
            8 => {}
            n @ (4 | 9) => return Err(ParseError::JungleBoard { ranks: n }),
            n => return Err(ParseError::RankCount(n)),
        }
        let mut board = Board::EMPTY;
        for (i, row) in rows.iter().enumerate() {
            parse_rank(&mut board, 7 - i as u8, row)?;
        }
        Ok(board)
    }
}

/// Puts the pieces of one rank's text (0-based `rank`) on `board`.
fn parse_rank(board: &mut Board, rank: u8, row: &str) -> Result<(), ParseError> {
    let label = rank + 1;
    let mut file = 0usize;
    let mut after_digit = false;
    for c in row.chars() {
        if let Some(d) = c.to_digit(10) {
            if d == 0 || d > 8 || after_digit {
                return Err(ParseError::NonCanonicalDigits { rank: label });
            }
            file += d as usize;
            after_digit = true;
            continue;
        }
        after_digit = false;
        let piece = Piece::from_letter(c).ok_or(ParseError::UnknownLetter {
            rank: label,
            letter: c,
        })?;
        // Past the rank's end nothing is put; the length check below names the rank.
        if file < 8 {
            board.put(piece, Square::new(file as u8, rank));
        }
        file += 1;
    }
    if file != 8 {
        return Err(ParseError::RankLength {
            rank: label,
            found: file,
        });
    }
    Ok(())
}

impl FromStr for Position {
    type Err = ParseError;

    /// Parses `<board> g|s`.
    ///
    /// # Errors
    /// A [`ParseError`] naming the first problem found: the text's shape first, then the
    /// placement rules of [`Position::new`].
    fn from_str(text: &str) -> Result<Position, ParseError> {
        let mut fields = text.split_whitespace();
        let board: Board = fields.next().ok_or(ParseError::Empty)?.parse()?;
        let turn = match fields.next() {
            None => return Err(ParseError::MissingSide),
            Some(s) => {
                let mut chars = s.chars();
                match (chars.next().and_then(Color::from_letter), chars.next()) {
                    (Some(c), None) => c,
                    _ => return Err(ParseError::BadSide(s.to_owned())),
                }
            }
        };
        if let Some(extra) = fields.next() {
            return Err(ParseError::TrailingText(extra.to_owned()));
        }
        Ok(Position::new(board, turn)?)
    }
}

impl fmt::Display for Board {
    /// The board field of the position text, ranks 8 down to 1.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.piece_at(Square::new(file, rank)) {
                    Some(p) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{}", p.letter())?;
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        Ok(())
    }
}

impl fmt::Display for Position {
    /// The canonical position text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.board(), self.turn().letter())
    }
}
