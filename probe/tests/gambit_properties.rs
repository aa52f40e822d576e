//! Animal Gambit property tests: turn lists commute with the file mirror and the colour flip,
//! the two turn searches agree, text round-trips, and no string panics the parser.

use std::collections::BTreeMap;

use jtb_probe::gambit::{Animal, Board, Color, Next, Piece, Position, Square, TurnGenerator};
use proptest::prelude::*;

/// A random legal position: a rabbit each side, then up to 10 more pieces tried on random
/// squares (often crowded into one quarter, so that pieces meet); placements that break a
/// rule are dropped by `Position::new`.
fn arb_position() -> impl Strategy<Value = Position> {
    (
        any::<bool>(),
        any::<bool>(),
        prop::collection::vec((any::<bool>(), 0usize..6, 0u8..64), 2..12),
    )
        .prop_filter_map("a legal position", |(silver, crowd, tries)| {
            let mut board = Board::EMPTY;
            for (i, (gold, animal, sq)) in tries.into_iter().enumerate() {
                let color = match i {
                    0 => Color::Gold,
                    1 => Color::Silver,
                    _ if gold => Color::Gold,
                    _ => Color::Silver,
                };
                let animal = if i < 2 {
                    Animal::Rabbit
                } else {
                    Animal::ALL[animal]
                };
                // Crowded: files c..f, ranks 2..5 (around the traps c3 and f3).
                let sq = if crowd {
                    Square::new(2 + sq % 4, 1 + (sq / 4) % 4)
                } else {
                    Square::from_index(sq)
                };
                if board.piece_at(sq).is_none() {
                    board.put(Piece::new(color, animal), sq);
                }
            }
            let turn = if silver { Color::Silver } else { Color::Gold };
            Position::new(board, turn).ok()
        })
}

/// End board → fewest steps.
fn turn_map(pos: &Position, f: impl Fn(&Board) -> Board) -> BTreeMap<String, u8> {
    pos.turns()
        .iter()
        .map(|t| (f(t.board()).to_string(), t.steps()))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn turns_commute_with_the_file_mirror(pos in arb_position()) {
        prop_assert_eq!(turn_map(&pos.mirror(), Board::clone), turn_map(&pos, Board::mirror));
    }

    #[test]
    fn turns_commute_with_the_colour_flip(pos in arb_position()) {
        prop_assert_eq!(pos.flip().turn(), pos.turn().other());
        prop_assert_eq!(turn_map(&pos.flip(), Board::clone), turn_map(&pos, Board::flip));
        // And the end-of-turn checks with them.
        for t in pos.turns() {
            prop_assert_eq!(pos.flip().turn_end(&t.board().flip()), pos.turn_end(t.board()));
            prop_assert_eq!(pos.mirror().turn_end(&t.board().mirror()), pos.turn_end(t.board()));
        }
    }

    #[test]
    fn the_bare_search_finds_the_same_boards(pos in arb_position()) {
        let mut gen = TurnGenerator::new();
        let mut bare: Vec<String> = gen.end_boards(&pos).iter().map(ToString::to_string).collect();
        bare.sort();
        let mut listed: Vec<String> = pos.turns().iter().map(|t| t.board().to_string()).collect();
        listed.sort();
        prop_assert_eq!(&bare, &listed);
        // Distinct, never the start, sorted by text, and each turn's steps as many as its text
        // has step tokens.
        let texts: Vec<String> = pos.turns().iter().map(ToString::to_string).collect();
        let mut sorted = texts.clone();
        sorted.sort();
        sorted.dedup();
        prop_assert_eq!(&texts, &sorted);
        for t in pos.turns() {
            prop_assert_ne!(t.board(), pos.board());
            let steps = t.to_string().split(' ').filter(|tok| !tok.ends_with('x')).count();
            prop_assert_eq!(usize::from(t.steps()), steps);
            prop_assert!((1..=4).contains(&steps));
        }
        prop_assert_eq!(pos.has_turn(), !listed.is_empty());
        // A turn that does not end the game gives the opponent's position.
        for t in pos.turns() {
            match (pos.play(&t), pos.turn_end(t.board())) {
                (Next::Continues(next), None) => {
                    prop_assert_eq!(next.board(), t.board());
                    prop_assert_eq!(next.turn(), pos.turn().other());
                    prop_assert_eq!(Ok(next), Position::new(*t.board(), pos.turn().other()));
                }
                (Next::Over(end), Some(e)) => prop_assert_eq!(end, e),
                (next, end) => prop_assert!(false, "{:?} against {:?}", next, end),
            }
        }
    }

    #[test]
    fn text_round_trips(pos in arb_position()) {
        let text = pos.to_string();
        prop_assert_eq!(text.parse::<Position>().unwrap(), pos);
        prop_assert_eq!(pos.mirror().mirror(), pos);
        prop_assert_eq!(pos.flip().flip(), pos);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5000))]

    #[test]
    fn no_string_panics_the_parser(text in "\\PC{0,80}") {
        let _ = text.parse::<Position>();
    }

    #[test]
    fn no_near_miss_panics_the_parser(text in "[RCDHMErcdhmeLTW0-9/ gsrb?]{0,90}") {
        if let Ok(pos) = text.parse::<Position>() {
            prop_assert_eq!(pos.to_string(), text.split_whitespace().collect::<Vec<_>>().join(" "));
        }
    }
}
