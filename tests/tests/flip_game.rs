//! The flip game: the built-in one-each table regenerates byte for byte and agrees with the
//! flip tables; symmetry of flip values under the board's mirrors and the colour swap.

use jtb_gen::{dead_draw::one_each_table, solve_all};
use jtb_probe::{dead_draw, Animal, Color, Material, Piece, Position, RuleSet, Square, Value};

#[test]
fn the_built_in_table_regenerates_byte_for_byte() {
    let built_in = include_bytes!("../../probe/data/flip4x4-one-each.jtb");
    let fresh = one_each_table().unwrap();
    assert_eq!(fresh.len(), built_in.len());
    assert!(fresh == built_in, "regenerate with: cargo run -p jtb-gen --example dead_draw_table > probe/data/flip4x4-one-each.jtb");
}

#[test]
fn dead_draw_agrees_with_the_tables_at_clock_zero() {
    let tables = solve_all(RuleSet::Flip4x4, &Material::all(2, 2)).unwrap();
    let squares: Vec<Square> = RuleSet::Flip4x4.board().squares().collect();
    let mut n = 0;
    for red in Animal::ALL {
        for blue in Animal::ALL {
            for &r in &squares {
                for &b in squares.iter().filter(|&&b| b != r) {
                    for turn in Color::ALL {
                        let pieces = [
                            (Piece::new(Color::Red, red), r),
                            (Piece::new(Color::Blue, blue), b),
                        ];
                        let p = Position::from_pieces(RuleSet::Flip4x4, turn, pieces).unwrap();
                        let value = tables.value_of_position(&p).unwrap();
                        assert_eq!(dead_draw(&p, Some(0)).value_for(&p), Some(value), "{p}");
                        n += 1;
                    }
                }
            }
        }
    }
    assert_eq!(n, 30_720);
}

/// The flip board's other symmetries: the rank mirror alone, the colour swap alone (no dens,
/// no sides to the board), and the transpose.
fn transformed(pos: &Position, map: impl Fn(Square) -> Square, swap: bool) -> Position {
    let turn = if swap { pos.turn().other() } else { pos.turn() };
    Position::from_pieces(
        RuleSet::Flip4x4,
        turn,
        pos.pieces().map(|(p, s)| {
            let c = if swap { p.color.other() } else { p.color };
            (Piece::new(c, p.animal), map(s))
        }),
    )
    .unwrap()
}

#[test]
fn flip_values_have_the_boards_symmetries() {
    let targets: Vec<Material> = ["ERvR", "LCvT", "DRvWC"]
        .iter()
        .map(|m| m.parse().unwrap())
        .collect();
    let tables = solve_all(RuleSet::Flip4x4, &targets).unwrap();
    let value = |p: &Position| -> Value { tables.value_of_position(p).unwrap() };
    for m in &targets {
        let t = tables.get(*m).unwrap();
        t.layout.for_each_used_entry(|idx, _| {
            let p = t.layout.position(idx).unwrap();
            let v = t.value(idx);
            let rank_mirror = |s: Square| Square::new(s.file(), 3 - s.rank());
            let transpose = |s: Square| Square::new(s.rank(), s.file());
            assert_eq!(value(&transformed(&p, rank_mirror, false)), v, "{p}");
            assert_eq!(value(&transformed(&p, |s| s, true)), v, "{p}");
            assert_eq!(value(&transformed(&p, transpose, false)), v, "{p}");
        });
    }
}
