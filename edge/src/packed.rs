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
//!
//! Bytes 0 and 1 are read here; the rest by each type of rule sets ([`RuleFamily::unpack`]) and
//! written by each game ([`EdgeGame::pack`]), in its module of `games/`.

use jtb_probe::{Placement, RuleSet};

use crate::{games::EdgeGame, AnyPosition, PositionError, RuleFamily, Rules};

/// The bytes of a packed position.
pub const PACKED_LEN: usize = 48;

/// The rule sets by their code in byte 0 of a record, from 1: stable, whatever order the rule
/// sets are listed in elsewhere.
pub const RULE_CODES: [Rules; 6] = [
    Rules::Jungle(RuleSet::Mistboard),
    Rules::Jungle(RuleSet::TigerLengthwise),
    Rules::Jungle(RuleSet::Leiden),
    Rules::Jungle(RuleSet::Flip4x4),
    Rules::Jungle(RuleSet::Clesto),
    Rules::AnimalGambit,
];

/// Why a record is no position.
pub(crate) fn not_packed(why: impl Into<String>) -> PositionError {
    PositionError::Packed(why.into())
}

impl AnyPosition {
    /// The position as a record of [`PACKED_LEN`] bytes (the module's table says how).
    #[must_use]
    pub fn pack(&self) -> [u8; PACKED_LEN] {
        let mut out = [0; PACKED_LEN];
        let rules = self.rules();
        out[0] = 1 + RULE_CODES
            .iter()
            .position(|&r| r == rules)
            .expect("every rule set has a code") as u8;
        each_game!(self, AnyPosition, |pos, G| G::pack(pos, &mut out));
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
            not_packed(format!(
                "a packed position is {PACKED_LEN} bytes, not {}",
                bytes.len()
            ))
        })?;
        let rules = match record[0] {
            code @ 1..=6 => RULE_CODES[usize::from(code) - 1],
            code => return Err(not_packed(format!("unknown rule set code {code}"))),
        };
        if record[1] > 1 {
            return Err(not_packed(format!(
                "side to move {} is neither 0 nor 1",
                record[1]
            )));
        }
        each_family!(rules, |r, F| F::unpack(r, record))
    }
}

/// The placement of a record of a Jungle-type rule set (not Clesto's) with nothing but its
/// side to move and pieces, where it is a position the tables may hold
/// ([`Placement::new`]): what [`AnyPosition::unpack`] gives then, without building it.
/// `None` for every other record, which the unpacked position (or its error) answers.
#[inline]
pub(crate) fn placement(record: &[u8; PACKED_LEN]) -> Option<(Rules, Placement)> {
    let rules = match record[0] {
        code @ 1..=6 => RULE_CODES[usize::from(code) - 1],
        _ => return None,
    };
    let Rules::Jungle(rule_set) = rules else {
        return None;
    };
    if rule_set == RuleSet::Clesto
        || record[1] > 1
        || record[2..8].iter().any(|&b| b != 0)
        || record[24..].iter().any(|&b| b != 0)
    {
        return None;
    }
    Some((
        rules,
        crate::games::jungle::packed_placement(rule_set, record)?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every rule set has its code, once.
    #[test]
    fn each_rule_set_has_a_code() {
        let mut all = Rules::all();
        all.sort_by_key(|r| r.name());
        let mut coded = RULE_CODES.to_vec();
        coded.sort_by_key(|r| r.name());
        assert_eq!(coded, all);
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
            PositionError::Parse(jtb_probe::ParseError::from(
                jtb_probe::PositionError::Occupied(jtb_probe::Square::new(lion % 8, lion / 8))
            ))
            .to_string()
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
