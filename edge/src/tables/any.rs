//! One rule set's tables as its game's own tablebase type.

use std::{path::Path, sync::Arc};

use jtb_probe::{
    gambit, CacheStats, Clesto, LocalFiles, Material, ProbeError, Storage, Tablebase, Value, Wdl,
};

use crate::{games::EdgeGame, AnyPosition, RuleFamily, Rules};

/// One rule set's tables, opened as its game's own tablebase type: the one place a rule set
/// named at run time is matched to the type of its tables ([`Tables`](super::Tables) holds
/// them as this).
#[derive(Clone)]
pub enum AnyTablebase {
    /// Jungle's or the flip game's.
    Jungle(Arc<Tablebase>),
    /// Clesto's.
    Clesto(Arc<Tablebase<Clesto>>),
    /// Animal Gambit's.
    Gambit(Arc<Tablebase<gambit::AnimalGambit>>),
}

impl AnyTablebase {
    /// The tables of `rules` under `root` (in `root/<rules>/`), with a cache of decoded blocks
    /// of up to `cache_bytes`.
    ///
    /// # Errors
    /// [`ProbeError::NoDirectory`] when the directory cannot be read.
    pub fn open(root: &Path, rules: Rules, cache_bytes: u64) -> Result<AnyTablebase, ProbeError> {
        AnyTablebase::with_storage(root, rules, cache_bytes, Arc::new(LocalFiles::default()))
    }

    /// As [`AnyTablebase::open`], the files found and read through `storage`
    /// ([`Tablebase::with_storage`]): files in memory, or a storage of the caller's (a host
    /// without a file system).
    ///
    /// # Errors
    /// [`ProbeError::NoDirectory`] when `storage` cannot list `root/<rules>`.
    pub fn with_storage(
        root: &Path,
        rules: Rules,
        cache_bytes: u64,
        storage: Arc<dyn Storage>,
    ) -> Result<AnyTablebase, ProbeError> {
        each_family!(rules, |r, F| F::open(r, root, cache_bytes, storage))
    }

    /// The rule set whose tables these are.
    #[must_use]
    pub fn rules(&self) -> Rules {
        each_game!(self, AnyTablebase, |tb, G| G::tables_rules(tb))
    }

    /// Whether every value of these tables has a distance to mate: not Clesto's, where the
    /// repetition ban decides without one ([`AnyTablebase::dtm`] is `None` there).
    #[must_use]
    pub fn dtm_of_every_value(&self) -> bool {
        each_game!(self, AnyTablebase, |_, G| G::DTM_OF_EVERY_VALUE)
    }

    /// Win, draw or loss for the side to move of `pos` (the clock rule aside; Clesto's wins by
    /// the ban are wins).
    ///
    /// # Errors
    /// [`ProbeError::WrongRules`] for a position of another rule set; else as the game's
    /// `probe_wdl` ([`Tablebase::probe_wdl`]).
    pub fn wdl(&self, pos: &AnyPosition) -> Result<Wdl, ProbeError> {
        each_game!(pos, AnyPosition, |pos, G| G::wdl(self.of::<G>(pos)?, pos))
    }

    /// [`AnyTablebase::wdl`] of each of `positions`, `each(i, wdl)` in order: the same
    /// answers, read in bulk where the game's WDL is its WDL file's entry
    /// ([`Tablebase::probe_wdl_many`]).
    pub fn wdl_many(
        &self,
        positions: &[&AnyPosition],
        mut each: impl FnMut(usize, Result<Wdl, ProbeError>),
    ) {
        each_game!(self, AnyTablebase, |tb, G| {
            let own: Vec<&<G as EdgeGame>::Position> =
                positions.iter().filter_map(|p| G::position_of(p)).collect();
            if own.len() == positions.len() {
                return G::wdl_many(tb, &own, &mut each);
            }
        });
        // Positions of another game among them: each gets its error.
        for (i, pos) in positions.iter().enumerate() {
            each(i, self.wdl(pos));
        }
    }

    /// The value for the side to move of `pos` with its distance to mate, in the game's unit
    /// (plies; Animal Gambit's turns): `None` for a Clesto position that only the repetition
    /// ban decides (it has no distance to mate).
    ///
    /// # Errors
    /// As [`AnyTablebase::wdl`].
    pub fn value(&self, pos: &AnyPosition) -> Result<Option<Value>, ProbeError> {
        each_game!(pos, AnyPosition, |pos, G| G::value(self.of::<G>(pos)?, pos))
    }

    /// The distance to mate for the side to move of `pos`, signed: positive when it wins,
    /// negative when it loses, 0 for a draw and for a loss at once (no move), in the game's
    /// unit: [`AnyTablebase::value`] as a number. `None` for a Clesto position that only the
    /// repetition ban decides.
    ///
    /// # Errors
    /// As [`AnyTablebase::wdl`].
    pub fn dtm(&self, pos: &AnyPosition) -> Result<Option<i32>, ProbeError> {
        Ok(self.value(pos)?.map(crate::games::signed))
    }

    /// The best move (Animal Gambit's turn) of `pos` by the tables, in its text: the game's own
    /// `best_move` (Clesto's `clesto_best_move`); `None` when the side to move has none.
    ///
    /// # Errors
    /// As [`AnyTablebase::wdl`].
    pub fn best_move(&self, pos: &AnyPosition) -> Result<Option<String>, ProbeError> {
        each_game!(pos, AnyPosition, |pos, G| G::best_move(
            self.of::<G>(pos)?,
            pos
        ))
    }

    /// These tables as the game `G`'s, for a position `pos` of it (the game's probe checks the
    /// rule set within it).
    ///
    /// # Errors
    /// [`ProbeError::WrongRules`] when they are another game's.
    fn of<G: EdgeGame>(&self, pos: &G::Position) -> Result<&Tablebase<G::Tables>, ProbeError> {
        G::tables(self)
            .map(|tb| &**tb)
            .ok_or_else(|| ProbeError::WrongRules {
                tablebase: self.rules().name(),
                position: G::rules(pos).name(),
            })
    }

    /// The number of tables present, and the most pieces of any.
    #[must_use]
    pub fn size(&self) -> (usize, usize) {
        each_game!(self, AnyTablebase, |tb, _G| (
            tb.materials().len(),
            tb.max_pieces()
        ))
    }

    /// What the block caches and the files hold now.
    #[must_use]
    pub fn cache_stats(&self) -> CacheStats {
        each_game!(self, AnyTablebase, |tb, _G| tb.cache_stats())
    }

    /// The materials of the tables of a rule set of the Jungle family's type (Clesto's
    /// included), fewest pieces first, then by name; `None` for Animal Gambit's.
    #[must_use]
    pub fn family_materials(&self) -> Option<Vec<Material>> {
        match self {
            AnyTablebase::Jungle(tb) => Some(tb.materials()),
            AnyTablebase::Clesto(tb) => Some(tb.materials()),
            AnyTablebase::Gambit(_) => None,
        }
    }
}
