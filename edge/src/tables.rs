//! The tables of every rule set under one directory, opened on first use and shared between
//! threads.

use std::{
    path::{Path, PathBuf},
    sync::{Arc, OnceLock},
};

use jtb_probe::{
    flip::ChanceTables, gambit, Clesto, ClestoValue, Indexed, Material, ProbeError, RuleSet,
    Tablebase, Value, Wdl,
};

use crate::{
    answer::{ChanceAnswer, ClestoAnswer, GambitAnswer, JungleAnswer},
    Answer, AnyPosition, EdgeError, Verdict,
};

/// A rule set's tables, or why its directory could not be opened (kept, so that a missing
/// directory is not looked for again on every probe).
type Opened<G> = Result<Tablebase<G>, Arc<ProbeError>>;

/// The tables of every rule set under one root (a rule set's tables are in `root/<rules>/`, as
/// `jtb gen` writes them), each rule set's opened on its first probe. A probe after the first
/// takes no lock: it finds its rule set's tables with one atomic load. The files are read with
/// positioned reads, not memory maps, so that a file replaced while it is open cannot crash
/// the process.
pub struct Tables {
    root: PathBuf,
    cache_bytes: u64,
    /// Jungle's and the flip game's, in the order of [`RuleSet::ALL`] (Clesto's place unused).
    jungle: [OnceLock<Opened<RuleSet>>; RuleSet::ALL.len()],
    clesto: OnceLock<Opened<Clesto>>,
    gambit: OnceLock<Opened<gambit::Rules>>,
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
            jungle: Default::default(),
            clesto: OnceLock::new(),
            gambit: OnceLock::new(),
            chance: OnceLock::new(),
        }
    }

    /// The root directory.
    #[must_use]
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The tables of a Jungle or flip rule set.
    ///
    /// # Errors
    /// [`EdgeError::Open`]: the rule set's directory cannot be read (or the rule set is
    /// Clesto's, whose tables are [`Tables::clesto`]).
    pub fn jungle(&self, rules: RuleSet) -> Result<&Tablebase, EdgeError> {
        let slot = RuleSet::ALL
            .iter()
            .position(|&r| r == rules)
            .expect("every rule set is in RuleSet::ALL");
        self.jungle[slot]
            .get_or_init(|| self.open(rules))
            .as_ref()
            .map_err(|e| EdgeError::Open(Arc::clone(e)))
    }

    /// Clesto's tables.
    ///
    /// # Errors
    /// [`EdgeError::Open`]: the directory cannot be read.
    pub fn clesto(&self) -> Result<&Tablebase<Clesto>, EdgeError> {
        self.clesto
            .get_or_init(|| self.open(Clesto))
            .as_ref()
            .map_err(|e| EdgeError::Open(Arc::clone(e)))
    }

    /// The Animal Gambit tables.
    ///
    /// # Errors
    /// [`EdgeError::Open`]: the directory cannot be read.
    pub fn gambit(&self) -> Result<&Tablebase<gambit::Rules>, EdgeError> {
        self.gambit
            .get_or_init(|| self.open(gambit::Rules))
            .as_ref()
            .map_err(|e| EdgeError::Open(Arc::clone(e)))
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

    fn open<G: Indexed>(&self, rules: G) -> Opened<G> {
        Tablebase::with_cache(&self.root, rules, self.cache_bytes).map_err(Arc::new)
    }

    /// Everything `jtb probe` says of `pos` (with `line`, the best lines too).
    ///
    /// # Errors
    /// The tables cannot be opened, do not hold the position, or are damaged.
    pub fn probe(&self, pos: AnyPosition, line: bool) -> Result<Answer, EdgeError> {
        Ok(match pos {
            AnyPosition::Jungle(pos) if pos.hidden() != 0 => {
                Answer::Chance(Box::new(ChanceAnswer::probe(self.chance()?, pos)?))
            }
            AnyPosition::Clesto(pos) => {
                Answer::Clesto(ClestoAnswer::probe(self.clesto()?, pos, line)?)
            }
            AnyPosition::Jungle(pos) => {
                Answer::Jungle(JungleAnswer::probe(self.jungle(pos.rules())?, pos, line)?)
            }
            AnyPosition::Gambit(pos) => {
                Answer::Gambit(GambitAnswer::probe(self.gambit()?, pos, line)?)
            }
        })
    }

    /// Win, draw or loss for the side to move (the clock rule aside; Clesto's wins by the ban
    /// are wins).
    ///
    /// # Errors
    /// As [`Tables::probe`].
    pub fn wdl(&self, pos: &AnyPosition) -> Result<Wdl, EdgeError> {
        Ok(match pos {
            AnyPosition::Jungle(pos) => self.jungle(pos.rules())?.probe_wdl(pos)?,
            AnyPosition::Clesto(pos) => self.clesto()?.probe_wdl(pos)?,
            AnyPosition::Gambit(pos) => self.gambit()?.probe_wdl(pos)?,
        })
    }

    /// The distance to mate for the side to move, signed: positive when it wins, negative when
    /// it loses, 0 for a draw, in the game's unit (plies; Animal Gambit's turns). `None` for a
    /// Clesto position that only the repetition ban decides (it has no distance to mate).
    ///
    /// # Errors
    /// As [`Tables::probe`].
    pub fn dtm(&self, pos: &AnyPosition) -> Result<Option<i32>, EdgeError> {
        let value = match pos {
            AnyPosition::Clesto(pos) => match self.clesto()?.probe_clesto(pos)? {
                ClestoValue::Plain(v) => v,
                _ => return Ok(None),
            },
            AnyPosition::Jungle(pos) => self.jungle(pos.rules())?.probe_dtm(pos)?,
            AnyPosition::Gambit(pos) => self.gambit()?.probe_dtm(pos)?,
        };
        Ok(Some(signed(value)))
    }

    /// Whether the game can be stopped at the position's clock: `jtb adjudicate`'s answer.
    ///
    /// # Errors
    /// [`EdgeError::NotCovered`] where no tables cover the position; a finished game, face-down
    /// tiles, damaged tables.
    pub fn adjudicate(&self, pos: AnyPosition) -> Result<Verdict, EdgeError> {
        match pos {
            // The flip game's one-animal-each check needs no tables: a missing directory only
            // matters where the tables are asked.
            AnyPosition::Jungle(pos) => Verdict::of_jungle(self.jungle(pos.rules()), pos),
            AnyPosition::Clesto(pos) => Verdict::of_clesto(self.clesto(), pos),
            AnyPosition::Gambit(pos) => Verdict::of_gambit(self.gambit(), pos),
        }
    }
}

/// The materials of the tables of a rule set of the Jungle family's type under `root` (Clesto's
/// opened as Clesto's), fewest pieces first, then by name.
///
/// # Errors
/// [`ProbeError::NoDirectory`] when `root/<rules>` cannot be read.
pub fn jungle_materials(root: &Path, rules: RuleSet) -> Result<Vec<Material>, ProbeError> {
    Ok(match rules {
        RuleSet::Clesto => Tablebase::open(root, Clesto)?.materials(),
        rules => Tablebase::open(root, rules)?.materials(),
    })
}

/// `Win(n)` as `n`, `Loss(n)` as `-n`, a draw as 0.
fn signed(value: Value) -> i32 {
    match value {
        Value::Win(n) => i32::from(n),
        Value::Draw => 0,
        Value::Loss(n) => -i32::from(n),
    }
}
