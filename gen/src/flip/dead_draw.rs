//! The flip game's built-in one-animal-each table (see `jtb_probe::flip`).

use jtb_probe::{
    flip::{one_each_file, one_each_slots, ONE_EACH_ENTRIES},
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
    let mut codes = Vec::with_capacity(ONE_EACH_ENTRIES);
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
        codes.push(code);
    }
    Ok(one_each_file(
        &codes,
        concat!("jtb-gen ", env!("CARGO_PKG_VERSION")),
    ))
}
