//! A position of any game in a fixed record of [`PACKED_LEN`] bytes: what a program keeps by the
//! million (a NumPy array of training positions, a file of positions to scan) and hands back to
//! a batch probe without text to parse.
//!
//! The record, little-endian:
//!
//! | bytes | Jungle, the flip game, Clesto | Animal Gambit |
//! |---|---|---|
//! | 0 | the rule set's code ([`RULE_CODES`]: 1 `mistboard` ... 6 `animal-gambit`) | 6 |
//! | 1 | the side to move: 0 Red (Gold), 1 Blue (Silver) | the same |
//! | 2 | flags: 1 the hidden set is named, 2 the hungry set is named, 4 a clock | 0 |
//! | 3 | 0 | 0 |
//! | 4..6 | the half-move clock | 0 |
//! | 6..8 | the hidden set: Red's animals, Blue's (bit = animal, rat 0 ... elephant 7) | 0 |
//! | 8..24 | each animal's square, Red's rat to elephant then Blue's; 255 where it is not on the board | the 64 squares, a1 first, two a byte (low nibble first): 0 empty, 1 + animal (rabbit 0 ... elephant 5) for Gold, 7 + animal for Silver |
//! | 24..33 | the face-down tiles, a bit per square | (the board, to byte 40) |
//! | 33..42 | the hungry animals' squares, a bit per square | 0 |
//! | 42..48 | 0 | 0 |
//!
//! A square is `rank * 8 + file`, both from 0 (`a1` is 0, `b2` is 9). The hidden set is the one
//! the text's `?:` field names, or the one deduced where nothing was captured; the hungry set
//! Clesto's where it is not the canonical one. The move number of a text is not kept. Unpacking
//! checks everything the text parser checks, through the same calls, and refuses any other
//! byte: a record is a position exactly when its text would be.

use jtb_probe::{
    gambit, Animal, Color, HiddenSet, ParseError, Piece, Position, RuleSet, Square, SquareSet,
};

use crate::{AnyPosition, PositionError, Rules};

/// The bytes of a packed position.
pub const PACKED_LEN: usize = 48;

/// The rule sets' ids by their code in byte 0 of a record, from 1: stable, whatever order the
/// rule sets are listed in elsewhere.
pub const RULE_CODES: [&str; 6] = [
    "mistboard",
    "tiger-lengthwise",
    "leiden",
    "flip4x4",
    "clesto",
    "animal-gambit",
];

/// The rule sets of [`RULE_CODES`], in its order (a test ties the two).
const RULES: [Rules; 6] = [
    Rules::Jungle(RuleSet::Mistboard),
    Rules::Jungle(RuleSet::TigerLengthwise),
    Rules::Jungle(RuleSet::Leiden),
    Rules::Jungle(RuleSet::Flip4x4),
    Rules::Jungle(RuleSet::Clesto),
    Rules::AnimalGambit,
];

const HIDDEN_NAMED: u8 = 1;
const HUNGRY_NAMED: u8 = 2;
const CLOCK: u8 = 4;
const ABSENT: u8 = 255;
/// Squares are below 72 (nine ranks of eight): a set of them fits in nine bytes.
const SET_BYTES: usize = 9;

/// Why a record is no position.
fn bad(why: impl Into<String>) -> PositionError {
    PositionError::Packed(why.into())
}

impl AnyPosition {
    /// The position as a record of [`PACKED_LEN`] bytes (the module's table says how).
    #[must_use]
    pub fn pack(&self) -> [u8; PACKED_LEN] {
        let mut out = [0; PACKED_LEN];
        let rules = self.rules();
        out[0] = 1 + RULES
            .iter()
            .position(|&r| r == rules)
            .expect("every rule set has a code") as u8;
        match self {
            AnyPosition::Jungle(pos) | AnyPosition::Clesto(pos) => pack_family(pos, &mut out),
            AnyPosition::Gambit(pos) => pack_gambit(pos, &mut out),
        }
        out
    }

    /// The position of a record that [`AnyPosition::pack`] made.
    ///
    /// # Errors
    /// [`PositionError::Packed`] for a record of another length, an unknown rule set or a byte
    /// no record has; the text parser's errors for a placement that is no position (two pieces
    /// on a square, an animal in a den, a hidden set of another size than the tiles, ...).
    pub fn unpack(bytes: &[u8]) -> Result<AnyPosition, PositionError> {
        let record: &[u8; PACKED_LEN] = bytes.try_into().map_err(|_| {
            bad(format!(
                "a packed position is {PACKED_LEN} bytes, not {}",
                bytes.len()
            ))
        })?;
        let rules = match record[0] {
            code @ 1..=6 => RULES[usize::from(code) - 1],
            code => return Err(bad(format!("unknown rule set code {code}"))),
        };
        let turn = match record[1] {
            side @ (0 | 1) => usize::from(side),
            side => return Err(bad(format!("side to move {side} is neither 0 nor 1"))),
        };
        match rules {
            Rules::Jungle(rules) => {
                unpack_family(rules, Color::ALL[turn], record).map(AnyPosition::of_family)
            }
            Rules::AnimalGambit => {
                unpack_gambit(gambit::Color::ALL[turn], record).map(AnyPosition::Gambit)
            }
        }
    }
}

fn pack_family(pos: &Position, out: &mut [u8; PACKED_LEN]) {
    out[1] = pos.turn().index() as u8;
    let mut flags = 0;
    if let Some(clock) = pos.clock() {
        flags |= CLOCK;
        let clock = u16::try_from(clock).unwrap_or(u16::MAX);
        out[4..6].copy_from_slice(&clock.to_le_bytes());
    }
    if pos.hidden() != 0 {
        if let Some(set) = pos.hidden_set() {
            flags |= HIDDEN_NAMED;
            out[6] = set.set(Color::Red);
            out[7] = set.set(Color::Blue);
        }
    }
    if !pos.hungry_is_canonical() {
        flags |= HUNGRY_NAMED;
        put_set(&mut out[33..42], pos.hungry());
    }
    out[2] = flags;
    out[8..24].fill(ABSENT);
    for (piece, sq) in pos.pieces() {
        out[8 + piece.color.index() * 8 + piece.animal as usize] = sq.index() as u8;
    }
    put_set(&mut out[24..33], pos.hidden());
}

fn unpack_family(
    rules: RuleSet,
    turn: Color,
    record: &[u8; PACKED_LEN],
) -> Result<Position, PositionError> {
    let flags = record[2];
    if flags & !(HIDDEN_NAMED | HUNGRY_NAMED | CLOCK) != 0 || record[3] != 0 {
        return Err(bad(format!("unknown flags {flags:#04x}")));
    }
    if record[42..].iter().any(|&b| b != 0) {
        return Err(bad("bytes 42 to 48 are not 0"));
    }
    let mut pos = Position::empty(rules, turn);
    for (i, &at) in record[8..24].iter().enumerate() {
        if at == ABSENT {
            continue;
        }
        let sq = square(at)?;
        let piece = Piece::new(Color::ALL[i / 8], Animal::ALL[i % 8]);
        pos.put(piece, sq).map_err(placement)?;
    }
    let mut hidden = get_set(&record[24..33]);
    while hidden != 0 {
        let at = hidden.trailing_zeros() as u8;
        hidden &= hidden - 1;
        pos.put_hidden(square(at)?).map_err(placement)?;
    }
    if flags & HIDDEN_NAMED != 0 {
        let set = HiddenSet::from_sets(record[6], record[7]);
        pos.set_hidden_set(Some(set))
            .map_err(|e| PositionError::Parse(ParseError::Hidden(e)))?;
    } else if record[6..8] != [0, 0] {
        return Err(bad("a hidden set without its flag"));
    }
    let hungry = get_set(&record[33..42]);
    if flags & HUNGRY_NAMED != 0 {
        pos.set_hungry(Some(hungry)).map_err(placement)?;
    } else if hungry != 0 {
        return Err(bad("a hungry set without its flag"));
    }
    let clock = u16::from_le_bytes([record[4], record[5]]);
    if flags & CLOCK != 0 {
        pos.set_clock(Some(u32::from(clock)))?;
    } else if clock != 0 {
        return Err(bad("a clock without its flag"));
    }
    pos.settle_chance_clock();
    Ok(pos)
}

/// A placement rule the record breaks, as the text parser says it.
fn placement(e: jtb_probe::PositionError) -> PositionError {
    PositionError::Parse(ParseError::from(e))
}

/// The square of packed value `at`, if a board of nine ranks has one.
fn square(at: u8) -> Result<Square, PositionError> {
    if at >= 72 {
        return Err(bad(format!("square {at} is off every board")));
    }
    Ok(Square::new(at % 8, at / 8))
}

fn put_set(out: &mut [u8], set: SquareSet) {
    out.copy_from_slice(&set.to_le_bytes()[..SET_BYTES]);
}

fn get_set(bytes: &[u8]) -> SquareSet {
    let mut all = [0; 16];
    all[..SET_BYTES].copy_from_slice(bytes);
    SquareSet::from_le_bytes(all)
}

fn pack_gambit(pos: &gambit::Position, out: &mut [u8; PACKED_LEN]) {
    out[1] = pos.turn().index() as u8;
    for (sq, piece) in pos.board().iter() {
        let code = 1 + piece.color.index() as u8 * 6 + piece.animal as u8;
        out[8 + sq.index() / 2] |= code << (4 * (sq.index() % 2));
    }
}

fn unpack_gambit(
    turn: gambit::Color,
    record: &[u8; PACKED_LEN],
) -> Result<gambit::Position, PositionError> {
    if record[2..8].iter().chain(&record[40..]).any(|&b| b != 0) {
        return Err(bad(
            "an Animal Gambit record has only its side to move and its board",
        ));
    }
    let mut board = gambit::Board::EMPTY;
    for index in 0..64u8 {
        let code = record[8 + usize::from(index / 2)] >> (4 * (index % 2)) & 0xF;
        if code == 0 {
            continue;
        }
        if code > 12 {
            return Err(bad(format!("piece code {code} on square {index}")));
        }
        let color = gambit::Color::ALL[usize::from((code - 1) / 6)];
        let animal = gambit::Animal::ALL[usize::from((code - 1) % 6)];
        board.put(
            gambit::Piece::new(color, animal),
            gambit::Square::from_index(index),
        );
    }
    gambit::Position::new(board, turn)
        .map_err(|e| PositionError::Gambit(gambit::ParseError::from(e)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The codes name the rule sets they say.
    #[test]
    fn each_code_is_its_rule_set() {
        for (code, rules) in RULE_CODES.iter().zip(RULES) {
            assert_eq!(rules.name(), *code);
        }
        assert_eq!(Rules::all().len(), RULES.len());
    }

    /// Positions of every rule set, with every field a record keeps.
    const TEXTS: [(&str, Option<&str>); 15] = [
        ("7/7/7/7/7/3l3/7/3E3/7 r", None),
        ("7/7/7/7/7/3l3/7/3E3/7 b 12", None),
        ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 3", None),
        ("7/7/7/7/7/3l3/w6/3ER2/7 r", Some("tiger-lengthwise")),
        ("7/7/7/7/7/3l3/w6/3ER2/7 b 9", Some("leiden")),
        ("4/4/4/c2L b 33", None),
        ("?3/4/1?2/c2L r 12 ?:Tw", None),
        ("?3/4/1?2/c2L b ?:Tw", None),
        ("????/????/????/???? r", None),
        ("?3/4/1?2/c2L r", None),
        ("1?2/4/4/2?1 r 39 ?:Pc", None),
        ("7/7/R6/7/3L3/7/7/6e/7 r h:a7", Some("clesto")),
        ("7/7/7/7/7/7/7/r6/C5E r h:a1,g1", Some("clesto")),
        ("8/3r4/8/8/8/8/3RR3/8 s", None),
        ("8/8/8/3E4/8/8/r7/7R g", None),
    ];

    fn parse(text: &str, rules: Option<&str>) -> AnyPosition {
        AnyPosition::from_text(text, rules.map(|r| r.parse().unwrap())).unwrap()
    }

    /// Every position comes back from its record as it was, text and all; so does each position
    /// a few random moves away (each game's moves, flips by their outcomes).
    #[test]
    fn every_position_comes_back_from_its_record() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut checked = 0;
        for (text, rules) in TEXTS {
            let mut pos = parse(text, rules);
            for _ in 0..40 {
                let record = pos.pack();
                let back = AnyPosition::unpack(&record).unwrap();
                assert_eq!(back, pos, "{pos}");
                assert_eq!(back.to_string(), pos.to_string());
                assert_eq!(back.pack(), record);
                checked += 1;
                let moves = pos.moves();
                if moves.is_empty() {
                    break;
                }
                let mv = &moves[next(moves.len())];
                pos = match pos.flip_outcomes(mv) {
                    Ok(outcomes) => outcomes[next(outcomes.len())].2.clone(),
                    // A step beside face-down tiles is chance's too: the walk ends there.
                    Err(_) => match pos.play(mv) {
                        Ok(crate::Played::Next(next)) => next,
                        _ => break,
                    },
                };
            }
        }
        assert!(checked > 200, "{checked}");
        // The record is the rule set's: the same board under two rule sets differs in byte 0.
        let jungle = parse("7/7/7/7/7/3l3/w6/3ER2/7 r", None).pack();
        let leiden = parse("7/7/7/7/7/3l3/w6/3ER2/7 r", Some("leiden")).pack();
        assert_eq!((jungle[0], leiden[0]), (1, 3));
        assert_eq!(jungle[1..], leiden[1..]);
    }

    /// The move number of a text is the one field a record does not keep.
    #[test]
    fn the_move_number_is_not_kept() {
        let pos = parse("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 3 17", None);
        let back = AnyPosition::unpack(&pos.pack()).unwrap();
        assert_eq!(
            back.to_string(),
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 3"
        );
    }

    /// A damaged record is a position (one whose own record gives it back) or an error naming
    /// what is wrong; never a panic.
    #[test]
    fn any_byte_changed_is_a_position_or_an_error() {
        let mut refused = 0;
        for (text, rules) in TEXTS {
            let record = parse(text, rules).pack();
            for at in 0..PACKED_LEN {
                for bits in [1u8, 0x10, 0x80, 0xFF] {
                    let mut bad = record;
                    bad[at] ^= bits;
                    match AnyPosition::unpack(&bad) {
                        Ok(pos) => assert_eq!(AnyPosition::unpack(&pos.pack()).unwrap(), pos),
                        Err(e) => {
                            assert!(!e.to_string().is_empty());
                            refused += 1;
                        }
                    }
                }
            }
        }
        assert!(refused > 1000, "{refused}");
    }

    #[test]
    fn bad_records_name_the_problem() {
        let good = parse("7/7/7/7/7/3l3/7/3E3/7 r", None).pack();
        let with = |at: usize, byte: u8| {
            let mut r = good;
            r[at] = byte;
            AnyPosition::unpack(&r).unwrap_err().to_string()
        };
        assert_eq!(
            AnyPosition::unpack(&good[..40]).unwrap_err().to_string(),
            "not a packed position: a packed position is 48 bytes, not 40"
        );
        assert!(with(0, 0).contains("unknown rule set code 0"));
        assert!(with(0, 7).contains("unknown rule set code 7"));
        assert!(with(1, 2).contains("side to move 2"));
        assert!(with(2, 8).contains("unknown flags 0x08"));
        assert!(with(8, 72).contains("square 72 is off every board"));
        assert!(with(45, 1).contains("bytes 42 to 48"));
        // A placement the text parser refuses, in its words: the elephant on the lion's square.
        let lion = good[8 + 8 + 6];
        assert_eq!(
            with(8 + 7, lion),
            placement(jtb_probe::PositionError::Occupied(square(lion).unwrap())).to_string()
        );
        let gambit = parse("8/3r4/8/8/8/8/3RR3/8 s", None).pack();
        let mut bad = gambit;
        bad[8] = 0x0D;
        assert!(AnyPosition::unpack(&bad)
            .unwrap_err()
            .to_string()
            .contains("piece code 13 on square 0"));
        let mut bad = gambit;
        bad[41] = 1;
        assert!(AnyPosition::unpack(&bad)
            .unwrap_err()
            .to_string()
            .contains("only its side to move and its board"));
    }
}
