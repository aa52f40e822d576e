//! Reading turn text: any legal sequence of steps, in Arimaa notation, to the turn it plays.

use std::{error::Error, fmt};

use super::{
    position::{Board, Position},
    turn::{Turn, MAX_STEPS},
};

/// Why a turn text is refused. Tokens are counted from 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TurnError {
    /// No token at all.
    Empty,
    /// A token that is neither a step (`Ed2n`: piece letter, square, `n s e w`) nor a removal
    /// (`rc3x`).
    BadToken {
        /// Its number in the text.
        index: usize,
        /// The token.
        token: String,
    },
    /// More than four steps.
    TooManySteps(usize),
    /// The tokens before this one are legal steps, but no legal step (or removal) follows as
    /// written.
    Illegal {
        /// Its number in the text.
        index: usize,
        /// The token.
        token: String,
        /// The removal the trap rule makes at this point of the turn, when the text omits it.
        removal: Option<String>,
    },
    /// The text ends in the middle of a push (the pusher has not stepped in) or before the
    /// removal that its last step causes.
    Unfinished,
    /// The steps lead back to the starting board, which no turn may do.
    NoChange,
}

impl fmt::Display for TurnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TurnError::Empty => f.write_str("empty turn: a turn is 1 to 4 steps"),
            TurnError::BadToken { index, token } => write!(
                f,
                "token {index} `{token}` is not a step (such as `Ed2n`) or a removal (such as `rc3x`)"
            ),
            TurnError::TooManySteps(n) => write!(f, "{n} steps: a turn is at most 4"),
            TurnError::Illegal {
                index,
                token,
                removal: None,
            } => write!(f, "token {index} `{token}` is not a legal step here"),
            TurnError::Illegal {
                index,
                token,
                removal: Some(r),
            } => write!(
                f,
                "token {index} `{token}`: the step before it removes `{r}` on its trap, which must be written there"
            ),
            TurnError::Unfinished => f.write_str(
                "the turn ends in the middle of a push, or without the removal its last step causes",
            ),
            TurnError::NoChange => f.write_str("the steps give back the starting board: no turn"),
        }
    }
}

impl Error for TurnError {}

/// Whether `token` has the shape of a step or a removal: piece letter, square, then
/// `n s e w` or `x`.
fn well_formed(token: &str) -> bool {
    matches!(
        token.as_bytes(),
        [p, b'a'..=b'h', b'1'..=b'8', b'n' | b's' | b'e' | b'w' | b'x'] if b"EMHDCRemhdcr".contains(p)
    )
}

/// The deepest point a search of the text reached, for the error.
#[derive(Default)]
struct Reach {
    /// Tokens matched.
    depth: usize,
    /// A removal token expected right there, if one was.
    removal: Option<[u8; 4]>,
    /// Whether some action matched all the remaining tokens and wanted more.
    unfinished: bool,
}

impl Reach {
    /// Notes that `depth` tokens were matched; whether that is as deep as any.
    fn at(&mut self, depth: usize) -> bool {
        if depth > self.depth {
            *self = Reach {
                depth,
                ..Reach::default()
            };
        }
        depth == self.depth
    }
}

impl Position {
    /// The turn that the steps of `text` play (Arimaa notation, tokens separated by spaces,
    /// each removal right after the step that causes it), in any legal order: `rd3w rc3x Ed2n`.
    ///
    /// # Errors
    /// A [`TurnError`] naming the first token that does not follow legally, or why the text is
    /// no turn.
    pub fn parse_turn(&self, text: &str) -> Result<Turn, TurnError> {
        let tokens: Vec<&str> = text.split_whitespace().collect();
        if tokens.is_empty() {
            return Err(TurnError::Empty);
        }
        if let Some((i, t)) = tokens.iter().enumerate().find(|(_, t)| !well_formed(t)) {
            return Err(TurnError::BadToken {
                index: i + 1,
                token: (*t).to_owned(),
            });
        }
        let steps = tokens.iter().filter(|t| !t.ends_with('x')).count();
        if steps > MAX_STEPS.into() {
            return Err(TurnError::TooManySteps(steps));
        }
        let wanted: Vec<[u8; 4]> = tokens
            .iter()
            .map(|t| t.as_bytes().try_into().expect("four bytes"))
            .collect();
        let mut reach = Reach::default();
        let Some(end) = self.follow(self.board(), MAX_STEPS, &wanted, 0, &mut reach) else {
            if reach.unfinished && reach.depth == wanted.len() {
                return Err(TurnError::Unfinished);
            }
            return Err(TurnError::Illegal {
                index: reach.depth + 1,
                token: tokens[reach.depth].to_owned(),
                removal: reach
                    .removal
                    .map(|r| String::from_utf8_lossy(&r).into_owned()),
            });
        };
        if end == *self.board() {
            return Err(TurnError::NoChange);
        }
        Ok(self
            .turns()
            .into_iter()
            .find(|t| *t.board() == end)
            .expect("a board reached by legal steps is a turn's"))
    }

    /// The board at the end of the actions from `board` whose tokens spell `wanted[done..]`,
    /// within `left` steps.
    fn follow(
        &self,
        board: &Board,
        left: u8,
        wanted: &[[u8; 4]],
        done: usize,
        reach: &mut Reach,
    ) -> Option<Board> {
        if done == wanted.len() {
            return Some(*board);
        }
        reach.at(done);
        let mut found = None;
        board.for_each_action(self.turn(), left, |action, next| {
            if found.is_some() {
                return;
            }
            let rest = &wanted[done..];
            let mut matched = 0;
            for (t, w) in action.tokens().iter().zip(rest) {
                if t.text() != *w {
                    break;
                }
                matched += 1;
            }
            let all = action.tokens().len();
            if matched < all {
                if reach.at(done + matched) {
                    let token = action.tokens()[matched].text();
                    if token[3] == b'x' {
                        reach.removal = Some(token);
                    }
                    reach.unfinished |= matched == rest.len();
                }
                return;
            }
            found = self.follow(next, left - action.steps(), wanted, done + all, reach);
        });
        found
    }
}
