//! Position text (RULES.md section 4): parsing with errors that name the problem, and printing
//! in the one canonical form.

use std::{error::Error, fmt, str::FromStr};

use crate::{
    board::{bit, Square},
    clesto::hunger::read_hunger_fields,
    flip::hidden::{HiddenSet, HiddenSetError},
    piece::{Color, Piece},
    position::{ClockError, Position, PositionError},
    rules::RuleSet,
};

/// Why a position text was rejected. Every message names what is wrong and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// Nothing but white space.
    Empty,
    /// The board is not followed by a side to move.
    MissingSide,
    /// More than four fields.
    TrailingText(String),
    /// The board has a number of ranks that no rule set uses.
    RankCount(usize),
    /// The board's shape does not belong to the rule set asked for.
    WrongShape {
        /// The rule set asked for.
        rules: RuleSet,
        /// Ranks found in the text.
        ranks: usize,
    },
    /// A rank does not describe exactly one row of the board.
    RankLength {
        /// Rank number as printed on the board (top rank first in the text).
        rank: u8,
        /// Squares described.
        found: usize,
        /// Files of the board.
        expected: usize,
    },
    /// A character that is neither an animal letter, a digit nor `?`.
    UnknownLetter {
        /// Rank number.
        rank: u8,
        /// The character.
        letter: char,
    },
    /// Two digits side by side, or a zero: the canonical text never has them.
    NonCanonicalDigits {
        /// Rank number.
        rank: u8,
    },
    /// A placement rule is broken.
    Position(PositionError),
    /// The side to move is not `r` or `b`.
    BadSide(String),
    /// The clock is not a plain decimal number.
    BadClock(String),
    /// The clock is above the rule set's limit.
    ClockTooHigh(ClockError),
    /// The move number is not a plain decimal number of at least 1.
    BadMoveNumber(String),
    /// A clock or move number in a rule set that has none (Clesto).
    NoClock(RuleSet, String),
    /// The hungry-set field is not `h:` with `-` or comma-separated squares of the board.
    BadHungry(String),
    /// The flip game's hidden set (`?:` field) is refused.
    Hidden(HiddenSetError),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty => f.write_str("empty position text"),
            ParseError::MissingSide => f.write_str("missing side to move after the board (`r` or `b`)"),
            ParseError::TrailingText(t) => write!(f, "unexpected text after the move number: `{t}`"),
            ParseError::RankCount(8) => f.write_str(
                "board has 8 ranks; 8 ranks is an Animal Gambit board (rule set animal-gambit), \
                 while Jungle and Clesto boards have 9 and the flip game's 4",
            ),
            ParseError::RankCount(n) => write!(
                f,
                "board has {n} ranks: expected 9 (Jungle and Clesto, 7x9), 4 (flip game, 4x4) \
                 or 8 (Animal Gambit, 8x8)"
            ),
            ParseError::WrongShape { rules, ranks } => {
                write!(
                    f,
                    "board has {ranks} ranks, but rule set {rules} plays on {} ranks",
                    rules.board().height
                )?;
                if *ranks == 8 {
                    f.write_str("; 8 ranks is an Animal Gambit board (rule set animal-gambit)")?;
                }
                Ok(())
            }
            ParseError::RankLength { rank, found, expected } => write!(
                f,
                "rank {rank} describes {found} squares, expected {expected}"
            ),
            ParseError::UnknownLetter { rank, letter } => write!(
                f,
                "rank {rank}: unknown letter `{letter}` (animals are R C D W P T L E, lower case for blue)"
            ),
            ParseError::NonCanonicalDigits { rank } => write!(
                f,
                "rank {rank}: empty squares must be one digit from 1 (no zero, no two digits side by side)"
            ),
            ParseError::Position(e) => e.fmt(f),
            ParseError::BadSide(s) => write!(f, "bad side to move `{s}`: expected `r` or `b`"),
            ParseError::BadClock(s) => write!(f, "bad half-move clock `{s}`: expected a number"),
            ParseError::ClockTooHigh(e) => e.fmt(f),
            ParseError::BadMoveNumber(s) => {
                write!(f, "bad move number `{s}`: expected a number from 1")
            }
            ParseError::NoClock(rules, s) => write!(
                f,
                "unexpected `{s}` after the side to move: rule set {rules} has no clock or move \
                 number (only a hungry set, `h:c3,e7` or `h:-`)"
            ),
            ParseError::BadHungry(s) => write!(
                f,
                "bad hungry set `{s}`: expected `h:-` or `h:` and squares separated by commas, \
                 each once (`h:c3,e7`)"
            ),
            ParseError::Hidden(e) => e.fmt(f),
        }
    }
}

impl Error for ParseError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            ParseError::Position(e) => Some(e),
            ParseError::ClockTooHigh(e) => Some(e),
            ParseError::Hidden(e) => Some(e),
            _ => None,
        }
    }
}

impl From<PositionError> for ParseError {
    fn from(e: PositionError) -> ParseError {
        ParseError::Position(e)
    }
}

/// A plain decimal number: digits only, no sign, no leading zero.
fn parse_number(s: &str) -> Option<u32> {
    let canonical =
        !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && (s == "0" || !s.starts_with('0'));
    canonical.then(|| s.parse().ok()).flatten()
}

impl Position {
    /// Parses position text. With `rules` `None` the board's shape decides: 9 ranks are
    /// `mistboard`, 4 ranks `flip4x4`.
    ///
    /// # Errors
    /// A [`ParseError`] naming the first problem found.
    pub fn parse(text: &str, rules: Option<RuleSet>) -> Result<Position, ParseError> {
        let mut fields: Vec<&str> = text.split_whitespace().collect();
        // The flip game's hidden set comes last (RULES.md 8).
        let hidden_text = match fields.last() {
            Some(f) if fields.len() > 2 && f.starts_with("?:") => fields.pop(),
            _ => None,
        };
        let mut fields = fields.into_iter();
        let board_text = fields.next().ok_or(ParseError::Empty)?;
        let side_text = fields.next();
        let clock_text = fields.next();
        let number_text = fields.next();
        if let Some(extra) = fields.next() {
            return Err(ParseError::TrailingText(extra.to_owned()));
        }

        let rows: Vec<&str> = board_text.split('/').collect();
        let rules = match rules {
            Some(r) if r.board().height as usize == rows.len() => r,
            Some(r) => {
                return Err(ParseError::WrongShape {
                    rules: r,
                    ranks: rows.len(),
                })
            }
            None if rows.len() == 9 => RuleSet::Mistboard,
            None if rows.len() == 4 => RuleSet::Flip4x4,
            None => return Err(ParseError::RankCount(rows.len())),
        };
        let mut pos = Position::empty(rules, Color::Red);
        for (i, row) in rows.iter().enumerate() {
            parse_rank(&mut pos, rules.board().height - 1 - i as u8, row)?;
        }
        match side_text {
            Some("r") => pos.set_turn(Color::Red),
            Some("b") => pos.set_turn(Color::Blue),
            Some(other) => return Err(ParseError::BadSide(other.to_owned())),
            None => return Err(ParseError::MissingSide),
        }
        if let Some(t) = hidden_text {
            let set = HiddenSet::parse(&t[2..]).map_err(ParseError::Hidden)?;
            pos.set_hidden_set(Some(set)).map_err(ParseError::Hidden)?;
        }
        if let Some(read) = read_hunger_fields(&mut pos, clock_text, number_text) {
            return read.map(|()| pos);
        }
        if clock_text.is_some_and(|t| t.starts_with("h:")) {
            return Err(PositionError::NoHunger(rules).into());
        }
        if let Some(t) = clock_text {
            let clock = parse_number(t).ok_or_else(|| ParseError::BadClock(t.to_owned()))?;
            pos.set_clock(Some(clock))
                .map_err(ParseError::ClockTooHigh)?;
        }
        if let Some(t) = number_text {
            let n = parse_number(t)
                .filter(|&n| n >= 1)
                .ok_or_else(|| ParseError::BadMoveNumber(t.to_owned()))?;
            pos.set_move_number(Some(n));
        }
        pos.settle_chance_clock();
        Ok(pos)
    }
}

/// Puts the pieces of one rank's text (rank index `rank`, from 0) on `pos`.
fn parse_rank(pos: &mut Position, rank: u8, row: &str) -> Result<(), ParseError> {
    let board = pos.board();
    let label = rank + 1;
    let mut file = 0usize;
    let mut after_digit = false;
    for c in row.chars() {
        if let Some(d) = c.to_digit(10) {
            if d == 0 || after_digit {
                return Err(ParseError::NonCanonicalDigits { rank: label });
            }
            file += d as usize;
            after_digit = true;
            continue;
        }
        after_digit = false;
        // Past the rank's end nothing is put; the length check below names the rank.
        let at = (file < board.width as usize).then(|| Square::new(file as u8, rank));
        if c == '?' {
            if let Some(sq) = at {
                pos.put_hidden(sq)?;
            }
        } else {
            let piece = Piece::from_letter(c).ok_or(ParseError::UnknownLetter {
                rank: label,
                letter: c,
            })?;
            if let Some(sq) = at {
                pos.put(piece, sq)?;
            }
        }
        file += 1;
    }
    if file != board.width as usize {
        return Err(ParseError::RankLength {
            rank: label,
            found: file,
            expected: board.width as usize,
        });
    }
    Ok(())
}

impl FromStr for Position {
    type Err = ParseError;

    /// Parses position text, taking the rule set from the board's shape (see [`Position::parse`]).
    fn from_str(s: &str) -> Result<Position, ParseError> {
        Position::parse(s, None)
    }
}

impl fmt::Display for Position {
    /// The canonical position text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let board = self.board();
        for rank in (0..board.height).rev() {
            let mut empty = 0;
            for file in 0..board.width {
                let sq = Square::new(file, rank);
                let c = if self.hidden() & bit(sq) != 0 {
                    Some('?')
                } else {
                    self.piece_at(sq).map(Piece::letter)
                };
                match c {
                    Some(c) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{c}")?;
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
        write!(f, " {}", self.turn().letter())?;
        self.write_hungry_field(f)?;
        // With face-down tiles and a known hidden set, the clock (also 0) and the `?:` field
        // last (RULES.md 8).
        let hidden = (self.hidden() != 0).then(|| self.hidden_set()).flatten();
        let clock = self.clock().or(hidden.map(|_| 0));
        if let Some(c) = clock {
            write!(f, " {c}")?;
            if let Some(n) = self.move_number() {
                write!(f, " {n}")?;
            }
        }
        if let Some(h) = hidden {
            write!(f, " ?:{h}")?;
        }
        Ok(())
    }
}
