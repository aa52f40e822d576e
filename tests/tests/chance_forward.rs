//! RULES.md section 8 (the flip game with face-down tiles: chance values) pinned by hand-made
//! positions and checked by the independent naive solver `jtb_tests::chance_forward`, against
//! the built-in one-each table (`dead_draw`), the generator's DTC tables for fully revealed
//! positions, and the board's symmetries.

use jtb_gen::{solve_all, Metric};
use jtb_probe::{
    clock::rule_wdl, dead_draw, Animal, Color, HiddenSet, Material, Piece, Position, RuleSet,
    Square, Value, Wdl,
};
use jtb_tests::chance_forward::{Chance, Solver, CLOCK_LIMIT, DENOM};

fn pos(text: &str) -> Position {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The worth to the mover of the move `text` of `p` at `clock`.
fn worth(s: &mut Solver, p: &Position, clock: u32, text: &str) -> Chance {
    let moves = s.moves(p, clock);
    let found = moves.iter().find(|m| m.0 == text);
    found
        .unwrap_or_else(|| panic!("{p}: no move {text} in {moves:?}"))
        .1
}

/// The value a one-each verdict of `dead_draw` gives the side to move.
fn verdict(p: &Position, clock: u32) -> Chance {
    match dead_draw(p, Some(clock))
        .value_for(p)
        .expect("one animal each")
    {
        Value::Win(_) => Chance::WIN,
        Value::Draw => Chance::DRAW,
        Value::Loss(_) => Chance::LOSS,
    }
}

/// A flip is worth the average of its outcomes. Red shows nothing and can only flip; Blue's
/// elephant stands on b3. Under a3: Red's cat (Blue takes it, Red flips its elephant on d3:
/// equal ranks, a dead draw) or Red's elephant beside Blue's (Blue may not trade its last
/// animal while Red keeps the hidden cat, and Red forces the trade, its flip a spare tempo).
#[test]
fn a_flip_is_worth_the_average_of_its_outcomes() {
    let mut s = Solver::new();
    let p = pos("4/?e1?/4/4 r 0 ?:EC");
    let moves: Vec<String> = s
        .moves(&p, 0)
        .iter()
        .map(|(m, c)| format!("{m} {c}"))
        .collect();
    assert_eq!(
        moves,
        [
            "?a3 score 3/4 win 1/2 draw 1/2",
            "?d3 score 1/2 win 0 draw 1"
        ]
    );
    assert_eq!(s.value(&p, 0).to_string(), "score 3/4 win 1/2 draw 1/2");
    assert_eq!(s.best_move(&p, 0).as_deref(), Some("?a3"));
    // The outcomes, each with chance 1/2, Blue to move at clock 0.
    assert_eq!(s.value(&pos("4/Ee1?/4/4 b 0 ?:C"), 0), Chance::LOSS);
    assert_eq!(s.value(&pos("4/Ce1?/4/4 b 0 ?:E"), 0), Chance::DRAW);
    assert_eq!(
        worth(&mut s, &pos("4/Ee1?/4/4 b 0 ?:C"), 0, "b3a3"),
        Chance::LOSS
    );
    // Blue's best against the cat: take it; Red's one flip leaves a dead draw (end rule 3).
    let taken = pos("4/e2?/4/4 r 0 ?:E");
    assert_eq!(s.moves(&taken, 0).len(), 1);
    assert_eq!(verdict(&pos("4/e2E/4/4 b 0"), 0), Chance::DRAW);
    assert_eq!(s.value(&taken, 0), Chance::DRAW);
    // The same average, position by position through the library's outcomes.
    for flip in p.flips() {
        let outcomes = p.flip_outcomes(flip).unwrap();
        let each: Vec<Chance> = outcomes
            .iter()
            .map(|o| s.value(&o.position, 0).for_other_side())
            .collect();
        assert_eq!(
            worth(&mut s, &p, 0, &format!("?{flip}")),
            Chance::mean(&each)
        );
    }
}

/// Best move: the best score, then the highest own P(win), then the smallest move text. A flip
/// (`?a3` sorts before every step) wins a tie against equally good steps; a better step wins
/// over the flips.
#[test]
fn the_best_move_is_the_first_of_the_best_in_text_order() {
    let mut s = Solver::new();
    let tie = pos("4/?3/1?P1/4 r 0 ?:Ll");
    let moves = s.moves(&tie, 0);
    let texts: Vec<&str> = moves.iter().map(|m| m.0.as_str()).collect();
    assert_eq!(texts, ["?a3", "?b2", "c2c1", "c2c3", "c2d2"]);
    assert!(moves.iter().all(|m| m.1 == moves[0].1), "{moves:?}");
    assert_eq!(moves[0].1.to_string(), "score 3/4 win 1/2 draw 1/2");
    assert_eq!(s.best_move(&tie, 0).as_deref(), Some("?a3"));
    // Both flips lose for certain; one step of the wolf keeps an even chance of a draw.
    let step = pos("4/?3/?2W/4 r 0 ?:wr");
    assert_eq!(worth(&mut s, &step, 0, "?a2"), Chance::LOSS);
    assert_eq!(worth(&mut s, &step, 0, "?a3"), Chance::LOSS);
    assert_eq!(s.best_move(&step, 0).as_deref(), Some("d2c2"));
    assert_eq!(s.value(&step, 0).to_string(), "score 1/4 win 0 draw 1/2");
}

/// RULES.md 8, certain results and their distance (DTE): a move that ends the game is worth 1,
/// a game that has ended counts 0, a certain win is played by its shortest distance and a
/// certain loss by its longest, and results that are not certain have none.
#[test]
fn certain_results_have_their_distance_to_the_end() {
    let mut s = Solver::new();
    // Red's hidden tiger outlives the trade of the last face-up animals: a win in 1.
    let trade = pos("?3/4/4/2lL r 0 ?:T");
    assert_eq!(s.value(&trade, 0), Chance::WIN);
    assert_eq!(s.dte(&trade, 0), Some(1));
    assert_eq!(s.best_move(&trade, 0).as_deref(), Some("d1c1"));
    // The elephant takes Blue's last animal at once; the flip of Red's own leopard wins as
    // surely but later. The capture is best, though a flip sorts first.
    let take = pos("4/2cE/2?1/4 r 34 ?:P");
    let moves = s.moves_with_dte(&take, 34);
    assert!(moves.iter().all(|m| m.1 == Chance::WIN), "{moves:?}");
    let flip = moves.iter().find(|m| m.0 == "?c2").unwrap();
    assert!(flip.2.unwrap() > 1, "{moves:?}");
    assert_eq!(s.best_move(&take, 34).as_deref(), Some("d3c3"));
    assert_eq!(s.dte(&take, 34), Some(1));
    // A game that has ended: DTE 0 for the result it has; a side left without a move, too.
    assert_eq!(s.dte(&pos("?3/4/4/3L b 0 ?:T"), 0), Some(0));
    assert_eq!(s.dte(&pos("4/4/C3/rD2 b 0"), 39), Some(0));
    // Clock 40 is a draw: no distance; one step before, the capture still counts.
    let last = pos("4/4/4/2wL r 0");
    assert_eq!(s.dte(&last, 40), None);
    assert_eq!(s.dte(&last, 39), Some(1));
    // Decision: a certain draw has no distance, and neither has a score strictly between.
    let drawn = pos("?3/4/4/3? r 0 ?:Tw");
    assert_eq!(s.value(&drawn, 0), Chance::DRAW);
    assert_eq!(s.dte(&drawn, 0), None);
    // Not certain: an even flip between a draw and a win.
    let gamble = pos("4/?e1?/4/4 r 0 ?:EC");
    assert_eq!(
        s.value(&gamble, 0).to_string(),
        "score 3/4 win 1/2 draw 1/2"
    );
    assert_eq!(s.dte(&gamble, 0), None);
    // A certain loss: every move of Blue's loses, and the position's distance is the longest
    // of its moves' distances.
    let lost = pos("4/Ee1?/4/4 b 0 ?:C");
    assert_eq!(s.value(&lost, 0), Chance::LOSS);
    let longest = s
        .moves_with_dte(&lost, 0)
        .iter()
        .map(|m| m.2.unwrap())
        .max();
    assert_eq!(s.dte(&lost, 0), longest);
}

/// End rule 1: hidden animals count. A trade of the last face-up animals ends the game only
/// for a side with nothing face down.
#[test]
fn hidden_animals_count_for_the_end_of_the_game() {
    let mut s = Solver::new();
    // Red's hidden tiger survives the trade: Blue has nothing left, Red wins.
    assert_eq!(
        worth(&mut s, &pos("?3/4/4/2lL r 0 ?:T"), 0, "d1c1"),
        Chance::WIN
    );
    // Blue's hidden tiger survives it: Red has nothing left, Red loses.
    assert_eq!(
        worth(&mut s, &pos("?3/4/4/2lL r 0 ?:t"), 0, "d1c1"),
        Chance::LOSS
    );
    // With nothing face down the trade of the last animals is a draw.
    assert_eq!(
        worth(&mut s, &pos("4/4/4/2lL r 0"), 0, "d1c1"),
        Chance::DRAW
    );
    // A side with nothing anywhere has lost: the game is over, with no move.
    let over = pos("?3/4/4/3L b 0 ?:T");
    assert_eq!(s.value(&over, 0), Chance::LOSS);
    assert_eq!(s.value(&pos("?3/4/4/3L r 0 ?:T"), 0), Chance::WIN);
    assert_eq!(s.best_move(&over, 0), None);
    assert!(s.moves(&over, 0).is_empty());
    // Blue shows nothing but has a wolf face down: it flips, and the one-each position it
    // reveals is a dead draw (lion and wolf 6 squares apart, the lion to move).
    let hidden = pos("?3/4/4/3L b 0 ?:w");
    assert_eq!(s.best_move(&hidden, 0).as_deref(), Some("?a4"));
    assert_eq!(verdict(&pos("w3/4/4/3L r 0"), 0), Chance::DRAW);
    assert_eq!(s.value(&hidden, 0), Chance::DRAW);
}

/// End rules 2 and 4 and the clock: a position at clock 40 is drawn whatever moves it has, a
/// move at clock 39 that captures, flips or leaves the opponent without a move still counts.
#[test]
fn the_clock_draws_at_40_and_moves_at_39_still_count() {
    let mut s = Solver::new();
    let take = pos("4/4/4/2wL r 0");
    assert_eq!(s.value(&take, 39), Chance::WIN);
    assert_eq!(s.value(&take, 40), Chance::DRAW);
    assert_eq!(s.best_move(&take, 40), None);
    assert!(s.moves(&take, 40).is_empty());
    // Blue's rat on a1 has no move once Red's dog stands on b1 (a cat on a2).
    let boxed = pos("4/4/C3/rD2 b 0");
    assert_eq!(s.value(&boxed, 39), Chance::LOSS);
    assert_eq!(s.best_move(&boxed, 39), None);
    // Probed at clock 40 it is a draw; reached by a step at clock 39 it is a loss (end rule 2
    // comes before end rule 4).
    assert_eq!(s.value(&boxed, 40), Chance::DRAW);
    assert_eq!(
        worth(&mut s, &pos("4/4/C3/r1D1 r 0"), 39, "c1b1"),
        Chance::WIN
    );
    // Face-down tiles change nothing at clock 40; a flip at clock 39 restarts the clock.
    let tile = pos("?3/4/4/2wL r 0 ?:T");
    assert_eq!(s.value(&tile, 40), Chance::DRAW);
    assert!(s.moves(&tile, 40).is_empty());
    let flip = pos("?3/4/4/3L b 0 ?:w");
    assert_eq!(
        worth(&mut s, &flip, 39, "?a4"),
        worth(&mut s, &flip, 0, "?a4")
    );
    // A plain step at clock 39 into a position that does not end: a draw.
    assert_eq!(worth(&mut s, &take, 39, "d1d2"), Chance::DRAW);
}

/// Every one-each placement of a few animal pairs: fully revealed, the solver's value at every
/// clock is `dead_draw`'s verdict (end rule 3 is the clock rule's draw, RULES.md 5 rule 7); with
/// the mover's only animal face down, its flip is worth the verdict of the position it reveals.
#[test]
fn one_animal_each_agrees_with_the_dead_draw_table() {
    let pairs = [
        (Animal::Elephant, Animal::Rat),
        (Animal::Rat, Animal::Elephant),
        (Animal::Lion, Animal::Tiger),
        (Animal::Dog, Animal::Leopard),
        (Animal::Cat, Animal::Cat),
        (Animal::Wolf, Animal::Rat),
    ];
    let squares: Vec<Square> = RuleSet::Flip4x4.board().squares().collect();
    for (red, blue) in pairs {
        let mut s = Solver::new();
        let (r, b) = (Piece::new(Color::Red, red), Piece::new(Color::Blue, blue));
        for &rs in &squares {
            for &bs in squares.iter().filter(|&&x| x != rs) {
                for turn in Color::ALL {
                    let p =
                        Position::from_pieces(RuleSet::Flip4x4, turn, [(r, rs), (b, bs)]).unwrap();
                    for clock in 0..=CLOCK_LIMIT {
                        assert_eq!(s.value(&p, clock), verdict(&p, clock), "{p} at {clock}");
                    }
                    // The mover's animal face down: its one move reveals this position.
                    let mover = if turn == Color::Red { r } else { b };
                    let other = if turn == Color::Red { (b, bs) } else { (r, rs) };
                    let hidden_sq = if turn == Color::Red { rs } else { bs };
                    let mut q = Position::from_pieces(RuleSet::Flip4x4, turn, [other]).unwrap();
                    q.put_hidden(hidden_sq).unwrap();
                    q.set_hidden_set(Some(HiddenSet::EMPTY.with(mover)))
                        .unwrap();
                    let mut revealed = p.clone();
                    revealed.set_turn(turn.other());
                    let expected = verdict(&revealed, 0).for_other_side();
                    assert_eq!(s.value(&q, 17), expected, "{q}");
                }
            }
        }
    }
}

/// Fully revealed positions of three animals: the solver's value at every clock is the rule
/// value the generator's DTC gives (RULES.md 8: a fully revealed position keeps section 5's
/// values, its score 1, 1/2 or 0 with certainty).
#[test]
fn fully_revealed_values_are_the_tables_rule_values() {
    let material: Material = "LCvT".parse().unwrap();
    let tables = solve_all(RuleSet::Flip4x4, &[material]).unwrap();
    let mut s = Solver::new();
    let mut n = 0;
    for turn in Color::ALL {
        for p in jtb_tests::placements(RuleSet::Flip4x4, material, turn) {
            let placed: Vec<(Piece, Square)> = p.pieces().collect();
            let dtc = tables.value_in(Metric::Dtc, turn, &placed).unwrap();
            for clock in 0..=CLOCK_LIMIT {
                let expected = match rule_wdl(dtc, clock, CLOCK_LIMIT) {
                    Wdl::Win => Chance::WIN,
                    Wdl::Draw => Chance::DRAW,
                    Wdl::Loss => Chance::LOSS,
                };
                assert_eq!(s.value(&p, clock), expected, "{p} at {clock} (DTC {dtc})");
                n += 1;
            }
        }
    }
    assert_eq!(n, 16 * 15 * 14 * 2 * 41);
}

/// A small deterministic generator (xorshift64), so that the checks are repeatable.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A random flip position of `revealed` face-up animals and `tiles` face-down tiles (with a
/// random hidden set), `None` where the draw repeats an animal or a square.
fn random_position(rng: &mut Rng, revealed: usize, tiles: usize) -> Option<Position> {
    let squares: Vec<Square> = RuleSet::Flip4x4.board().squares().collect();
    let turn = Color::ALL[rng.below(2)];
    let mut p = Position::empty(RuleSet::Flip4x4, turn);
    let mut set = HiddenSet::EMPTY;
    for i in 0..revealed + tiles {
        let piece = Piece::new(Color::ALL[rng.below(2)], Animal::ALL[rng.below(8)]);
        if set.contains(piece) || p.square_of(piece).is_some() {
            return None;
        }
        let at = squares[rng.below(16)];
        if i < revealed {
            p.put(piece, at).ok()?;
        } else {
            p.put_hidden(at).ok()?;
            set = set.with(piece);
        }
    }
    p.set_hidden_set(Some(set)).unwrap();
    Some(p)
}

/// `p` under one of the eight symmetries of the square (`t`: bit 0 mirrors the files, bit 1
/// the ranks, bit 2 transposes first), the colours swapped with the side to move and the
/// hidden set where `swap`. Built square by square.
fn transformed(p: &Position, t: u8, swap: bool) -> Position {
    let map = |s: Square| {
        let (mut f, mut r) = (s.file(), s.rank());
        if t & 4 != 0 {
            (f, r) = (r, f);
        }
        if t & 1 != 0 {
            f = 3 - f;
        }
        if t & 2 != 0 {
            r = 3 - r;
        }
        Square::new(f, r)
    };
    let colour = |piece: Piece| {
        let c = if swap {
            piece.color.other()
        } else {
            piece.color
        };
        Piece::new(c, piece.animal)
    };
    let turn = if swap { p.turn().other() } else { p.turn() };
    let mut out = Position::empty(RuleSet::Flip4x4, turn);
    for (piece, s) in p.pieces() {
        out.put(colour(piece), map(s)).unwrap();
    }
    for s in p.flips() {
        out.put_hidden(map(s)).unwrap();
    }
    let set = p.hidden_set().unwrap().pieces().map(colour);
    out.set_hidden_set(Some(set.fold(HiddenSet::EMPTY, HiddenSet::with)))
        .unwrap();
    out
}

/// RULES.md 8, symmetry: the eight symmetries of the board and the colour swap keep every
/// value, on random positions with face-down tiles at random clocks.
#[test]
fn values_have_the_boards_symmetries_and_the_colour_swap() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut s = Solver::new();
    let mut checked = 0;
    while checked < 12 {
        let tiles = 1 + rng.below(2);
        let Some(p) = random_position(&mut rng, 2 - tiles, tiles) else {
            continue;
        };
        let clock = rng.below(41) as u32;
        let v = s.value(&p, clock);
        for t in 0..8 {
            for swap in [false, true] {
                let q = transformed(&p, t, swap);
                assert_eq!(s.value(&q, clock), v, "{p} -> {q} at {clock}");
            }
        }
        checked += 1;
    }
    // A position of three animals under two of them.
    let p = pos("4/?e1?/4/4 r 0 ?:EC");
    let v = s.value(&p, 0);
    assert_eq!(s.value(&transformed(&p, 5, true), 0), v);
    assert_eq!(s.value(&transformed(&p, 6, false), 0), v);
}

/// Random positions with face-down tiles: the value is the best move's worth, the best move
/// is the first of the moves of best (score, P(win)) in text order, and every number is as
/// exact as RULES.md 8 says (score a multiple of 1/(2 k!), probabilities of 1/k!).
#[test]
fn values_are_the_best_moves_and_exact() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut s = Solver::new();
    let mut checked = 0;
    // Two animals in all, then a few of three (whose fully revealed games cost far more).
    while checked < 28 {
        let (animals, tiles) = if checked < 24 {
            (2, 1 + rng.below(2))
        } else {
            (3, 1 + rng.below(3))
        };
        let Some(p) = random_position(&mut rng, animals - tiles, tiles) else {
            continue;
        };
        let clock = rng.below(41) as u32;
        let v = s.value(&p, clock);
        assert!(v.is_consistent(), "{p}: {v:?}");
        let k = p.flips().len();
        let k_factorial = (1..=k as u32).product::<u32>();
        assert_eq!(v.score % (DENOM / (2 * k_factorial)), 0, "{p}: {v}");
        assert_eq!(v.win % (DENOM / k_factorial), 0, "{p}: {v}");
        assert_eq!(v.draw % (DENOM / k_factorial), 0, "{p}: {v}");
        let moves = s.moves(&p, clock);
        let Some(best) = s.best_move(&p, clock) else {
            assert!(moves.is_empty());
            continue;
        };
        let top = moves.iter().map(|m| (m.1.score, m.1.win)).max().unwrap();
        let first = moves.iter().find(|m| (m.1.score, m.1.win) == top).unwrap();
        assert_eq!(first.1, v, "{p}");
        // Among those, a certain result goes by its distance: the shortest win, the longest
        // loss; otherwise the first in text order.
        let with_dte = s.moves_with_dte(&p, clock);
        let tied = with_dte.iter().filter(|m| (m.1.score, m.1.win) == top);
        let chosen = if v == Chance::WIN {
            tied.min_by_key(|m| m.2.unwrap()).unwrap()
        } else if v == Chance::LOSS {
            tied.max_by_key(|m| (m.2.unwrap(), std::cmp::Reverse(m.0.clone())))
                .unwrap()
        } else {
            tied.into_iter().next().unwrap()
        };
        assert_eq!(chosen.0, best, "{p}");
        assert_eq!(s.dte(&p, clock), chosen.2, "{p}");
        checked += 1;
    }
}
