//! The fields after the board, built from structured input so that most boards are good and
//! the fuzzer's effort goes into the clock, the move number, Clesto's hungry animals and the
//! flip game's `?:` hidden set: whatever parses prints and parses back the same, a clock asked
//! for is the position's clock, and nothing panics.

#![no_main]

use arbitrary::Arbitrary;
use jtb_edge::{AnyPosition, Rules};
use libfuzzer_sys::fuzz_target;

/// Letters of both games' pieces, and the flip game's face-down tile.
const LETTERS: &[u8] = b"RCDWPTLErcdwptle?HMhm";

#[derive(Debug, Arbitrary)]
struct Input {
    rules: u8,
    /// Pieces as (square, letter) indices, placed on the rule set's board.
    pieces: Vec<(u8, u8)>,
    side: u8,
    /// A number field, or a word the fuzzer chose.
    clock: Option<Field>,
    number: Option<Field>,
    /// `?:` and the letters, or Clesto's `h:` and squares, as the fuzzer chose them.
    last: Option<String>,
    /// The clock to parse with, as the server's `clock` parameter is.
    clock_arg: Option<u32>,
}

#[derive(Debug, Arbitrary)]
enum Field {
    Number(u32),
    Text(String),
}

impl Field {
    fn text(&self) -> String {
        match self {
            Field::Number(n) => n.to_string(),
            Field::Text(t) => t.clone(),
        }
    }
}

/// The board field with `pieces` on a board of `width` by `height`.
fn board(pieces: &[(u8, u8)], width: usize, height: usize) -> String {
    let mut squares = vec![None; width * height];
    for &(at, letter) in pieces {
        let at = usize::from(at) % squares.len();
        squares[at] = Some(LETTERS[usize::from(letter) % LETTERS.len()] as char);
    }
    let ranks: Vec<String> = squares
        .chunks(width)
        .map(|rank| {
            let mut text = String::new();
            let mut empty = 0;
            for square in rank {
                match square {
                    Some(c) => {
                        if empty > 0 {
                            text.push_str(&empty.to_string());
                            empty = 0;
                        }
                        text.push(*c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            text
        })
        .collect();
    ranks.join("/")
}

fuzz_target!(|input: Input| {
    let all = Rules::all();
    let rules = all[usize::from(input.rules) % all.len()];
    let (width, height, sides) = match rules.name() {
        "animal-gambit" => (8, 8, ["g", "s"]),
        "flip4x4" => (4, 4, ["r", "b"]),
        _ => (7, 9, ["r", "b"]),
    };
    let mut text = board(&input.pieces, width, height);
    text.push(' ');
    text.push_str(sides[usize::from(input.side) % 2]);
    for field in [&input.clock, &input.number].into_iter().flatten() {
        text.push(' ');
        text.push_str(&field.text());
    }
    if let Some(last) = &input.last {
        text.push(' ');
        text.push_str(last);
    }

    if let Ok(pos) = AnyPosition::from_text(&text, Some(rules)) {
        let printed = pos.to_string();
        let again = AnyPosition::from_text(&printed, Some(rules))
            .unwrap_or_else(|e| panic!("{text:?} printed as {printed:?}, which fails: {e}"));
        assert_eq!(again, pos, "{text:?} printed as {printed:?}");
        let _ = pos.moves();
    }
    if let Ok(pos) = AnyPosition::parse(&text, Some(rules), input.clock_arg) {
        let printed = pos.to_string();
        let again = AnyPosition::from_text(&printed, Some(rules))
            .unwrap_or_else(|e| panic!("{text:?} printed as {printed:?}, which fails: {e}"));
        assert_eq!(again, pos, "{text:?} printed as {printed:?}");
        if let Some(clock) = input.clock_arg {
            assert_eq!(pos.clock(), Some(clock), "{text:?}: the clock asked for");
        }
    }
});
