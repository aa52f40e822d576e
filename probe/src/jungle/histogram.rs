//! Positions per distance: how many positions of a table are won or lost at each distance (in
//! the game's unit: plies, or Animal Gambit's turns, whose tables `jtb_gen::gambit::histogram`
//! counts), for each side to move, counted as the header's statistics count them (every legal
//! position before symmetry).

use crate::{
    file::TableFile,
    format::{Kind, TableError, TableErrorKind},
    index::Layout,
    rules::RuleSet,
    value::Value,
};

/// The distances of one side to move in one file of value codes (DTM, DTC, Clesto's ban file),
/// in the game's unit.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SideHistogram {
    /// `wins[d]`: positions the side to move wins in `d` plies (turns).
    pub wins: Vec<u64>,
    /// `losses[d]`: positions the side to move loses in `d` plies or turns (`d` = 0: it has no
    /// move).
    pub losses: Vec<u64>,
    /// Drawn positions (in a DTC file: no conversion can be forced).
    pub draws: u64,
}

impl SideHistogram {
    /// Counts `weight` positions of `value`.
    pub fn add(&mut self, value: Value, weight: u64) {
        let (counts, d) = match value {
            Value::Draw => {
                self.draws += weight;
                return;
            }
            Value::Win(d) => (&mut self.wins, d),
            Value::Loss(d) => (&mut self.losses, d),
        };
        let d = usize::from(d);
        if counts.len() <= d {
            counts.resize(d + 1, 0);
        }
        counts[d] += weight;
    }
}

/// Positions per distance of a DTM or DTC file, Red to move first.
///
/// A position and its mirror image share an entry, so an entry counts twice unless its first
/// piece stands on the mirror's central file: the totals are the header's win, draw and loss
/// counts (for a DTC file, the plain values of its DTC: a cursed win is a win past the limit).
///
/// # Errors
/// [`TableErrorKind::WrongKind`] for a WDL file, or the error of a block that cannot be read or
/// holds a code no table holds.
///
/// # Panics
/// If `layout` is not the layout of the file's material and rule set.
pub fn histogram(
    file: &TableFile<RuleSet>,
    layout: &Layout,
) -> Result<[SideHistogram; 2], TableError> {
    let header = file.header();
    assert!(
        header.material == layout.material() && header.rules == layout.rules(),
        "layout of another table"
    );
    if header.kind == Kind::Wdl {
        return Err(TableError::new(
            file.path(),
            TableErrorKind::WrongKind {
                expected: Kind::Dtm,
                found: Kind::Wdl,
            },
        ));
    }
    let mut sides: [SideHistogram; 2] = Default::default();
    let mut current: Option<(u32, Vec<u8>)> = None;
    let mut failed = None;
    layout.for_each_used_entry(|idx, squares| {
        if failed.is_some() {
            return;
        }
        let (b, at) = file.locate(idx);
        if current.as_ref().is_none_or(|(held, _)| *held != b) {
            match file.block(b) {
                Ok(data) => current = Some((b, data)),
                Err(e) => {
                    failed = Some(e);
                    return;
                }
            }
        }
        let (_, data) = current.as_ref().expect("just read");
        match file.value_entry(data, at) {
            Ok(value) => {
                let weight = if layout.on_mirror_axis(squares) { 1 } else { 2 };
                sides[idx / layout.side_len()].add(value, weight);
            }
            Err(e) => failed = Some(e),
        }
    });
    match failed {
        Some(e) => Err(e),
        None => Ok(sides),
    }
}
