//! Why an input got no answer.

use std::{error::Error, fmt, sync::Arc};

use jtb_probe::{gambit, ClockError, ParseError, ProbeError};

/// Why a text is no position, or a move cannot be played in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionError {
    /// The Jungle-family position text is malformed.
    Parse(ParseError),
    /// The Animal Gambit position text is malformed.
    Gambit(gambit::ParseError),
    /// The clock is above the rule set's limit, or given for a game without a clock.
    Clock(ClockError),
    /// The move is not legal in the position.
    IllegalMove {
        /// The move's text.
        mv: String,
        /// The position, as text.
        position: String,
    },
    /// The Animal Gambit turn is not legal in the position (the message says where).
    IllegalTurn(String),
    /// The half-move clock has reached the draw limit: the game is drawn.
    ClockLimit(u32),
    /// The position has face-down tiles, whose flips are chance events.
    FaceDown,
    /// The hidden set of a position with face-down tiles is not known.
    NoHiddenSet,
    /// A packed position ([`crate::PACKED_LEN`] bytes) with a byte no record has.
    Packed(String),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Parse(e) => e.fmt(f),
            PositionError::Gambit(e) => e.fmt(f),
            PositionError::Clock(e) => e.fmt(f),
            PositionError::IllegalMove { mv, position } => {
                write!(f, "illegal move {mv} in {position}")
            }
            PositionError::IllegalTurn(why) => write!(f, "illegal turn: {why}"),
            PositionError::ClockLimit(limit) => write!(
                f,
                "the half-move clock is at the draw limit ({limit}): the game is drawn"
            ),
            PositionError::FaceDown => f.write_str(
                "the position has face-down tiles: a flip's outcome is chance (RULES.md 8), \
                 so it cannot be played as a move",
            ),
            PositionError::Packed(why) => write!(f, "not a packed position: {why}"),
            PositionError::NoHiddenSet => f.write_str(
                "the hidden set is not known: animals were captured and the text has no `?:` \
                 field naming the animals under the face-down tiles (RULES.md 8)",
            ),
        }
    }
}

impl Error for PositionError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            PositionError::Parse(e) => Some(e),
            PositionError::Gambit(e) => Some(e),
            PositionError::Clock(e) => Some(e),
            _ => None,
        }
    }
}

impl From<ParseError> for PositionError {
    fn from(e: ParseError) -> PositionError {
        PositionError::Parse(e)
    }
}

impl From<gambit::ParseError> for PositionError {
    fn from(e: gambit::ParseError) -> PositionError {
        PositionError::Gambit(e)
    }
}

impl From<ClockError> for PositionError {
    fn from(e: ClockError) -> PositionError {
        PositionError::Clock(e)
    }
}

/// Why a question to the tables got no answer.
#[derive(Debug, Clone)]
pub enum EdgeError {
    /// The input is no position (or the move is not legal).
    Position(PositionError),
    /// The rule set's table directory could not be opened.
    Open(Arc<ProbeError>),
    /// A probe failed: a missing or damaged table, a position no table holds.
    Probe(Arc<ProbeError>),
    /// An adjudication found no tables covering the position (the message says why).
    NotCovered(String),
}

impl EdgeError {
    /// Whether the tables do not cover the question: a missing table or directory (what
    /// python-chess calls a missing table).
    #[must_use]
    pub fn is_missing_table(&self) -> bool {
        let missing = ProbeError::is_missing;
        match self {
            EdgeError::Open(e) => matches!(**e, ProbeError::NoDirectory(..)) || missing(e),
            EdgeError::Probe(e) => missing(e),
            EdgeError::NotCovered(_) => true,
            EdgeError::Position(_) => false,
        }
    }
}

impl fmt::Display for EdgeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EdgeError::Position(e) => e.fmt(f),
            EdgeError::Open(e) | EdgeError::Probe(e) => e.fmt(f),
            EdgeError::NotCovered(why) => f.write_str(why),
        }
    }
}

impl Error for EdgeError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            EdgeError::Position(e) => Some(e),
            EdgeError::Open(e) | EdgeError::Probe(e) => Some(e.as_ref()),
            EdgeError::NotCovered(_) => None,
        }
    }
}

impl From<PositionError> for EdgeError {
    fn from(e: PositionError) -> EdgeError {
        EdgeError::Position(e)
    }
}

impl From<ProbeError> for EdgeError {
    fn from(e: ProbeError) -> EdgeError {
        EdgeError::Probe(Arc::new(e))
    }
}
