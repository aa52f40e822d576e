//! The flip game's built-in one-animal-each table (see `jtb_probe::flip`).

use jtb_probe::{
    flip::{one_each_slots, ONE_EACH_ENTRIES, ONE_EACH_MAGIC},
    format::checksum,
    Animal, Color, Material, Piece, RuleSet, Square,
};

use crate::{solve_all, GenError};

/// The bytes of the built-in one-each table file: every fully revealed one-animal-each flip
/// position solved by the retrograde generator, in the order of `one_each_slots`.
///
/// # Errors
/// A [`GenError`] of the generation.
pub fn one_each_table() -> Result<Vec<u8>, GenError> {
    let materials: Vec<Material> = Material::all(2, 2);
    let tables = solve_all(RuleSet::Flip4x4, &materials)?;
    let mut out = Vec::with_capacity(ONE_EACH_ENTRIES + 64);
    out.extend_from_slice(&ONE_EACH_MAGIC);
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&(ONE_EACH_ENTRIES as u32).to_le_bytes());
    let mut generator = concat!("jtb-gen ", env!("CARGO_PKG_VERSION"))
        .as_bytes()
        .to_vec();
    generator.resize(32, 0);
    out.extend_from_slice(&generator);
    let square = |d: usize| Square::new((d % 4) as u8, (d / 4) as u8);
    for slot in one_each_slots() {
        let (pair_side, r, b) = (slot / 256, (slot / 16) % 16, slot % 16);
        let (pair, side) = (pair_side / 2, pair_side % 2);
        let red = Piece::new(Color::Red, Animal::from_index(pair / 8));
        let blue = Piece::new(Color::Blue, Animal::from_index(pair % 8));
        let value = tables.value(Color::ALL[side], &[(red, square(r)), (blue, square(b))])?;
        let code = u8::try_from(value.code()).map_err(|_| {
            GenError::DistanceOverflow(Material::from_sets(0, 0), value.code().into())
        })?;
        out.push(code);
    }
    let sum = checksum(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    Ok(out)
}
