//! Position text: canonical round trips and an error, never a panic, for malformed input.

use jtb_probe::{ParseError, Position, PositionError, RuleSet};

fn err(text: &str) -> ParseError {
    Position::parse(text, None).expect_err(text)
}

fn err_in(rules: RuleSet, text: &str) -> ParseError {
    Position::parse(text, Some(rules)).expect_err(text)
}

#[test]
fn canonical_text_round_trips() {
    for text in [
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1",
        "7/3R3/3e3/7/7/7/7/7/7 b",
        "7/7/7/7/7/7/7/7/7 r 100",
        "4/4/4/c2L r",
        "?c??/4/L3/4 b 40 3",
        "4/4/4/4 r 0",
    ] {
        let p = Position::parse(text, None).unwrap();
        assert_eq!(p.to_string(), text);
    }
}

#[test]
fn the_board_shape_picks_the_rule_set() {
    assert_eq!(
        Position::parse("4/4/4/c2L r", None).unwrap().rules(),
        RuleSet::Flip4x4
    );
    assert_eq!(
        "7/7/7/7/7/7/7/7/7 r".parse::<Position>().unwrap().rules(),
        RuleSet::Mistboard
    );
    let p = Position::parse("7/7/7/7/7/7/7/7/7 r", Some(RuleSet::Leiden)).unwrap();
    assert_eq!(p.rules(), RuleSet::Leiden);
}

#[test]
fn every_malformed_text_names_its_problem() {
    assert_eq!(err(""), ParseError::Empty);
    assert_eq!(err("   "), ParseError::Empty);
    assert_eq!(err("7/7/7/7/7/7/7/7/7"), ParseError::MissingSide);
    assert_eq!(err("7/7/7/7/7/7/7/7 r"), ParseError::RankCount(8));
    assert_eq!(
        err("7/7/7/7/7/7/7/6/7 r"),
        ParseError::RankLength {
            rank: 2,
            found: 6,
            expected: 7
        }
    );
    assert_eq!(
        err("8/7/7/7/7/7/7/7/7 r"),
        ParseError::RankLength {
            rank: 9,
            found: 8,
            expected: 7
        }
    );
    assert_eq!(
        err("7/7/7/7/7/7/7/7/6X r"),
        ParseError::UnknownLetter {
            rank: 1,
            letter: 'X'
        }
    );
    assert_eq!(
        err("7/7/7/34/7/7/7/7/7 r"),
        ParseError::NonCanonicalDigits { rank: 6 }
    );
    assert_eq!(
        err("7/7/7/07/7/7/7/7/7 r"),
        ParseError::NonCanonicalDigits { rank: 6 }
    );
    assert!(matches!(
        err("7/7/7/7/7/7/7/7/E5E r"),
        ParseError::Position(PositionError::DuplicateAnimal(_))
    ));
    assert!(matches!(
        err("3E3/7/7/7/7/7/7/7/7 r"),
        ParseError::Position(PositionError::InDen(..))
    ));
    assert!(matches!(
        err("7/7/7/7/7/1W5/7/7/7 r"),
        ParseError::Position(PositionError::InWater(..))
    ));
    assert!(matches!(
        err("7/7/7/7/7/?6/7/7/7 r"),
        ParseError::Position(PositionError::HiddenTile(_))
    ));
    assert_eq!(err("7/7/7/7/7/7/7/7/7 R"), ParseError::BadSide("R".into()));
    assert_eq!(err("7/7/7/7/7/7/7/7/7 w"), ParseError::BadSide("w".into()));
    assert_eq!(
        err("7/7/7/7/7/7/7/7/7 r x"),
        ParseError::BadClock("x".into())
    );
    assert_eq!(
        err("7/7/7/7/7/7/7/7/7 r -1"),
        ParseError::BadClock("-1".into())
    );
    assert_eq!(
        err("7/7/7/7/7/7/7/7/7 r 01"),
        ParseError::BadClock("01".into())
    );
    assert!(matches!(
        err("7/7/7/7/7/7/7/7/7 r 101"),
        ParseError::ClockTooHigh(_)
    ));
    assert!(matches!(err("4/4/4/4 r 41"), ParseError::ClockTooHigh(_)));
    assert_eq!(
        err("7/7/7/7/7/7/7/7/7 r 0 0"),
        ParseError::BadMoveNumber("0".into())
    );
    assert_eq!(
        err("7/7/7/7/7/7/7/7/7 r 0 1 x"),
        ParseError::TrailingText("x".into())
    );
    assert_eq!(
        err_in(RuleSet::Mistboard, "4/4/4/4 r"),
        ParseError::WrongShape {
            rules: RuleSet::Mistboard,
            ranks: 4
        }
    );
    assert_eq!(
        err_in(RuleSet::Flip4x4, "7/7/7/7/7/7/7/7/7 r"),
        ParseError::WrongShape {
            rules: RuleSet::Flip4x4,
            ranks: 9
        }
    );
    // Messages name the problem and the place.
    assert_eq!(
        err("7/7/7/7/7/1W5/7/7/7 r").to_string(),
        "red wolf `W` on b4 stands in water (only rats swim, and dogs in clesto)"
    );
    assert_eq!(
        err("7/7/7/7/7/7/7/7/6X r").to_string().split(':').next(),
        Some("rank 1")
    );
}

#[test]
fn rule_sets_parse_and_print_their_names() {
    for r in RuleSet::ALL {
        assert_eq!(r.name().parse::<RuleSet>(), Ok(r));
        assert_eq!(r.to_string(), r.name());
    }
    assert!("chess"
        .parse::<RuleSet>()
        .unwrap_err()
        .to_string()
        .contains("chess"));
    assert_eq!(RuleSet::default(), RuleSet::Mistboard);
}
