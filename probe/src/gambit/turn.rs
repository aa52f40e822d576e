//! Turns: every distinct end board reachable by 1 to 4 steps, each with its canonical text,
//! and the end-of-turn checks.
//!
//! A turn is its end board. The search runs by step count: the boards first reached after `d`
//! steps are expanded by one-step actions (to `d + 1`) and then by pushes and pulls (to
//! `d + 2`), so a board is always first met at its fewest steps, and only there is it
//! expanded: what a board can still reach depends on the board and the steps left alone.
//! Every prefix of a shortest sequence is a shortest sequence to its own board, and turn
//! tokens all have four characters, so the smallest text of a board is the smallest of
//! (smallest text of a predecessor, then the action's tokens): each board keeps just one.

use std::{
    collections::{HashMap, HashSet},
    fmt,
    hash::{BuildHasherDefault, Hasher},
};

use super::{
    piece::Color,
    position::{Board, Position},
    step::{Action, Token, FILLER},
};

/// The most steps of a turn.
pub const MAX_STEPS: u8 = 4;

/// Most tokens of a turn: four steps, each followed by at most one removal.
const MAX_TOKENS: usize = 2 * MAX_STEPS as usize;

/// A hasher for boards: a multiply-rotate mix of the words written (a [`Board`] writes one),
/// finished with splitmix64's mixer so that boards differing only in high bits still spread
/// over the table.
#[derive(Default)]
pub struct BoardHasher(u64);

impl Hasher for BoardHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(26) ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    #[inline]
    fn finish(&self) -> u64 {
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

type BuildBoardHasher = BuildHasherDefault<BoardHasher>;

/// The tokens of a turn, in order: its steps, each followed by its removal if any; with their
/// text bytes run together, for comparing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Tokens {
    items: [Token; MAX_TOKENS],
    text: [u8; 4 * MAX_TOKENS],
    len: u8,
}

impl Tokens {
    fn new() -> Tokens {
        Tokens {
            items: [FILLER; MAX_TOKENS],
            text: [0; 4 * MAX_TOKENS],
            len: 0,
        }
    }

    fn as_slice(&self) -> &[Token] {
        &self.items[..self.len as usize]
    }

    fn then(&self, action: &Action) -> Tokens {
        let mut out = *self;
        for &t in action.tokens() {
            let at = out.len as usize;
            out.items[at] = t;
            out.text[4 * at..4 * at + 4].copy_from_slice(&t.text());
            out.len += 1;
        }
        out
    }

    /// The text bytes without the spaces. Tokens all have four characters and the separator
    /// (a space) is below every one of them, so these compare as the texts do in ASCII order.
    fn key(&self) -> &[u8] {
        &self.text[..4 * self.len as usize]
    }
}

/// A turn: its end board (before the end-of-turn checks) and its canonical step sequence: the
/// fewest steps, and among those the smallest text in ASCII order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Turn {
    tokens: Tokens,
    steps: u8,
    board: Board,
}

impl Turn {
    /// The board at the end of the turn, trap removals done.
    #[must_use]
    pub const fn board(&self) -> &Board {
        &self.board
    }

    /// Its tokens in order: steps, each followed by the removal it caused if any.
    #[must_use]
    pub fn tokens(&self) -> &[Token] {
        self.tokens.as_slice()
    }

    /// How many steps it takes (1 to 4; a push or a pull is two).
    #[must_use]
    pub const fn steps(&self) -> u8 {
        self.steps
    }
}

impl fmt::Display for Turn {
    /// The canonical turn text, tokens separated by spaces (`rd3w rc3x Ed2n`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, t) in self.tokens().iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            t.fmt(f)?;
        }
        Ok(())
    }
}

/// How a turn ends the game (RULES.md section 7, checked in this order at the end of the
/// mover's turn).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TurnEnd {
    /// 1. A rabbit of the mover stands on its goal rank: the mover wins.
    Goal,
    /// 2. A rabbit of the opponent stands on its goal rank (pushed or pulled there and left):
    ///    the mover loses.
    OpponentGoal,
    /// 3. The opponent has no rabbit left: the mover wins.
    Elimination,
    /// 4. The mover has no rabbit left: the mover loses.
    OwnElimination,
    /// 5. The opponent has no legal turn: the mover wins.
    Immobilization,
}

impl TurnEnd {
    /// Whether the mover (the side that played the turn) wins.
    #[must_use]
    pub const fn mover_wins(self) -> bool {
        matches!(
            self,
            TurnEnd::Goal | TurnEnd::Elimination | TurnEnd::Immobilization
        )
    }
}

impl fmt::Display for TurnEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TurnEnd::Goal => "the mover's rabbit reached its goal",
            TurnEnd::OpponentGoal => "the opponent's rabbit stands on its goal",
            TurnEnd::Elimination => "the opponent has no rabbit left",
            TurnEnd::OwnElimination => "the mover has no rabbit left",
            TurnEnd::Immobilization => "the opponent has no legal turn",
        })
    }
}

/// What a turn leads to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// The game goes on from this position (the opponent to move).
    Continues(Position),
    /// The turn ended the game.
    Over(TurnEnd),
}

/// Finds the end boards of turns, keeping its buffers from one position to the next so that a
/// solver pays no allocation per position.
#[derive(Debug, Default)]
pub struct TurnGenerator {
    seen: HashSet<Board, BuildBoardHasher>,
    layers: [Vec<Board>; MAX_STEPS as usize + 1],
    ends: Vec<Board>,
}

impl TurnGenerator {
    /// A generator with empty buffers.
    #[must_use]
    pub fn new() -> TurnGenerator {
        TurnGenerator::default()
    }

    /// The distinct end boards of the turns of `pos`, in no particular order (the starting
    /// board is never one of them).
    pub fn end_boards(&mut self, pos: &Position) -> &[Board] {
        let mover = pos.turn();
        self.seen.clear();
        for layer in &mut self.layers {
            layer.clear();
        }
        self.ends.clear();
        self.seen.insert(*pos.board());
        self.layers[0].push(*pos.board());
        for d in 0..MAX_STEPS as usize {
            let (done, rest) = self.layers.split_at_mut(d + 1);
            // One-step actions first: a board they reach at d + 1 must not be taken for one
            // at d + 2 by a push or pull of the same layer.
            for two in [false, true] {
                if two && d + 2 > MAX_STEPS as usize {
                    break;
                }
                let target = &mut rest[usize::from(two)];
                for board in &done[d] {
                    board.actions(mover, !two, two, |_, next| {
                        if self.seen.insert(*next) {
                            target.push(*next);
                        }
                    });
                }
            }
        }
        for layer in &self.layers[1..] {
            self.ends.extend_from_slice(layer);
        }
        &self.ends
    }
}

impl Board {
    /// The end-of-turn checks (RULES.md section 7, in order) for a turn of `mover` that ends
    /// on this board: how the game ends, or `None` when it goes on.
    #[must_use]
    pub fn turn_end(&self, mover: Color) -> Option<TurnEnd> {
        let opponent = mover.other();
        if self.rabbits_on_goal(mover).is_nonempty() {
            Some(TurnEnd::Goal)
        } else if self.rabbits_on_goal(opponent).is_nonempty() {
            Some(TurnEnd::OpponentGoal)
        } else if !self.has_rabbit(opponent) {
            Some(TurnEnd::Elimination)
        } else if !self.has_rabbit(mover) {
            Some(TurnEnd::OwnElimination)
        } else if !self.has_action(opponent) {
            Some(TurnEnd::Immobilization)
        } else {
            None
        }
    }
}

/// A board met in the search for turns with text, at its fewest steps.
struct Node {
    board: Board,
    steps: u8,
    tokens: Tokens,
}

impl Position {
    /// Every turn of the position, one per distinct end board, with its canonical text, sorted
    /// by text in ASCII order. Empty when the side to move has no legal turn.
    #[must_use]
    pub fn turns(&self) -> Vec<Turn> {
        let mover = self.turn();
        let mut nodes = vec![Node {
            board: *self.board(),
            steps: 0,
            tokens: Tokens::new(),
        }];
        let mut index: HashMap<Board, usize, BuildBoardHasher> = HashMap::default();
        index.insert(*self.board(), 0);
        let mut layers: [Vec<usize>; MAX_STEPS as usize + 1] = Default::default();
        layers[0].push(0);
        for d in 0..MAX_STEPS {
            // One-step actions first: a board they reach at d + 1 must not be taken for one
            // at d + 2 by a push or pull of the same layer.
            for two in [false, true] {
                if two && d + 2 > MAX_STEPS {
                    break;
                }
                let steps = d + 1 + u8::from(two);
                for i in 0..layers[d as usize].len() {
                    let at = layers[d as usize][i];
                    let (board, tokens) = (nodes[at].board, nodes[at].tokens);
                    board.actions(mover, !two, two, |action, next| {
                        let candidate = tokens.then(action);
                        match index.get(next) {
                            Some(&j) => {
                                let node = &mut nodes[j];
                                debug_assert!(node.steps <= steps, "met first at its fewest steps");
                                if node.steps == steps && candidate.key() < node.tokens.key() {
                                    node.tokens = candidate;
                                }
                            }
                            None => {
                                index.insert(*next, nodes.len());
                                layers[steps as usize].push(nodes.len());
                                nodes.push(Node {
                                    board: *next,
                                    steps,
                                    tokens: candidate,
                                });
                            }
                        }
                    });
                }
            }
        }
        let mut turns: Vec<Turn> = nodes
            .into_iter()
            .skip(1)
            .map(|n| Turn {
                tokens: n.tokens,
                steps: n.steps,
                board: n.board,
            })
            .collect();
        turns.sort_unstable_by(|a, b| a.tokens.key().cmp(b.tokens.key()));
        turns
    }

    /// Whether the side to move has a legal turn.
    #[must_use]
    pub fn has_turn(&self) -> bool {
        self.board().has_action(self.turn())
    }

    /// The end-of-turn checks (RULES.md section 7, in order) for a turn of this position that
    /// ends on `board`: how the game ends, or `None` when it goes on.
    #[must_use]
    pub fn turn_end(&self, board: &Board) -> Option<TurnEnd> {
        board.turn_end(self.turn())
    }

    /// Plays `turn` (one of this position's turns): the opponent's position, or how the game
    /// ended.
    #[must_use]
    pub fn play(&self, turn: &Turn) -> Next {
        match self.turn_end(turn.board()) {
            Some(end) => Next::Over(end),
            // A turn never adds a piece and leaves no piece on an unguarded trap, and the
            // checks just made rule out a rabbit on its goal and a side without rabbits.
            None => Next::Continues(Position::from_parts(*turn.board(), self.turn().other())),
        }
    }
}
