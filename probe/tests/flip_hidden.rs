//! The flip game's face-down tiles (RULES.md 8): the hidden set's `?:` field, its Decisions,
//! and what a flip reveals.

use jtb_probe::{
    Animal, Color, EndReason, HiddenSet, Outcome, ParseError, Piece, Position, RuleSet, Square, Wdl,
};

fn pos(text: &str) -> Position {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn sq(name: &str) -> Square {
    Square::parse(name, RuleSet::Flip4x4.board()).unwrap()
}

#[test]
fn the_field_is_read_in_any_order_and_printed_red_first_in_ladder_order_last() {
    let p = pos("?3/4/1?2/c2L r 12 ?:wT");
    assert_eq!(p.to_string(), "?3/4/1?2/c2L r 12 ?:Tw");
    assert_eq!(p.hidden_set().unwrap().to_string(), "Tw");
    // The clock is printed, also 0, whenever the field is.
    assert_eq!(
        pos("?3/4/1?2/c2L b ?:Tw").to_string(),
        "?3/4/1?2/c2L b 0 ?:Tw"
    );
    // A round trip gives the same position.
    assert_eq!(pos(&p.to_string()), p);
}

/// Found by fuzzing (`fuzz/fuzz_targets/position_text.rs`): a text with face-down tiles, a
/// known hidden set and no clock printed with clock 0 and parsed back with clock 0, another
/// position than the one it was printed from.
#[test]
fn a_known_hidden_set_without_a_clock_is_clock_0_as_its_text_prints() {
    for text in ["2?1/4/1??1/L2e r ?:TwR", "????/????/????/???L r"] {
        let p = pos(text);
        assert_eq!(p.clock(), Some(0), "{text}");
        assert_eq!(pos(&p.to_string()), p, "{text}");
    }
    // Without a known hidden set nothing is printed after the side, and no clock is invented.
    assert_eq!(pos("?3/4/1?2/c2L r").clock(), None);
}

/// Decision: with nothing captured (revealed animals and face-down tiles number 16) the hidden
/// set is every animal not face up, and the field may be left out.
#[test]
fn with_nothing_captured_the_hidden_set_is_deduced() {
    let p = pos("????/????/????/???L r");
    let h = p.hidden_set().unwrap();
    assert_eq!(h.len(), 15);
    assert!(!h.contains(Piece::new(Color::Red, Animal::Lion)));
    assert_eq!(p.to_string(), "????/????/????/???L r 0 ?:ETPWDCReltpwdcr");
    // Naming it gives the same position.
    assert_eq!(
        pos("????/????/????/???L r 0 ?:ETPWDCReltpwdcr"),
        pos("????/????/????/???L r 0")
    );
}

/// Decision: after captures, a position with face-down tiles and no `?:` field parses (its
/// moves can be listed) but its hidden set is not known.
#[test]
fn without_the_field_after_captures_the_hidden_set_is_unknown() {
    let p = pos("?3/4/1?2/c2L r");
    assert_eq!(p.hidden_set(), None);
    assert_eq!(p.flips(), vec![sq("a4"), sq("b2")]);
    assert_eq!(p.flip_outcomes(sq("a4")), None);
    assert_eq!(p.to_string(), "?3/4/1?2/c2L r");
}

#[test]
fn a_field_that_does_not_match_the_board_is_refused_naming_the_problem() {
    let err = |text: &str| -> String {
        match text.parse::<Position>() {
            Err(e @ ParseError::Hidden(_)) => e.to_string(),
            other => panic!("{text}: {other:?}"),
        }
    };
    assert!(
        err("?3/4/1?2/c2L r ?:T").contains("names 1 animal, but the board has 2 face-down tiles")
    );
    assert!(err("?3/4/1?2/c2L r ?:TT").contains("red tiger `T` twice"));
    assert!(err("?3/4/1?2/c2L r ?:Lw").contains("red lion `L`, which stands face up on d1"));
    assert!(err("?3/4/1?2/c2L r ?:Tx").contains("`x` is no animal's letter"));
    // Only the flip game has face-down tiles.
    let jungle = Position::parse("7/7/7/7/7/3l3/7/3E3/7 r ?:T", None).unwrap_err();
    assert!(jungle
        .to_string()
        .contains("rule set mistboard has no face-down tiles"));
    let clesto = Position::parse("7/7/7/7/7/3l3/7/3E3/7 r ?:T", Some(RuleSet::Clesto)).unwrap_err();
    assert!(clesto
        .to_string()
        .contains("rule set clesto has no face-down tiles"));
    let gambit = "8/8/8/3E4/8/8/r7/7R g ?:T"
        .parse::<jtb_probe::gambit::Position>()
        .unwrap_err();
    assert!(gambit.to_string().contains("unexpected `?:T`"), "{gambit}");
}

#[test]
fn a_flip_reveals_each_hidden_animal_with_the_same_chance() {
    let p = pos("?3/4/1?2/c2L r 12 ?:Tw");
    let outcomes = p.flip_outcomes(sq("a4")).unwrap();
    let shown: Vec<(char, usize, String)> = outcomes
        .iter()
        .map(|o| (o.piece.letter(), o.of, o.position.to_string()))
        .collect();
    assert_eq!(
        shown,
        vec![
            ('T', 2, "T3/4/1?2/c2L b 0 ?:w".to_owned()),
            ('w', 2, "w3/4/1?2/c2L b 0 ?:T".to_owned()),
        ]
    );
    // A revealed square has no flip.
    assert_eq!(p.flip_outcomes(sq("d1")), None);
}

/// End rule 1: hidden animals count; a side with none face up or face down has lost.
#[test]
fn hidden_animals_count_for_the_end_of_the_game() {
    // Blue shows nothing but has a wolf face down: the game goes on.
    assert!(!pos("?3/4/4/3L r ?:w").is_game_over());
    // Blue has nothing anywhere: over.
    assert!(pos("?3/4/4/3L r ?:T").is_game_over());
}

/// End rule 1 after a capture: taking the opponent's last face-up animal does not end the game
/// while it has one face down; taking it when its hidden animals are all the mover's does.
#[test]
fn a_capture_of_the_last_face_up_animal_ends_the_game_only_without_hidden_ones() {
    let play = |text: &str, mv: &str| {
        let p = pos(text);
        let mv = p
            .revealed_moves()
            .into_iter()
            .find(|m| m.to_string() == mv)
            .unwrap();
        p.play(mv).unwrap()
    };
    match play("?3/4/4/2cL r 7 ?:w", "d1c1") {
        Outcome::Ongoing(next) => {
            assert_eq!(next.to_string(), "?3/4/4/2L1 b 0 ?:w");
            assert!(!next.is_game_over());
        }
        other => panic!("the game goes on: {other:?}"),
    }
    assert_eq!(
        play("?3/4/4/2cL r 7 ?:T", "d1c1"),
        Outcome::Over {
            result: Wdl::Win,
            reason: EndReason::LastPieceTaken
        }
    );
    // A trade of the last face-up animals: the game goes on while each side has one face
    // down, and the side without one has lost.
    match play("??2/4/4/2lL r 7 ?:Ww", "d1c1") {
        Outcome::Ongoing(next) => assert_eq!(next.to_string(), "??2/4/4/4 b 0 ?:Ww"),
        other => panic!("the game goes on: {other:?}"),
    }
    assert_eq!(
        play("?3/4/4/2lL r 7 ?:w", "d1c1"),
        Outcome::Over {
            result: Wdl::Loss,
            reason: EndReason::OwnLastAnimalTraded
        }
    );
    assert_eq!(
        play("?3/4/4/2lL r 7 ?:W", "d1c1"),
        Outcome::Over {
            result: Wdl::Win,
            reason: EndReason::LastPieceTaken
        }
    );
}

#[test]
fn the_colour_flip_swaps_the_hidden_set_too() {
    let p = pos("?3/4/1?2/c2L r 12 ?:Tw");
    let flipped = p.color_flipped();
    assert_eq!(flipped.hidden_set().unwrap().to_string(), "Wt");
    assert_eq!(flipped.color_flipped(), p);
    assert_eq!(
        HiddenSet::parse("Wt").unwrap(),
        flipped.hidden_set().unwrap()
    );
}
