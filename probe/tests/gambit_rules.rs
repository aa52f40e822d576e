//! Every rule of RULES.md section 7 (Animal Gambit) with a hand-made position, exact turn
//! counts worked out by hand, and a cross-check against a naive step-by-step enumerator written
//! here from the rule text alone.

use std::collections::{BTreeMap, BTreeSet};

use jtb_probe::gambit::{Board, Next, ParseError, Position, Square, Turn, TurnEnd, TurnError};

/// The position with `pieces` (`"Ed2 rd3"`: letter and square) and `side` to move.
fn setup(pieces: &str, side: char) -> Position {
    try_setup(pieces, side).unwrap_or_else(|e| panic!("{pieces}: {e}"))
}

fn try_setup(pieces: &str, side: char) -> Result<Position, ParseError> {
    format!("{} {side}", board_text(pieces)).parse()
}

/// Position text of a board given rank by rank from rank 1, `.` for empty.
fn grid_text(grid: &[[char; 8]; 8]) -> String {
    let mut out = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for &c in &grid[rank] {
            if c == '.' {
                empty += 1;
            } else {
                if empty > 0 {
                    out.push_str(&empty.to_string());
                    empty = 0;
                }
                out.push(c);
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

/// The board field of the position text with `pieces` (`"Ed2 rd3"`).
fn board_text(pieces: &str) -> String {
    let mut grid = [['.'; 8]; 8];
    for p in pieces.split_whitespace() {
        let b = p.as_bytes();
        grid[(b[2] - b'1') as usize][(b[1] - b'a') as usize] = b[0] as char;
    }
    grid_text(&grid)
}

fn setup_board(pieces: &str) -> Board {
    board_text(pieces).parse().unwrap()
}

fn sq(text: &str) -> Square {
    Square::parse(text).unwrap()
}

fn texts(pos: &Position) -> Vec<String> {
    pos.turns().iter().map(ToString::to_string).collect()
}

/// The turn of `pos` ending on the board with `pieces`, if there is one.
fn turn_to(pos: &Position, pieces: &str) -> Option<Turn> {
    let target = setup_board(pieces);
    pos.turns().into_iter().find(|t| *t.board() == target)
}

// --- Board and pieces -------------------------------------------------------------------------

#[test]
fn position_text_round_trips_and_has_two_fields() {
    let text = "8/3r4/8/8/8/8/4R3/8 g";
    let pos: Position = text.parse().unwrap();
    assert_eq!(pos.to_string(), text);
    let err = "8/3r4/8/8/8/8/4R3/8 g 0".parse::<Position>().unwrap_err();
    assert!(err.to_string().contains("unexpected `0`"), "{err}");
    let err = "8/3r4/8/8/8/8/4R3/8".parse::<Position>().unwrap_err();
    assert!(err.to_string().contains("missing side"), "{err}");
    let err = "8/3r4/8/8/8/8/4R3/8 r".parse::<Position>().unwrap_err();
    assert!(err.to_string().contains("expected `g`"), "{err}");
}

#[test]
fn a_piece_on_an_unguarded_trap_cannot_start_a_turn() {
    for trap in ["c3", "f3", "c6", "f6"] {
        let err = try_setup(&format!("Dd1 R{trap} ra8 rh8"), 'g').unwrap_err();
        assert!(
            err.to_string().contains(&format!(
                "gold rabbit on trap {trap} with no friendly piece"
            )),
            "{err}"
        );
    }
    // Guarded by a friend it stands.
    try_setup("Rc3 Rc2 rh7", 'g').unwrap();
    // An enemy next to it is no guard.
    let err = try_setup("Rc3 rc2 rh7", 'g').unwrap_err();
    assert!(err.to_string().contains("on trap c3"), "{err}");
    // d3 is no trap.
    try_setup("Rd3 rh7", 'g').unwrap();
}

#[test]
fn at_most_the_pieces_a_side_has() {
    let err = "8/r7/8/8/8/8/8/EE1R4 g".parse::<Position>().unwrap_err();
    assert!(err.to_string().contains("2 elephants of gold"), "{err}");
    let err = "hhh5/r7/8/8/8/8/8/3R4 g".parse::<Position>().unwrap_err();
    assert!(err.to_string().contains("3 horses of silver"), "{err}");
    let err = "8/r7/8/8/8/8/RRRRRRRR/R7 g"
        .parse::<Position>()
        .unwrap_err();
    assert!(err.to_string().contains("9 rabbits of gold"), "{err}");
    // The full army parses.
    "rrrrrrrr/hdcemcdh/8/8/8/8/RRRRRRRR/HDCMECDH s"
        .parse::<Position>()
        .unwrap();
}

#[test]
fn a_rabbit_on_its_goal_or_a_side_without_rabbits_is_a_finished_game() {
    let err = "R7/r7/8/8/8/8/8/8 s".parse::<Position>().unwrap_err();
    assert!(
        err.to_string()
            .contains("gold rabbit on a8 stands on its goal rank"),
        "{err}"
    );
    let err = "8/8/8/8/8/8/R7/r7 g".parse::<Position>().unwrap_err();
    assert!(err.to_string().contains("silver rabbit on a1"), "{err}");
    // Own back rank is no goal.
    setup("Ra1 rh8", 'g');
    let err = "8/8/8/8/8/8/R7/e7 g".parse::<Position>().unwrap_err();
    assert!(err.to_string().contains("silver has no rabbit"), "{err}");
    let err = "8/r7/8/8/8/8/E7/8 s".parse::<Position>().unwrap_err();
    assert!(err.to_string().contains("gold has no rabbit"), "{err}");
}

#[test]
fn jungle_positions_are_refused_by_name() {
    for text in [
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r",
        "7/7/7/7/7/7/7/3R3/2e4 b",
        "4/4/4/c2L r",
    ] {
        let err = text.parse::<Position>().unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("not an Animal Gambit one"), "{text}: {msg}");
    }
    // And the reverse: the Jungle parser does not take an 8x8 board.
    let err = "8/3r4/8/8/8/8/4R3/8 g"
        .parse::<jtb_probe::Position>()
        .unwrap_err();
    assert_eq!(err, jtb_probe::ParseError::RankCount(8));
    assert!(
        err.to_string()
            .contains("8 ranks is an Animal Gambit board"),
        "{err}"
    );
    // Jungle letters are not pieces here.
    let err = "8/3r4/8/8/8/8/4L3/R7 g".parse::<Position>().unwrap_err();
    assert!(err.to_string().contains("unknown letter `L`"), "{err}");
}

#[test]
fn digits_are_canonical() {
    for text in [
        "44/3r4/8/8/8/8/4R3/8 g",
        "08/3r4/8/8/8/8/4R3/8 g",
        "9/3r4/8/8/8/8/4R3/8 g",
    ] {
        let err = text.parse::<Position>().unwrap_err();
        assert!(
            err.to_string().contains("one digit from 1 to 8"),
            "{text}: {err}"
        );
    }
    let err = "7/3r4/8/8/8/8/4R3/8 g".parse::<Position>().unwrap_err();
    assert!(
        err.to_string().contains("rank 8 describes 7 squares"),
        "{err}"
    );
    let err = "8/3r5/8/8/8/8/4R3/8 g".parse::<Position>().unwrap_err();
    assert!(
        err.to_string().contains("rank 7 describes 9 squares"),
        "{err}"
    );
}

// --- Exact turn counts worked out by hand ------------------------------------------------------

#[test]
fn a_lone_rabbit_each_side() {
    // The gold rabbit on e2 steps n, e, w (never s): every displacement (dx, dy), dy >= 0,
    // |dx| + dy <= 4, on the board (files a..h: dx >= -4, dx <= 3) is 7 + 7 + 5 + 3 + 1 = 23
    // squares; c3 and f3 are traps where it is removed (one board: no gold rabbit), and every
    // other square is reachable around them. 23 - 2 + 1 = 22.
    let pos: Position = "8/3r4/8/8/8/8/4R3/8 g".parse().unwrap();
    let turns = texts(&pos);
    assert_eq!(turns.len(), 22, "{turns:?}");
    assert!(turns.contains(&"Re2e Rf2n Rf3x".to_owned()));
    assert!(!turns.iter().any(|t| t.contains('s')), "{turns:?}");
    // The silver rabbit on d7, silver to move: the mirror image in the rank flip, 22 again.
    let pos: Position = "8/3r4/8/8/8/8/4R3/8 s".parse().unwrap();
    let turns = texts(&pos);
    assert_eq!(turns.len(), 22, "{turns:?}");
    assert!(turns.contains(&"rd7s rd6w rc6x".to_owned()), "{turns:?}");
    assert!(!turns.iter().any(|t| t.contains('n')), "{turns:?}");
}

#[test]
fn a_rabbit_in_the_corner() {
    // h1: dx <= 0, dy >= 0, |dx| + dy <= 4: 4 + 4 + 3 + 2 + 1 = 14 squares, one of them the
    // trap f3 (reached in exactly four steps, where the rabbit is removed).
    let pos = setup("Rh1 ra8", 'g');
    let turns = texts(&pos);
    assert_eq!(turns.len(), 14, "{turns:?}");
    assert!(
        turns.contains(&"Rh1n Rh2n Rh3w Rg3w Rf3x".to_owned()),
        "{turns:?}"
    );
}

#[test]
fn no_turn_gives_back_the_starting_board() {
    // `Re2e Rf2w` and the elephant's push `rd5n Ed4n` undone by the pull `Ed5s rd6s` lead
    // back to the start: no turn.
    for pieces in ["Re2 rd7", "Ed4 Rh1 rd5 rc4 ra8"] {
        let pos = setup(pieces, 'g');
        for t in pos.turns() {
            assert_ne!(t.board(), pos.board(), "{pieces}: {t}");
        }
    }
}

// --- Frozen pieces -----------------------------------------------------------------------------

#[test]
fn a_piece_next_to_a_stronger_enemy_and_no_friend_is_frozen() {
    let pos = setup("Rd4 Rh1 cd5 ra8", 'g');
    assert!(pos.board().is_frozen(sq("d4")));
    let turns = texts(&pos);
    assert!(!turns.iter().any(|t| t.contains("Rd4")), "{turns:?}");
    // The rabbit on h1 is all that moves: 14 turns, as in the corner.
    assert_eq!(turns.len(), 14);
    // A weaker or equal enemy freezes nothing.
    let pos = setup("Cd4 Rh1 cd5 ra8", 'g');
    assert!(texts(&pos).iter().any(|t| t.starts_with("Cd4")));
}

#[test]
fn a_friend_next_to_it_unfreezes_it_and_its_leaving_freezes_it_again() {
    // Guarded by the rabbit on e4, the rabbit on d4 steps.
    let pos = setup("Rd4 Re4 cd5 ra8", 'g');
    assert!(!pos.board().is_frozen(sq("d4")));
    assert!(texts(&pos).iter().any(|t| t == "Rd4w"));
    // A friend arriving mid-turn unfreezes it for the later steps.
    let pos = setup("Rd4 Rf4 cd5 ra8", 'g');
    assert!(pos.board().is_frozen(sq("d4")));
    let turn = turn_to(&pos, "Rc4 Re4 cd5 ra8").expect("Rf4w, then Rd4w");
    assert_eq!(turn.to_string(), "Rf4w Rd4w");
    // Frozenness is judged before each step: the cat on a2 is guarded by the rabbit on b2 at
    // the start, but it can only ever step to b2, which the rabbit must leave first, and then
    // the dog on a3 freezes it. So no turn moves the cat.
    let pos = setup("Ca2 Rb2 ca1 da3 rh7", 'g');
    assert!(!pos.board().is_frozen(sq("a2")));
    let turns = pos.turns();
    assert!(!turns.is_empty());
    for t in &turns {
        assert!(!t.to_string().contains("Ca2"), "{t}");
    }
}

#[test]
fn a_frozen_piece_can_still_be_pushed_and_pulled() {
    let pos = setup("Ed4 Rh1 rd5 ra8", 'g');
    assert!(pos.board().is_frozen(sq("d5")));
    let turns = texts(&pos);
    assert!(
        turns.contains(&"rd5n Ed4n".to_owned()),
        "pushed toward its own side"
    );
    assert!(turns.contains(&"Ed4s rd5s".to_owned()), "pulled");
}

// --- Push and pull -----------------------------------------------------------------------------

#[test]
fn only_a_stronger_piece_pushes_or_pulls() {
    // The dog pushes and pulls the cat ...
    let pos = setup("Dd4 Rh1 cd5 ra8", 'g');
    let turns = texts(&pos);
    for t in [
        "cd5n Dd4n",
        "cd5e Dd4n",
        "cd5w Dd4n",
        "Dd4s cd5s",
        "Dd4e cd5s",
        "Dd4w cd5s",
    ] {
        assert!(turns.contains(&t.to_owned()), "{t}: {turns:?}");
    }
    // ... but not an enemy dog: it stays on d5 whatever gold does.
    let pos = setup("Dd4 Rh1 dd5 ra8", 'g');
    let dog = jtb_probe::gambit::Piece::from_letter('d').unwrap();
    for t in pos.turns() {
        assert_eq!(t.board().piece_at(sq("d5")), Some(dog), "{t}");
    }
    // A rabbit pushes nothing.
    let pos = setup("Rd4 rd5 ra8 Rh1", 'g');
    assert!(!pos.board().is_frozen(sq("d4")));
    assert!(turn_to(&pos, "Rd5 rd6 ra8 Rh1").is_none());
}

#[test]
fn own_pieces_are_never_pushed_or_pulled() {
    // A gold rabbit never steps south, so only a pull or a push could bring it there.
    let pos = setup("Ed4 Rd5 rh8", 'g');
    assert!(turn_to(&pos, "Ed3 Rd4 rh8").is_none(), "pulled");
    let pos = setup("Ed5 Rd4 rh8", 'g');
    assert!(turn_to(&pos, "Ed4 Rd3 rh8").is_none(), "pushed");
    assert!(texts(&pos).contains(&"Rd4e Ed5s".to_owned()));
}

#[test]
fn a_push_and_a_pull_never_share_a_step() {
    // The elephant on d4 pushes the rabbit on d5 north and steps into d5; that step may not
    // also pull the rabbit on c4 into d4. Three steps would do both; no legal sequence of
    // four gives that board.
    let pos = setup("Ed4 Rh1 rd5 rc4 ra8", 'g');
    let turns = texts(&pos);
    assert!(turns.contains(&"rd5n Ed4n".to_owned()));
    assert!(turns.contains(&"Ed4e rc4e".to_owned()));
    assert!(turn_to(&pos, "Ed5 Rh1 rd6 rd4 ra8").is_none());
    // Nor does a pull's last step start a push: the pulled rabbit's step is its own.
    assert!(turn_to(&pos, "Ee4 Rh1 rd5 rd4 ra8").is_some());
}

#[test]
fn a_push_needs_an_empty_square_for_the_victim() {
    // The rabbit on d5 is boxed in: d6, c5 and e5 are held, so it cannot be pushed; it can be
    // pulled.
    let pos = setup("Ed4 Rh1 rd5 rd6 rc5 re5 ra8", 'g');
    let turns = texts(&pos);
    assert!(!turns.iter().any(|t| t.starts_with("rd5")), "{turns:?}");
    assert!(turns.contains(&"Ed4s rd5s".to_owned()));
}

// --- Traps -------------------------------------------------------------------------------------

#[test]
fn a_piece_stepping_onto_an_unguarded_trap_is_removed() {
    let pos = setup("Rc2 Rh1 ra8", 'g');
    let turns = texts(&pos);
    assert!(turns.contains(&"Rc2n Rc3x".to_owned()), "{turns:?}");
    let turn = turn_to(&pos, "Rh1 ra8").unwrap();
    assert_eq!(turn.to_string(), "Rc2n Rc3x");
    // Guarded it stays.
    let pos = setup("Rc2 Rb3 ra8", 'g');
    assert!(texts(&pos).contains(&"Rc2n".to_owned()));
}

#[test]
fn an_unmoved_piece_is_removed_when_its_last_friend_leaves() {
    let pos = setup("Rc3 Rc2 ra8", 'g');
    let turns = texts(&pos);
    assert!(turns.contains(&"Rc2w Rc3x".to_owned()), "{turns:?}");
    assert!(turns.contains(&"Rc2e Rc3x".to_owned()), "{turns:?}");
    // An enemy's too: the elephant pushes the rabbit on b3 away, or pulls it, and the silver
    // dog on the trap c3 loses its only friend.
    let pos = setup("Eb2 Rh1 rb3 dc3 ra8", 'g');
    let turns = texts(&pos);
    assert!(turns.contains(&"rb3w dc3x Eb2n".to_owned()), "{turns:?}");
    assert!(turns.contains(&"Eb2w rb3s dc3x".to_owned()), "{turns:?}");
}

#[test]
fn a_pushed_piece_is_removed_on_the_trap() {
    let pos = setup("Ed2 Rh1 rd3 ra8", 'g');
    let turns = texts(&pos);
    assert!(turns.contains(&"rd3w rc3x Ed2n".to_owned()), "{turns:?}");
    let turn = turn_to(&pos, "Ed3 Rh1 ra8").unwrap();
    assert_eq!(turn.to_string(), "rd3w rc3x Ed2n");
    assert_eq!(turn.steps(), 2);
}

#[test]
fn a_pulling_piece_removed_on_a_trap_still_completes_its_pull() {
    let pos = setup("Dd3 Rh1 ce3 ra8", 'g');
    let turns = texts(&pos);
    assert!(turns.contains(&"Dd3w Dc3x ce3w".to_owned()), "{turns:?}");
    assert_eq!(
        turn_to(&pos, "Rh1 cd3 ra8").unwrap().to_string(),
        "Dd3w Dc3x ce3w"
    );
}

// --- Rabbits -----------------------------------------------------------------------------------

#[test]
fn rabbits_never_step_toward_their_own_side() {
    let pos = setup("Rd4 rd6 Eh1 eh8", 'g');
    for t in texts(&pos) {
        assert!(!t.split(' ').any(|tok| tok == "Rd4s"), "{t}");
    }
    let pos = setup("Rd4 rd6 Eh1 eh8", 's');
    for t in texts(&pos) {
        assert!(!t.split(' ').any(|tok| tok == "rd6n"), "{t}");
    }
    // Pushed or pulled they go any way: the gold elephant pulls the silver rabbit north.
    let pos = setup("Ed5 Rh1 rd4 ra8", 'g');
    assert!(texts(&pos).contains(&"Ed5n rd4n".to_owned()));
}

// --- End of the turn ---------------------------------------------------------------------------

#[test]
fn a_rabbit_on_its_goal_wins_at_the_end_of_the_turn() {
    let pos = setup("Ra7 rh7", 'g');
    let turn = turn_to(&pos, "Ra8 rh7").unwrap();
    assert_eq!(turn.to_string(), "Ra7n");
    assert_eq!(pos.play(&turn), Next::Over(TurnEnd::Goal));
    assert!(TurnEnd::Goal.mover_wins());
    // It may go on moving along the goal rank; the turn still wins.
    let turn = turn_to(&pos, "Rb8 rh7").unwrap();
    assert_eq!(pos.turn_end(turn.board()), Some(TurnEnd::Goal));
}

#[test]
fn only_the_board_at_the_end_of_the_turn_counts() {
    // The elephant pushes the silver rabbit onto silver's goal d1 and pulls it back to d2,
    // ending on c2: the rabbit stood on its goal mid-turn, which decides nothing. (e2 is held
    // and c3 is an unguarded trap, so this is the only way to that board.)
    let pos = setup("Ed3 Rh3 rd2 ee2 ra7", 'g');
    let turn = turn_to(&pos, "Ec2 Rh3 rd2 ee2 ra7").expect("push down, pull back");
    assert_eq!(turn.to_string(), "rd2s Ed3s Ed2w rd1n");
    assert_eq!(pos.turn_end(turn.board()), None);
    // Left on its goal, it loses the turn for gold.
    let turn = turn_to(&pos, "Ed2 Rh3 rd1 ee2 ra7").unwrap();
    assert_eq!(turn.to_string(), "rd2s Ed3s");
    assert_eq!(pos.play(&turn), Next::Over(TurnEnd::OpponentGoal));
    assert!(!TurnEnd::OpponentGoal.mover_wins());
}

#[test]
fn the_movers_goal_comes_before_the_opponents() {
    // Gold pushes the silver rabbit onto h1 (silver's goal) and steps its own rabbit to a8.
    let pos = setup("Ra7 Eh3 rh2 rb5", 'g');
    let turn = turn_to(&pos, "Ra8 Eh2 rh1 rb5").unwrap();
    assert_eq!(turn.to_string(), "Ra7n rh2s Eh3s");
    assert_eq!(pos.turn_end(turn.board()), Some(TurnEnd::Goal));
    let turn = turn_to(&pos, "Ra7 Eh2 rh1 rb5").unwrap();
    assert_eq!(pos.turn_end(turn.board()), Some(TurnEnd::OpponentGoal));
}

#[test]
fn an_enemy_rabbit_pushed_onto_its_goal_and_left_there_loses() {
    let pos = setup("Ed3 Rh3 rd2 ra7", 'g');
    let turn = turn_to(&pos, "Ed2 Rh3 rd1 ra7").unwrap();
    assert_eq!(pos.turn_end(turn.board()), Some(TurnEnd::OpponentGoal));
}

#[test]
fn elimination() {
    // Gold pushes silver's last rabbit onto the trap c6.
    let pos = setup("Ed5 Rh1 rd6", 'g');
    let turn = turn_to(&pos, "Ed6 Rh1").unwrap();
    assert_eq!(turn.to_string(), "rd6w rc6x Ed5n");
    assert_eq!(pos.play(&turn), Next::Over(TurnEnd::Elimination));
    // Gold's last rabbit steps onto the trap c3.
    let pos = setup("Rc2 Ed5 rd7", 'g');
    let turn = turn_to(&pos, "Ed5 rd7").unwrap();
    assert_eq!(turn.to_string(), "Rc2n Rc3x");
    assert_eq!(pos.play(&turn), Next::Over(TurnEnd::OwnElimination));
    assert!(!TurnEnd::OwnElimination.mover_wins());
    // Both in one turn: the opponent's loss is checked first, so the mover wins.
    let pos = setup("Rc2 Ed5 rd6", 'g');
    let turn = turn_to(&pos, "Ed6").unwrap();
    assert_eq!(turn.steps(), 3);
    assert_eq!(pos.play(&turn), Next::Over(TurnEnd::Elimination));
}

#[test]
fn no_legal_turn_loses() {
    // The gold cat steps next to silver's only piece, the rabbit on a2, and freezes it.
    let pos = setup("Cb3 Ra1 ra2", 'g');
    let turn = turn_to(&pos, "Cb2 Ra1 ra2").unwrap();
    assert_eq!(turn.to_string(), "Cb3s");
    assert_eq!(pos.play(&turn), Next::Over(TurnEnd::Immobilization));
    // The position it leaves parses and has no turn.
    let stuck = setup("Cb2 Ra1 ra2", 's');
    assert!(stuck.board().is_frozen(sq("a2")));
    assert!(!stuck.has_turn());
    assert!(stuck.turns().is_empty());
    // Blocked, not frozen: gold rabbits on a1 and b2 are no stronger than the silver rabbit
    // on a2, but they hold its only squares (it never steps north).
    let pos = setup("Ra1 Rc2 ra2", 'g');
    let turn = turn_to(&pos, "Ra1 Rb2 ra2").unwrap();
    assert_eq!(turn.to_string(), "Rc2w");
    assert_eq!(pos.play(&turn), Next::Over(TurnEnd::Immobilization));
    let blocked = setup("Ra1 Rb2 ra2", 's');
    assert!(!blocked.board().is_frozen(sq("a2")));
    assert!(!blocked.has_turn());
    assert!(blocked.turns().is_empty());
}

#[test]
fn a_game_that_goes_on_gives_the_next_position() {
    let pos = setup("Rd2 rd7", 'g');
    let turn = turn_to(&pos, "Rd3 rd7").unwrap();
    match pos.play(&turn) {
        Next::Continues(next) => assert_eq!(next.to_string(), "8/3r4/8/8/8/3R4/8/8 s"),
        other => panic!("{other:?}"),
    }
}

// --- Canonical text ----------------------------------------------------------------------------

#[test]
fn canonical_text_takes_the_fewest_steps_then_the_smallest_text() {
    let pos = setup("Ed4 Rh1 ra8", 'g');
    // d5 in one step `Ed4n`, although `Ed4e Ee4n Ee5w` is smaller text.
    assert_eq!(turn_to(&pos, "Ed5 Rh1 ra8").unwrap().to_string(), "Ed4n");
    // e5 in two steps: `Ed4e Ee4n` < `Ed4n Ed5e`.
    assert_eq!(
        turn_to(&pos, "Ee5 Rh1 ra8").unwrap().to_string(),
        "Ed4e Ee4n"
    );
    // The whole string decides, removals included: `Re2e Rf2n Rf3x` < `Re2n Re3e Rf3x`.
    let pos = setup("Re2 rd7", 'g');
    assert_eq!(turn_to(&pos, "rd7").unwrap().to_string(), "Re2e Rf2n Rf3x");
    // Turn lists are sorted as ASCII strings.
    let list = texts(&pos);
    let mut sorted = list.clone();
    sorted.sort();
    assert_eq!(list, sorted);
}

#[test]
fn two_sequences_to_one_board_are_one_turn() {
    // Two rabbits stepping in either order give one board.
    let pos = setup("Ra2 Rh2 ra7", 'g');
    let turns = texts(&pos);
    assert!(turns.contains(&"Ra2n Rh2n".to_owned()));
    assert!(!turns.contains(&"Rh2n Ra2n".to_owned()));
    let distinct: BTreeSet<String> = pos.turns().iter().map(|t| t.board().to_string()).collect();
    assert_eq!(distinct.len(), turns.len());
}

// --- Reading turn text ------------------------------------------------------------------------

#[test]
fn turn_text_in_any_legal_order_reads_as_its_turn() {
    let pos = setup("Ra2 Rh2 ra7", 'g');
    let turn = pos.parse_turn("Rh2n Ra2n").unwrap();
    assert_eq!(turn.to_string(), "Ra2n Rh2n");
    let pos = setup("Ed2 Rh1 rd3 ra8", 'g');
    assert_eq!(
        pos.parse_turn("rd3w rc3x Ed2n").unwrap().to_string(),
        "rd3w rc3x Ed2n"
    );
    // A push and a pull can be read either way when they give one board.
    let pos = setup("Ed4 Rh1 rd5 ra8", 'g');
    assert_eq!(
        pos.parse_turn("Ed4e Ee4w").unwrap_err(),
        TurnError::NoChange
    );
    assert_eq!(
        pos.parse_turn("Ed4s rd5s").unwrap().to_string(),
        "Ed4s rd5s"
    );
}

#[test]
fn illegal_turn_text_names_the_token() {
    let pos = setup("Ed2 Rh1 rd3 ra8", 'g');
    assert_eq!(
        pos.parse_turn("rd3w Ed2n").unwrap_err(),
        TurnError::Illegal {
            index: 2,
            token: "Ed2n".to_owned(),
            removal: Some("rc3x".to_owned())
        }
    );
    assert_eq!(
        pos.parse_turn("rd3w rc3x").unwrap_err(),
        TurnError::Unfinished
    );
    assert_eq!(pos.parse_turn("rd3w").unwrap_err(), TurnError::Unfinished);
    assert_eq!(
        pos.parse_turn("Rh1n Rh2n Rh3n Rh4n Rh5n").unwrap_err(),
        TurnError::TooManySteps(5)
    );
    for bad in ["Ed2", "Xd2n", "Ed9n", "Ed2q", "Ed2nn"] {
        assert!(
            matches!(
                pos.parse_turn(bad),
                Err(TurnError::BadToken { index: 1, .. })
            ),
            "{bad}"
        );
    }
    assert_eq!(pos.parse_turn("  ").unwrap_err(), TurnError::Empty);
    // A rabbit stepping back, a frozen piece, a push and pull sharing a step, a removal that
    // does not happen.
    for (pieces, text, index) in [
        ("Rd4 rd6 Eh1 eh8", "Rd4s", 1),
        ("Rd4 Rh1 cd5 ra8", "Rh1n Rd4w", 2),
        ("Ed4 Rh1 rd5 rc4 ra8", "rd5n Ed4n rc4e", 3),
        ("Re2 rd7", "Re2n Re3x", 2),
    ] {
        match setup(pieces, 'g').parse_turn(text) {
            Err(TurnError::Illegal { index: i, .. }) => assert_eq!(i, index, "{text}"),
            other => panic!("{pieces}: {text}: {other:?}"),
        }
    }
    let msg = pos.parse_turn("rd3w Ed2n").unwrap_err().to_string();
    assert!(msg.contains("removes `rc3x`"), "{msg}");
}

#[test]
fn every_canonical_text_reads_back_as_its_turn() {
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    for _ in 0..150 {
        let g = random_grid(&mut rng, 2, 5);
        let gold = rng.below(2) == 0;
        let text = format!("{} {}", naive::text(&g), if gold { 'g' } else { 's' });
        let pos: Position = text.parse().unwrap();
        for t in pos.turns() {
            assert_eq!(pos.parse_turn(&t.to_string()), Ok(t), "{text}: {t}");
        }
    }
}

#[test]
fn a_turn_played_one_step_at_a_time() {
    // Gold's elephant d2 pushes the silver rabbit d3 onto the trap c3, where it is removed.
    let pos = setup("Ed2 Rh1 rd3 ra8", 'g');
    let start = pos.partial_turn("").unwrap();
    assert_eq!((start.steps, start.finished, start.turn), (0, true, None));
    let texts: Vec<String> = start.next.iter().map(|n| n.text()).collect();
    assert!(texts.contains(&"rd3w rc3x".to_owned()), "{texts:?}");
    assert!(texts.contains(&"Ed2w".to_owned()), "{texts:?}");
    assert!(!texts.contains(&"Ed2n".to_owned()), "{texts:?}");
    // Inside the push: only the pusher's step into d3 may follow, and the turn may not end.
    let inside = pos.partial_turn("rd3w rc3x").unwrap();
    assert_eq!(
        (inside.steps, inside.finished, inside.turn),
        (1, false, None)
    );
    let texts: Vec<String> = inside.next.iter().map(|n| n.text()).collect();
    assert_eq!(texts, ["Ed2n"]);
    assert_eq!(inside.board.piece_at(Square::parse("c3").unwrap()), None);
    let pushed = pos.partial_turn("rd3w rc3x Ed2n").unwrap();
    assert_eq!(pushed.turn.unwrap().to_string(), "rd3w rc3x Ed2n");
    assert!(pushed.finished);
    assert_eq!(pushed.board, *pushed.turn.unwrap().board());
    assert_eq!(
        pos.partial_turn("rd3w").unwrap_err(),
        TurnError::MissingRemoval("rc3x".to_owned())
    );
    assert_eq!(
        pos.partial_turn("Ed2n").unwrap_err(),
        TurnError::Illegal {
            index: 1,
            token: "Ed2n".to_owned(),
            removal: None
        }
    );
    // Back to the starting board: whole actions, but no turn.
    let back = pos.partial_turn("Ed2w Ec2e").unwrap();
    assert_eq!((back.steps, back.finished, back.turn), (2, true, None));
    assert_eq!(back.board, *pos.board());
    // After four steps nothing may follow.
    let four = pos.partial_turn("Rh1n Rh2n Rh3n Rh4n").unwrap();
    assert!(four.next.is_empty() && four.turn.is_some());
    assert!(matches!(
        pos.partial_turn("Rh1n Rh2n Rh3n Rh4n Rh5n"),
        Err(TurnError::TooManySteps(5))
    ));
}

/// Plays every sequence of next steps from `text` on, checking each stage, and collects the
/// boards of the turns they play.
fn play_on(pos: &Position, text: &str, turns: &mut BTreeSet<String>) {
    let p = pos
        .partial_turn(text)
        .unwrap_or_else(|e| panic!("{pos}: {text}: {e}"));
    let steps = text
        .split_whitespace()
        .filter(|t| !t.ends_with('x'))
        .count();
    assert_eq!(usize::from(p.steps), steps, "{pos}: {text}");
    if let Some(t) = p.turn {
        assert_eq!(*t.board(), p.board, "{pos}: {text}");
        assert_eq!(pos.parse_turn(text), Ok(t), "{pos}: {text}");
        turns.insert(t.to_string());
    } else if steps > 0 && p.finished {
        assert_eq!(p.board, *pos.board(), "{pos}: {text}");
    }
    for n in &p.next {
        let longer = if text.is_empty() {
            n.text()
        } else {
            format!("{text} {}", n.text())
        };
        play_on(pos, &longer, turns);
    }
}

#[test]
fn step_by_step_play_reaches_every_turn_and_nothing_else() {
    let mut rng = Rng(0x005e_ed0f_7a57);
    for _ in 0..40 {
        let g = random_grid(&mut rng, 2, 4);
        let gold = rng.below(2) == 0;
        let text = format!("{} {}", naive::text(&g), if gold { 'g' } else { 's' });
        let pos: Position = text.parse().unwrap();
        let mut reached = BTreeSet::new();
        play_on(&pos, "", &mut reached);
        let all: BTreeSet<String> = pos.turns().iter().map(ToString::to_string).collect();
        assert_eq!(reached, all, "{text}");
    }
}

// --- The naive enumerator ----------------------------------------------------------------------

/// The naive enumerator, shared with the forward solver of the end-to-end tests.
#[path = "../../tests/gambit_naive.rs"]
mod naive;

/// A small xorshift generator, so that the cross-check is the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random valid grid of `min` to `max` pieces, a rabbit each side, often crowded around a
/// trap.
fn random_grid(rng: &mut Rng, min: usize, max: usize) -> naive::Grid {
    loop {
        let mut g: naive::Grid = [None; 64];
        let n = min + rng.below((max - min + 1) as u64) as usize;
        let crowd = rng.below(3) != 0;
        let (f0, r0) = (rng.below(5) as usize, rng.below(5) as usize);
        let mut placed = 0;
        while placed < n {
            let sq = if crowd {
                (r0 + rng.below(4) as usize) * 8 + f0 + rng.below(4) as usize
            } else {
                rng.below(64) as usize
            };
            if g[sq].is_some() {
                continue;
            }
            let piece = match placed {
                0 => (true, 0),
                1 => (false, 0),
                _ => (rng.below(2) == 0, rng.below(6) as u8),
            };
            // At most one elephant and one camel a side, two of the others but rabbits.
            let limit = match piece.1 {
                0 => 8,
                1..=3 => 2,
                _ => 1,
            };
            if g.iter().filter(|&&p| p == Some(piece)).count() >= limit {
                continue;
            }
            g[sq] = Some(piece);
            placed += 1;
        }
        if naive::valid(&g) {
            return g;
        }
    }
}

fn end_name(end: Option<TurnEnd>) -> Option<&'static str> {
    end.map(|e| match e {
        TurnEnd::Goal => "goal",
        TurnEnd::OpponentGoal => "opponent goal",
        TurnEnd::Elimination => "elimination",
        TurnEnd::OwnElimination => "own elimination",
        TurnEnd::Immobilization => "immobilization",
    })
}

#[test]
fn the_turns_agree_with_a_naive_step_by_step_enumeration() {
    let pushes_or_pulls = cross_check(0x9e37_79b9_7f4a_7c15, 1500, 2, 5);
    // The sample is worth something only if it pushes and pulls a lot.
    assert!(pushes_or_pulls > 5000, "{pushes_or_pulls}");
}

#[test]
fn the_turns_of_crowded_boards_agree_with_the_naive_enumeration() {
    let pushes_or_pulls = cross_check(0x2545_f491_4f6c_dd1d, 40, 6, 9);
    assert!(pushes_or_pulls > 1000, "{pushes_or_pulls}");
}

/// Compares the turns (end boards and canonical texts) and the end-of-turn checks of `count`
/// random positions of `min` to `max` pieces with the naive enumerator's; gives how many
/// turns push or pull.
fn cross_check(seed: u64, count: usize, min: usize, max: usize) -> usize {
    let mut rng = Rng(seed);
    let mut pushes_or_pulls = 0;
    for _ in 0..count {
        let g = random_grid(&mut rng, min, max);
        let gold = rng.below(2) == 0;
        let text = format!("{} {}", naive::text(&g), if gold { 'g' } else { 's' });
        let pos: Position = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(pos.to_string(), text);

        let naive_turns = naive::turns(&g, gold, 4);
        // Its quick test for a legal turn is what the enumeration finds.
        assert_eq!(naive::has_turn(&g, gold), !naive_turns.is_empty(), "{text}");
        let expected: BTreeMap<String, String> = naive_turns
            .iter()
            .map(|(grid, (_, t))| (naive::text(grid), t.clone()))
            .collect();
        let got: BTreeMap<String, String> = pos
            .turns()
            .iter()
            .map(|t| (t.board().to_string(), t.to_string()))
            .collect();
        assert_eq!(got, expected, "{text}");

        // The end-of-turn checks agree on every end board.
        let ends: BTreeMap<String, Option<&str>> = naive_turns
            .keys()
            .map(|grid| (naive::text(grid), naive::end(grid, gold)))
            .collect();
        for t in pos.turns() {
            let want = ends[&t.board().to_string()];
            assert_eq!(end_name(pos.turn_end(t.board())), want, "{text}: {t}");
        }
        assert_eq!(pos.has_turn(), !expected.is_empty(), "{text}");
        // A step token of the opponent's piece is a push or a pull.
        let enemy_step = |tok: &str| {
            !tok.ends_with('x') && tok.starts_with(|c: char| c.is_ascii_lowercase() == gold)
        };
        pushes_or_pulls += got
            .values()
            .filter(|t| t.split(' ').any(enemy_step))
            .count();
    }
    pushes_or_pulls
}

#[test]
fn board_text_helper_matches_the_parser() {
    assert_eq!(board_text("Ed2 rd3"), "8/8/8/8/8/3r4/3E4/8");
}
