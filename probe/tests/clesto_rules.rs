//! Every rule and Decision of RULES.md section 6 (Clesto), pinned by hand-made positions.
//!
//! Positions are built from pieces on named squares, so that each test reads as its diagram.

use jtb_probe::{
    bit, EndReason, Move, Outcome, ParseError, Piece, Position, PositionError, RuleSet, Square,
    Wdl, JUNGLE,
};

fn sq(s: &str) -> Square {
    Square::parse(s, &JUNGLE).unwrap()
}

/// A Clesto position: `r` or `b` to move, pieces as `("L", "a4")` (upper case Red).
fn clesto(turn: char, pieces: &[(&str, &str)]) -> Position {
    let mut p = Position::empty(
        RuleSet::Clesto,
        jtb_probe::Color::from_letter(turn).unwrap(),
    );
    for &(letter, at) in pieces {
        let piece = Piece::from_letter(letter.chars().next().unwrap()).unwrap();
        p.put(piece, sq(at))
            .unwrap_or_else(|e| panic!("{letter} {at}: {e}"));
    }
    p
}

fn text(t: &str) -> Position {
    Position::parse(t, Some(RuleSet::Clesto)).unwrap_or_else(|e| panic!("{t}: {e}"))
}

fn moves(p: &Position) -> Vec<String> {
    p.legal_moves().iter().map(ToString::to_string).collect()
}

fn has(p: &Position, mv: &str) -> bool {
    moves(p).iter().any(|m| m == mv)
}

fn mv(p: &Position, m: &str) -> Move {
    Move::parse(m, p).unwrap()
}

fn play(p: &Position, m: &str) -> Outcome {
    p.play(mv(p, m)).unwrap_or_else(|e| panic!("{e}"))
}

fn ongoing(p: &Position, m: &str) -> Position {
    match play(p, m) {
        Outcome::Ongoing(next) => next,
        over => panic!("{m} ended the game: {over:?}"),
    }
}

fn set(squares: &[&str]) -> u128 {
    squares.iter().fold(0, |s, &q| s | bit(sq(q)))
}

#[test]
fn the_dog_swims_like_the_rat_and_no_one_else_does() {
    let p = clesto('r', &[("D", "a4"), ("W", "a6"), ("e", "g9")]);
    assert!(has(&p, "a4b4"), "the dog enters water");
    assert!(!has(&p, "a6b6"), "the wolf does not");
    let p = clesto('r', &[("D", "b5"), ("e", "g9")]);
    for m in ["b5a5", "b5b4", "b5b6", "b5c5"] {
        assert!(has(&p, m), "the dog moves in and out of water: {m}");
    }
    // In the other rule sets a dog in water is no position at all.
    let mut jungle = Position::empty(RuleSet::Mistboard, jtb_probe::Color::Red);
    let dog = Piece::from_letter('D').unwrap();
    assert_eq!(
        jungle.put(dog, sq("b5")),
        Err(PositionError::InWater(dog, sq("b5")))
    );
}

#[test]
fn swimmers_attack_across_the_shoreline_both_ways() {
    // Decision: from water onto land, and from land into water.
    let p = clesto('r', &[("D", "b4"), ("c", "a4")]);
    assert_eq!(
        p.move_kind(mv(&p, "b4a4")),
        Some(jtb_probe::MoveKind::Capture)
    );
    let p = clesto('r', &[("D", "a4"), ("r", "b4")]);
    assert_eq!(
        p.move_kind(mv(&p, "a4b4")),
        Some(jtb_probe::MoveKind::Capture)
    );
    // A rat in water takes a rat on land, and a rat on land one in water.
    let p = clesto('r', &[("R", "b4"), ("r", "a4")]);
    assert!(has(&p, "b4a4"));
    let p = clesto('r', &[("R", "a4"), ("r", "b4")]);
    assert!(has(&p, "a4b4"));
    // A non-swimmer never attacks into water, whatever its rank.
    let p = clesto('r', &[("E", "a4"), ("d", "b4")]);
    assert!(!has(&p, "a4b4"));
}

#[test]
fn the_elephant_takes_the_rat_and_the_rat_takes_it_only_from_land() {
    let p = clesto('r', &[("E", "d3"), ("r", "d4")]);
    assert!(has(&p, "d3d4"), "the elephant may take the rat");
    let p = clesto('b', &[("E", "a3"), ("r", "a2")]);
    assert!(has(&p, "a2a3"), "a rat on land takes the elephant");
    let p = clesto('b', &[("E", "a4"), ("r", "b4")]);
    assert!(!has(&p, "b4a4"), "a rat in water does not");
    // Otherwise rank decides: equal or lower.
    let p = clesto('r', &[("W", "d3"), ("w", "d4"), ("p", "e3")]);
    assert!(has(&p, "d3d4") && !has(&p, "d3e3"));
}

#[test]
fn every_trap_weakens_its_occupant_and_an_attacker_on_a_trap_keeps_its_rank() {
    // Decision: even Red's own trap c1 makes the red lion standing on it rank 0.
    let p = clesto('b', &[("L", "c1"), ("r", "b1")]);
    assert!(has(&p, "b1c1"));
    let p = clesto('r', &[("L", "c9"), ("r", "b9")]);
    assert!(!has(&p, "b9c9") && has(&p, "c9b9"));
    let p = clesto('b', &[("L", "c9"), ("r", "b9")]);
    assert!(has(&p, "b9c9"), "Blue's trap weakens a red animal too");
    // A cat on a trap still attacks as a cat: it takes the cat on b1, not the dog on c2.
    let p = clesto('r', &[("C", "c1"), ("c", "b1"), ("d", "c2")]);
    assert!(has(&p, "c1b1") && !has(&p, "c1c2"));
}

#[test]
fn the_leopard_jumps_sideways_only_and_lion_and_tiger_both_ways() {
    let p = clesto('r', &[("P", "a4"), ("e", "g9")]);
    assert!(has(&p, "a4d4"));
    let p = clesto('r', &[("P", "b3"), ("e", "g9")]);
    assert!(!has(&p, "b3b7"), "no lengthwise leopard jump");
    let p = clesto('r', &[("T", "b3"), ("e", "g9")]);
    assert!(has(&p, "b3b7"));
    let p = clesto('r', &[("T", "d5"), ("L", "b7"), ("e", "g9")]);
    assert!(has(&p, "d5a5") && has(&p, "d5g5") && has(&p, "b7b3"));
    // The jump captures on landing by the usual rules.
    let p = clesto('r', &[("P", "a4"), ("w", "d4")]);
    assert!(has(&p, "a4d4"));
    let p = clesto('r', &[("P", "a4"), ("t", "d4")]);
    assert!(!has(&p, "a4d4"));
    // In mistboard the leopard never jumps.
    let p = Position::parse("6r/7/7/7/7/P6/7/7/7 r", Some(RuleSet::Mistboard)).unwrap();
    assert!(!p.legal_moves().iter().any(|m| m.to_string() == "a4d4"));
}

#[test]
fn only_an_opponents_swimmer_blocks_a_jump() {
    // Decision: the jumper's own swimmers do not block it.
    let p = clesto('r', &[("L", "a4"), ("D", "b4"), ("e", "g9")]);
    assert!(has(&p, "a4d4"));
    let p = clesto('r', &[("L", "a4"), ("R", "c4"), ("e", "g9")]);
    assert!(has(&p, "a4d4"));
    let p = clesto('r', &[("L", "a4"), ("d", "b4"), ("e", "g9")]);
    assert!(!has(&p, "a4d4"), "a blue dog in the path blocks");
    let p = clesto('r', &[("T", "b3"), ("r", "b6"), ("e", "g9")]);
    assert!(!has(&p, "b3b7"), "a blue rat in the path blocks");
}

#[test]
fn the_hungry_set_is_the_movers_animals_that_can_capture() {
    let p = clesto('r', &[("C", "a1"), ("D", "f7"), ("r", "a2"), ("w", "g7")]);
    assert_eq!(
        p.hungry(),
        set(&["a1"]),
        "the cat can take the rat; the dog not the wolf"
    );
    assert!(p.hungry_is_canonical());
    // Blue's animals are not the mover's: the wolf's capture makes nothing hungry here.
    assert_eq!(p.hungry() & set(&["g7"]), 0);
    // Outside Clesto nothing is ever hungry.
    let j = Position::parse("7/7/7/7/7/7/7/r6/C6 r", Some(RuleSet::Mistboard)).unwrap();
    assert_eq!(j.hungry(), 0);
}

#[test]
fn a_hungry_animal_is_refused_the_den_while_another_enters_it() {
    // The red lion on c9 could take the blue cat on b9, so it may not enter d9; the red dog on
    // e9, not hungry, may.
    let p = clesto('r', &[("L", "c9"), ("D", "e9"), ("c", "b9")]);
    assert_eq!(p.hungry(), set(&["c9"]));
    assert!(!has(&p, "c9d9"));
    assert!(has(&p, "e9d9"));
    // The moves a board with face-down tiles lists (the same moves on a Clesto board, which
    // has none) follow hunger too: the server listed c9d9 and then refused it as illegal.
    let listed: Vec<String> = p.revealed_moves().iter().map(ToString::to_string).collect();
    assert_eq!(listed, moves(&p));
    assert_eq!(
        play(&p, "e9d9"),
        Outcome::Over {
            result: Wdl::Win,
            reason: EndReason::DenEntry
        },
        "den entry wins before any starvation"
    );
    // Without the cat the lion enters.
    let p = clesto('r', &[("L", "c9"), ("c", "a5")]);
    assert!(has(&p, "c9d9"));
}

#[test]
fn a_hungry_animal_that_does_not_capture_starves_and_one_capture_feeds_only_its_maker() {
    // The red cat a1 and the red wolf g4 are both hungry; the red elephant d5 is not.
    let p = clesto(
        'r',
        &[
            ("C", "a1"),
            ("W", "g4"),
            ("E", "d5"),
            ("r", "a2"),
            ("w", "g5"),
            ("c", "e8"),
        ],
    );
    assert_eq!(p.hungry(), set(&["a1", "g4"]));
    // The cat takes the rat: the wolf starves.
    let next = ongoing(&p, "a1a2");
    assert_eq!(next.piece_at(sq("a2")), Piece::from_letter('C'));
    assert_eq!(next.piece_at(sq("g4")), None, "the wolf starved");
    assert_eq!(
        p.starvations(mv(&p, "a1a2")).unwrap(),
        vec![(Piece::from_letter('W').unwrap(), sq("g4"))]
    );
    // The cat steps away without capturing: it starves where it lands, and so does the wolf.
    let next = ongoing(&p, "a1b1");
    assert_eq!(next.piece_at(sq("b1")), None);
    assert_eq!(next.piece_at(sq("g4")), None);
    let mut starved = p.starvations(mv(&p, "a1b1")).unwrap();
    starved.sort();
    assert_eq!(
        starved,
        vec![
            (Piece::from_letter('C').unwrap(), sq("b1")),
            (Piece::from_letter('W').unwrap(), sq("g4"))
        ]
    );
    // Every move of this red side leaves the material.
    for m in p.legal_moves() {
        assert!(!p.starvations(m).unwrap().is_empty(), "{m}");
    }
}

#[test]
fn starving_the_last_animal_loses_and_taking_the_last_enemy_wins_first() {
    // The red cat is hungry for the blue rat; stepping away starves it, Red's last animal.
    let p = clesto('r', &[("C", "a1"), ("r", "a2"), ("e", "g9")]);
    assert_eq!(
        play(&p, "a1b1"),
        Outcome::Over {
            result: Wdl::Loss,
            reason: EndReason::Starved
        }
    );
    // The cat and the wolf are both hungry for Blue's last animal. Either one taking it wins
    // at once: the other does not starve first.
    let p = clesto('r', &[("C", "a1"), ("W", "b2"), ("r", "a2")]);
    assert_eq!(p.hungry(), set(&["a1", "b2"]));
    for m in ["a1a2", "b2a2"] {
        assert_eq!(
            play(&p, m),
            Outcome::Over {
                result: Wdl::Win,
                reason: EndReason::LastPieceTaken
            },
            "{m}"
        );
        assert!(p.starvations(mv(&p, m)).unwrap().is_empty(), "{m}");
    }
}

#[test]
fn declaration_comes_before_starvation_so_a_hungry_animal_may_have_no_target() {
    // Blue to move: its rat a8 is hungry for the red rat a7 (and the red rat for it). Blue
    // moves its elephant instead, so the blue rat starves; but Red's hunger was declared on the
    // board as it stood, so the red rat is hungry with nothing left to eat.
    let p = clesto('b', &[("R", "a7"), ("L", "d5"), ("r", "a8"), ("e", "g1")]);
    assert_eq!(p.hungry(), set(&["a8"]));
    let next = ongoing(&p, "g1g2");
    assert_eq!(next.piece_at(sq("a8")), None, "the blue rat starved");
    assert_eq!(next.hungry(), set(&["a7"]));
    assert!(!next.hungry_is_canonical());
    assert_eq!(next.canonical_hungry(), 0);
    assert_eq!(next.to_string(), "7/7/R6/7/3L3/7/7/6e/7 r h:a7");
    // The red rat must starve next, whatever Red does.
    for m in next.legal_moves() {
        let starved = next.starvations(m).unwrap();
        assert_eq!(starved.len(), 1, "{m}");
        assert_eq!(starved[0].0, Piece::from_letter('R').unwrap());
    }
    // Parsed from its text, the state is the same.
    assert_eq!(text("7/7/R6/7/3L3/7/7/6e/7 r h:a7"), next);
}

#[test]
fn an_animal_not_declared_hungry_may_capture_without_starving_anyone() {
    // The red lion a4 can take the blue cat on d4 now, but a starved blue rat blocked the jump
    // at the declaration: `h:-` says the lion is not hungry. It may enter the den too.
    let p = text("7/7/7/7/7/L2c3/7/7/7 r h:-");
    assert_eq!(p.canonical_hungry(), set(&["a4"]));
    assert_eq!(p.hungry(), 0);
    assert!(p.starvations(mv(&p, "a4a5")).unwrap().is_empty());
    let next = ongoing(&p, "a4a5");
    assert!(
        next.piece_at(sq("a5")).is_some(),
        "not hungry, so not starved"
    );
}

#[test]
fn clesto_position_text_has_a_hungry_field_and_no_clock() {
    let t = "7/7/R6/7/3L3/7/7/6e/7 r h:a7";
    assert_eq!(text(t).to_string(), t);
    // A hungry set equal to the canonical one is not written.
    let p = text("7/7/7/7/7/7/7/r6/C6 r h:a1");
    assert!(p.hungry_is_canonical());
    assert_eq!(p.to_string(), "7/7/7/7/7/7/7/r6/C6 r");
    // Several squares print in ASCII order, whatever order they were given in.
    let p = text("7/7/7/7/7/7/7/7/C5W r h:g1,a1");
    assert_eq!(p.to_string(), "7/7/7/7/7/7/7/7/C5W r h:a1,g1");
    let p = text("7/7/7/7/7/7/7/r6/C6 r h:-");
    assert_eq!(p.to_string(), "7/7/7/7/7/7/7/r6/C6 r h:-");

    let err = |t: &str| Position::parse(t, Some(RuleSet::Clesto)).unwrap_err();
    assert!(matches!(
        err("7/7/7/7/7/7/7/r6/C6 r h:b1"),
        ParseError::Position(PositionError::NotHungry { piece: None, .. })
    ));
    assert!(matches!(
        err("7/7/7/7/7/7/7/r6/C6 r h:a2"),
        ParseError::Position(PositionError::NotHungry { piece: Some(_), .. })
    ));
    for bad in ["h:", "h:a1,a1", "h:z9", "h:a1,", "h:a10"] {
        assert!(
            matches!(
                err(&format!("7/7/7/7/7/7/7/r6/C6 r {bad}")),
                ParseError::BadHungry(_)
            ),
            "{bad}"
        );
    }
    assert!(matches!(
        err("7/7/7/7/7/7/7/r6/C6 r 0"),
        ParseError::NoClock(..)
    ));
    assert!(matches!(
        err("7/7/7/7/7/7/7/r6/C6 r h:a1 1"),
        ParseError::NoClock(..)
    ));
    // A dog may swim, but not lie in a den.
    assert!(matches!(
        err("7/7/7/7/7/7/7/7/3D3 r"),
        ParseError::Position(PositionError::InDen(..))
    ));
    assert!(Position::parse("7/7/7/1D5/7/7/7/7/3e3 b", Some(RuleSet::Clesto)).is_err());
    assert!(Position::parse("7/7/7/1D5/7/7/7/7/6e b", Some(RuleSet::Clesto)).is_ok());
    // A hungry set in a rule set without hunger.
    assert!(matches!(
        Position::parse("7/7/7/7/7/7/7/r6/C6 r h:a1", Some(RuleSet::Mistboard)),
        Err(ParseError::Position(PositionError::NoHunger(
            RuleSet::Mistboard
        )))
    ));
    // Messages name the problem.
    assert_eq!(
        err("7/7/7/7/7/7/7/r6/C6 r h:b1").to_string(),
        "hungry set names b1, which is empty (it lists animals of red, to move)"
    );
}

#[test]
fn clesto_has_no_clock() {
    let mut p = text("7/7/7/7/7/7/7/r6/C6 r");
    assert!(p.set_clock(Some(3)).is_err());
    assert!(p.set_rule_clock(None).is_ok());
    assert_eq!(p.clock(), None);
}

#[test]
fn symmetries_carry_the_hungry_set() {
    let p = text("7/7/R6/7/3L3/7/7/6e/7 r h:a7");
    assert_eq!(p.mirrored().to_string(), "7/7/6R/7/3L3/7/7/e6/7 r h:g7");
    assert_eq!(
        p.color_flipped().to_string(),
        "7/6E/7/7/3l3/7/r6/7/7 b h:a3"
    );
}
