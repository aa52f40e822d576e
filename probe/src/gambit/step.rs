//! Steps, pushes and pulls: the actions a turn is made of, with the trap rule after every step.
//!
//! An [`Action`] is one step of a mover's piece, or a push or a pull (two steps, one action: a
//! step that finishes a push never starts a pull, nor the reverse, because the next action
//! starts afresh). Frozenness is judged on the board before the action; the second step of a
//! push is the pusher's, which the first step cannot freeze (only its weaker victim left its
//! side), and the second step of a pull is the victim's, which may be frozen.

use std::fmt;

use super::{
    board::{neighbours, Bitboard, Direction, Square, TRAPS},
    piece::{Animal, Color, Piece},
    position::Board,
};

/// One step: `piece` moves from `from` one square toward `dir`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Step {
    /// The piece that moves (of either colour: pushed and pulled pieces step too).
    pub piece: Piece,
    /// Where it stands.
    pub from: Square,
    /// Where it goes.
    pub dir: Direction,
}

impl Step {
    /// The square it goes to.
    ///
    /// # Panics
    /// If the step leaves the board (no generated step does).
    #[must_use]
    pub fn to(self) -> Square {
        self.from.step(self.dir).expect("a step on the board")
    }
}

/// A piece removed by the trap rule on the square where it stood.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Removal {
    /// The piece removed.
    pub piece: Piece,
    /// Its trap.
    pub square: Square,
}

/// A token of turn text: a step (`Ed2n`) or a removal (`rc3x`), each four characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Token {
    /// A step.
    Step(Step),
    /// A removal, written right after the step that caused it.
    Removal(Removal),
}

impl Token {
    /// Its text: piece letter, square, then the direction letter or `x`.
    #[must_use]
    pub const fn text(self) -> [u8; 4] {
        let (piece, square, last) = match self {
            Token::Step(s) => (s.piece, s.from, s.dir.letter()),
            Token::Removal(r) => (r.piece, r.square, 'x'),
        };
        let [file, rank] = square.text();
        [piece.letter() as u8, file, rank, last as u8]
    }

    /// The token in the file mirror `a<->h`.
    #[must_use]
    pub const fn mirror(self) -> Token {
        match self {
            Token::Step(s) => Token::Step(Step {
                piece: s.piece,
                from: s.from.mirror(),
                dir: s.dir.mirror(),
            }),
            Token::Removal(r) => Token::Removal(Removal {
                piece: r.piece,
                square: r.square.mirror(),
            }),
        }
    }

    /// The token in the colour flip (ranks `1<->8`, colours swapped).
    #[must_use]
    pub const fn flip(self) -> Token {
        match self {
            Token::Step(s) => Token::Step(Step {
                piece: Piece::new(s.piece.color.other(), s.piece.animal),
                from: s.from.flip(),
                dir: s.dir.flip(),
            }),
            Token::Removal(r) => Token::Removal(Removal {
                piece: Piece::new(r.piece.color.other(), r.piece.animal),
                square: r.square.flip(),
            }),
        }
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.text();
        // Every byte is ASCII by construction.
        f.write_str(std::str::from_utf8(&text).map_err(|_| fmt::Error)?)
    }
}

/// A removal token that stands for "none" in fixed arrays; never shown.
pub(super) const FILLER: Token = Token::Removal(Removal {
    piece: Piece::new(Color::Gold, Animal::Rabbit),
    square: Square::new(0, 0),
});

/// The tokens of one action: one or two steps, each followed by its removal if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Action {
    tokens: [Token; 4],
    len: u8,
    steps: u8,
}

impl Action {
    const fn new() -> Action {
        Action {
            tokens: [FILLER; 4],
            len: 0,
            steps: 0,
        }
    }

    fn push(&mut self, token: Token) {
        self.tokens[self.len as usize] = token;
        self.len += 1;
    }

    /// Its tokens in order.
    #[must_use]
    pub fn tokens(&self) -> &[Token] {
        &self.tokens[..self.len as usize]
    }

    /// How many steps it takes of the turn's four: 1 for a step, 2 for a push or a pull.
    #[must_use]
    pub const fn steps(&self) -> u8 {
        self.steps
    }
}

impl Board {
    /// Plays `step` (its piece on `from`, `to` empty) and then the trap rule, appending the
    /// tokens to `action`.
    #[inline]
    fn play_step(&mut self, step: Step, to: Square, action: &mut Action) {
        self.toggle(step.piece, step.from);
        self.toggle(step.piece, to);
        action.push(Token::Step(step));
        action.steps += 1;
        // Only the moved piece, on `to`, or a friend it left on a trap next to `from` can lose
        // its guard (so at most one piece goes: no square next to `from` is a trap when `to`
        // is one, traps being three squares apart).
        let exposed = (Bitboard::from_square(to) | neighbours(step.from)) & TRAPS;
        if (exposed & self.occupied()).is_empty() {
            return;
        }
        for square in self.unguarded_on_traps() & exposed {
            if let Some(piece) = self.piece_at(square) {
                self.toggle(piece, square);
                action.push(Token::Removal(Removal { piece, square }));
            }
        }
    }

    /// The pieces of `color` that are frozen: next to a stronger enemy and to no friend.
    #[must_use]
    pub fn frozen(&self, color: Color) -> Bitboard {
        let guarded = self.color(color).neighbours();
        let mut frozen = Bitboard::EMPTY;
        for animal in Animal::ALL {
            let mine = self.pieces(Piece::new(color, animal)) & !guarded;
            if mine.is_nonempty() {
                frozen |= mine & self.stronger(color.other(), animal).neighbours();
            }
        }
        frozen
    }

    /// Calls `f` with every action `mover` can play using at most `max_steps` steps (1 or
    /// more) and the board it leaves, trap removals done.
    pub fn for_each_action(&self, mover: Color, max_steps: u8, f: impl FnMut(&Action, &Board)) {
        self.actions(mover, max_steps >= 1, max_steps >= 2, f);
    }

    /// Calls `f` with every one-step action of `mover` when `one`, and with every push and
    /// pull when `two`, each with the board it leaves.
    pub(super) fn actions(
        &self,
        mover: Color,
        one: bool,
        two: bool,
        mut f: impl FnMut(&Action, &Board),
    ) {
        let enemy = mover.other();
        let empty = !self.occupied();
        let frozen = self.frozen(mover);
        // A rabbit never steps toward its own side.
        let back = match mover {
            Color::Gold => Direction::South,
            Color::Silver => Direction::North,
        };
        for animal in Animal::ALL {
            let piece = Piece::new(mover, animal);
            let movers = self.pieces(piece) & !frozen;
            if movers.is_empty() {
                continue;
            }
            // Pushes and pulls take two steps; a rabbit has no weaker enemy.
            let weaker = if two {
                self.weaker(enemy, animal)
            } else {
                Bitboard::EMPTY
            };
            for from in movers {
                for dir in Direction::ALL.into_iter().filter(|_| one) {
                    let Some(to) = from.step(dir) else { continue };
                    if !empty.contains(to) || (animal == Animal::Rabbit && dir == back) {
                        continue;
                    }
                    let mut board = *self;
                    let mut action = Action::new();
                    board.play_step(Step { piece, from, dir }, to, &mut action);
                    f(&action, &board);
                }
                for victim_sq in neighbours(from) & weaker {
                    let Some(victim) = self.piece_at(victim_sq) else {
                        continue;
                    };
                    self.pushes(piece, from, victim, victim_sq, empty, &mut f);
                    self.pulls(piece, from, victim, victim_sq, empty, &mut f);
                }
            }
        }
    }

    /// The pushes of `victim` on `at` by `pusher` on `from`.
    fn pushes(
        &self,
        pusher: Piece,
        from: Square,
        victim: Piece,
        at: Square,
        empty: Bitboard,
        f: &mut impl FnMut(&Action, &Board),
    ) {
        let push_dir = from.direction_to(at).expect("neighbours");
        for dir in Direction::ALL {
            let Some(to) = at.step(dir) else { continue };
            if !empty.contains(to) {
                continue;
            }
            let mut board = *self;
            let mut action = Action::new();
            let first = Step {
                piece: victim,
                from: at,
                dir,
            };
            board.play_step(first, to, &mut action);
            let second = Step {
                piece: pusher,
                from,
                dir: push_dir,
            };
            board.play_step(second, at, &mut action);
            f(&action, &board);
        }
    }

    /// The pulls of `victim` on `at` by `puller` on `from`: the puller steps away, then the
    /// victim steps into its square (also when the puller's step removed it on a trap).
    fn pulls(
        &self,
        puller: Piece,
        from: Square,
        victim: Piece,
        at: Square,
        empty: Bitboard,
        f: &mut impl FnMut(&Action, &Board),
    ) {
        let pull_dir = at.direction_to(from).expect("neighbours");
        for dir in Direction::ALL {
            let Some(to) = from.step(dir) else { continue };
            if !empty.contains(to) {
                continue;
            }
            let mut board = *self;
            let mut action = Action::new();
            let first = Step {
                piece: puller,
                from,
                dir,
            };
            board.play_step(first, to, &mut action);
            let second = Step {
                piece: victim,
                from: at,
                dir: pull_dir,
            };
            board.play_step(second, from, &mut action);
            f(&action, &board);
        }
    }

    /// Whether `mover` has any action at all, that is any legal turn: every action changes the
    /// board, so its first action alone is a turn.
    #[must_use]
    pub fn has_action(&self, mover: Color) -> bool {
        let empty = !self.occupied();
        let active = self.color(mover) & !self.frozen(mover);
        let rabbits = self.pieces(Piece::new(mover, Animal::Rabbit));
        let back = match mover {
            Color::Gold => Direction::South,
            Color::Silver => Direction::North,
        };
        let stepping = Direction::ALL.into_iter().any(|dir| {
            let pieces = if dir == back {
                active & !rabbits
            } else {
                active
            };
            (pieces.shift(dir) & empty).is_nonempty()
        });
        // A piece with no empty square next to it can still push a weaker enemy that has one.
        stepping
            || (active & !rabbits).any(|from| {
                let animal = self.piece_at(from).map_or(Animal::Rabbit, |p| p.animal);
                let victims = neighbours(from) & self.weaker(mover.other(), animal);
                (victims.neighbours() & empty).is_nonempty()
            })
    }
}
