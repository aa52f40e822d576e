//! Positions: where the pieces stand, who moves, and the optional clocks.

use std::{error::Error, fmt};

use crate::{
    board::{bit, Board, Square, SquareSet},
    flip::hidden::{HiddenSet, HiddenSetError},
    piece::{Animal, Color, Piece},
    rules::RuleSet,
};

/// A position of one of the rule sets: pieces on squares, the side to move, and the optional
/// half-move clock and move number of the position text.
///
/// Every `Position` is legal as a placement: no animal twice in a colour, no piece in a den,
/// only rats in water. It may still be a finished game (a side without pieces).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    rules: RuleSet,
    board: [Option<Piece>; Square::LIMIT],
    squares: [[Option<Square>; 8]; 2],
    /// Per colour, bit `a` set when animal `a` is on the board (what `squares` says, kept at
    /// hand: every probe starts from the material).
    animals: [u8; 2],
    hidden: SquareSet,
    /// The flip game: the animals under the face-down tiles where the text named them and they
    /// cannot be deduced ([`Position::hidden_set`]); `None` everywhere else, so that equal
    /// states compare equal.
    hidden_set: Option<HiddenSet>,
    turn: Color,
    /// Clesto: the mover's hungry set where it is not the canonical one ([`Position::hungry`]);
    /// `None` everywhere else, so that equal states compare equal.
    pub(crate) hungry: Option<SquareSet>,
    clock: Option<u32>,
    move_number: Option<u32>,
}

/// Why a placement is not a legal position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionError {
    /// A colour has this animal twice.
    DuplicateAnimal(Piece),
    /// A piece stands in a den.
    InDen(Piece, Square),
    /// A piece that cannot swim stands in water.
    InWater(Piece, Square),
    /// Two things on one square.
    Occupied(Square),
    /// The square is not on the rule set's board.
    OffBoard(Square),
    /// A face-down tile on a board that has none (only the flip game has them).
    HiddenTile(Square),
    /// A hungry set given in a rule set without hunger (only Clesto has it).
    NoHunger(RuleSet),
    /// A hungry set names a square that holds no animal of the side to move.
    NotHungry {
        /// The square named.
        square: Square,
        /// What stands there.
        piece: Option<Piece>,
        /// The side to move, whose animals the hungry set names.
        turn: Color,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::DuplicateAnimal(p) => {
                write!(
                    f,
                    "{} `{}` appears twice (each side has at most one of each animal)",
                    p,
                    p.letter()
                )
            }
            PositionError::InDen(p, s) => {
                write!(f, "{} `{}` on {} stands in a den", p, p.letter(), s)
            }
            PositionError::InWater(p, s) => {
                write!(
                    f,
                    "{} `{}` on {} stands in water (only rats swim, and dogs in clesto)",
                    p,
                    p.letter(),
                    s
                )
            }
            PositionError::Occupied(s) => write!(f, "two pieces on {s}"),
            PositionError::OffBoard(s) => write!(f, "{s} is not on the board"),
            PositionError::HiddenTile(s) => {
                write!(f, "face-down tile on {s}: only the flip game has them")
            }
            PositionError::NoHunger(rules) => write!(
                f,
                "hungry set given, but rule set {rules} has no hunger (only clesto has it)"
            ),
            PositionError::NotHungry {
                square,
                piece: None,
                turn,
            } => write!(
                f,
                "hungry set names {square}, which is empty (it lists animals of {turn}, to move)"
            ),
            PositionError::NotHungry {
                square,
                piece: Some(p),
                turn,
            } => write!(
                f,
                "hungry set names {square}, which holds {p} `{}`: it lists animals of {turn}, to move",
                p.letter()
            ),
        }
    }
}

impl Error for PositionError {}

impl Position {
    /// An empty board of `rules` with `turn` to move and no clocks.
    #[must_use]
    pub fn empty(rules: RuleSet, turn: Color) -> Position {
        Position {
            rules,
            board: [None; Square::LIMIT],
            squares: [[None; 8]; 2],
            animals: [0; 2],
            hidden: 0,
            hidden_set: None,
            turn,
            hungry: None,
            clock: None,
            move_number: None,
        }
    }

    /// A position of `rules` with these pieces and `turn` to move.
    ///
    /// # Errors
    /// The first [`PositionError`] of the placement.
    pub fn from_pieces(
        rules: RuleSet,
        turn: Color,
        pieces: impl IntoIterator<Item = (Piece, Square)>,
    ) -> Result<Position, PositionError> {
        let mut pos = Position::empty(rules, turn);
        for (piece, sq) in pieces {
            pos.put(piece, sq)?;
        }
        Ok(pos)
    }

    /// Puts `piece` on `sq`, checking the placement rules.
    ///
    /// # Errors
    /// A [`PositionError`] when the square is taken or not allowed, or the animal is already on
    /// the board in that colour.
    pub fn put(&mut self, piece: Piece, sq: Square) -> Result<(), PositionError> {
        let board = self.rules.board();
        if !board.contains(sq) {
            return Err(PositionError::OffBoard(sq));
        }
        if self.board[sq.index()].is_some() || self.hidden & bit(sq) != 0 {
            return Err(PositionError::Occupied(sq));
        }
        if self.square_of(piece).is_some() {
            return Err(PositionError::DuplicateAnimal(piece));
        }
        if board.is_den(sq) {
            return Err(PositionError::InDen(piece, sq));
        }
        if board.is_water(sq) && !self.rules.swims(piece.animal) {
            return Err(PositionError::InWater(piece, sq));
        }
        self.board[sq.index()] = Some(piece);
        self.squares[piece.color.index()][piece.animal as usize] = Some(sq);
        self.animals[piece.color.index()] |= 1 << piece.animal as u8;
        Ok(())
    }

    /// Puts a face-down tile on `sq` (flip game only).
    ///
    /// # Errors
    /// [`PositionError::HiddenTile`] on a Jungle board, or the square is taken or off the board.
    pub fn put_hidden(&mut self, sq: Square) -> Result<(), PositionError> {
        if self.rules.is_jungle() {
            return Err(PositionError::HiddenTile(sq));
        }
        if !self.rules.board().contains(sq) {
            return Err(PositionError::OffBoard(sq));
        }
        if self.board[sq.index()].is_some() || self.hidden & bit(sq) != 0 {
            return Err(PositionError::Occupied(sq));
        }
        self.hidden |= bit(sq);
        Ok(())
    }

    /// Takes whatever piece stands on `sq` off the board.
    pub(crate) fn remove(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.board[sq.index()].take()?;
        self.squares[piece.color.index()][piece.animal as usize] = None;
        self.animals[piece.color.index()] &= !(1 << piece.animal as u8);
        Some(piece)
    }

    /// The rule set.
    #[must_use]
    pub const fn rules(&self) -> RuleSet {
        self.rules
    }

    /// The board geometry of the rule set.
    #[must_use]
    pub fn board(&self) -> &'static Board {
        self.rules.board()
    }

    /// The side to move.
    #[must_use]
    pub const fn turn(&self) -> Color {
        self.turn
    }

    /// The squares holding a piece.
    #[must_use]
    pub fn occupied(&self) -> SquareSet {
        self.squares
            .iter()
            .flatten()
            .flatten()
            .fold(0, |set, &s| set | bit(s))
    }

    /// The squares holding a piece of `color`.
    #[must_use]
    pub fn occupied_by(&self, color: Color) -> SquareSet {
        self.squares[color.index()]
            .iter()
            .flatten()
            .fold(0, |set, &s| set | bit(s))
    }

    /// The piece on `sq`, if any.
    #[must_use]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// The square of `piece`, if it is on the board.
    #[must_use]
    pub fn square_of(&self, piece: Piece) -> Option<Square> {
        self.squares[piece.color.index()][piece.animal as usize]
    }

    /// The animals of `color` on the board: bit `a` for animal `a` (0 = rat .. 7 = elephant).
    #[must_use]
    pub const fn animal_set(&self, color: Color) -> u8 {
        self.animals[color as usize]
    }

    /// All pieces with their squares: Red before Blue, strongest animal first.
    pub fn pieces(&self) -> impl Iterator<Item = (Piece, Square)> + '_ {
        Color::ALL.into_iter().flat_map(move |c| {
            Animal::ALL.into_iter().rev().filter_map(move |a| {
                let piece = Piece::new(c, a);
                self.square_of(piece).map(|s| (piece, s))
            })
        })
    }

    /// The pieces of `color` with their squares, strongest first.
    pub fn pieces_of(&self, color: Color) -> impl Iterator<Item = (Piece, Square)> + '_ {
        self.pieces().filter(move |(p, _)| p.color == color)
    }

    /// Number of pieces of `color` on the board.
    #[must_use]
    pub fn count(&self, color: Color) -> usize {
        self.animals[color.index()].count_ones() as usize
    }

    /// Face-down tiles (flip game).
    #[must_use]
    pub const fn hidden(&self) -> SquareSet {
        self.hidden
    }

    /// Whether a side has no piece left (and no face-down tile that could be one): the game is
    /// over, and this position has no moves.
    #[must_use]
    #[inline]
    pub fn is_game_over(&self) -> bool {
        if self.hidden == 0 {
            return Color::ALL.iter().any(|&c| self.count(c) == 0);
        }
        // Hidden animals count (RULES.md 8): a side is out only with none face up or down.
        self.hidden_set()
            .is_some_and(|h| Color::ALL.iter().any(|&c| self.count(c) == 0 && !h.has(c)))
    }

    /// Whether the half-move clock has reached the rule set's draw limit (no clock counts as
    /// 0): the game is drawn, and no move may be played (RULES.md 5 rule 1).
    #[must_use]
    pub fn at_clock_limit(&self) -> bool {
        self.rules.has_clock() && self.clock.unwrap_or(0) >= self.rules.clock_limit()
    }

    /// The animals under the face-down tiles (RULES.md 8): as the text's `?:` field named
    /// them, or, where revealed animals and face-down tiles number 16 (nothing captured yet),
    /// every animal not face up. Empty without face-down tiles; `None` where it is not known.
    #[must_use]
    pub fn hidden_set(&self) -> Option<HiddenSet> {
        if self.hidden == 0 {
            return Some(HiddenSet::EMPTY);
        }
        self.hidden_set.or_else(|| {
            let tiles = self.hidden.count_ones() as usize;
            let revealed = self.count(Color::Red) + self.count(Color::Blue);
            (tiles + revealed == 16).then(|| HiddenSet::unrevealed(self))
        })
    }

    /// Gives clock 0 to a position with face-down tiles and a known hidden set that has none:
    /// its canonical text prints the clock, also 0 (RULES.md 8), so a text or record without
    /// one means clock 0, and the printed text parses to this same position. Every way in
    /// (the text parser, a packed record) calls it once the position is whole.
    pub fn settle_chance_clock(&mut self) {
        if self.hidden != 0 && self.clock.is_none() && self.hidden_set().is_some() {
            self.clock = Some(0);
        }
    }

    /// Sets the animals under the face-down tiles (`None`: not known).
    ///
    /// # Errors
    /// A rule set without face-down tiles, a set of another size than the tiles, or an animal
    /// that stands face up.
    pub fn set_hidden_set(&mut self, set: Option<HiddenSet>) -> Result<(), HiddenSetError> {
        let Some(set) = set else {
            self.hidden_set = None;
            return Ok(());
        };
        if self.rules != RuleSet::Flip4x4 {
            return Err(HiddenSetError::NotFlip(self.rules.name()));
        }
        let tiles = self.hidden.count_ones() as usize;
        if set.len() != tiles {
            return Err(HiddenSetError::WrongCount {
                named: set.len(),
                tiles,
            });
        }
        if let Some((p, sq)) = set.pieces().find_map(|p| Some((p, self.square_of(p)?))) {
            return Err(HiddenSetError::Revealed(p, sq));
        }
        // Where the set can be deduced, it is not kept: equal states compare equal.
        self.hidden_set = None;
        if self.hidden_set() != Some(set) {
            self.hidden_set = Some(set);
        }
        Ok(())
    }

    /// Turns the face-down tile on `sq` up as `piece`, the rest of the hidden set being `rest`:
    /// the flip's outcome, the opponent to move, clock 0 (RULES.md 8).
    pub(crate) fn reveal(&mut self, sq: Square, piece: Piece, rest: HiddenSet) {
        let mover = self.turn;
        self.hidden &= !bit(sq);
        self.put(piece, sq)
            .expect("a hidden animal is not on the board, and the flip board has no dens or water");
        self.hidden_set = None;
        if self.hidden_set() != Some(rest) {
            self.hidden_set = Some(rest);
        }
        self.turn = mover.other();
        if self.clock.is_some() || self.rules.has_clock() {
            self.clock = Some(0);
        }
        if let (Some(n), Color::Blue) = (self.move_number, mover) {
            self.move_number = Some(n.saturating_add(1));
        }
    }

    /// The half-move clock of the text, if it had one.
    #[must_use]
    pub const fn clock(&self) -> Option<u32> {
        self.clock
    }

    /// The move number of the text, if it had one.
    #[must_use]
    pub const fn move_number(&self) -> Option<u32> {
        self.move_number
    }

    /// Sets or clears the half-move clock.
    ///
    /// # Errors
    /// The clock is above the rule set's limit ([`RuleSet::clock_limit`]), or the rule set has
    /// no clock at all (Clesto).
    pub fn set_clock(&mut self, clock: Option<u32>) -> Result<(), ClockError> {
        if let Some(c) = clock {
            let limit = self.rules.clock_limit();
            if c > limit || !self.rules.has_clock() {
                return Err(ClockError {
                    rules: self.rules.name(),
                    clock: c,
                    limit,
                });
            }
        }
        self.clock = clock;
        Ok(())
    }

    /// Gives the position a half-move clock for the clock rule: `clock` when given, else the one
    /// it has (from its text), else 0. A rule set without a clock keeps none.
    ///
    /// # Errors
    /// The clock is above the rule set's limit ([`RuleSet::clock_limit`]), or the rule set has
    /// no clock.
    pub fn set_rule_clock(&mut self, clock: Option<u32>) -> Result<(), ClockError> {
        if !self.rules.has_clock() {
            // No clock rule: only an explicit clock is an error.
            return self.set_clock(clock);
        }
        self.set_clock(Some(clock.or(self.clock).unwrap_or(0)))
    }

    /// Sets or clears the move number (written only together with a clock).
    pub fn set_move_number(&mut self, number: Option<u32>) {
        self.move_number = number;
    }

    /// Sets the side to move (the hungry set becomes the canonical one: it belongs to the
    /// mover).
    pub fn set_turn(&mut self, turn: Color) {
        self.turn = turn;
        self.hungry = None;
    }

    /// The same position without clocks: what the tables see.
    #[must_use]
    pub fn without_clocks(&self) -> Position {
        Position {
            clock: None,
            move_number: None,
            ..self.clone()
        }
    }

    /// The position mirrored across the central file (`a` <-> `g`); same side to move.
    #[must_use]
    pub fn mirrored(&self) -> Position {
        self.transformed(|b, s| b.mirror_file(s), false)
    }

    /// The position with ranks flipped and colours swapped, and the other side to move: the
    /// same game seen from the other side.
    #[must_use]
    pub fn color_flipped(&self) -> Position {
        self.transformed(|b, s| b.mirror_rank(s), true)
    }

    fn transformed(&self, map: impl Fn(&Board, Square) -> Square, swap: bool) -> Position {
        let board = self.board();
        let mut out = Position::empty(self.rules, if swap { self.turn.other() } else { self.turn });
        out.clock = self.clock;
        out.move_number = self.move_number;
        for (piece, sq) in self.pieces() {
            let color = if swap {
                piece.color.other()
            } else {
                piece.color
            };
            out.put(Piece::new(color, piece.animal), map(board, sq))
                .expect("the board's symmetries map legal placements to legal placements");
        }
        for sq in board.squares().filter(|&s| self.hidden & bit(s) != 0) {
            out.put_hidden(map(board, sq)).expect("symmetric board");
        }
        out.hidden_set = self.hidden_set.map(|h| {
            h.pieces()
                .map(|p| {
                    if swap {
                        Piece::new(p.color.other(), p.animal)
                    } else {
                        p
                    }
                })
                .fold(HiddenSet::EMPTY, HiddenSet::with)
        });
        if let Some(hungry) = self.hungry {
            let mapped = board
                .squares()
                .filter(|&s| hungry & bit(s) != 0)
                .fold(0, |set, s| set | bit(map(board, s)));
            out.set_hungry(Some(mapped))
                .expect("the symmetries map the mover's animals to the mover's animals");
        }
        out
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self} [{}])", self.rules)
    }
}

/// A half-move clock above the rule set's limit, or given to a game without one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClockError {
    /// The id of the rule set.
    pub rules: &'static str,
    /// The clock given.
    pub clock: u32,
    /// The largest clock the rule set allows.
    pub limit: u32,
}

impl fmt::Display for ClockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.limit == 0 {
            return write!(
                f,
                "half-move clock {} given, but rule set {} has no clock (no move-count rule)",
                self.clock, self.rules
            );
        }
        write!(
            f,
            "half-move clock {} is above the limit of {} for rule set {}",
            self.clock, self.limit, self.rules
        )
    }
}

impl Error for ClockError {}
