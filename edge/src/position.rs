//! A position of any game, parsed with the rule set named at run time or told by its shape.

use std::fmt;

use jtb_probe::{gambit, Position, RuleSet, Wdl};

use crate::{games::EdgeGame, PositionError, RuleFamily, Rules};

/// A position of one of the four games.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnyPosition {
    /// A position of Jungle or the flip game (face-down tiles and all).
    Jungle(Position),
    /// A Clesto position (RULES.md 6): the Jungle board and text, with hungry animals, the
    /// repetition ban and no clock.
    Clesto(Position),
    /// An Animal Gambit position.
    Gambit(gambit::Position),
}

/// How a game ended, for the side that made the last move or turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameEnd {
    /// The result for the side that moved.
    pub result: Wdl,
    /// The side that moved (`red`, `gold`, ...).
    pub mover: &'static str,
    /// Why the game ended (`den entry`, `the opponent has no rabbit left`).
    pub reason: String,
}

/// What playing a move or turn leads to.
// One answer at a time, never stored in bulk: boxing would only add an allocation.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Played {
    /// The game goes on from this position.
    Next(AnyPosition),
    /// The move ended the game.
    End(GameEnd),
}

impl AnyPosition {
    /// Parses `text` under `rules`, or by the board's shape when none is given (9 ranks:
    /// mistboard, 4x4: flip4x4, 8x8: animal-gambit), with the half-move clock set to `clock`
    /// when given (else the text's, else 0).
    ///
    /// # Errors
    /// The text is no position of the rule set, or a clock is given for a game without one or
    /// above its limit.
    pub fn parse(
        text: &str,
        rules: Option<Rules>,
        clock: Option<u32>,
    ) -> Result<AnyPosition, PositionError> {
        match rules.or_else(|| Rules::of_text(text)) {
            Some(rules) => each_family!(rules, |r, F| F::parse(text, Some(r), clock)),
            // No type claims the shape: the Jungle family's parser tells its own apart.
            None => <RuleSet as RuleFamily>::parse(text, None, clock),
        }
    }

    /// Parses `text` as [`AnyPosition::parse`] does, keeping the text's clock as it is (none
    /// when it gives none; 0 for face-down tiles with a known hidden set, as the text prints
    /// it, RULES.md 8): the position as its text says it.
    ///
    /// # Errors
    /// The text is no position of the rule set.
    pub fn from_text(text: &str, rules: Option<Rules>) -> Result<AnyPosition, PositionError> {
        match rules.or_else(|| Rules::of_text(text)) {
            Some(rules) => each_family!(rules, |r, F| F::from_text(text, Some(r))),
            None => <RuleSet as RuleFamily>::from_text(text, None),
        }
    }

    /// The position with the clock the clock rule reads: its own, else 0 (as
    /// [`AnyPosition::parse`] gives it).
    ///
    /// # Errors
    /// Its clock is above the rule set's limit.
    pub fn with_rule_clock(mut self) -> Result<AnyPosition, PositionError> {
        each_game!(&mut self, AnyPosition, |pos, G| G::set_rule_clock(pos))?;
        Ok(self)
    }

    /// A position of the Jungle family's rule-set type as the game it is: Clesto's as
    /// [`AnyPosition::Clesto`], Jungle's and the flip game's as [`AnyPosition::Jungle`]. The one
    /// place where the edge tells Clesto from the other rule sets of its type.
    #[must_use]
    pub fn of_family(pos: Position) -> AnyPosition {
        if pos.rules() == RuleSet::Clesto {
            AnyPosition::Clesto(pos)
        } else {
            AnyPosition::Jungle(pos)
        }
    }

    /// The position's rule set.
    #[must_use]
    pub fn rules(&self) -> Rules {
        each_game!(self, AnyPosition, |pos, G| G::rules(pos))
    }

    /// The side to move (`red`, `blue`; `gold`, `silver`).
    #[must_use]
    pub fn side_to_move(&self) -> &'static str {
        each_game!(self, AnyPosition, |pos, G| G::side_to_move(pos))
    }

    /// The half-move clock the text gave (`None` when it gave none, and in Animal Gambit).
    #[must_use]
    pub fn clock(&self) -> Option<u32> {
        each_game!(self, AnyPosition, |pos, G| G::clock(pos))
    }

    /// The legal moves (Animal Gambit: every distinct turn) in their canonical text, sorted
    /// as ASCII strings. A flip position with face-down tiles lists a flip of each tile
    /// (`?a4`, RULES.md 8) beside the revealed animals' steps. None once the game is over.
    #[must_use]
    pub fn moves(&self) -> Vec<String> {
        each_game!(self, AnyPosition, |pos, G| G::moves(pos))
    }

    /// A turn played one step at a time (the API's `/steps`: the board after the steps so far,
    /// the steps that may follow, the turn they make where it may end); `None` in a game whose
    /// moves are single steps (every game but Animal Gambit).
    ///
    /// # Errors
    /// The steps are no legal beginning of a turn.
    #[must_use]
    pub fn steps_json(&self, steps: &str) -> Option<Result<serde_json::Value, String>> {
        each_game!(self, AnyPosition, |pos, G| G::steps_json(pos, steps))
    }

    /// The API's object of the legal moves (`GET /api/v1/{rules}/moves`): each with the
    /// position it gives or how it ends the game, and what the game adds (a flip's outcomes,
    /// Clesto's starvations, Animal Gambit's steps of a turn); no tables needed.
    #[must_use]
    pub fn moves_json(&self) -> serde_json::Value {
        each_game!(self, AnyPosition, |pos, G| G::moves_json(pos))
    }

    /// Whether no move can be played: a side has no pieces left, the side to move has no
    /// legal move or turn, or the half-move clock has reached the rule set's draw limit.
    #[must_use]
    pub fn is_game_over(&self) -> bool {
        each_game!(self, AnyPosition, |pos, G| G::is_game_over(pos))
    }

    /// Plays `mv`, a move (`b3b4`) or an Animal Gambit turn in Arimaa notation, in any legal
    /// order of its steps.
    ///
    /// # Errors
    /// The move is not legal here, the game is over, or the position has face-down tiles (a
    /// flip's outcome is chance).
    pub fn play(&self, mv: &str) -> Result<Played, PositionError> {
        each_game!(self, AnyPosition, |pos, G| G::play(pos, mv))
    }
}

impl fmt::Display for AnyPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        each_game!(self, AnyPosition, |pos, _G| pos.fmt(f))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::is_gambit_shape;

    #[test]
    fn the_shape_tells_the_game() {
        let pos = AnyPosition::parse("7/7/7/7/7/3l3/7/3E3/7 r", None, None).unwrap();
        assert_eq!(pos.rules(), Rules::Jungle(RuleSet::Mistboard));
        let pos = AnyPosition::parse("4/4/4/c2L r", None, None).unwrap();
        assert_eq!(pos.rules(), Rules::Jungle(RuleSet::Flip4x4));
        assert!(is_gambit_shape("8/8/8/8/8/8/8/8 g"));
    }

    #[test]
    fn a_clesto_position_is_clestos_and_stays_so_move_after_move() {
        let clesto = Some(Rules::Jungle(RuleSet::Clesto));
        let pos = AnyPosition::parse("1r5/1c5/7/7/7/7/7/7/6D b", clesto, None).unwrap();
        assert!(matches!(pos, AnyPosition::Clesto(_)), "{pos:?}");
        assert_eq!(pos.rules(), Rules::Jungle(RuleSet::Clesto));
        let mv = pos.moves()[0].clone();
        let Played::Next(next) = pos.play(&mv).unwrap() else {
            panic!("the game goes on after {mv}")
        };
        assert!(matches!(next, AnyPosition::Clesto(_)), "{next:?}");
        let text = AnyPosition::from_text("1r5/1c5/7/7/7/7/7/7/6D b", clesto).unwrap();
        assert!(matches!(text, AnyPosition::Clesto(_)));
        // The same board under mistboard is Jungle's.
        let jungle = AnyPosition::parse("1r5/1c5/7/7/7/7/7/7/6D b", None, None).unwrap();
        assert!(matches!(jungle, AnyPosition::Jungle(_)));
    }

    #[test]
    fn a_clock_for_animal_gambit_is_refused() {
        let text = "7/7/7/7/7/3l3/7/3E3/7 r";
        let err = AnyPosition::parse(text, Some(Rules::AnimalGambit), Some(3)).unwrap_err();
        assert!(matches!(err, PositionError::Clock(_)), "{err}");
    }

    #[test]
    fn a_move_plays_and_an_illegal_one_is_refused() {
        let pos = AnyPosition::parse("7/7/7/7/7/3l3/7/3E3/7 r 10", None, None).unwrap();
        let moves = pos.moves();
        // d1 is red's own den.
        assert_eq!(moves, ["d2c2", "d2d3", "d2e2"]);
        let Played::Next(next) = pos.play("d2d3").unwrap() else {
            panic!("the game goes on")
        };
        assert_eq!(next.side_to_move(), "blue");
        assert!(matches!(
            pos.play("d2d5"),
            Err(PositionError::IllegalMove { .. })
        ));
        assert!(matches!(
            pos.play("zz"),
            Err(PositionError::IllegalMove { .. })
        ));
    }

    #[test]
    fn at_the_clock_limit_the_game_is_over() {
        let pos = AnyPosition::parse("7/7/7/7/7/3l3/7/3E3/7 r 100", None, None).unwrap();
        assert!(pos.moves().is_empty());
        assert!(pos.is_game_over());
        assert!(matches!(
            pos.play("d2d3"),
            Err(PositionError::ClockLimit(100))
        ));
    }

    #[test]
    fn a_flip_has_its_outcomes_where_the_hidden_set_is_known() {
        let pos = AnyPosition::parse("?3/4/1?2/c2L r 12 ?:Tw", None, None).unwrap();
        let outcomes = pos.flip_outcomes("?a4").unwrap();
        let shown: Vec<(char, usize, String)> = outcomes
            .iter()
            .map(|(a, of, p)| (*a, *of, p.to_string()))
            .collect();
        assert_eq!(
            shown,
            [
                ('T', 2, "T3/4/1?2/c2L b 0 ?:w".to_owned()),
                ('w', 2, "w3/4/1?2/c2L b 0 ?:T".to_owned())
            ]
        );
        assert!(matches!(
            pos.flip_outcomes("?c3"),
            Err(PositionError::IllegalMove { .. })
        ));
        assert!(matches!(
            pos.flip_outcomes("d1d2"),
            Err(PositionError::IllegalMove { .. })
        ));
        let unknown = AnyPosition::parse("?3/4/1?2/c2L r", None, None).unwrap();
        assert_eq!(
            unknown.flip_outcomes("?a4"),
            Err(PositionError::NoHiddenSet)
        );
    }

    /// RULES.md 8, end rule 4: a position at clock 40 is drawn, face-down tiles or not.
    #[test]
    fn a_face_down_position_at_clock_40_has_no_moves() {
        let pos = AnyPosition::parse("?3/4/1?2/c2L r 40 ?:Tw", None, None).unwrap();
        assert!(pos.moves().is_empty() && pos.is_game_over());
        let pos = AnyPosition::parse("?3/4/1?2/c2L r 39 ?:Tw", None, None).unwrap();
        assert_eq!(pos.moves(), ["?a4", "?b2", "d1c1", "d1d2"]);
    }

    #[test]
    fn a_face_down_position_lists_flips_and_refuses_play() {
        let pos = AnyPosition::parse("?3/1e2/4/L2R r", None, None).unwrap();
        assert!(pos.moves().contains(&"?a4".to_owned()));
        assert!(matches!(pos.play("a1a2"), Err(PositionError::FaceDown)));
    }
}
