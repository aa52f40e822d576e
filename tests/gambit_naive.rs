//! A deliberately plain model of Animal Gambit's rules (RULES.md section 7), written apart
//! from the probe library's game model: an array board, every step sequence explored one step
//! at a time, with a push or a pull tracked as a pending state between its two steps. The rule
//! tests (`probe/tests/gambit_rules.rs`) check the library's turns against it, and the forward
//! solver ([`crate::gambit_forward`]) takes its successors from it.

use std::collections::BTreeMap;

/// A piece: gold or not, and its strength 0 (rabbit) .. 5 (elephant).
pub type Piece = (bool, u8);
pub type Grid = [Option<Piece>; 64];

const TRAPS: [usize; 4] = [18, 21, 42, 45];
const LETTERS: &[u8; 6] = b"RCDHME";

pub fn letter((gold, s): Piece) -> char {
    let c = LETTERS[s as usize] as char;
    if gold {
        c
    } else {
        c.to_ascii_lowercase()
    }
}

fn name(sq: usize) -> String {
    format!("{}{}", (b'a' + (sq % 8) as u8) as char, sq / 8 + 1)
}

/// The neighbours of `sq` with the direction letter that leads there.
fn around(sq: usize) -> Vec<(usize, char)> {
    let (f, r) = (sq % 8, sq / 8);
    let mut out = Vec::new();
    if r < 7 {
        out.push((sq + 8, 'n'));
    }
    if r > 0 {
        out.push((sq - 8, 's'));
    }
    if f < 7 {
        out.push((sq + 1, 'e'));
    }
    if f > 0 {
        out.push((sq - 1, 'w'));
    }
    out
}

fn dir(from: usize, to: usize) -> char {
    around(from).into_iter().find(|&(t, _)| t == to).unwrap().1
}

pub fn frozen(g: &Grid, sq: usize) -> bool {
    let Some((gold, s)) = g[sq] else { return false };
    let mut stronger = false;
    for (t, _) in around(sq) {
        match g[t] {
            Some((c, _)) if c == gold => return false,
            Some((_, e)) if e > s => stronger = true,
            _ => {}
        }
    }
    stronger
}

fn guarded(g: &Grid, sq: usize) -> bool {
    let gold = g[sq].unwrap().0;
    around(sq)
        .into_iter()
        .any(|(t, _)| matches!(g[t], Some((c, _)) if c == gold))
}

/// Moves the piece on `from` to `to`, writes its token, then the trap rule.
fn step(g: &Grid, from: usize, to: usize, text: &str) -> (Grid, String) {
    let mut g = *g;
    let p = g[from].take().unwrap();
    g[to] = Some(p);
    let mut text = format!(
        "{}{}{}{}",
        text,
        if text.is_empty() { "" } else { " " },
        letter(p),
        name(from)
    );
    text.push(dir(from, to));
    for t in TRAPS {
        if g[t].is_some() && !guarded(&g, t) {
            text.push_str(&format!(" {}{}x", letter(g[t].unwrap()), name(t)));
            g[t] = None;
        }
    }
    (g, text)
}

#[derive(Clone)]
enum Pending {
    /// Free to start anything; `pull` is the square and strength of a piece of the mover
    /// that just stepped freely (a weaker enemy next to that square may follow it).
    Free { pull: Option<(usize, u8)> },
    /// An enemy was pushed off `vacated`; one of `pushers` must step in now.
    Push { vacated: usize, pushers: Vec<usize> },
}

/// Every end board of a turn of `gold` (to move) from `start`, with its fewest steps and
/// the smallest text among those, within `max` steps.
pub fn turns(start: &Grid, gold: bool, max: usize) -> BTreeMap<Grid, (usize, String)> {
    let mut out = BTreeMap::new();
    go(
        start,
        start,
        gold,
        0,
        max,
        String::new(),
        Pending::Free { pull: None },
        &mut out,
    );
    out
}

#[allow(clippy::too_many_arguments)]
fn go(
    start: &Grid,
    g: &Grid,
    gold: bool,
    steps: usize,
    max: usize,
    text: String,
    pending: Pending,
    out: &mut BTreeMap<Grid, (usize, String)>,
) {
    if steps > 0 && matches!(pending, Pending::Free { .. }) && g != start {
        let better = match out.get(g) {
            None => true,
            Some((s, t)) => (steps, &text) < (*s, t),
        };
        if better {
            out.insert(*g, (steps, text.clone()));
        }
    }
    if steps == max {
        return;
    }
    match pending {
        Pending::Push { vacated, pushers } => {
            for p in pushers {
                let (next, t) = step(g, p, vacated, &text);
                go(
                    start,
                    &next,
                    gold,
                    steps + 1,
                    max,
                    t,
                    Pending::Free { pull: None },
                    out,
                );
            }
        }
        Pending::Free { pull } => {
            for sq in 0..64 {
                let Some((c, s)) = g[sq] else { continue };
                if c == gold && !frozen(g, sq) {
                    for (to, d) in around(sq) {
                        let back = if gold { 's' } else { 'n' };
                        if g[to].is_none() && !(s == 0 && d == back) {
                            let (next, t) = step(g, sq, to, &text);
                            let pull = Some((sq, s));
                            go(
                                start,
                                &next,
                                gold,
                                steps + 1,
                                max,
                                t,
                                Pending::Free { pull },
                                out,
                            );
                        }
                    }
                }
                if c != gold && steps + 2 <= max {
                    // Start a push of this enemy piece.
                    let pushers: Vec<usize> = around(sq)
                        .into_iter()
                        .map(|(t, _)| t)
                        .filter(|&t| {
                            matches!(g[t], Some((pc, ps)) if pc == gold && ps > s) && !frozen(g, t)
                        })
                        .collect();
                    if !pushers.is_empty() {
                        for (to, _) in around(sq) {
                            if g[to].is_none() {
                                let (next, t) = step(g, sq, to, &text);
                                let pending = Pending::Push {
                                    vacated: sq,
                                    pushers: pushers.clone(),
                                };
                                go(start, &next, gold, steps + 1, max, t, pending, out);
                            }
                        }
                    }
                }
            }
            if let Some((from, strength)) = pull {
                // Finish a pull: a weaker enemy next to the puller's old square follows.
                for (q, _) in around(from) {
                    if matches!(g[q], Some((c, s)) if c != gold && s < strength) {
                        let (next, t) = step(g, q, from, &text);
                        go(
                            start,
                            &next,
                            gold,
                            steps + 1,
                            max,
                            t,
                            Pending::Free { pull: None },
                            out,
                        );
                    }
                }
            }
        }
    }
}

/// The end-of-turn checks, in order, for `gold`'s turn ending on `g`.
pub fn end(g: &Grid, gold: bool) -> Option<&'static str> {
    let on_goal =
        |c: bool| (0..64).any(|sq| g[sq] == Some((c, 0)) && sq / 8 == if c { 7 } else { 0 });
    let has_rabbit = |c: bool| g.contains(&Some((c, 0)));
    if on_goal(gold) {
        Some("goal")
    } else if on_goal(!gold) {
        Some("opponent goal")
    } else if !has_rabbit(!gold) {
        Some("elimination")
    } else if !has_rabbit(gold) {
        Some("own elimination")
    } else if !has_turn(g, !gold) {
        Some("immobilization")
    } else {
        None
    }
}

/// Whether `gold` (to move) has a legal turn on `g`: a step of a piece that is not frozen
/// (a rabbit not toward its own side), or the first step of a push (a weaker enemy next to a
/// stronger piece that is not frozen, with an empty square next to the enemy). A pull starts
/// with a step. Any step changes the board, so each of these starts a legal turn.
pub fn has_turn(g: &Grid, gold: bool) -> bool {
    (0..64).any(|sq| {
        let Some((c, s)) = g[sq] else { return false };
        if c != gold || frozen(g, sq) {
            return false;
        }
        let back = if gold { 's' } else { 'n' };
        around(sq).into_iter().any(|(to, d)| match g[to] {
            None => !(s == 0 && d == back),
            Some((e, es)) => {
                e != gold && es < s && around(to).into_iter().any(|(t, _)| g[t].is_none())
            }
        })
    })
}

/// The board field of the position text.
pub fn text(g: &Grid) -> String {
    let mut out = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match g[rank * 8 + file] {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                    }
                    empty = 0;
                    out.push(letter(p));
                }
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

/// Whether `g` may start a turn: no piece on an unguarded trap, no rabbit on its goal, a
/// rabbit each side.
pub fn valid(g: &Grid) -> bool {
    TRAPS.iter().all(|&t| g[t].is_none() || guarded(g, t))
        && (0..8).all(|f| g[56 + f] != Some((true, 0)) && g[f] != Some((false, 0)))
        && g.contains(&Some((true, 0)))
        && g.contains(&Some((false, 0)))
}
