//! Table files through the byte source: the fuzzer's bytes as a whole file, with the header
//! checksum and the whole-file checksum made right, read as a file of each game family. Opening
//! is an error or a file; then every block is read (an error or a block of its declared size),
//! every entry decoded, and the whole-file checksum checked. Nothing panics, nothing is read
//! past the file's end, and no allocation exceeds what the header's sizes and the file justify.

#![no_main]

use std::{path::Path, sync::Arc};

use jtb_fuzz::fix_checksums;
use jtb_probe::{
    flip::Chance, format::Encoding, gambit::AnimalGambit, Clesto, Family, Jungle, RuleSet,
    TableFile,
};
use libfuzzer_sys::fuzz_target;

fn read_all<R: Family>(bytes: &Arc<[u8]>) {
    let path = Path::new("fuzzed.dtm");
    let Ok(file) = TableFile::<R>::from_source(path, Box::new(Arc::clone(bytes))) else {
        return;
    };
    let header = file.header().clone();
    assert!(file.len() == bytes.len() as u64);
    for b in 0..header.blocks {
        let Ok(block) = file.block(b) else {
            continue;
        };
        let entries = header.entries_in(b);
        assert_eq!(block.len(), header.encoding.bytes_for(entries), "block {b}");
        for i in 0..entries {
            let _ = file.wdl_entry(&block, i);
            if header.encoding != Encoding::Wdl2 {
                let _ = file.value_entry(&block, i);
                let _ = file.code_entry(&block, i);
            }
        }
        let _ = file.for_each_code(&block, |_| {});
    }
    let _ = file.verify_checksum();
    let _ = file.expecting(header.rules, header.material, header.kind);
}

fuzz_target!(|data: &[u8]| {
    let mut bytes = data.to_vec();
    fix_checksums(&mut bytes);
    let bytes: Arc<[u8]> = bytes.into();
    read_all::<RuleSet>(&bytes);
    read_all::<Jungle>(&bytes);
    read_all::<Clesto>(&bytes);
    read_all::<AnimalGambit>(&bytes);
    read_all::<Chance>(&bytes);
});
