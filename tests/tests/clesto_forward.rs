//! The Clesto forward solver ([`jtb_tests::clesto_forward`]) on hand-made positions whose
//! values follow from RULES.md section 6 by hand, on the symmetries the rules have (the file
//! mirror) and have not (the colour flip), and on facts about whole small tables that follow
//! from the definition of the ban values.

use jtb_probe::{
    banned_side, bit, ClestoValue, Color, EndReason, Material, Outcome, Piece, Position, RuleSet,
    Square, Value, Wdl, JUNGLE,
};
use jtb_tests::clesto_forward::{solve, solve_all, sub_materials, Solution};

use std::sync::OnceLock;

/// CvDR and what it leads into, solved once for the tests that use it.
fn cvdr() -> &'static Solution {
    static SOLUTION: OnceLock<Solution> = OnceLock::new();
    SOLUTION.get_or_init(|| solve(material("CvDR")))
}

fn material(name: &str) -> Material {
    name.parse().unwrap()
}

fn sq(name: &str) -> Square {
    Square::parse(name, &JUNGLE).unwrap()
}

/// A position of `pieces` (letter, square) with `turn` to move, at the canonical hungry set.
fn at(turn: Color, pieces: &[(char, &str)]) -> Position {
    Position::from_pieces(
        RuleSet::Clesto,
        turn,
        pieces
            .iter()
            .map(|&(c, s)| (Piece::from_letter(c).unwrap(), sq(s))),
    )
    .unwrap()
}

/// `pos` with the mover's hungry set `squares`.
fn hungry(mut pos: Position, squares: &[&str]) -> Position {
    pos.set_hungry(Some(squares.iter().map(|s| bit(sq(s))).sum()))
        .unwrap();
    pos
}

fn mv(pos: &Position, text: &str) -> jtb_probe::Move {
    jtb_probe::Move::parse(text, pos).unwrap()
}

fn value(solution: &Solution, pos: &Position) -> ClestoValue {
    solution
        .value(pos)
        .unwrap_or_else(|| panic!("{pos}: no value"))
}

#[test]
fn the_sub_materials_come_fewest_pieces_first() {
    let subs = sub_materials(material("CvDR"));
    let names: Vec<String> = subs.iter().map(ToString::to_string).collect();
    assert_eq!(names.len(), 3);
    assert_eq!(names[2], "CvDR");
    assert!(names.contains(&"CvD".to_owned()) && names.contains(&"CvR".to_owned()));
    assert_eq!(sub_materials(material("LRvEC")).len(), 9);
}

/// A lion on Blue's trap next to Blue's den, not hungry: it steps in and wins at once. The
/// same lion with a capturable cat beside it is hungry and may not enter, but taking the cat
/// (Blue's last animal) wins in 1 as well.
#[test]
fn den_entry_wins_in_one() {
    let s = &solve(material("LvR"));
    let p = at(Color::Red, &[('L', "c9"), ('r', "a1")]);
    assert_eq!(p.hungry(), 0);
    assert_eq!(value(s, &p), ClestoValue::Plain(Value::Win(1)));
    // Blue to move in the same placement: the rat is far from everything, Red threatens the
    // den, and the rat cannot stop it: a loss in 2.
    let q = at(Color::Blue, &[('L', "c9"), ('r', "a1")]);
    assert_eq!(value(s, &q), ClestoValue::Plain(Value::Loss(2)));
    let s = &solve(material("LvC"));
    let hungry_lion = at(Color::Red, &[('L', "c9"), ('c', "b9")]);
    assert_ne!(hungry_lion.hungry(), 0);
    assert!(!hungry_lion
        .legal_moves()
        .contains(&mv(&hungry_lion, "c9d9")));
    assert_eq!(value(s, &hungry_lion), ClestoValue::Plain(Value::Win(1)));
}

/// Both of Blue's animals are hungry (its dog can take Red's cat, and so can its rat, the
/// cat standing on a trap, where it has rank 0): taking Red's last animal wins at once, before
/// the other hungry animal would starve.
#[test]
fn capturing_the_last_animal_wins_before_starvation() {
    let s = cvdr();
    let p = at(Color::Blue, &[('C', "c1"), ('d', "b1"), ('r', "c2")]);
    assert_eq!(p.hungry(), bit(sq("b1")) | bit(sq("c2")));
    for take in ["b1c1", "c2c1"] {
        let take = mv(&p, take);
        assert!(p.starvations(take).unwrap().is_empty());
        assert_eq!(
            p.play(take).unwrap(),
            Outcome::Over {
                result: Wdl::Win,
                reason: EndReason::LastPieceTaken
            }
        );
    }
    assert_eq!(value(s, &p), ClestoValue::Plain(Value::Win(1)));
}

/// Red's dog on d3 is hungry (it can take Blue's dog on Red's trap d2); Red moves its elephant
/// instead. The declaration sees the board before the starvation: Blue's dog is hungry (it
/// could take Red's dog), then Red's dog starves. Blue's hungry dog now has nothing to take and
/// may not enter Red's den: every move starves Blue's last animal, a loss in 1 (RULES.md 6,
/// "End of the game" 2), where the same board at the canonical hungry set is a win in 1 by
/// d2d1. The lookahead, not the canonical table entry, gives the value.
#[test]
fn starving_ones_last_animal_loses_in_one() {
    let s = &solve(material("EvD"));
    let before = at(Color::Red, &[('E', "a9"), ('D', "d3"), ('d', "d2")]);
    assert_eq!(before.hungry(), bit(sq("d3")));
    let after = match before.play(mv(&before, "a9a8")).unwrap() {
        Outcome::Ongoing(q) => q,
        o => panic!("{o:?}"),
    };
    let expected = hungry(at(Color::Blue, &[('E', "a8"), ('d', "d2")]), &["d2"]);
    assert_eq!(after, expected);
    assert!(!after.hungry_is_canonical());
    assert_eq!(after.to_string(), "7/E6/7/7/7/7/7/3d3/7 b h:d2");
    assert_eq!(value(s, &after), ClestoValue::Plain(Value::Loss(1)));
    assert_eq!(s.plain(&after), Some(Value::Loss(1)));
    for m in after.legal_moves() {
        assert_eq!(
            after.play(m).unwrap(),
            Outcome::Over {
                result: Wdl::Loss,
                reason: EndReason::Starved
            }
        );
    }
    let canonical = at(Color::Blue, &[('E', "a8"), ('d', "d2")]);
    assert_eq!(value(s, &canonical), ClestoValue::Plain(Value::Win(1)));
}

/// The same trick with a fourth piece, Blue's rat on g1: from the 4-piece position Red's quiet
/// elephant move leads into EvDR at a non-canonical set, where Blue's hungry dog must starve
/// whatever Blue does (the rat is nowhere near the elephant, so no move wins at once), and the
/// game continues in EvR with Red to move: a win in 5, where the canonical entry of the same
/// board is a win in 1 by d2d1. So the 4-piece table's value of this move is not the canonical
/// entry's: RULES.md's "from four pieces on this changes values".
#[test]
fn a_non_canonical_set_after_a_starvation_changes_the_value() {
    let s = &solve(material("EvDR"));
    let before = at(
        Color::Red,
        &[('E', "a9"), ('D', "d3"), ('d', "d2"), ('r', "g1")],
    );
    let after = match before.play(mv(&before, "a9a8")).unwrap() {
        Outcome::Ongoing(q) => q,
        o => panic!("{o:?}"),
    };
    assert_eq!(
        after,
        hungry(
            at(Color::Blue, &[('E', "a8"), ('d', "d2"), ('r', "g1")]),
            &["d2"]
        )
    );
    let canonical = at(Color::Blue, &[('E', "a8"), ('d', "d2"), ('r', "g1")]);
    assert_eq!(value(s, &canonical), ClestoValue::Plain(Value::Win(1)));
    // By hand, one move ahead: every Blue move starves the dog, into EvR with Red to move.
    for m in after.legal_moves() {
        assert_eq!(after.starvations(m).unwrap().len(), 1, "{m}");
        let Outcome::Ongoing(q) = after.play(m).unwrap() else {
            panic!("{m}")
        };
        assert_eq!(Material::of(&q), material("EvR"));
    }
    // The rat is three steps from Red's den (g1 f1 e1 d1) and the elephant on a8 can neither
    // reach it nor make it hungry in time: g1f1 (starving the dog), then e1 and d1 whatever
    // Red does, a win in 5, and no Blue move ends the game sooner.
    assert_eq!(value(s, &after), ClestoValue::Plain(Value::Win(5)));
    let Outcome::Ongoing(q) = after.play(mv(&after, "g1f1")).unwrap() else {
        panic!()
    };
    assert_eq!(value(s, &q), ClestoValue::Plain(Value::Loss(4)));
}

/// Red's cat on g9 (hungry: it can take Blue's rat on g8; Blue's dog on f9 is too strong)
/// has one legal move, taking the rat, into CvD with Blue to move. There Red is banned (as
/// many animals, Red) and the position is a plain draw, so Blue wins it by the ban. So Red, the
/// unbanned side of CvDR, loses by the ban, and Blue's exit distance is that one move.
#[test]
fn a_forced_move_into_a_ban_win_of_the_banned_side() {
    let s = cvdr();
    let p = at(Color::Red, &[('C', "g9"), ('d', "f9"), ('r', "g8")]);
    assert_eq!(p.legal_moves(), vec![mv(&p, "g9g8")]);
    let Outcome::Ongoing(q) = p.play(mv(&p, "g9g8")).unwrap() else {
        panic!()
    };
    assert_eq!(q, at(Color::Blue, &[('C', "g8"), ('d', "f9")]));
    assert_eq!(s.plain(&q), Some(Value::Draw));
    assert_eq!(value(s, &q), ClestoValue::BanWin { exit: None });
    assert_eq!(s.plain(&p), Some(Value::Draw));
    assert_eq!(value(s, &p), ClestoValue::BanLoss { exit: Some(1) });
}

/// 1v1: Red is banned, and no plain draw is in its reach (its exits all end the game, and from
/// a plain draw no move of it wins and no move of Blue is forced to lose), so every plain
/// draw is Blue's ban win. 2v1 with Red banned: Red's exits lead into 1v1, where it wins only
/// plainly, so the same holds. 1v2 with Blue banned: Blue's exits into a 1v1 plain draw are
/// Blue ban wins (Blue is unbanned there), so some plain draws are in its reach.
#[test]
fn who_wins_the_plain_draws_of_small_tables() {
    let all: Vec<Material> = Material::all_tables(RuleSet::Clesto, 2, 2);
    let s = &solve_all(&all);
    let mut draws = 0;
    for &m in &all {
        for (p, v) in s.positions(m) {
            if let ClestoValue::Plain(_) = v {
                continue;
            }
            draws += 1;
            let expected = if p.turn() == Color::Red {
                ClestoValue::BanLoss { exit: None }
            } else {
                ClestoValue::BanWin { exit: None }
            };
            assert_eq!(v, expected, "{m}: {p}");
        }
    }
    assert!(draws > 1000);
    let s = &solve(material("DRvC"));
    assert!(s.positions(material("DRvC")).all(|(_, v)| matches!(
        v,
        ClestoValue::Plain(_)
            | ClestoValue::BanWin { exit: None }
            | ClestoValue::BanLoss { exit: None }
    )));
    let s = cvdr();
    let reach = s
        .positions(material("CvDR"))
        .filter(|(_, v)| v.ban_part() != Value::Draw)
        .count();
    assert!(reach > 0);
}

/// The file mirror is a symmetry: every position of a material and of everything it leads
/// into has the value of its mirror image (non-canonical sets included). And every value has
/// the shape the table files store ([`ClestoValue::from_parts`]): B's exit distance on B's
/// side when it wins, on U's when it loses.
#[test]
fn the_file_mirror_keeps_every_value() {
    let s = cvdr();
    let mut n = 0;
    for &m in s.materials() {
        for (p, v) in s.positions(m) {
            assert_eq!(value(s, &p.mirrored()), v, "{p}");
            let mover_is_banned = p.turn() == banned_side(m);
            assert_eq!(
                ClestoValue::from_parts(v.plain_part(), v.ban_part(), mover_is_banned),
                Some(v),
                "{p}"
            );
            n += 1;
        }
    }
    assert_eq!(n, s.materials().iter().map(|&m| s.len(m)).sum::<usize>());
    let p = hungry(
        at(Color::Blue, &[('C', "a8"), ('d', "d2"), ('r', "g1")]),
        &["d2"],
    );
    assert!(!p.mirrored().hungry_is_canonical());
    assert_eq!(value(s, &p.mirrored()), value(s, &p));
}

/// The colour flip keeps the plain values (the game without the ban is colour-symmetric) but
/// not the ban values: with one animal each Red is banned in both orientations, so a plain
/// draw with Red to move is Red's loss, and its flip, Blue to move, is Blue's... win.
#[test]
fn the_colour_flip_keeps_plain_values_only() {
    let s = &solve_all(&[material("CvD"), material("DvC")]);
    for (p, v) in s.positions(material("CvD")) {
        let f = p.color_flipped();
        assert_eq!(s.plain(&f), s.plain(&p), "{p}");
        if let ClestoValue::Plain(_) = v {
            assert_eq!(value(s, &f), v, "{p}");
        } else {
            assert_ne!(value(s, &f).wdl(), v.wdl(), "{p}");
        }
    }
    // Red's cat on a9, Blue's dog on b9, Red to move: a plain draw, Red banned and losing.
    let p = at(Color::Red, &[('C', "a9"), ('d', "b9")]);
    assert_eq!(s.plain(&p), Some(Value::Draw));
    assert_eq!(value(s, &p), ClestoValue::BanLoss { exit: None });
    let f = p.color_flipped();
    assert_eq!(f, at(Color::Blue, &[('c', "a1"), ('D', "b1")]));
    assert_eq!(value(s, &f), ClestoValue::BanWin { exit: None });
}
