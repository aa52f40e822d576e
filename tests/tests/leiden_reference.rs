//! The `leiden` 2-piece tables reproduce the published Leiden table (van Rijn & Vis, 2014):
//! every row of `tests/data/reference/leiden-2pc-openml41027.csv`.

use jtb_gen::solve_all;
use jtb_probe::{Animal, Color, Material, Piece, Position, RuleSet, Square, Wdl};

#[test]
fn leiden_two_piece_tables_reproduce_the_published_table() {
    let text = jtb_tests::LEIDEN_2PC;
    let tables = solve_all(RuleSet::Leiden, &Material::all(2, 2)).unwrap();
    let mut rows = 0;
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let n = |i: usize| f[i].parse::<u8>().unwrap();
        let red = Piece::new(Color::Red, Animal::from_index(n(0).into()));
        let blue = Piece::new(Color::Blue, Animal::from_index(n(3).into()));
        let pos = Position::from_pieces(
            RuleSet::Leiden,
            Color::Red,
            [
                (red, Square::new(n(1), n(2))),
                (blue, Square::new(n(4), n(5))),
            ],
        )
        .unwrap_or_else(|e| panic!("row {line}: {e}"));
        let table = tables.get(Material::of(&pos)).unwrap();
        let wdl = table.value(table.layout.index_of(&pos).unwrap()).wdl();
        let expected = match f[6] {
            "w" => Wdl::Win,
            "b" => Wdl::Loss,
            "d" => Wdl::Draw,
            other => panic!("bad class {other}"),
        };
        assert_eq!(wdl, expected, "{pos}");
        rows += 1;
    }
    assert_eq!(rows, 44_819);
}
