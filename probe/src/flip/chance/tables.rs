//! Every flip position's chance value: the chance tables for positions with face-down tiles,
//! the revealed tables for the rest, and each move's worth one ply deep.

use std::{fmt, path::Path};

use super::{dte::RevealedDte, value::ChanceValue, Chance};
use crate::Tablebase;
use crate::{
    board::Square,
    core::{ProbeError, ProbeResult, DEFAULT_CACHE_BYTES},
    moves::{Move, Outcome},
    piece::Piece,
    position::Position,
    rules::RuleSet,
    Jungle,
};

/// A move of a flip position: a flip of a face-down tile (`?a4`) or a step (`a1a2`). Ordered as
/// their texts: flips first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ChanceMove {
    /// Turning the face-down tile on this square.
    Flip(Square),
    /// A step or capture of a revealed animal.
    Step(Move),
}

impl fmt::Display for ChanceMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChanceMove::Flip(sq) => write!(f, "?{sq}"),
            ChanceMove::Step(mv) => mv.fmt(f),
        }
    }
}

/// A move with its worth for the side that makes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoredChanceMove {
    /// The move.
    pub mv: ChanceMove,
    /// Its worth for the mover: for a flip, the average of its outcomes.
    pub value: ChanceValue,
    /// A flip's outcomes: each animal it may reveal (equally likely) with the worth for the
    /// mover; empty for a step.
    pub outcomes: Vec<(Piece, ChanceValue)>,
    /// Its DTE worth where its worth is a certain win or loss (RULES.md 8): 1 + the largest DTE
    /// of the positions it can give, a game it ends counting 0. `None` otherwise.
    pub dte: Option<u32>,
}

impl ScoredChanceMove {
    /// The key that orders moves best first (RULES.md 8): the highest worth (score, then the
    /// chance of a win), then in a certain win the smallest DTE worth, in a certain loss the
    /// largest. Moves of equal keys keep their move order.
    fn rank(&self) -> (std::cmp::Reverse<ChanceValue>, i64) {
        let dte = i64::from(self.dte.unwrap_or(0));
        let by_distance = match self.value {
            ChanceValue::WIN => dte,
            ChanceValue::LOSS => -dte,
            _ => 0,
        };
        (std::cmp::Reverse(self.value), by_distance)
    }
}

/// The tables of the flip game in a directory, revealed and chance alike: the value of every
/// flip position at its clock, with or without face-down tiles (RULES.md 8).
pub struct ChanceTables {
    chance: Tablebase<Chance>,
    revealed: Tablebase<Jungle>,
    revealed_dte: Tablebase<RevealedDte>,
}

impl fmt::Debug for ChanceTables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ChanceTables")
            .field("root", &self.chance.root())
            .field("chance", &self.chance.materials().len())
            .field("revealed", &self.revealed.materials().len())
            .finish()
    }
}

/// The error of a certain result whose DTE file gives no distance: the files contradict each
/// other.
fn no_distance(next: &Position) -> ProbeError {
    ProbeError::Inconsistent {
        position: next.to_string(),
        noun: "move",
        kind: crate::format::Kind::Dte,
        stored: crate::value::Value::Draw,
        best: None,
    }
}

/// Whether a move of this worth has a DTE worth: a certain win or loss for the mover.
fn is_certain_end(value: ChanceValue) -> bool {
    value == ChanceValue::WIN || value == ChanceValue::LOSS
}

impl ChanceTables {
    /// The flip game's tables under `root` (`root/flip4x4/`).
    ///
    /// # Errors
    /// [`ProbeError::NoDirectory`] when `root/flip4x4` cannot be read.
    pub fn open(root: impl AsRef<Path>) -> ProbeResult<ChanceTables> {
        ChanceTables::with_cache(root, DEFAULT_CACHE_BYTES)
    }

    /// As [`ChanceTables::open`], with a bound on each of the two block caches in bytes.
    ///
    /// # Errors
    /// As [`ChanceTables::open`].
    pub fn with_cache(root: impl AsRef<Path>, cache_bytes: u64) -> ProbeResult<ChanceTables> {
        let root = root.as_ref();
        Ok(ChanceTables {
            chance: Tablebase::with_cache(root, Chance, cache_bytes)?,
            revealed: Tablebase::with_cache(root, Jungle::Flip4x4, cache_bytes)?,
            revealed_dte: Tablebase::with_cache(root, RevealedDte, cache_bytes)?,
        })
    }

    /// As [`ChanceTables::with_cache`], the files found and read through `storage`
    /// ([`Tablebase::with_storage`]): files in memory, or a storage of the caller's.
    ///
    /// # Errors
    /// [`ProbeError::NoDirectory`] when `storage` cannot list `root/flip4x4`.
    pub fn with_storage(
        root: impl AsRef<Path>,
        cache_bytes: u64,
        storage: std::sync::Arc<dyn crate::Storage>,
    ) -> ProbeResult<ChanceTables> {
        let root = root.as_ref();
        Ok(ChanceTables {
            chance: Tablebase::with_storage(root, Chance, cache_bytes, storage.clone())?,
            revealed: Tablebase::with_storage(root, Jungle::Flip4x4, cache_bytes, storage.clone())?,
            revealed_dte: Tablebase::with_storage(root, RevealedDte, cache_bytes, storage)?,
        })
    }

    /// The chance tables alone.
    #[must_use]
    pub const fn chance(&self) -> &Tablebase<Chance> {
        &self.chance
    }

    /// The revealed tables alone.
    #[must_use]
    pub const fn revealed(&self) -> &Tablebase<Jungle> {
        &self.revealed
    }

    /// The revealed tables' DTE files alone (a fully revealed position's DTE at its clock,
    /// [`Tablebase::probe_dte`], for a caller that has its rule value already).
    #[must_use]
    pub const fn revealed_dte(&self) -> &Tablebase<RevealedDte> {
        &self.revealed_dte
    }

    /// The value of `pos` for the side to move at its clock (none: 0): from the chance tables
    /// with face-down tiles, else the revealed tables' rule value at the clock as a certain
    /// result.
    ///
    /// # Errors
    /// A [`ProbeError`]: another rule set, a finished game, face-down tiles with an unknown
    /// hidden set, more tiles than the tables cover, a missing table, a bad file.
    pub fn probe(&self, pos: &Position) -> ProbeResult<ChanceValue> {
        if pos.rules() != RuleSet::Flip4x4 {
            return Err(ProbeError::WrongRules {
                tablebase: RuleSet::Flip4x4.name(),
                position: pos.rules().name(),
            });
        }
        if pos.hidden() != 0 {
            return self.chance.probe_stored(pos);
        }
        if pos.is_game_over() {
            return Err(ProbeError::GameOver);
        }
        Ok(ChanceValue::certain(self.revealed.probe_rule(pos)?.wdl))
    }

    /// The DTE of `pos` at its clock (none: 0): in how many plies the side that is sure to
    /// win ends the game, whatever the flips show (RULES.md 8); `None` where the score is not 0
    /// or 1, or the position is a certain draw. A fully revealed position's from its table's
    /// `.dte` file, where its rule value at the clock is a win or a loss.
    ///
    /// # Errors
    /// As [`ChanceTables::probe`], and a missing `.dte` file.
    pub fn dte(&self, pos: &Position) -> ProbeResult<Option<u32>> {
        let value = self.probe(pos)?;
        if value != ChanceValue::WIN && value != ChanceValue::LOSS {
            return Ok(None);
        }
        if pos.hidden() != 0 {
            self.chance.stored_dte(pos)
        } else {
            self.revealed_dte.probe_dte(pos)
        }
    }

    /// The DTE of a position reached by a move, for [`ChanceTables::after_move`]'s value: 0
    /// where its mover has no legal move (the game has ended).
    ///
    /// # Errors
    /// As [`ChanceTables::dte`].
    pub fn dte_after_move(&self, next: &Position) -> ProbeResult<Option<u32>> {
        Ok(self.after_move_with_dte(next)?.1)
    }

    /// [`ChanceTables::after_move`] and [`ChanceTables::dte_after_move`] at once: the value is
    /// probed once, and the DTE file read only for a certain result.
    ///
    /// # Errors
    /// As [`ChanceTables::dte`].
    pub fn after_move_with_dte(&self, next: &Position) -> ProbeResult<(ChanceValue, Option<u32>)> {
        if next.hidden() == 0 && !next.is_game_over() && next.legal_moves().is_empty() {
            return Ok((ChanceValue::LOSS, Some(0)));
        }
        let value = self.probe(next)?;
        if !is_certain_end(value) {
            return Ok((value, None));
        }
        let dte = if next.hidden() != 0 {
            self.chance.stored_dte(next)?
        } else {
            self.revealed_dte.probe_dte(next)?
        };
        Ok((value, dte))
    }

    /// The value of a position reached by a move, for the side then to move: as
    /// [`ChanceTables::probe`], but a position whose mover has no legal move is lost even at
    /// clock 40 (RULES.md 8: end rule 2 comes before rule 4).
    ///
    /// # Errors
    /// As [`ChanceTables::probe`].
    pub fn after_move(&self, next: &Position) -> ProbeResult<ChanceValue> {
        if next.hidden() == 0 && !next.is_game_over() && next.legal_moves().is_empty() {
            return Ok(ChanceValue::LOSS);
        }
        self.probe(next)
    }

    /// Every move of `pos` with its worth for the mover, in move order (flips first, then the
    /// steps, each in ASCII order). None at clock 40, where the game is drawn.
    ///
    /// # Errors
    /// As [`ChanceTables::probe`], for the position or any position a move leads to.
    pub fn moves(&self, pos: &Position) -> ProbeResult<Vec<ScoredChanceMove>> {
        self.probe(pos)?;
        let mut pos = pos.clone();
        pos.set_clock(Some(pos.clock().unwrap_or(0)))
            .expect("the flip game has a clock");
        if pos.at_clock_limit() {
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        for sq in pos.flips() {
            let revealed = pos
                .flip_outcomes(sq)
                .ok_or(ProbeError::HiddenSetUnknown)?
                .into_iter()
                .map(|o| Ok((o.piece, self.after_move_with_dte(&o.position)?, o.position)))
                .collect::<ProbeResult<Vec<_>>>()?;
            let outcomes: Vec<(Piece, ChanceValue)> = revealed
                .iter()
                .map(|&(piece, (v, _), _)| (piece, v.for_mover()))
                .collect();
            let values: Vec<ChanceValue> = outcomes.iter().map(|&(_, v)| v).collect();
            let value = ChanceValue::average(&values).expect("up to five equally likely outcomes");
            let dte = if is_certain_end(value) {
                // Every outcome is as certain: the longest of their distances.
                let mut longest = 0;
                for (_, (_, d), next) in &revealed {
                    longest = longest.max(d.ok_or_else(|| no_distance(next))?);
                }
                Some(1 + longest)
            } else {
                None
            };
            out.push(ScoredChanceMove {
                mv: ChanceMove::Flip(sq),
                value,
                outcomes,
                dte,
            });
        }
        for mv in pos.revealed_moves() {
            let (value, dte) = match pos.play(mv).expect("a listed move is legal") {
                Outcome::Over { result, .. } => {
                    let value = ChanceValue::certain(result);
                    (value, is_certain_end(value).then_some(1))
                }
                Outcome::Ongoing(next) => {
                    let (value, dte) = self.after_move_with_dte(&next)?;
                    let dte = if is_certain_end(value) {
                        Some(1 + dte.ok_or_else(|| no_distance(&next))?)
                    } else {
                        None
                    };
                    (value.for_mover(), dte)
                }
            };
            out.push(ScoredChanceMove {
                mv: ChanceMove::Step(mv),
                value,
                outcomes: Vec::new(),
                dte,
            });
        }
        Ok(out)
    }

    /// The moves of `pos` best first: by worth (score, then the chance of a win), ties in move
    /// order. The first is the best move (RULES.md 8).
    ///
    /// # Errors
    /// As [`ChanceTables::moves`].
    pub fn ranked_moves(&self, pos: &Position) -> ProbeResult<Vec<ScoredChanceMove>> {
        let mut moves = self.moves(pos)?;
        // A stable sort: equal keys keep their move order.
        moves.sort_by_key(ScoredChanceMove::rank);
        if pos.hidden() == 0 && !moves.is_empty() {
            // A fully revealed position keeps the clock rule's best move (RULES.md 8 and 5.6).
            if let Some(best) = self.revealed.rule_best_move(pos)? {
                if let Some(at) = moves.iter().position(|m| m.mv == ChanceMove::Step(best.mv)) {
                    let best = moves.remove(at);
                    moves.insert(0, best);
                }
            }
        }
        Ok(moves)
    }

    /// The best move with its worth: the highest score, then in a certain win the smallest DTE
    /// worth and in a certain loss the largest, otherwise the highest chance of a win, then the
    /// smallest text (a flip before a step); in a fully revealed position the clock rule's best
    /// move (RULES.md 5.6). `None` at clock 40 and where the side to move has no move.
    ///
    /// # Errors
    /// As [`ChanceTables::moves`].
    pub fn best_move(&self, pos: &Position) -> ProbeResult<Option<ScoredChanceMove>> {
        Ok(self.ranked_moves(pos)?.into_iter().next())
    }
}
