//! Probes of each game over a damaged table (the flip game's chance values with their DTE): a small real table set of each game is generated
//! at start-up and held in memory; the fuzzer picks a set and one of its files and changes
//! bytes of it, then positions of the set are probed through `Tablebase::with_storage`. Each
//! probe is a value or an error: never a panic, never a hang (a line that never ends is a
//! timeout). The bytes changed are the file's, its checksums made right again (the damage
//! reaches the header, the index and the frames), or, with the first byte's high bit set, its
//! decoded entries, the blocks compressed again (the damage reaches the values: codes no table
//! holds, and values that contradict each other along a line).

#![no_main]

use std::{path::Path, sync::Arc};

use jtb_fuzz::{fix_checksums, table_sets, TableSet};
use jtb_probe::{
    flip::{Chance, ChanceTables, RevealedDte},
    format::file_bytes,
    gambit::{self, AnimalGambit},
    Clesto, Family, Jungle, MemoryFiles, Position, RuleSet, TableFile, Tablebase,
};
use libfuzzer_sys::fuzz_target;

/// A small cache: blocks are read again by each position, through the damaged bytes.
const CACHE_BYTES: u64 = 1 << 16;

/// Positions of each set of [`jtb_fuzz::SETS`], in its order, that its tables answer.
const POSITIONS: [&[&str]; 4] = [
    &[
        "7/7/7/7/7/3e3/7/3L3/7 r",
        "7/7/7/7/7/3e3/7/3L3/7 b 17",
        "7/7/2L4/7/7/7/7/3e3/7 r",
    ],
    &["7/7/7/7/7/3e3/7/3L3/7 r", "7/7/2L4/7/7/7/7/3e3/7 b"],
    &["8/8/8/3r4/8/3R4/8/8 g", "8/8/r7/8/8/8/6R1/8 s"],
    &[
        "?3/4/1?2/L2e r 0 ?:Tw",
        "?3/4/1?2/L2e b 5 ?:Tw",
        "4/4/4/L2e r 3",
    ],
];

/// The files of `set` in memory, `name`'s replaced by `bytes`.
fn storage(set: &TableSet, name: &str, bytes: &[u8]) -> Arc<MemoryFiles> {
    let mut files = MemoryFiles::new();
    for (file, original) in &set.files {
        let held = if file == name { bytes } else { original };
        files.insert(set.dir.join(file), held.to_vec());
    }
    Arc::new(files)
}

/// `bytes`, a table file of the family `R`, with `patches` applied to its decoded entries (all
/// blocks end to end) and the blocks compressed again as the writer does.
fn damage_entries<R: Family>(bytes: &[u8], patches: &[u8]) -> Vec<u8> {
    let file = TableFile::<R>::from_source(Path::new("t"), Box::new(Arc::<[u8]>::from(bytes)))
        .expect("a generated file");
    let header = file.header().clone();
    let mut blocks: Vec<Vec<u8>> = (0..header.blocks)
        .map(|b| file.block(b).expect("a generated block"))
        .collect();
    let total: usize = blocks.iter().map(Vec::len).sum();
    for patch in patches.chunks_exact(3) {
        let mut at = usize::from(u16::from_le_bytes([patch[0], patch[1]])) % total;
        for block in &mut blocks {
            if at < block.len() {
                block[at] ^= patch[2];
                break;
            }
            at -= block.len();
        }
    }
    let mut zstd = zstd::bulk::Compressor::new(1).expect("a compressor");
    zstd.include_checksum(true).expect("checksums");
    let frames: Vec<Vec<u8>> = blocks
        .iter()
        .map(|block| zstd.compress(block).expect("compressed"))
        .collect();
    file_bytes(&header, &frames)
}

// Each game's probes of a position of `text` over `storage`: whether every one answered.

fn jungle(storage: Arc<MemoryFiles>, rules: Jungle, text: &str) -> bool {
    let pos = Position::parse(text, Some(RuleSet::from(rules))).expect("a position");
    let Ok(tb) = Tablebase::with_storage(jtb_fuzz::ROOT, rules, CACHE_BYTES, storage) else {
        return false;
    };
    let mut ok = true;
    ok &= tb.probe_wdl(&pos).is_ok();
    ok &= tb.probe_dtm(&pos).is_ok();
    ok &= tb.probe_dtc(&pos).is_ok();
    ok &= tb.probe_rule(&pos).is_ok();
    ok &= tb.best_move(&pos).is_ok();
    ok &= tb.line(&pos).is_ok();
    ok &= tb.rule_line(&pos).is_ok();
    ok
}

fn clesto(storage: Arc<MemoryFiles>, text: &str) -> bool {
    let pos = Position::parse(text, Some(RuleSet::Clesto)).expect("a position");
    let Ok(tb) = Tablebase::with_storage(jtb_fuzz::ROOT, Clesto, CACHE_BYTES, storage) else {
        return false;
    };
    let mut ok = true;
    ok &= tb.probe_wdl(&pos).is_ok();
    ok &= tb.probe_clesto(&pos).is_ok();
    ok &= tb.clesto_best_move(&pos).is_ok();
    ok &= tb.clesto_line(&pos).is_ok();
    ok
}

fn gambit(storage: Arc<MemoryFiles>, text: &str) -> bool {
    let pos: gambit::Position = text.parse().expect("a position");
    let Ok(tb) = Tablebase::with_storage(jtb_fuzz::ROOT, AnimalGambit, CACHE_BYTES, storage) else {
        return false;
    };
    let mut ok = true;
    ok &= tb.probe_wdl(&pos).is_ok();
    ok &= tb.probe_dtm(&pos).is_ok();
    ok &= tb.best_move(&pos).is_ok();
    ok &= tb.line(&pos).is_ok();
    ok &= tb.adjudicate(&pos).is_ok();
    ok
}

fn flip(storage: Arc<MemoryFiles>, text: &str) -> bool {
    let pos = Position::parse(text, Some(RuleSet::Flip4x4)).expect("a position");
    if pos.hidden() == 0 && !jungle(storage.clone(), Jungle::Flip4x4, text) {
        return false;
    }
    // The chance values with their distances (DTE), every move's, the best move.
    let Ok(tables) = ChanceTables::with_storage(jtb_fuzz::ROOT, CACHE_BYTES, storage) else {
        return false;
    };
    let mut ok = true;
    ok &= tables.probe(&pos).is_ok();
    ok &= tables.dte(&pos).is_ok();
    ok &= tables.ranked_moves(&pos).is_ok();
    ok
}

// The table sets are generated before the fuzzing starts (a few seconds, more on a loaded
// machine), not within the first input's time limit.
fuzz_target!(
    init: {
        table_sets();
    },
    |data: &[u8]| {
    let [pick, file, patches @ ..] = data else {
        return;
    };
    let sets = table_sets();
    let at = usize::from(*pick) % sets.len();
    let set = &sets[at];
    let (name, original) = &set.files[usize::from(*file) % set.files.len()];
    // Each patch: a little-endian u16 offset (wrapping) and a byte to xor there.
    let bytes = if *pick & 0x80 != 0 {
        // A chance table's files (`LvE-Tw.chance`, `LvE-Tw.dte`), a revealed flip table's DTE
        // file (`LvE.dte`, a family of its own), or a table of the set's game.
        if name.contains('-') {
            damage_entries::<Chance>(original, patches)
        } else if name.ends_with(".dte") {
            damage_entries::<RevealedDte>(original, patches)
        } else if at == 2 {
            damage_entries::<AnimalGambit>(original, patches)
        } else {
            damage_entries::<RuleSet>(original, patches)
        }
    } else {
        let mut bytes = original.clone();
        for patch in patches.chunks_exact(3) {
            let offset = usize::from(u16::from_le_bytes([patch[0], patch[1]])) % bytes.len();
            bytes[offset] ^= patch[2];
        }
        fix_checksums(&mut bytes);
        bytes
    };
    for text in POSITIONS[at] {
        let files = storage(set, name, &bytes);
        let answered = match at {
            0 => jungle(files, Jungle::Mistboard, text),
            1 => clesto(files, text),
            2 => gambit(files, text),
            _ => flip(files, text),
        };
        // The tables as generated answer every question of their positions.
        assert!(answered || !patches.is_empty(), "{text}: unanswered");
    }
    }
);
