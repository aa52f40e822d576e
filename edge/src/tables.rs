//! The tables of every rule set under one directory, opened on first use and shared between
//! threads.

use std::{
    collections::HashMap,
    path::{Path, PathBuf},
    sync::{Arc, OnceLock, RwLock},
};

use jtb_probe::{gambit, ClestoValue, ProbeError, RuleSet, Tablebase, Value, Wdl};

use crate::{
    answer::{ClestoAnswer, GambitAnswer, JungleAnswer},
    Answer, AnyPosition, EdgeError, Verdict,
};

/// A rule set's tables, or why its directory could not be opened (kept, so that a missing
/// directory is not looked for again on every probe).
type Opened<G> = Result<Arc<Tablebase<G>>, Arc<ProbeError>>;

/// The tables of every rule set under one root (a rule set's tables are in `root/<rules>/`, as
/// `jtb gen` writes them), each rule set's opened on its first probe. The files are read with
/// positioned reads, not memory maps, so that a file replaced while it is open cannot crash
/// the process.
pub struct Tables {
    root: PathBuf,
    cache_bytes: u64,
    jungle: RwLock<HashMap<RuleSet, Opened<RuleSet>>>,
    gambit: OnceLock<Opened<gambit::Rules>>,
}

impl Tables {
    /// The tables under `root`, each rule set with a cache of decoded blocks of up to
    /// `cache_bytes`. Nothing is read until the first probe.
    #[must_use]
    pub fn new(root: impl Into<PathBuf>, cache_bytes: u64) -> Tables {
        Tables {
            root: root.into(),
            cache_bytes,
            jungle: RwLock::default(),
            gambit: OnceLock::new(),
        }
    }

    /// The root directory.
    #[must_use]
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The tables of a Jungle-family rule set.
    ///
    /// # Errors
    /// [`EdgeError::Open`]: the rule set's directory cannot be read.
    pub fn jungle(&self, rules: RuleSet) -> Result<Arc<Tablebase>, EdgeError> {
        // A poisoned lock only means another thread panicked while opening: the map is whole.
        let opened = self
            .jungle
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&rules)
            .cloned();
        let opened = match opened {
            Some(o) => o,
            None => {
                let mut map = self.jungle.write().unwrap_or_else(|e| e.into_inner());
                map.entry(rules).or_insert_with(|| self.open(rules)).clone()
            }
        };
        opened.map_err(EdgeError::Open)
    }

    /// The Animal Gambit tables.
    ///
    /// # Errors
    /// [`EdgeError::Open`]: the directory cannot be read.
    pub fn gambit(&self) -> Result<Arc<Tablebase<gambit::Rules>>, EdgeError> {
        self.gambit
            .get_or_init(|| self.open(gambit::Rules))
            .clone()
            .map_err(EdgeError::Open)
    }

    fn open<G: jtb_probe::Game>(&self, rules: G) -> Opened<G> {
        Tablebase::with_cache(&self.root, rules, self.cache_bytes)
            .map(Arc::new)
            .map_err(Arc::new)
    }

    /// Everything `jtb probe` says of `pos` (with `line`, the best lines too).
    ///
    /// # Errors
    /// The tables cannot be opened, do not hold the position, or are damaged.
    pub fn probe(&self, pos: AnyPosition, line: bool) -> Result<Answer, EdgeError> {
        Ok(match pos {
            AnyPosition::Jungle(pos) if pos.rules().has_hunger() => {
                Answer::Clesto(ClestoAnswer::probe(&*self.jungle(pos.rules())?, pos, line)?)
            }
            AnyPosition::Jungle(pos) => {
                Answer::Jungle(JungleAnswer::probe(&*self.jungle(pos.rules())?, pos, line)?)
            }
            AnyPosition::Gambit(pos) => {
                Answer::Gambit(GambitAnswer::probe(&*self.gambit()?, pos, line)?)
            }
        })
    }

    /// Win, draw or loss for the side to move (the clock rule aside; Clesto's wins by the ban
    /// are wins).
    ///
    /// # Errors
    /// As [`Tables::probe`].
    pub fn wdl(&self, pos: &AnyPosition) -> Result<Wdl, EdgeError> {
        self.cursor().wdl(pos)
    }

    /// The distance to mate for the side to move, signed: positive when it wins, negative when
    /// it loses, 0 for a draw, in the game's unit (plies; Animal Gambit's turns). `None` for a
    /// Clesto position that only the repetition ban decides (it has no distance to mate).
    ///
    /// # Errors
    /// As [`Tables::probe`].
    pub fn dtm(&self, pos: &AnyPosition) -> Result<Option<i32>, EdgeError> {
        self.cursor().dtm(pos)
    }

    /// A view for one thread's run of probes: it keeps each rule set's tables once found, so
    /// that a batch takes no lock per position.
    #[must_use]
    pub fn cursor(&self) -> Cursor<'_> {
        Cursor {
            tables: self,
            jungle: Default::default(),
            gambit: None,
        }
    }

    /// Whether the game can be stopped at the position's clock: `jtb adjudicate`'s answer.
    ///
    /// # Errors
    /// [`EdgeError::NotCovered`] where no tables cover the position; a finished game, face-down
    /// tiles, damaged tables.
    pub fn adjudicate(&self, pos: AnyPosition) -> Result<Verdict, EdgeError> {
        match pos {
            AnyPosition::Jungle(pos) => {
                // The flip game's one-animal-each check needs no tables: a missing directory
                // only matters where the tables are asked.
                let (tables, open_error) = match self.jungle(pos.rules()) {
                    Ok(tb) => (Some(tb), None),
                    Err(e) => (None, Some(e.to_string())),
                };
                Verdict::of_jungle(tables.as_deref(), open_error, pos)
            }
            AnyPosition::Gambit(pos) => Verdict::of_gambit(self.gambit().as_deref(), pos),
        }
    }
}

/// One thread's view of [`Tables`] (see [`Tables::cursor`]).
pub struct Cursor<'a> {
    tables: &'a Tables,
    jungle: [Option<Arc<Tablebase>>; RuleSet::ALL.len()],
    gambit: Option<Arc<Tablebase<gambit::Rules>>>,
}

impl Cursor<'_> {
    fn jungle(&mut self, rules: RuleSet) -> Result<&Tablebase, EdgeError> {
        let slot = RuleSet::ALL
            .iter()
            .position(|&r| r == rules)
            .expect("every rule set is in RuleSet::ALL");
        if self.jungle[slot].is_none() {
            self.jungle[slot] = Some(self.tables.jungle(rules)?);
        }
        Ok(self.jungle[slot].as_deref().expect("just found"))
    }

    fn gambit(&mut self) -> Result<&Tablebase<gambit::Rules>, EdgeError> {
        if self.gambit.is_none() {
            self.gambit = Some(self.tables.gambit()?);
        }
        Ok(self.gambit.as_deref().expect("just found"))
    }

    /// As [`Tables::wdl`].
    ///
    /// # Errors
    /// As [`Tables::wdl`].
    pub fn wdl(&mut self, pos: &AnyPosition) -> Result<Wdl, EdgeError> {
        Ok(match pos {
            AnyPosition::Jungle(pos) => self.jungle(pos.rules())?.probe_wdl(pos)?,
            AnyPosition::Gambit(pos) => self.gambit()?.probe_wdl(pos)?,
        })
    }

    /// As [`Tables::dtm`].
    ///
    /// # Errors
    /// As [`Tables::dtm`].
    pub fn dtm(&mut self, pos: &AnyPosition) -> Result<Option<i32>, EdgeError> {
        let value = match pos {
            AnyPosition::Jungle(pos) if pos.rules().has_hunger() => {
                match self.jungle(pos.rules())?.probe_clesto(pos)? {
                    ClestoValue::Plain(v) => v,
                    _ => return Ok(None),
                }
            }
            AnyPosition::Jungle(pos) => self.jungle(pos.rules())?.probe_dtm(pos)?,
            AnyPosition::Gambit(pos) => self.gambit()?.probe_dtm(pos)?,
        };
        Ok(Some(signed(value)))
    }
}

/// `Win(n)` as `n`, `Loss(n)` as `-n`, a draw as 0.
fn signed(value: Value) -> i32 {
    match value {
        Value::Win(n) => i32::from(n),
        Value::Draw => 0,
        Value::Loss(n) => -i32::from(n),
    }
}
