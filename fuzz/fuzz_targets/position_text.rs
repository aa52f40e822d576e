//! Position text of every game: whatever parses prints as text that parses to the same
//! position, and nothing panics. The first byte picks the rule set (or none: the text's shape
//! decides), the second a clock to parse with (or none); the rest is the text.

#![no_main]

use jtb_edge::AnyPosition;
use jtb_fuzz::rules_of_byte;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [rules, clock, text @ ..] = data else {
        return;
    };
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    let rules = rules_of_byte(*rules);
    let clock = (*clock < 0xf0).then_some(u32::from(*clock));

    if let Ok(pos) = AnyPosition::from_text(text, rules) {
        let printed = pos.to_string();
        let again = AnyPosition::from_text(&printed, Some(pos.rules()))
            .unwrap_or_else(|e| panic!("{text:?} printed as {printed:?}, which fails: {e}"));
        assert_eq!(again, pos, "{text:?} printed as {printed:?}");
        assert_eq!(again.to_string(), printed);
        // Listing the moves reads the whole position (face-down tiles, hungry animals).
        let _ = pos.moves();
        let _ = pos.is_game_over();
    }
    if let Ok(pos) = AnyPosition::parse(text, rules, clock) {
        let printed = pos.to_string();
        let again = AnyPosition::from_text(&printed, Some(pos.rules()))
            .unwrap_or_else(|e| panic!("{text:?} printed as {printed:?}, which fails: {e}"));
        assert_eq!(again, pos, "{text:?} printed as {printed:?}");
        if let (Some(clock), Some(_)) = (clock, pos.rules().clock_limit()) {
            assert_eq!(pos.clock(), Some(clock), "the clock asked for");
        }
    }

    // The games' own parsers, as the probe library's users call them.
    let jungle_rules = rules.and_then(|r| r.name().parse::<jtb_probe::RuleSet>().ok());
    if let Ok(pos) = jtb_probe::Position::parse(text, jungle_rules) {
        let printed = pos.to_string();
        let again = jtb_probe::Position::parse(&printed, Some(pos.rules()))
            .unwrap_or_else(|e| panic!("{text:?} printed as {printed:?}, which fails: {e}"));
        assert_eq!(again, pos, "{text:?} printed as {printed:?}");
    }
    if let Ok(pos) = text.parse::<jtb_probe::gambit::Position>() {
        let printed = pos.to_string();
        let again: jtb_probe::gambit::Position = printed
            .parse()
            .unwrap_or_else(|e| panic!("{text:?} printed as {printed:?}, which fails: {e}"));
        assert_eq!(again, pos, "{text:?} printed as {printed:?}");
    }
});
