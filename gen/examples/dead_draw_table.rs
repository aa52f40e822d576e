//! Writes the flip game's built-in one-each table to standard output:
//! `cargo run -p jtb-gen --example dead_draw_table > probe/data/flip4x4-one-each.jtb`.

use std::io::Write;

fn main() {
    let bytes = jtb_gen::dead_draw::one_each_table().expect("generation");
    std::io::stdout().write_all(&bytes).expect("write");
}
