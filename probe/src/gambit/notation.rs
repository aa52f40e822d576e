//! Reading turn text: any legal sequence of steps, in Arimaa notation, to the turn it plays.

use std::{error::Error, fmt};

use super::{
    board::{Direction, Square},
    position::{Board, Position},
    step::{Removal, Step, Token},
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
    /// The text ends right after a step that removes a piece on its trap, without the removal
    /// (the removal token, such as `rc3x`).
    MissingRemoval(String),
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
            TurnError::MissingRemoval(r) => write!(
                f,
                "the last step removes `{r}` on its trap, which must be written right after it"
            ),
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

/// The tokens of turn text, each checked for its shape, and no more than four steps.
fn read_tokens(text: &str) -> Result<(Vec<&str>, Vec<[u8; 4]>), TurnError> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
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
    let wanted = tokens
        .iter()
        .map(|t| t.as_bytes().try_into().expect("four bytes"))
        .collect();
    Ok((tokens, wanted))
}

/// Plays one token of legal turn text on `board`: a step moves its piece, a removal takes
/// its piece off.
fn apply(board: &mut Board, token: &[u8; 4]) {
    let square = Square::new(token[1] - b'a', token[2] - b'1');
    let piece = board.remove(square);
    if let (Some(piece), Some(dir)) = (piece, Direction::from_letter(char::from(token[3]))) {
        board.put(
            piece,
            square.step(dir).expect("a legal step stays on the board"),
        );
    }
}

/// A step that may come next in a turn being played, with the removal it causes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NextStep {
    /// The step.
    pub step: Step,
    /// The piece it removes on a trap (the step's own, or one it leaves unguarded), if any.
    pub removal: Option<Removal>,
}

impl NextStep {
    /// Its tokens as turn text: the step, then its removal (`Ed3w Ec3x`).
    #[must_use]
    pub fn text(&self) -> String {
        match self.removal {
            Some(r) => format!("{} {}", Token::Step(self.step), Token::Removal(r)),
            None => Token::Step(self.step).to_string(),
        }
    }

    fn step_text(&self) -> [u8; 4] {
        Token::Step(self.step).text()
    }
}

/// Where a turn stands after some of its steps ([`Position::partial_turn`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartialTurn {
    /// The board after the steps so far, trap removals done.
    pub board: Board,
    /// Steps taken (a push or a pull counts two, a removal none).
    pub steps: u8,
    /// Whether the steps so far make whole actions (not inside a push), so that the turn
    /// may end here if the board has changed.
    pub finished: bool,
    /// The turn the steps play when the turn may end here: whole actions that change the
    /// board. `None` inside a push, before the first step, and on the starting board.
    pub turn: Option<Turn>,
    /// Every step that may come next, in the ASCII order of their texts (none after four
    /// steps).
    pub next: Vec<NextStep>,
}

/// What the readings of a partial turn text allow.
#[derive(Default)]
struct Continuations {
    finished: bool,
    next: Vec<NextStep>,
    missing_removal: Option<[u8; 4]>,
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
    /// The error for the first token that did not follow: the one after the deepest match.
    fn illegal(&self, tokens: &[&str]) -> TurnError {
        TurnError::Illegal {
            index: self.depth + 1,
            token: tokens[self.depth].to_owned(),
            removal: self
                .removal
                .map(|r| String::from_utf8_lossy(&r).into_owned()),
        }
    }

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
        let (tokens, wanted) = read_tokens(text)?;
        if tokens.is_empty() {
            return Err(TurnError::Empty);
        }
        let mut reach = Reach::default();
        let Some(end) = self.follow(self.board(), MAX_STEPS, &wanted, 0, &mut reach) else {
            if reach.unfinished && reach.depth == wanted.len() {
                return Err(TurnError::Unfinished);
            }
            return Err(reach.illegal(&tokens));
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

    /// Where a turn stands after the steps of `text` (turn text as [`Position::parse_turn`]
    /// reads it, possibly ending inside a push or a pull, possibly empty): the board then, the
    /// steps that may come next, and the turn they play if the turn may end there. This is
    /// how a user plays a turn one step at a time.
    ///
    /// # Errors
    /// A [`TurnError`]: a token that is not a step or a removal, more than four steps, the
    /// first token that does not follow legally, or a text that stops before the removal its
    /// last step causes.
    pub fn partial_turn(&self, text: &str) -> Result<PartialTurn, TurnError> {
        let (tokens, wanted) = read_tokens(text)?;
        let mut found = Continuations::default();
        let mut reach = Reach::default();
        self.continue_from(self.board(), MAX_STEPS, &wanted, 0, &mut reach, &mut found);
        if !found.finished && found.next.is_empty() {
            if let Some(r) = found.missing_removal {
                return Err(TurnError::MissingRemoval(
                    String::from_utf8_lossy(&r).into_owned(),
                ));
            }
            return Err(reach.illegal(&tokens));
        }
        let mut board = *self.board();
        for w in &wanted {
            apply(&mut board, w);
        }
        let turn = if found.finished && board != *self.board() {
            let turn = self.turns().into_iter().find(|t| *t.board() == board);
            Some(turn.expect("a board reached by whole legal actions is a turn's"))
        } else {
            None
        };
        found.next.sort_by_key(|n| n.step_text());
        found.next.dedup();
        Ok(PartialTurn {
            board,
            steps: u8::try_from(tokens.iter().filter(|t| !t.ends_with('x')).count())
                .expect("at most four steps"),
            finished: found.finished,
            turn,
            next: found.next,
        })
    }

    /// Follows the actions from `board` whose tokens spell `wanted[done..]` (within `left`
    /// steps), noting in `found` whether some reading ends with a whole action and every step
    /// that may come next.
    fn continue_from(
        &self,
        board: &Board,
        left: u8,
        wanted: &[[u8; 4]],
        done: usize,
        reach: &mut Reach,
        found: &mut Continuations,
    ) {
        let at_end = done == wanted.len();
        if at_end {
            found.finished = true;
        } else {
            reach.at(done);
        }
        board.for_each_action(self.turn(), left, |action, next| {
            let tokens = action.tokens();
            let rest = &wanted[done..];
            let matched = tokens
                .iter()
                .zip(rest)
                .take_while(|(t, w)| t.text() == **w)
                .count();
            if matched == tokens.len() {
                self.continue_from(
                    next,
                    left - action.steps(),
                    wanted,
                    done + matched,
                    reach,
                    found,
                );
            } else if matched == rest.len() {
                // The text ends inside this action: its next token comes next.
                match tokens[matched] {
                    Token::Step(step) => {
                        let removal = match tokens.get(matched + 1) {
                            Some(&Token::Removal(r)) => Some(r),
                            _ => None,
                        };
                        found.next.push(NextStep { step, removal });
                    }
                    Token::Removal(_) => found.missing_removal = Some(tokens[matched].text()),
                }
            } else if reach.at(done + matched) {
                let token = tokens[matched].text();
                if token[3] == b'x' {
                    reach.removal = Some(token);
                }
            }
        });
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
