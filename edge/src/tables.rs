//! The tables of every rule set under one directory, opened on first use and shared between
//! threads.

use std::{
    path::{Path, PathBuf},
    sync::{Arc, OnceLock},
};

use jtb_probe::{
    flip::ChanceTables, gambit, CacheStats, Clesto, Jungle, Material, ProbeError, RuleSet,
    Tablebase, Value, Wdl, DEFAULT_CACHE_BYTES,
};

use crate::{
    games::{self, EdgeGame},
    Answer, AnyPosition, EdgeError, RuleFamily, Rules, Verdict,
};

/// One rule set's tables, opened as its game's own tablebase type: the one place a rule set
/// named at run time is matched to the type of its tables (the edge's [`Tables`] and the
/// server's hold them as this).
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
        each_family!(rules, |r, F| F::open(r, root, cache_bytes))
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

/// A rule set's tables, or why its directory could not be opened (kept, so that a missing
/// directory is not looked for again on every probe).
type Opened = OnceLock<Result<AnyTablebase, Arc<ProbeError>>>;

/// The tables of every rule set under one root (a rule set's tables are in `root/<rules>/`, as
/// `jtb gen` writes them), each rule set's opened on its first probe. A probe after the first
/// takes no lock: it finds its rule set's tables with one atomic load. The files are read with
/// positioned reads, not memory maps, so that a file replaced while it is open cannot crash
/// the process.
pub struct Tables {
    root: PathBuf,
    cache_bytes: u64,
    /// Every rule set's, in the order of [`Rules::all`].
    opened: Vec<(Rules, Opened)>,
    chance: OnceLock<Result<ChanceTables, Arc<ProbeError>>>,
}

impl Tables {
    /// The tables under `root`, each rule set with a cache of decoded blocks of up to
    /// `cache_bytes`. Nothing is read until the first probe.
    #[must_use]
    pub fn new(root: impl Into<PathBuf>, cache_bytes: u64) -> Tables {
        Tables {
            root: root.into(),
            cache_bytes,
            opened: Rules::all()
                .into_iter()
                .map(|r| (r, OnceLock::new()))
                .collect(),
            chance: OnceLock::new(),
        }
    }

    /// The root directory.
    #[must_use]
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The tables of `rules`, opened on the first call.
    ///
    /// # Errors
    /// [`EdgeError::Open`]: the rule set's directory cannot be read.
    pub fn any(&self, rules: Rules) -> Result<&AnyTablebase, EdgeError> {
        let (_, slot) = self
            .opened
            .iter()
            .find(|(r, _)| *r == rules)
            .expect("every rule set is in Rules::all");
        slot.get_or_init(|| {
            AnyTablebase::open(&self.root, rules, self.cache_bytes).map_err(Arc::new)
        })
        .as_ref()
        .map_err(|e| EdgeError::Open(Arc::clone(e)))
    }

    /// The tables of `rules`, opened on the first call, as the game `G`'s.
    ///
    /// # Errors
    /// [`EdgeError::Open`]: the rule set's directory cannot be read, or its tables are another
    /// game's.
    pub(crate) fn of<G: EdgeGame>(&self, rules: Rules) -> Result<&Tablebase<G::Tables>, EdgeError> {
        let tables = G::tables(self.any(rules)?);
        tables.map(|tb| &**tb).ok_or_else(|| another_game(rules))
    }

    /// The tables of a Jungle or flip rule set (Clesto's are [`Tables::clesto`]: a Clesto
    /// rule set is no [`Jungle`], so asking for its tables here does not compile).
    ///
    /// ```compile_fail
    /// use jtb_edge::Tables;
    /// use jtb_probe::Jungle;
    ///
    /// let tables = Tables::new("tables", 1 << 20);
    /// let _ = tables.jungle(Jungle::Clesto);
    /// ```
    ///
    /// # Errors
    /// [`EdgeError::Open`]: the rule set's directory cannot be read.
    pub fn jungle(&self, rules: Jungle) -> Result<&Tablebase, EdgeError> {
        self.of::<games::jungle::Jungle>(Rules::Jungle(rules.rule_set()))
    }

    /// Clesto's tables.
    ///
    /// # Errors
    /// [`EdgeError::Open`]: the directory cannot be read.
    pub fn clesto(&self) -> Result<&Tablebase<Clesto>, EdgeError> {
        self.of::<games::clesto::Clesto>(Rules::Jungle(Clesto::RULES))
    }

    /// The Animal Gambit tables.
    ///
    /// # Errors
    /// [`EdgeError::Open`]: the directory cannot be read.
    pub fn gambit(&self) -> Result<&Tablebase<gambit::AnimalGambit>, EdgeError> {
        self.of::<games::gambit::Gambit>(Rules::AnimalGambit)
    }

    /// The flip game's tables for positions with face-down tiles (and the revealed ones a last
    /// flip leads into).
    ///
    /// # Errors
    /// [`EdgeError::Open`]: the directory cannot be read.
    pub fn chance(&self) -> Result<&ChanceTables, EdgeError> {
        self.chance
            .get_or_init(|| {
                ChanceTables::with_cache(&self.root, self.cache_bytes).map_err(Arc::new)
            })
            .as_ref()
            .map_err(|e| EdgeError::Open(Arc::clone(e)))
    }

    /// Everything `jtb probe` says of `pos` (with `line`, the best lines too).
    ///
    /// # Errors
    /// The tables cannot be opened, do not hold the position, or are damaged.
    pub fn probe(&self, pos: AnyPosition, line: bool) -> Result<Answer, EdgeError> {
        each_game!(pos, AnyPosition, |pos, G| G::probe(self, pos, line))
    }

    /// Win, draw or loss for the side to move (the clock rule aside; Clesto's wins by the ban
    /// are wins).
    ///
    /// # Errors
    /// As [`Tables::probe`].
    pub fn wdl(&self, pos: &AnyPosition) -> Result<Wdl, EdgeError> {
        Ok(self.any(pos.rules())?.wdl(pos)?)
    }

    /// The distance to mate for the side to move, signed: positive when it wins, negative when
    /// it loses, 0 for a draw and for a loss at once (no move), in the game's unit (plies;
    /// Animal Gambit's turns). `None` for a Clesto position that only the repetition ban
    /// decides (it has no distance to mate).
    ///
    /// # Errors
    /// As [`Tables::probe`].
    pub fn dtm(&self, pos: &AnyPosition) -> Result<Option<i32>, EdgeError> {
        Ok(self.any(pos.rules())?.dtm(pos)?)
    }

    /// Whether the game can be stopped at the position's clock: `jtb adjudicate`'s answer.
    ///
    /// # Errors
    /// [`EdgeError::NotCovered`] where no tables cover the position; a finished game, face-down
    /// tiles, damaged tables.
    pub fn adjudicate(&self, pos: AnyPosition) -> Result<Verdict, EdgeError> {
        each_game!(pos, AnyPosition, |pos, G| G::adjudicate(
            self.of::<G>(G::rules(&pos)),
            pos
        ))
    }
}

/// The materials of the tables of a rule set of the Jungle family's type under `root` (Clesto's
/// opened as Clesto's), fewest pieces first, then by name.
///
/// # Errors
/// [`ProbeError::NoDirectory`] when `root/<rules>` cannot be read.
pub fn jungle_materials(root: &Path, rules: RuleSet) -> Result<Vec<Material>, ProbeError> {
    AnyTablebase::open(root, Rules::Jungle(rules), DEFAULT_CACHE_BYTES)?
        .family_materials()
        .ok_or(ProbeError::NotForRules {
            rules: rules.name(),
            what: ANOTHER_GAME,
        })
}

/// Why a rule set's tables are not the tablebase type asked for (a caller's bug: each game asks
/// for its own rule sets' tables).
fn another_game(rules: Rules) -> EdgeError {
    EdgeError::Open(Arc::new(ProbeError::NotForRules {
        rules: rules.name(),
        what: ANOTHER_GAME,
    }))
}

const ANOTHER_GAME: &str = "its tables are another game's";
