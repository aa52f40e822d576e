//! `jtb plan`'s and `jtb gen`'s material lists: names read under a rule set (`Rules::targets`,
//! `Rules::named_targets`), each name that is a table printing as a name of the same table, and
//! the plan's tasks of what was read. The first byte picks the rule set, the second the piece
//! count; the rest is the names, separated by commas.

#![no_main]

use std::path::Path;

use jtb_edge::{JungleTable, Rules, TableName};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [rules, max_pieces, names @ ..] = data else {
        return;
    };
    let Ok(names) = std::str::from_utf8(names) else {
        return;
    };
    let all = Rules::all();
    let rules = all[usize::from(*rules) % all.len()];
    let names: Vec<&str> = if names.is_empty() {
        Vec::new()
    } else {
        names.split(',').take(8).collect()
    };
    // Without names every table up to the count is asked for: kept small, so that a run is
    // quick (the lists themselves are what is tested).
    let max_pieces = if names.is_empty() {
        usize::from(*max_pieces % 4)
    } else {
        usize::from(*max_pieces)
    };

    for name in &names {
        let Ok(table) = rules.table_name(name) else {
            continue;
        };
        let printed = match table {
            TableName::Jungle(JungleTable::Revealed(m)) => m.to_string(),
            TableName::Jungle(JungleTable::Chance(m)) => m.to_string(),
            TableName::Gambit(m) => m.to_string(),
        };
        let again = rules
            .table_name(&printed)
            .unwrap_or_else(|e| panic!("{name:?} printed as {printed:?}, which fails: {e}"));
        assert_eq!(again, table, "{name:?} printed as {printed:?}");
    }
    if let Ok(targets) = rules.targets(&names, max_pieces) {
        assert_eq!(targets.rules_id(), rules.name());
        let _ = jtb_gen::targets::tasks(&targets, Path::new("out"));
    }
    if let Ok(targets) = rules.named_targets(&names, max_pieces) {
        let _ = jtb_gen::targets::tasks(&targets, Path::new("out"));
    }
});
