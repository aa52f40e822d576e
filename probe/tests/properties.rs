//! Property tests: move lists commute with the board's symmetries, text round-trips, and no
//! string panics the parser.

use jtb_probe::{Animal, Color, Move, Piece, Position, RuleSet, Square};
use proptest::prelude::*;

/// A random legal placement: each of the 16 pieces is tried on a random square and kept when
/// the placement rules allow it.
fn arb_position() -> impl Strategy<Value = Position> {
    (
        prop::sample::select(RuleSet::ALL.to_vec()),
        any::<bool>(),
        prop::collection::vec((any::<bool>(), any::<bool>(), 0u8..72), 16),
    )
        .prop_map(|(rules, blue, tries)| {
            let turn = if blue { Color::Blue } else { Color::Red };
            let mut pos = Position::empty(rules, turn);
            let board = rules.board();
            for (i, (keep, extra, sq)) in tries.into_iter().enumerate() {
                let piece = Piece::new(Color::ALL[i / 8], Animal::ALL[i % 8]);
                let sq = Square::new(sq % board.width, (sq / 8) % board.height);
                // Keep roughly a third of the pieces, so that positions stay open.
                if keep && extra {
                    let _ = pos.put(piece, sq);
                }
            }
            pos
        })
}

fn moves_text(p: &Position) -> Vec<String> {
    p.legal_moves().iter().map(ToString::to_string).collect()
}

fn mapped(moves: &[Move], f: impl Fn(Square) -> Square) -> Vec<String> {
    let mut out: Vec<String> = moves
        .iter()
        .map(|m| {
            Move {
                from: f(m.from),
                to: f(m.to),
            }
            .to_string()
        })
        .collect();
    out.sort();
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn moves_commute_with_the_file_mirror(p in arb_position()) {
        let board = p.board();
        let expected = mapped(&p.legal_moves(), |s| board.mirror_file(s));
        prop_assert_eq!(moves_text(&p.mirrored()), expected);
    }

    #[test]
    fn moves_commute_with_the_colour_flip(p in arb_position()) {
        let board = p.board();
        let expected = mapped(&p.legal_moves(), |s| board.mirror_rank(s));
        prop_assert_eq!(moves_text(&p.color_flipped()), expected);
    }

    #[test]
    fn move_lists_are_sorted_as_text(p in arb_position()) {
        let moves = moves_text(&p);
        let mut sorted = moves.clone();
        sorted.sort();
        prop_assert_eq!(moves, sorted);
    }

    #[test]
    fn text_round_trips(p in arb_position(), clock in prop::option::of(0u32..=40), number in prop::option::of(1u32..500)) {
        let mut p = p;
        let clock = clock.filter(|_| p.rules().has_clock());
        p.set_clock(clock).unwrap();
        p.set_move_number(clock.and(number));
        let text = p.to_string();
        let back = Position::parse(&text, Some(p.rules())).unwrap();
        prop_assert_eq!(&back, &p);
        prop_assert_eq!(back.to_string(), text);
    }

    #[test]
    fn random_strings_never_panic(s in "\\PC{0,80}") {
        let _ = Position::parse(&s, None);
        let _ = s.parse::<RuleSet>();
    }

    #[test]
    fn near_miss_texts_never_panic(s in "[1-9rcdwptleRCDWPTLE?/ x0-]{0,90}( h:[a-h1-9,-]{0,12})?") {
        for rules in [None, Some(RuleSet::Mistboard), Some(RuleSet::Flip4x4), Some(RuleSet::Clesto)] {
            if let Ok(p) = Position::parse(&s, rules) {
                // Whatever parses, prints and parses back to itself.
                prop_assert_eq!(Position::parse(&p.to_string(), Some(p.rules())).unwrap(), p.clone());
                let _ = p.legal_moves();
            }
        }
    }

    /// Clesto: any hungry set of the mover's animals prints, parses back, and commutes with
    /// the symmetries, as do its moves and their starvations.
    #[test]
    fn clesto_hungry_sets_round_trip_and_commute(p in arb_position(), pick in any::<u64>()) {
        let mut clesto = Position::empty(RuleSet::Clesto, p.turn());
        for (piece, s) in p.pieces() {
            let _ = clesto.put(piece, s);
        }
        let mut p = clesto;
        let mine = p.occupied_by(p.turn());
        let hungry = (0..128).filter(|&i| mine >> i & 1 == 1 && pick >> (i % 64) & 1 == 1)
            .fold(0u128, |set, i| set | 1 << i);
        p.set_hungry(Some(hungry)).unwrap();
        prop_assert_eq!(p.hungry(), hungry);
        let text = p.to_string();
        prop_assert_eq!(&Position::parse(&text, Some(RuleSet::Clesto)).unwrap(), &p);
        let board = p.board();
        let expected = mapped(&p.legal_moves(), |s| board.mirror_file(s));
        prop_assert_eq!(moves_text(&p.mirrored()), expected);
        let expected = mapped(&p.legal_moves(), |s| board.mirror_rank(s));
        prop_assert_eq!(moves_text(&p.color_flipped()), expected);
        for m in p.legal_moves() {
            let flipped = Move { from: board.mirror_rank(m.from), to: board.mirror_rank(m.to) };
            let starved: Vec<Square> = p.starvations(m).unwrap().into_iter().map(|(_, s)| board.mirror_rank(s)).collect();
            let mut theirs: Vec<Square> = p.color_flipped().starvations(flipped).unwrap().into_iter().map(|(_, s)| s).collect();
            let mut starved = starved;
            starved.sort();
            theirs.sort();
            prop_assert_eq!(starved, theirs);
        }
    }

    #[test]
    fn every_legal_move_plays(p in arb_position()) {
        for m in p.legal_moves() {
            prop_assert!(p.play(m).is_ok());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// The header decoder and the file reader take any bytes without panicking: each answer
    /// is a table or an error.
    #[test]
    fn arbitrary_bytes_never_panic_the_reader(
        mut bytes in proptest::collection::vec(any::<u8>(), 0..2048),
        magic in any::<bool>(),
        seed_header in any::<bool>(),
    ) {
        if magic && bytes.len() >= 8 {
            bytes[..8].copy_from_slice(b"JTBTABLE");
        }
        if seed_header && bytes.len() >= 12 {
            // A plausible version, kind and index scheme, so that decoding goes further.
            bytes[8..12].copy_from_slice(&[1, 0, 2, 1]);
        }
        let _ = jtb_probe::Header::<jtb_probe::RuleSet>::decode(&bytes);
        let _ = jtb_probe::Header::<jtb_probe::gambit::AnimalGambit>::decode(&bytes);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.dtm");
        std::fs::write(&path, &bytes).unwrap();
        let _ = jtb_probe::TableFile::<jtb_probe::gambit::AnimalGambit>::open(&path);
        let files = [
            jtb_probe::TableFile::<jtb_probe::RuleSet>::open(&path),
            // Safety: nothing changes the file while it is mapped.
            unsafe { jtb_probe::TableFile::open_mapped(&path) },
        ];
        for f in files.into_iter().flatten() {
            let _ = f.verify_checksum();
            for b in 0..f.header().blocks.min(64) {
                if let Ok(block) = f.block(b) {
                    for i in 0..f.header().entries_in(b).min(64) {
                        let _ = f.value_entry(&block, i);
                        let _ = f.wdl_entry(&block, i);
                    }
                }
            }
        }
    }
}
