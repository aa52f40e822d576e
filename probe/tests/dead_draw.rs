//! The flip game's one-animal-each dead-draw check (RULES.md section 2).

use jtb_probe::{
    dead_draw, Adjudication, Animal, Color, DeadReason, NotApplicable, Piece, Position, RuleSet,
    Square,
};

fn pos(text: &str) -> Position {
    Position::parse(text, None).unwrap()
}

/// Every one-each placement of a red and a blue animal, both sides to move.
fn placements(red: Animal, blue: Animal) -> impl Iterator<Item = Position> {
    let squares: Vec<Square> = RuleSet::Flip4x4.board().squares().collect();
    let s2 = squares.clone();
    squares.into_iter().flat_map(move |r| {
        s2.clone()
            .into_iter()
            .filter(move |&b| b != r)
            .flat_map(move |b| {
                Color::ALL.map(|turn| {
                    Position::from_pieces(
                        RuleSet::Flip4x4,
                        turn,
                        [
                            (Piece::new(Color::Red, red), r),
                            (Piece::new(Color::Blue, blue), b),
                        ],
                    )
                    .unwrap()
                })
            })
    })
}

#[test]
fn equal_ranks_are_always_dead() {
    for a in Animal::ALL {
        for p in placements(a, a) {
            assert_eq!(
                dead_draw(&p, None),
                Adjudication::DeadDraw(DeadReason::EqualRanks),
                "{p}"
            );
        }
    }
}

#[test]
fn the_rat_chases_the_elephant_never_the_reverse() {
    let mut rat_wins = 0;
    for p in placements(Animal::Elephant, Animal::Rat) {
        match dead_draw(&p, Some(0)) {
            Adjudication::PlayOn { winner, .. } => {
                assert_eq!(winner, Color::Blue, "{p}");
                rat_wins += 1;
            }
            Adjudication::DeadDraw(DeadReason::CannotForce) => {}
            other => panic!("{p}: {other:?}"),
        }
    }
    assert!(rat_wins > 0);
    assert_eq!(
        dead_draw(&pos("4/4/4/R2e b"), None),
        Adjudication::DeadDraw(DeadReason::CannotForce)
    );
    assert_eq!(
        dead_draw(&pos("4/4/4/E2r r"), None),
        Adjudication::DeadDraw(DeadReason::CannotForce)
    );
}

#[test]
fn distance_parity_makes_half_of_the_unequal_positions_dead() {
    for red in Animal::ALL {
        for blue in Animal::ALL.into_iter().filter(|&b| b != red) {
            let red_captures = match (red, blue) {
                (Animal::Rat, Animal::Elephant) => true,
                (Animal::Elephant, Animal::Rat) => false,
                _ => red > blue,
            };
            let (mut live, mut total) = (0, 0);
            for p in placements(red, blue) {
                let r = p.square_of(Piece::new(Color::Red, red)).unwrap();
                let b = p.square_of(Piece::new(Color::Blue, blue)).unwrap();
                let distance = r.file().abs_diff(b.file()) + r.rank().abs_diff(b.rank());
                let capturer_moves = (p.turn() == Color::Red) == red_captures;
                let right_parity = (distance % 2 == 1) == capturer_moves;
                let verdict = dead_draw(&p, Some(0));
                total += 1;
                if let Adjudication::PlayOn { winner, .. } = verdict {
                    live += 1;
                    assert!(right_parity, "{p}: {verdict:?}");
                    assert_eq!(winner == Color::Red, red_captures, "{p}");
                } else {
                    assert!(!right_parity, "{p}: {verdict:?}");
                }
            }
            assert_eq!(2 * live, total, "{red:?} v {blue:?}");
        }
    }
}

#[test]
fn the_clock_boundary() {
    let p = pos("4/4/4/c2L r");
    assert_eq!(
        dead_draw(&p, None),
        Adjudication::PlayOn {
            winner: Color::Red,
            dtm: 9
        }
    );
    assert_eq!(
        dead_draw(&p, Some(31)),
        Adjudication::PlayOn {
            winner: Color::Red,
            dtm: 9
        }
    );
    assert_eq!(
        dead_draw(&p, Some(32)),
        Adjudication::DeadDraw(DeadReason::TooSlow { dtm: 9, clock: 32 })
    );
    // The clock of the text counts unless overridden.
    assert!(matches!(
        dead_draw(&pos("4/4/4/c2L r 32"), None),
        Adjudication::DeadDraw(DeadReason::TooSlow { .. })
    ));
    assert!(matches!(
        dead_draw(&pos("4/4/4/c2L r 32"), Some(0)),
        Adjudication::PlayOn { .. }
    ));
    // Seen from the side that loses.
    assert_eq!(
        dead_draw(&pos("4/4/4/cL2 b"), Some(0)),
        dead_draw(&pos("4/4/4/cL2 b"), None)
    );
    assert_eq!(
        dead_draw(&pos("4/4/4/cL2 r"), None),
        Adjudication::PlayOn {
            winner: Color::Red,
            dtm: 1
        }
    );
    assert_eq!(
        dead_draw(&pos("4/4/4/cL2 r"), Some(39)),
        Adjudication::PlayOn {
            winner: Color::Red,
            dtm: 1
        }
    );
    assert_eq!(
        dead_draw(&pos("4/4/4/cL2 r"), Some(40)),
        Adjudication::DeadDraw(DeadReason::TooSlow { dtm: 1, clock: 40 })
    );
}

#[test]
fn not_applicable_inputs() {
    use Adjudication::NotApplicable as Na;
    assert_eq!(
        dead_draw(&pos("?3/4/4/c2L r"), None),
        Na(NotApplicable::FaceDownTiles)
    );
    assert_eq!(
        dead_draw(&pos("4/4/4/cCL1 r"), None),
        Na(NotApplicable::NotOneEach { red: 2, blue: 1 })
    );
    assert_eq!(
        dead_draw(&pos("4/4/4/3L r"), None),
        Na(NotApplicable::GameOver)
    );
    assert_eq!(
        dead_draw(&pos("4/4/4/4 r"), None),
        Na(NotApplicable::GameOver)
    );
    assert_eq!(
        dead_draw(&pos("4/4/4/ClR1 r"), None),
        Na(NotApplicable::NotOneEach { red: 2, blue: 1 })
    );
    assert_eq!(
        dead_draw(&pos("7/7/7/7/7/7/7/3R3/2e4 b"), None),
        Na(NotApplicable::NotFlipGame)
    );
    assert_eq!(
        dead_draw(&pos("4/4/4/c2L r"), Some(41)),
        Na(NotApplicable::ClockAboveLimit(41))
    );
}

#[test]
fn tablebase_is_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<jtb_probe::Tablebase>();
}
