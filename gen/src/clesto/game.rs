//! Clesto's tables as the generator makes and checks them ([`FamilyGame`] for [`Clesto`]):
//! its solver (this folder's), its closure (a move may starve the mover's own animals), a
//! table's colour flip solved from it, and its WDL file made from both metrics (the ban's
//! results too).

use std::{collections::BTreeSet, io, path::Path, sync::Arc, sync::Mutex};

use jtb_probe::{
    format::{table_path, Encoding, Kind, SideStats},
    ClestoValue, Color, Material, Piece, RuleSet, Value, Wdl,
};

use crate::{
    game::{FamilyGame, Plain, Then},
    write::{compress_kinds, first_piece_runs, Compressed, Summary, Tally},
    Codes, GenError, Metric, Solved, SubTables, UNUSED,
};

/// Clesto's tables (RULES.md 6): plain values with their distance to mate, and the repetition
/// ban's resolution of the plain draws.
pub struct Clesto;

impl FamilyGame for Clesto {
    fn next_materials(&self, rules: RuleSet, material: Material) -> BTreeSet<Material> {
        // A move of one side takes at most one enemy animal and starves any of its own.
        let pieces: Vec<Piece> = material.pieces().collect();
        let mut out = BTreeSet::new();
        for mover in Color::ALL {
            let own: Vec<Piece> = pieces
                .iter()
                .copied()
                .filter(|p| p.color == mover)
                .collect();
            for starved in 0u32..1 << own.len() {
                let left = (0..own.len())
                    .filter(|&i| starved >> i & 1 == 1)
                    .fold(material, |m, i| m.without(own[i]));
                out.insert(left);
                for &p in pieces.iter().filter(|p| p.color != mover) {
                    out.insert(left.without(p));
                }
            }
        }
        out.remove(&material);
        out.extend(Plain.next_materials(rules, material));
        out
    }

    fn solve_bytes(&self, _: RuleSet, material: Material) -> u64 {
        super::memory_estimate(material)
    }

    fn solve(&self, _: RuleSet, material: Material, subs: &SubTables) -> Result<Solved, GenError> {
        super::solve(material, subs)
    }

    fn solve_then(
        &self,
        _: RuleSet,
        material: Material,
        subs: &SubTables,
        then: &Then<'_>,
    ) -> Result<(Solved, [io::Result<Compressed>; 2]), GenError> {
        let solved = super::solve(material, subs)?;
        let after = [
            then(Metric::Dtm, &solved.codes),
            then(Metric::Ban, &solved.second_codes),
        ];
        Ok((solved, after))
    }

    fn solves_flips(&self) -> bool {
        true
    }

    fn solve_flip_of(&self, other: &Solved, subs: &SubTables) -> Result<Solved, GenError> {
        super::solve_flip_of(other, subs)
    }

    fn wdl_with_dtm(&self) -> bool {
        false
    }

    fn summarize(&self, solved: &Solved) -> io::Result<(Summary, Option<Compressed>)> {
        let (summary, wdl_codes) = summarize_with_wdl(solved);
        let wdl = compress_kinds(Metric::Dtm, &[(Kind::Wdl, Encoding::Wdl2)], &wdl_codes)?;
        Ok((summary, Some(wdl)))
    }

    fn wdl_stats(&self, summary: &Summary) -> [SideStats; 2] {
        rule_wdl(&summary.plain, &summary.rule)
    }

    fn wdl_of(&self, table: &Solved, idx: usize) -> Wdl {
        table.clesto_value(idx).wdl()
    }

    fn checked_against(&self) -> &'static str {
        "their moves (plain values and the ban's)"
    }

    fn one_ply_failures(
        &self,
        root: &Path,
        table: Solved,
        mut tables: SubTables,
        limit: usize,
    ) -> Result<Vec<String>, GenError> {
        // Clesto's one-ply check looks its own table up too.
        let table = Arc::new(table);
        tables.insert(Arc::clone(&table));
        let layout = &table.layout;
        let path = table_path(root, layout.rules(), layout.material(), Kind::Ban);
        let found = super::verify(&table, &tables, limit)?;
        Ok(found
            .iter()
            .map(|x| {
                format!(
                    "{}: {}: stored {}, its moves give {}",
                    path.display(),
                    x.position,
                    x.stored,
                    x.computed
                )
            })
            .collect())
    }
}

/// Clesto's WDL file statistics: every position a win or a loss, the ban's and the plain ones
/// together; the longest win is the plain one.
fn rule_wdl(plain: &[SideStats; 2], ban: &[SideStats; 2]) -> [SideStats; 2] {
    [0, 1].map(|s| SideStats {
        wins: plain[s].wins + ban[s].wins,
        draws: 0,
        losses: plain[s].losses + ban[s].losses,
        ..plain[s].clone()
    })
}

/// Statistics of a solved Clesto table: plain values (for the DTM file; `draws` the plain
/// draws), and the ban's wins and losses (for the ban file: `wins` and `losses` are the
/// positions the ban decides, `longest_win` the longest exit distance of B), with the codes
/// of its WDL file (every position a win or a loss). In parallel runs of entries with the first
/// piece on one square, as [`crate::write::summarize`] counts.
///
/// # Panics
/// If the table was not made by the solver (its unused entries must hold [`UNUSED`]).
fn summarize_with_wdl(solved: &Solved) -> (Summary, Codes) {
    let layout = &solved.layout;
    let side_len = layout.side_len();
    let banned = jtb_probe::banned_side(layout.material());
    let (run, weights) = first_piece_runs(layout);
    let tallies = Mutex::new(Tally::default());
    let wdl = Codes::try_from_runs(layout.len(), run, |r, out| {
        let start = r * run;
        let side = usize::from(start >= side_len);
        let mover_is_banned = jtb_probe::Color::ALL[side] == banned;
        let weight = weights[start % side_len / run];
        let mut tally = Tally::default();
        let codes = solved.codes.iter_range(start..start + run);
        let ban_codes = solved.second_codes.iter_range(start..start + run);
        for (i, (plain, ban)) in codes.zip(ban_codes).enumerate() {
            if plain == UNUSED {
                out.push(UNUSED);
                continue;
            }
            let idx = start + i;
            let parts = Value::from_code(plain).zip(Value::from_code(ban));
            let value = parts
                .and_then(|(plain, ban)| ClestoValue::from_parts(plain, ban, mover_is_banned))
                .expect("a Clesto table's two codes agree");
            out.push(
                match value.wdl() {
                    Wdl::Win => Value::Win(1),
                    _ => Value::Loss(1),
                }
                .code(),
            );
            let plain = &mut tally.stats[0][side];
            match value.plain_part() {
                Value::Win(d) => {
                    plain.wins += weight;
                    tally.longest[0][side].note(d, idx);
                }
                Value::Loss(_) => plain.losses += weight,
                Value::Draw => plain.draws += weight,
            }
            let ban = &mut tally.stats[1][side];
            match value {
                ClestoValue::BanWin { exit } => {
                    ban.wins += weight;
                    if let Some(e) = exit {
                        tally.longest[1][side].note(e, idx);
                    }
                }
                ClestoValue::BanLoss { .. } => ban.losses += weight,
                ClestoValue::Plain(_) => {}
            }
        }
        // Counts add up and a longest win keeps every entry that has it, whatever the order.
        let mut all = tallies.lock().expect("no panic while the lock is held");
        *all = std::mem::take(&mut *all).merge(tally);
        Ok::<(), std::convert::Infallible>(())
    });
    let wdl = match wdl {
        Ok(codes) => codes,
        Err(never) => match never {},
    };
    let tally = tallies
        .into_inner()
        .expect("no panic while the lock was held");
    (tally.into_summary(layout), wdl)
}
