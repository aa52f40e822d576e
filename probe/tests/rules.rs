//! Every rule and Decision of RULES.md, pinned by hand-made positions.

use jtb_probe::{EndReason, Move, Outcome, Position, RuleSet, Wdl};

fn pos(text: &str) -> Position {
    Position::parse(text, None).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn pos_in(rules: RuleSet, text: &str) -> Position {
    Position::parse(text, Some(rules)).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn moves(p: &Position) -> Vec<String> {
    p.legal_moves().iter().map(ToString::to_string).collect()
}

fn has(p: &Position, mv: &str) -> bool {
    moves(p).iter().any(|m| m == mv)
}

fn play(p: &Position, mv: &str) -> Outcome {
    p.play(Move::parse(mv, p).unwrap()).unwrap()
}

#[test]
fn starting_position_moves() {
    let p = pos("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1");
    assert_eq!(
        moves(&p).join(" "),
        "a1a2 a1b1 a3a2 a3a4 a3b3 b2a2 b2b1 b2b3 b2c2 c3b3 c3c2 c3d3 e3d3 e3e2 e3f3 \
         f2e2 f2f1 f2f3 f2g2 g1f1 g1g2 g3f3 g3g2 g3g4"
    );
}

#[test]
fn rat_steps_into_the_river_and_is_safe_there_from_the_wolf() {
    // Red rat a4 may enter b4; blue wolf a5 cannot.
    let p = pos("7/7/7/7/w6/R6/7/7/7 r");
    assert!(has(&p, "a4b4"));
    let p = pos("7/7/7/7/w6/1R5/7/7/7 b");
    assert!(!has(&p, "a5b5"), "the wolf may not swim");
    // The rat in b4 is beside the wolf on a4, which cannot take it.
    let p = pos("7/7/7/7/7/wR5/7/7/7 b");
    assert!(!has(&p, "a4b4"));
    // The rat swims water to water and leaves the water.
    let p = pos("6r/7/7/7/7/1R5/7/7/7 r");
    for m in ["b4a4", "b4b3", "b4b5", "b4c4"] {
        assert!(has(&p, m), "{m}");
    }
}

#[test]
fn lion_clears_either_river_both_ways_and_captures_on_landing() {
    let p = pos("6r/7/7/7/7/L6/7/7/7 r");
    assert!(has(&p, "a4d4"));
    let p = pos("6r/7/7/7/3L3/7/7/7/7 r");
    assert!(has(&p, "d5a5") && has(&p, "d5g5"));
    let p = pos("6r/7/7/7/7/7/1L5/7/7 r");
    assert!(has(&p, "b3b7"));
    let p = pos("6r/7/5L1/7/7/7/7/7/7 r");
    assert!(has(&p, "f7f3"));
    // Capture on landing: a4 lion takes the blue tiger on d4.
    let p = pos("7/7/7/7/7/L2t3/7/7/7 r");
    assert!(has(&p, "a4d4"));
    match play(&p, "a4d4") {
        Outcome::Over { result, reason } => {
            assert_eq!((result, reason), (Wdl::Win, EndReason::LastPieceTaken))
        }
        other => panic!("{other:?}"),
    }
    // But not onto a stronger piece, nor onto its own.
    assert!(!has(&pos("7/7/7/7/7/L2e3/7/7/7 r"), "a4d4"));
    assert!(!has(&pos("6r/7/7/7/7/L2W3/7/7/7 r"), "a4d4"));
}

#[test]
fn tiger_jumps_like_the_lion_and_only_lengthwise_under_tiger_lengthwise() {
    let sideways = "6r/7/7/7/7/T6/7/7/7 r";
    let lengthwise = "6r/7/7/7/7/7/1T5/7/7 r";
    assert!(has(&pos(sideways), "a4d4"));
    assert!(has(&pos(lengthwise), "b3b7"));
    assert!(!has(&pos_in(RuleSet::TigerLengthwise, sideways), "a4d4"));
    assert!(has(&pos_in(RuleSet::TigerLengthwise, lengthwise), "b3b7"));
    // The lion keeps both jumps under tiger-lengthwise.
    assert!(has(
        &pos_in(RuleSet::TigerLengthwise, "6r/7/7/7/7/L6/7/7/7 r"),
        "a4d4"
    ));
    // Nobody else jumps.
    for animal in ["E", "P", "W", "D", "C"] {
        let p = pos(&format!("6r/7/7/7/7/{animal}6/7/7/7 r"));
        assert!(!has(&p, "a4d4"), "{animal}");
    }
}

#[test]
fn a_rat_of_either_colour_in_the_river_blocks_the_leap() {
    for rat in ["R", "r"] {
        let p = pos(&format!("6c/7/7/7/7/L1{rat}4/7/7/7 r"));
        assert!(!has(&p, "a4d4"), "rat {rat} on c4");
        let p = pos(&format!("6c/7/7/1{rat}5/7/7/1L5/7/7 r"));
        assert!(!has(&p, "b3b7"), "rat {rat} on b6");
    }
    // A rat in the other river does not block.
    assert!(has(&pos("7/7/7/7/7/L3r2/7/7/7 r"), "a4d4"));
}

#[test]
fn traps_and_ranks() {
    // On Red's trap c1 a blue lion is taken by a red cat.
    let p = pos("7/7/7/7/7/7/7/7/1Cl4 r");
    assert!(has(&p, "b1c1"));
    // On its own trap a piece keeps its rank: the blue cat cannot take the red lion on c1.
    let p = pos("7/7/7/7/7/7/7/7/1cL4 b");
    assert!(!has(&p, "b1c1"));
    // Off the trap the cat cannot take the lion.
    assert!(!has(&pos("7/7/7/7/7/7/7/1Cl4/7 r"), "b2c2"));
    // Equal ranks take each other.
    assert!(has(&pos("7/7/7/7/7/7/7/1Ww4/7 r"), "b2c2"));
    // Decision 6: a piece on an enemy trap attacks with its full rank (red lion on blue's trap
    // c9 takes the blue tiger on b9) ...
    let p = pos("1tL4/7/7/7/7/7/7/7/7 r");
    assert!(has(&p, "c9b9"));
    // ... and any defender may take it (the blue cat takes the red lion on d8).
    let p = pos("7/2cL3/7/7/7/7/7/7/7 b");
    assert!(has(&p, "c8d8"));
}

#[test]
fn rat_and_elephant() {
    // The rat on land takes the elephant.
    let p = pos("7/7/7/7/7/3e3/3R3/7/7 r");
    assert!(has(&p, "d3d4"));
    // Never from water.
    let p = pos("7/7/7/7/7/eR5/7/7/7 r");
    assert!(!has(&p, "b4a4"));
    // The elephant never takes the rat, trapped or not (RULES.md example).
    let p = pos("7/7/7/7/7/3e3/3R3/7/7 b");
    assert!(!has(&p, "d4d3"));
    let p = pos("7/3R3/3e3/7/7/7/7/7/7 b");
    assert!(!has(&p, "d7d8"));
    // Under leiden it may.
    let p = pos_in(RuleSet::Leiden, "7/3R3/3e3/7/7/7/7/7/7 b");
    assert!(has(&p, "d7d8"));
    let p = pos_in(RuleSet::Leiden, "7/7/7/7/7/3e3/3R3/7/7 b");
    assert!(has(&p, "d4d3"));
    // Under leiden the rat in water still never takes the elephant.
    assert!(!has(
        &pos_in(RuleSet::Leiden, "7/7/7/7/7/eR5/7/7/7 r"),
        "b4a4"
    ));
}

#[test]
fn the_shoreline() {
    // Rats in water take each other.
    assert!(has(&pos("7/7/7/7/7/1Rr4/7/7/7 r"), "b4c4"));
    // A land rat cannot take a rat in water, nor the reverse ...
    assert!(!has(&pos("7/7/7/7/7/Rr5/7/7/7 r"), "a4b4"));
    assert!(!has(&pos("7/7/7/7/7/rR5/7/7/7 r"), "b4a4"));
    // ... except under leiden, both ways.
    assert!(has(
        &pos_in(RuleSet::Leiden, "7/7/7/7/7/Rr5/7/7/7 r"),
        "a4b4"
    ));
    assert!(has(
        &pos_in(RuleSet::Leiden, "7/7/7/7/7/rR5/7/7/7 r"),
        "b4a4"
    ));
    // A rat in water takes nothing on land.
    assert!(!has(&pos("7/7/7/7/7/cR5/7/7/7 r"), "b4a4"));
    assert!(!has(
        &pos_in(RuleSet::Leiden, "7/7/7/7/7/cR5/7/7/7 r"),
        "b4a4"
    ));
}

#[test]
fn dens() {
    // Any piece stepping into the enemy den wins, whatever its rank.
    let p = pos("7/3R3/7/7/7/7/7/7/4e2 r");
    assert!(has(&p, "d8d9"));
    match play(&p, "d8d9") {
        Outcome::Over { result, reason } => {
            assert_eq!((result, reason), (Wdl::Win, EndReason::DenEntry))
        }
        other => panic!("{other:?}"),
    }
    // No piece enters its own den.
    let p = pos("7/7/7/7/7/7/7/3E3/4e2 r");
    assert!(!has(&p, "d2d1"));
    let p = pos("7/3e3/7/7/7/7/7/7/E6 b");
    assert!(!has(&p, "d8d9"));
    // No legal position has a piece in a den.
    assert!(Position::parse("3R3/7/7/7/7/7/7/7/e6 r", None).is_err());
    assert!(Position::parse("3r3/7/7/7/7/7/7/7/E6 r", None).is_err());
}

#[test]
fn capturing_the_last_piece_wins_and_no_move_loses() {
    let p = pos("7/7/7/7/7/7/7/3We2/7 b");
    match play(&p, "e2d2") {
        Outcome::Over { result, reason } => {
            assert_eq!((result, reason), (Wdl::Win, EndReason::LastPieceTaken))
        }
        other => panic!("{other:?}"),
    }
    // The blue cat in the corner a9 between the red elephant on b9 and lion on a8: both squares
    // hold stronger pieces, so blue has no move.
    let p = pos("cE5/L6/7/7/7/7/7/7/7 b");
    assert!(moves(&p).is_empty());
    assert!(!p.is_game_over());
}

#[test]
fn finished_games_have_no_moves() {
    let p = pos("7/7/7/7/7/7/7/3W3/7 b");
    assert!(p.is_game_over());
    assert!(moves(&p).is_empty());
    let p = pos("4/4/4/4 r");
    assert!(p.is_game_over());
}

#[test]
fn flip_game_captures_and_trades() {
    // Higher takes lower.
    let p = pos("4/4/4/Lc2 r");
    assert!(has(&p, "a1b1"));
    // Lower never moves onto higher.
    let p = pos("4/4/4/Lc2 b");
    assert!(!has(&p, "b1a1"));
    // The rat takes the elephant; the elephant never takes the rat.
    assert!(has(&pos("4/4/4/Re2 r"), "a1b1"));
    assert!(!has(&pos("4/4/4/Er2 r"), "a1b1"));
    // Equal ranks trade: both leave. Last animals trading is a draw.
    let p = pos("4/4/4/Ll2 r");
    match play(&p, "a1b1") {
        Outcome::Over { result, reason } => {
            assert_eq!((result, reason), (Wdl::Draw, EndReason::LastAnimalsTraded))
        }
        other => panic!("{other:?}"),
    }
    // A trade that leaves the mover without animals loses; one that leaves the opponent
    // without animals wins; otherwise play goes on with both pieces gone.
    let p = pos("4/4/4/Ll1e r");
    match play(&p, "a1b1") {
        Outcome::Over { result, reason } => {
            assert_eq!(
                (result, reason),
                (Wdl::Loss, EndReason::OwnLastAnimalTraded)
            )
        }
        other => panic!("{other:?}"),
    }
    let p = pos("4/4/4/Ll1E r");
    match play(&p, "a1b1") {
        Outcome::Over { result, .. } => assert_eq!(result, Wdl::Win),
        other => panic!("{other:?}"),
    }
    let p = pos("4/4/c3/Ll1E r");
    match play(&p, "a1b1") {
        Outcome::Ongoing(next) => assert_eq!(next.to_string(), "4/4/c3/3E b"),
        other => panic!("{other:?}"),
    }
    // Flip tiles have no water: nobody jumps, everybody walks everywhere.
    let p = pos("3c/4/4/L3 r");
    assert_eq!(moves(&p), ["a1a2", "a1b1"]);
}

#[test]
fn play_advances_the_clocks() {
    let p = pos("7/7/7/7/7/7/7/3W3/e6 b 7 12");
    match play(&p, "a1a2") {
        Outcome::Ongoing(next) => assert_eq!(next.to_string(), "7/7/7/7/7/7/7/e2W3/7 r 8 13"),
        other => panic!("{other:?}"),
    }
    // A capture restarts the half-move clock; Red's move keeps the move number.
    let p = pos("7/7/7/7/7/7/7/3Wc2/e6 r 7 12");
    match play(&p, "d2e2") {
        Outcome::Ongoing(next) => assert_eq!(next.to_string(), "7/7/7/7/7/7/7/4W2/e6 b 0 12"),
        other => panic!("{other:?}"),
    }
}
