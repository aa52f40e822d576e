//! `jtb._jtb`: the Python binding over the run-time edge ([`jtb_edge`]), written once for the
//! four games. The package `jtb` (python/jtb) wraps it: NumPy arrays for the batch probes, a
//! tqdm bar for generation.

use std::{
    borrow::Cow,
    path::PathBuf,
    sync::{Mutex, RwLock, RwLockReadGuard, TryLockError},
    time::Duration,
};

use jtb_edge::{
    table_records, Answer, AnyPosition, EdgeError, Pick, Pinned, Played,
    PositionError as EdgePositionError, Rules, Tables, PACKED_LEN, RULE_CODES,
};
use jtb_probe::{ProbeError, Wdl};
use pyo3::{
    create_exception,
    exceptions::{PyKeyError, PyOSError, PyTypeError, PyValueError},
    prelude::*,
    types::{PyBytes, PyDict, PyList, PyString, PyTuple, PyType},
};

create_exception!(
    jtb,
    PositionError,
    PyValueError,
    "A text that is no position of its rule set, a move that is not legal, or a position that no \
     table can hold (a finished game, face-down tiles)."
);
create_exception!(
    jtb,
    MissingTableError,
    PyKeyError,
    "The tables do not cover the position: its table is missing (the message names it and the \
     `jtb gen` command that makes it), or it has more pieces than any table."
);
create_exception!(
    jtb,
    NoDistanceError,
    PyKeyError,
    "A Clesto position that only the repetition ban decides: it has a value but no distance to \
     mate (`probe()` gives its category and exit)."
);
create_exception!(
    jtb,
    TableError,
    PyOSError,
    "A table file is unreadable, damaged or of another table."
);

/// The Python exception of an edge error, with the CLI's message.
fn py_err(e: EdgeError) -> PyErr {
    let msg = e.to_string();
    if e.is_missing_table() {
        return MissingTableError::new_err(msg);
    }
    match &e {
        EdgeError::Position(_) => PositionError::new_err(msg),
        EdgeError::Probe(p) | EdgeError::Open(p) => match **p {
            ProbeError::GameOver
            | ProbeError::HiddenTiles
            | ProbeError::HiddenSetUnknown
            | ProbeError::NoFaceDownTiles
            | ProbeError::WrongRules { .. }
            | ProbeError::NotForRules { .. } => PositionError::new_err(msg),
            _ => TableError::new_err(msg),
        },
        EdgeError::NotCovered(_) => MissingTableError::new_err(msg),
    }
}

fn position_err(e: EdgePositionError) -> PyErr {
    PositionError::new_err(e.to_string())
}

/// A rule set named by its id, or `None` (the board's shape decides).
fn rules_arg(rules: Option<&str>) -> PyResult<Option<Rules>> {
    rules
        .map(|r| {
            r.parse()
                .map_err(|e: jtb_probe::UnknownRuleSet| PyValueError::new_err(e.to_string()))
        })
        .transpose()
}

/// A position of any of the four games.
///
/// `Position(text, rules=None)` parses a position text (see the README's "Position text");
/// without `rules` the board's shape decides (9 ranks: mistboard, 4x4: flip4x4, 8x8:
/// animal-gambit), so Clesto, Leiden and tiger-lengthwise positions need `rules=`.
#[pyclass(module = "jtb", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
struct Position {
    pos: HashablePosition,
}

/// [`AnyPosition`] hashed by its canonical text.
#[derive(Clone, PartialEq, Eq)]
struct HashablePosition(AnyPosition);

impl std::hash::Hash for HashablePosition {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.to_string().hash(state);
    }
}

#[pymethods]
impl Position {
    #[new]
    #[pyo3(signature = (text, rules=None))]
    fn new(text: &str, rules: Option<&str>) -> PyResult<Position> {
        let pos = AnyPosition::from_text(text, rules_arg(rules)?).map_err(position_err)?;
        Ok(Position {
            pos: HashablePosition(pos),
        })
    }

    /// The rule set's id (`mistboard`, `flip4x4`, `clesto`, `animal-gambit`, ...).
    #[getter]
    fn rules(&self) -> &'static str {
        self.pos.0.rules().name()
    }

    /// The side to move: `red` or `blue` (Animal Gambit: `gold` or `silver`).
    #[getter]
    fn side_to_move(&self) -> &'static str {
        self.pos.0.side_to_move()
    }

    /// The half-move clock of the text (`None` when it gave none, and in Animal Gambit).
    #[getter]
    fn clock(&self) -> Option<u32> {
        self.pos.0.clock()
    }

    /// The legal moves (Animal Gambit: every distinct turn) in their canonical text, sorted in
    /// ASCII order; a flip position with face-down tiles lists a flip of each tile (`?a4`).
    fn moves(&self) -> Vec<String> {
        self.pos.0.moves()
    }

    /// Plays a move (`b3b4`) or an Animal Gambit turn (`Ed2n Ed3n`, steps in any legal
    /// order): the new position, or a `GameEnd` when the move ends the game.
    fn play(&self, py: Python<'_>, mv: &str) -> PyResult<Py<PyAny>> {
        match self.pos.0.play(mv).map_err(position_err)? {
            Played::Next(next) => Ok(Position {
                pos: HashablePosition(next),
            }
            .into_pyobject(py)?
            .into_any()
            .unbind()),
            Played::End(end) => Ok(GameEnd {
                result: end.result.name(),
                mover: end.mover,
                reason: end.reason,
            }
            .into_pyobject(py)?
            .into_any()
            .unbind()),
        }
    }

    /// What the flip `mv` (`?a4`) may reveal (RULES.md 8): `(animal, probability, position)`
    /// for each animal of the hidden set, equally likely, the probability a
    /// `fractions.Fraction`, in canonical order.
    fn flip_outcomes(
        &self,
        py: Python<'_>,
        mv: &str,
    ) -> PyResult<Vec<(String, Py<PyAny>, Position)>> {
        let fraction = py.import("fractions")?.getattr("Fraction")?;
        self.pos
            .0
            .flip_outcomes(mv)
            .map_err(position_err)?
            .into_iter()
            .map(|(animal, of, next)| {
                Ok((
                    animal.to_string(),
                    fraction.call1((1, of))?.unbind(),
                    Position {
                        pos: HashablePosition(next),
                    },
                ))
            })
            .collect()
    }

    /// Whether no move can be played: a side has nothing left, the side to move has no legal
    /// move, or the half-move clock has reached the draw limit.
    fn is_game_over(&self) -> bool {
        self.pos.0.is_game_over()
    }

    fn __str__(&self) -> String {
        self.pos.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "Position({:?}, rules={:?})",
            self.pos.0.to_string(),
            self.rules()
        )
    }

    /// Pickled as its text and rule set: `Position(text, rules)` gives it back (the text is
    /// canonical and whole: clock, move number, Clesto's hungry set, the `?:` field).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, (String, &'static str)) {
        let this = slf.get();
        (slf.get_type(), (this.pos.0.to_string(), this.rules()))
    }

    /// The position as a record of `jtb.PACKED_LEN` (48) bytes, for arrays of positions and
    /// the batch probes' fast path; `jtb.unpack` gives it back (the move number of a text is
    /// not kept). The README's "Packed positions" says how the bytes read.
    fn pack<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.pos.0.pack())
    }

    /// A Position is immutable: its copy is itself.
    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __deepcopy__(slf: Py<Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        slf
    }
}

/// How a game ended: `result` for the side that made the last move (`win`, `draw`, `loss`),
/// `mover` (that side), and `reason` in words.
#[pyclass(module = "jtb", frozen, get_all)]
struct GameEnd {
    result: &'static str,
    mover: &'static str,
    reason: String,
}

#[pymethods]
impl GameEnd {
    fn __repr__(&self) -> String {
        format!(
            "GameEnd(result={:?}, mover={:?}, reason={:?})",
            self.result, self.mover, self.reason
        )
    }
}

/// A `Position` given with `rules`: refused unless `rules` is its own rule set, which a
/// probe would otherwise silently ignore.
fn check_own_rules(pos: &AnyPosition, rules: Option<Rules>) -> PyResult<()> {
    match rules {
        Some(rules) if rules != pos.rules() => Err(PositionError::new_err(format!(
            "{pos}: a Position of rule set {}, probed with rules={:?}: leave rules out, or \
             make the Position under {}",
            pos.rules().name(),
            rules.name(),
            rules.name()
        ))),
        _ => Ok(()),
    }
}

fn expected_position() -> PyErr {
    PyTypeError::new_err("expected a jtb.Position or a position text")
}

/// A position argument: a `Position` (of the rule set `rules` names, if any), or a text
/// parsed under `rules` (else by its shape). Returns the position and the text to echo in
/// answers.
fn position_of(obj: &Bound<'_, PyAny>, rules: Option<&str>) -> PyResult<(AnyPosition, String)> {
    let rules = rules_arg(rules)?;
    if let Ok(pos) = obj.cast::<Position>() {
        let pos = pos.get().pos.0.clone();
        check_own_rules(&pos, rules)?;
        let text = pos.to_string();
        return Ok((pos.with_rule_clock().map_err(position_err)?, text));
    }
    let text: String = obj.extract().map_err(|_| expected_position())?;
    let pos = AnyPosition::parse(&text, rules, None).map_err(position_err)?;
    Ok((pos, text))
}

/// Calls `f` with a position argument (a `Position`, borrowed, or a text parsed under `rules`,
/// else by its shape), for the probes that do not read the clock.
fn with_position<R>(
    obj: &Bound<'_, PyAny>,
    rules: Option<&str>,
    f: impl FnOnce(&AnyPosition) -> R,
) -> PyResult<R> {
    let rules = rules_arg(rules)?;
    if let Ok(pos) = obj.cast::<Position>() {
        let pos = &pos.get().pos.0;
        check_own_rules(pos, rules)?;
        return Ok(f(pos));
    }
    let text = obj
        .cast::<PyString>()
        .map_err(|_| expected_position())?
        .to_cow()?;
    let pos = AnyPosition::parse(&text, rules, None).map_err(position_err)?;
    Ok(f(&pos))
}

/// One item of a batch: a text, parsed on the batch's threads, or a `Position`'s position,
/// borrowed (a `Position` is frozen: its position is read from any thread without the GIL, and
/// the batch's list keeps it alive meanwhile).
enum BatchItem<'a> {
    Text(String),
    Position(&'a AnyPosition),
}

impl<'a> BatchItem<'a> {
    /// The item of a batch at `index`: a `Position` (of the rule set `rules` names, if any)
    /// or a text. Anything else is the caller's mistake, not a failure of the batch.
    fn of(
        index: usize,
        obj: &'a Bound<'_, PyAny>,
        rules: Option<Rules>,
    ) -> PyResult<BatchItem<'a>> {
        if let Ok(pos) = obj.cast::<Position>() {
            let pos: &'a AnyPosition = &pos.get().pos.0;
            check_own_rules(pos, rules)?;
            return Ok(BatchItem::Position(pos));
        }
        match obj.cast::<PyString>() {
            Ok(text) => Ok(BatchItem::Text(text.to_cow()?.into_owned())),
            Err(_) => Err(PyTypeError::new_err(format!(
                "item {index} is a {}: expected a jtb.Position or a position text",
                obj.get_type().name()?
            ))),
        }
    }

    /// The item's position: the `Position`'s, or the text's parsed under `rules` (if any).
    fn position(&self, rules: Option<Rules>) -> Result<Cow<'_, AnyPosition>, String> {
        match self {
            BatchItem::Position(pos) => Ok(Cow::Borrowed(*pos)),
            BatchItem::Text(text) => AnyPosition::parse(text, rules, None)
                .map(Cow::Owned)
                .map_err(|e| e.to_string()),
        }
    }
}

/// A probe's answer as a dict, as `json.loads` would give it, except that the fields the answer
/// says are exact fractions (a chance position's values, JSON strings `"5/8"`) are
/// `fractions.Fraction`s.
fn answer_to_py(py: Python<'_>, answer: &Answer, text: &str) -> PyResult<Py<PyAny>> {
    let fractions = answer.exact_fractions();
    let fraction = match fractions {
        [] => None,
        _ => Some(py.import("fractions")?.getattr("Fraction")?),
    };
    to_py(
        py,
        &answer.json(text),
        fraction.as_ref().map(|f| (f, fractions)),
    )
}

/// A JSON value as the Python object `json.loads` would give; with `fraction` (the type
/// `fractions.Fraction` and the fields to give as one), those fields' strings as Fractions.
fn to_py(
    py: Python<'_>,
    value: &serde_json::Value,
    fraction: Option<(&Bound<'_, PyAny>, &[&str])>,
) -> PyResult<Py<PyAny>> {
    use serde_json::Value as J;
    Ok(match value {
        J::Null => py.None(),
        J::Bool(b) => b.into_pyobject(py)?.to_owned().into_any().unbind(),
        J::Number(n) => match n.as_i64() {
            Some(i) => i.into_pyobject(py)?.into_any().unbind(),
            None => n
                .as_f64()
                .unwrap_or(f64::NAN)
                .into_pyobject(py)?
                .into_any()
                .unbind(),
        },
        J::String(s) => s.into_pyobject(py)?.into_any().unbind(),
        J::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_py(py, item, fraction)?)?;
            }
            list.into_any().unbind()
        }
        J::Object(map) => {
            let dict = PyDict::new(py);
            for (k, v) in map {
                let item = match (fraction, v) {
                    (Some((fraction, fields)), J::String(s)) if fields.contains(&k.as_str()) => {
                        fraction.call1((s,))?.unbind()
                    }
                    _ => to_py(py, v, fraction)?,
                };
                dict.set_item(k, item)?;
            }
            dict.into_any().unbind()
        }
    })
}

/// The tables of every rule set under one directory (`jtb gen`'s layout: a rule set's tables
/// in `DIR/<rules>/`), opened on first use and shared by every thread.
#[pyclass(module = "jtb", frozen, subclass)]
struct Tablebase {
    /// `None` once closed. Probes hold the read lock while they run, so that closing waits for
    /// them.
    tables: RwLock<Option<Tables>>,
    directory: PathBuf,
}

/// The tables of an open tablebase, for the length of one call.
struct Open<'a>(RwLockReadGuard<'a, Option<Tables>>);

impl std::ops::Deref for Open<'_> {
    type Target = Tables;

    fn deref(&self) -> &Tables {
        self.0.as_ref().expect("checked open")
    }
}

impl Tablebase {
    /// The WDL (or with `dtm`, the signed DTM) of each of `items`, `position` giving an item's
    /// position or why it has none, on `threads` threads with the GIL released: the values as
    /// four little-endian bytes each (`failed` where one got none) and the failures.
    fn probe_batch<I: Sync>(
        &self,
        py: Python<'_>,
        items: &[I],
        threads: Option<usize>,
        failed: i32,
        values: impl Fn(&mut Pinned<'_>, &[I], &mut dyn FnMut(usize, Result<i32, String>)) + Sync,
    ) -> PyResult<(Vec<i32>, Failures)> {
        let tables = self.tables(py)?;
        py.detach(|| batch(items, threads, failed, || tables.pinned(), &values))
    }

    /// The open tables, read-locked for the call. Never waits for the lock with the GIL held:
    /// the lock prefers writers, so while `close()` waits for it, a reader would block with
    /// the GIL, which the probes in flight need in order to return and let `close()` through.
    fn tables(&self, py: Python<'_>) -> PyResult<Open<'_>> {
        let guard = loop {
            match self.tables.try_read() {
                Ok(guard) => break guard,
                // A poisoned lock only means a thread panicked holding it; the tables are whole.
                Err(TryLockError::Poisoned(e)) => break e.into_inner(),
                // The guard cannot leave the detached closure (it is not `Send`): wait there
                // until the lock is free for readers, then try again with the GIL.
                Err(TryLockError::WouldBlock) => py.detach(|| drop(self.tables.read())),
            }
        };
        match *guard {
            Some(_) => Ok(Open(guard)),
            None => Err(PyValueError::new_err("the tablebase is closed")),
        }
    }
}

/// The int of a WDL: 1, 0, -1 for the side to move.
fn wdl_int(w: Wdl) -> i8 {
    match w {
        Wdl::Win => 1,
        Wdl::Draw => 0,
        Wdl::Loss => -1,
    }
}

/// Why a Clesto position that only the repetition ban decides has no distance to mate (the
/// message of a `NoDistanceError`).
fn no_dtm_message(pos: &AnyPosition) -> String {
    format!(
        "{pos}: no distance to mate: the repetition ban decides this Clesto position (probe() \
         gives its category and exit)"
    )
}

#[pymethods]
impl Tablebase {
    #[new]
    #[pyo3(signature = (directory, *, cache_mib=64))]
    fn new(directory: PathBuf, cache_mib: u64) -> PyResult<Tablebase> {
        if !directory.is_dir() {
            return Err(pyo3::exceptions::PyFileNotFoundError::new_err(format!(
                "no table directory {}",
                directory.display()
            )));
        }
        let bytes = cache_mib
            .checked_mul(1 << 20)
            .ok_or_else(|| PyValueError::new_err("cache_mib is too large"))?;
        Ok(Tablebase {
            tables: RwLock::new(Some(Tables::new(&directory, bytes))),
            directory,
        })
    }

    /// The table directory.
    #[getter]
    fn directory(&self) -> PathBuf {
        self.directory.clone()
    }

    /// 1, 0 or -1: win, draw or loss for the side to move (the move-count rule aside).
    #[pyo3(signature = (pos, rules=None))]
    fn probe_wdl(&self, pos: &Bound<'_, PyAny>, rules: Option<&str>) -> PyResult<i8> {
        // A cached probe takes some 100 ns: releasing the GIL would cost about as much again.
        let tables = self.tables(pos.py())?;
        with_position(pos, rules, |pos| tables.wdl(pos))?
            .map(wdl_int)
            .map_err(py_err)
    }

    /// The signed distance to mate for the side to move: positive when it wins, negative when
    /// it loses, 0 for a draw and for a side with no move, which has lost at once (`probe_wdl`
    /// tells the two apart) (plies; turns in Animal Gambit). A Clesto position that only the
    /// repetition ban decides has none: `NoDistanceError`.
    #[pyo3(signature = (pos, rules=None))]
    fn probe_dtm(&self, pos: &Bound<'_, PyAny>, rules: Option<&str>) -> PyResult<i32> {
        let tables = self.tables(pos.py())?;
        with_position(pos, rules, |p| {
            tables
                .dtm(p)
                .map_err(py_err)?
                .ok_or_else(|| NoDistanceError::new_err(no_dtm_message(p)))
        })?
    }

    /// Everything `jtb probe --json` says of the position, as a dict; with `line`, the best
    /// lines too. The chance values of a position with face-down tiles are
    /// `fractions.Fraction`s, with `dte` (an `int` for a certain result, else `None`).
    #[pyo3(signature = (pos, rules=None, *, line=false))]
    fn probe(
        &self,
        py: Python<'_>,
        pos: &Bound<'_, PyAny>,
        rules: Option<&str>,
        line: bool,
    ) -> PyResult<Py<PyAny>> {
        let (pos, text) = position_of(pos, rules)?;
        let tables = self.tables(py)?;
        let answer = py.detach(|| tables.probe(pos, line)).map_err(py_err)?;
        // A set without the files a line needs answers with `line: None` and the `missing` note.
        if line && answer.missing().is_none() {
            no_line(&answer, &text)?;
        }
        answer_to_py(py, &answer, &text)
    }

    /// The best move (turn) in its canonical text; `None` in a draw.
    #[pyo3(signature = (pos, rules=None))]
    fn best_move(
        &self,
        py: Python<'_>,
        pos: &Bound<'_, PyAny>,
        rules: Option<&str>,
    ) -> PyResult<Option<String>> {
        let (pos, _) = position_of(pos, rules)?;
        let tables = self.tables(py)?;
        let answer = py.detach(|| tables.probe(pos, false)).map_err(py_err)?;
        if let Some(missing) = answer.missing() {
            return Err(MissingTableError::new_err(missing));
        }
        Ok(answer.best().map(str::to_owned))
    }

    /// The whole best line: the moves (turns) to the end of the game with best play (empty in
    /// a draw; Clesto's stops where only the repetition ban decides). A position with
    /// face-down tiles has none: `PositionError`.
    #[pyo3(signature = (pos, rules=None))]
    fn line(
        &self,
        py: Python<'_>,
        pos: &Bound<'_, PyAny>,
        rules: Option<&str>,
    ) -> PyResult<Vec<String>> {
        let (pos, text) = position_of(pos, rules)?;
        let tables = self.tables(py)?;
        let answer = py.detach(|| tables.probe(pos, true)).map_err(py_err)?;
        no_line(&answer, &text)
    }

    /// Whether the game can be stopped at the position's clock, as `jtb adjudicate --json`
    /// says it (a dict).
    #[pyo3(signature = (pos, rules=None))]
    fn adjudicate(
        &self,
        py: Python<'_>,
        pos: &Bound<'_, PyAny>,
        rules: Option<&str>,
    ) -> PyResult<Py<PyAny>> {
        let (pos, text) = position_of(pos, rules)?;
        let tables = self.tables(py)?;
        let verdict = py.detach(|| tables.adjudicate(pos)).map_err(py_err)?;
        to_py(py, &verdict.json(&text), None)
    }

    /// WDL (or with `dtm`, the signed DTM) of many positions, each a `Position` or a text, the
    /// GIL released and every core used: `(values, failures)`, `values` four little-endian
    /// bytes per position (`failed` where one got no value) and `failures` the
    /// `(index, message)` of each such position.
    #[pyo3(signature = (positions, rules=None, *, dtm=false, threads=None, failed=i32::MIN))]
    fn _probe_many<'py>(
        &self,
        py: Python<'py>,
        positions: Vec<Bound<'py, PyAny>>,
        rules: Option<&str>,
        dtm: bool,
        threads: Option<usize>,
        failed: i32,
    ) -> PyResult<(Bound<'py, PyBytes>, Failures)> {
        let rules = rules_arg(rules)?;
        check_failed(failed, dtm)?;
        let items = positions
            .iter()
            .enumerate()
            .map(|(i, obj)| BatchItem::of(i, obj, rules))
            .collect::<PyResult<Vec<_>>>()?;
        self.probe_batch(py, &items, threads, failed, |tables, items, put| {
            batch_values(tables, items, |item| item.position(rules), dtm, put);
        })
        .map(|(values, failures)| (value_bytes(py, &values, dtm), failures))
    }

    /// As `_probe_many`, over packed positions ([`PACKED_LEN`] bytes each, one after another,
    /// in a `bytes` or a C-contiguous NumPy array of `uint8`, read where it is): nothing to
    /// parse, so the fast path. A record of another rule set than `rules` fails.
    #[pyo3(signature = (data, rules=None, *, dtm=false, threads=None, failed=i32::MIN))]
    fn _probe_packed<'py>(
        &self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
        rules: Option<&str>,
        dtm: bool,
        threads: Option<usize>,
        failed: i32,
    ) -> PyResult<(Bound<'py, PyBytes>, Failures)> {
        let rules = rules_arg(rules)?;
        check_failed(failed, dtm)?;
        let bytes = packed_bytes(data)?;
        if bytes.len() % PACKED_LEN != 0 {
            return Err(PyValueError::new_err(format!(
                "packed positions are {PACKED_LEN} bytes each: {} bytes is no whole number of them",
                bytes.len()
            )));
        }
        // Safety: records of bytes have no alignment, and `bytes` holds `len` of them.
        let records: &[[u8; PACKED_LEN]] =
            unsafe { std::slice::from_raw_parts(bytes.as_ptr().cast(), bytes.len() / PACKED_LEN) };
        self.probe_batch(py, records, threads, failed, |tables, records, put| {
            if dtm {
                return batch_values(
                    tables,
                    records,
                    |record| unpacked(record, rules).map(Cow::Owned),
                    true,
                    put,
                );
            }
            // A record of another rule set than asked fails as its position does (the
            // record's first byte names it); the others are read in bulk, a few hundred at a
            // time, so that the buffers stay in the processor's caches.
            let coded = |r: &[u8; PACKED_LEN]| RULE_CODES.get(usize::from(r[0]).wrapping_sub(1));
            let mut probed = Vec::with_capacity(AT_ONCE);
            let mut at = Vec::with_capacity(AT_ONCE);
            for (part, records) in records.chunks(AT_ONCE).enumerate() {
                probed.clear();
                at.clear();
                for (i, record) in records.iter().enumerate() {
                    let i = part * AT_ONCE + i;
                    match rules {
                        Some(r) if coded(record) != Some(&r) => {
                            put(
                                i,
                                unpacked(record, rules).map(|_| unreachable!("another rule set's")),
                            );
                        }
                        _ => {
                            probed.push(record);
                            at.push(i);
                        }
                    }
                }
                tables.wdl_packed(&probed, |k, wdl| {
                    put(
                        at[k],
                        wdl.map(|w| i32::from(wdl_int(w)))
                            .map_err(|e| e.to_string()),
                    );
                });
            }
        })
        .map(|(values, failures)| (value_bytes(py, &values, dtm), failures))
    }

    /// Closes the tablebase: its files are released once no probe runs; later probes raise.
    fn close(&self, py: Python<'_>) {
        // Waits for the probes in flight, which may need the GIL to return.
        py.detach(|| *self.tables.write().unwrap_or_else(|e| e.into_inner()) = None);
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&self, py: Python<'_>, _args: &Bound<'_, PyTuple>) {
        self.close(py);
    }

    fn __repr__(&self) -> String {
        format!("Tablebase({:?})", self.directory.display().to_string())
    }
}

/// The bytes of `data`: a `bytes`, or a C-contiguous NumPy array of `uint8` (found by its
/// array interface, which the stable ABI can read where it has no buffer protocol), read where
/// they are, for as long as `data` lives.
fn packed_bytes<'a>(data: &'a Bound<'_, PyAny>) -> PyResult<&'a [u8]> {
    if let Ok(bytes) = data.cast::<PyBytes>() {
        return Ok(bytes.as_bytes());
    }
    let bad = || PyTypeError::new_err("packed positions are bytes or a C-contiguous uint8 array");
    let interface = data.getattr("__array_interface__").map_err(|_| bad())?;
    let typestr: String = interface.get_item("typestr")?.extract()?;
    let strides = interface.get_item("strides")?;
    if typestr != "|u1" || !strides.is_none() {
        return Err(bad());
    }
    let shape: Vec<usize> = interface.get_item("shape")?.extract()?;
    let (address, _read_only): (usize, bool) = interface.get_item("data")?.extract()?;
    let len = shape.iter().product();
    if len == 0 {
        return Ok(&[]);
    }
    // Safety: a C-contiguous (no strides) array of `len` bytes at `address`, per the array's
    // own interface. It stays allocated, and its size fixed, while `data` holds a reference
    // to it (NumPy refuses to resize an array others refer to). Another Python thread could
    // still write it meanwhile, as under any C extension that reads an array without the GIL:
    // a record read then may be torn, and is read as any record is, a position or an error.
    Ok(unsafe { std::slice::from_raw_parts(address as *const u8, len) })
}

/// How many items of a batch are read at a time: their buffers stay in the processor's caches.
const AT_ONCE: usize = 256;

/// The position of a packed record, of the rule set `rules` names (if any).
fn unpacked(record: &[u8; PACKED_LEN], rules: Option<Rules>) -> Result<AnyPosition, String> {
    let pos = AnyPosition::unpack(record).map_err(|e| e.to_string())?;
    match rules {
        Some(r) if pos.rules() != r => Err(format!(
            "{pos}: a position of rule set {}, not {}",
            pos.rules().name(),
            r.name()
        )),
        _ => Ok(pos),
    }
}

/// Refuses a failure value of a WDL batch that does not fit the byte each WDL comes back in.
fn check_failed(failed: i32, dtm: bool) -> PyResult<()> {
    if !dtm && i8::try_from(failed).is_err() {
        return Err(PyValueError::new_err(format!(
            "a WDL batch's failure value is a byte: {failed} is not"
        )));
    }
    Ok(())
}

/// A batch's values as bytes: WDLs a byte each ([`check_failed`]), distances four,
/// little-endian.
fn value_bytes<'py>(py: Python<'py>, values: &[i32], dtm: bool) -> Bound<'py, PyBytes> {
    let bytes: Vec<u8> = if dtm {
        values.iter().flat_map(|v| v.to_le_bytes()).collect()
    } else {
        values.iter().map(|&v| v as i8 as u8).collect()
    };
    PyBytes::new(py, &bytes)
}

/// The `(index, message)` of each text of a batch that got no value.
type Failures = Vec<(usize, String)>;

/// The error of asking for the line of a position that has none even when asked: a set without
/// the files a line needs (`MissingTableError`), or a position with face-down tiles (a flip's
/// outcome is chance, so no single line is best).
fn no_line(answer: &Answer, text: &str) -> PyResult<Vec<String>> {
    if let Some(missing) = answer.missing() {
        return Err(MissingTableError::new_err(missing));
    }
    answer.line().ok_or_else(|| {
        PositionError::new_err(format!(
            "{text}: no single best line: the position has face-down tiles, and a flip's \
             outcome is chance (probe() gives every move's chance values, \
             Position.flip_outcomes what a flip may reveal)"
        ))
    })
}

/// The WDL (or with `dtm`, the signed DTM) of each of a chunk of a batch's items (`position`
/// reads each), `put(i, value)` in order, or why it has none. WDLs are read with the tables'
/// memory asked for ahead ([`Pinned::wdl_many`]).
fn batch_values<I>(
    tables: &mut Pinned<'_>,
    items: &[I],
    position: impl for<'a> Fn(&'a I) -> Result<Cow<'a, AnyPosition>, String>,
    dtm: bool,
    put: &mut dyn FnMut(usize, Result<i32, String>),
) {
    // A few hundred positions at a time, in a buffer that stays in the processor's caches.
    let mut positions = Vec::with_capacity(AT_ONCE);
    for (part, items) in items.chunks(AT_ONCE).enumerate() {
        let start = part * AT_ONCE;
        positions.clear();
        positions.extend(items.iter().map(&position));
        let mut read = Vec::with_capacity(positions.len());
        let mut at = Vec::with_capacity(positions.len());
        for (i, pos) in positions.iter().enumerate() {
            match pos {
                Ok(pos) => {
                    read.push(pos.as_ref());
                    at.push(start + i);
                }
                Err(e) => put(start + i, Err(e.clone())),
            }
        }
        if dtm {
            for (&i, pos) in at.iter().zip(read) {
                let dtm = match tables.dtm(pos) {
                    Ok(dtm) => dtm.ok_or_else(|| no_dtm_message(pos)),
                    Err(e) => Err(e.to_string()),
                };
                put(i, dtm);
            }
        } else {
            tables.wdl_many(&read, |k, wdl| {
                put(
                    at[k],
                    wdl.map(|w| i32::from(wdl_int(w)))
                        .map_err(|e| e.to_string()),
                );
            });
        }
    }
}

/// The values of `items` on `threads` threads (default: every core), each thread taking chunks
/// of items in turn with a state of its own for the chunk (`state`: the tables held for it);
/// `values` puts the value of each item of a chunk, or why it has none, by its place in the
/// chunk. An item that gets no value gets `failed` and its message.
fn batch<I: Sync, T: Copy + Send + Sync, S>(
    items: &[I],
    threads: Option<usize>,
    failed: T,
    state: impl Fn() -> S + Sync,
    values: impl Fn(&mut S, &[I], &mut dyn FnMut(usize, Result<T, String>)) + Sync,
) -> PyResult<(Vec<T>, Failures)> {
    use rayon::prelude::*;
    const CHUNK: usize = 4096;
    let run = || {
        let mut values_out = vec![failed; items.len()];
        let failures: Failures = values_out
            .par_chunks_mut(CHUNK)
            .zip(items.par_chunks(CHUNK))
            .enumerate()
            .flat_map_iter(|(chunk, (out, items))| {
                let mut failures = Vec::new();
                let mut state = state();
                values(&mut state, items, &mut |i, value| match value {
                    Ok(v) => out[i] = v,
                    Err(e) => failures.push((chunk * CHUNK + i, e)),
                });
                failures
            })
            .collect();
        (values_out, failures)
    };
    match threads {
        None => Ok(run()),
        Some(0) => Err(PyValueError::new_err("threads must be at least 1")),
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map(|pool| pool.install(run))
            .map_err(|e| PyOSError::new_err(e.to_string())),
    }
}

/// Generates tables into `directory/<rules>/`: every material of 2 up to `max_pieces` pieces,
/// or the `materials` named and every table they need. Present and intact tables are kept (an
/// interrupted generation resumes). `progress(done, total, material)` hears of each table.
#[pyfunction]
#[pyo3(signature = (directory, *, rules="mistboard", max_pieces=4, materials=None, memory_limit_mib=None, progress=None))]
fn generate(
    py: Python<'_>,
    directory: PathBuf,
    rules: &str,
    max_pieces: usize,
    materials: Option<Vec<String>>,
    memory_limit_mib: Option<u64>,
    progress: Option<Py<PyAny>>,
) -> PyResult<usize> {
    let rules: Rules = rules
        .parse()
        .map_err(|e: jtb_probe::UnknownRuleSet| PyValueError::new_err(e.to_string()))?;
    if !(2..=jtb_probe::Layout::MAX_PIECES).contains(&max_pieces) {
        return Err(PyValueError::new_err(format!(
            "max_pieces must be 2 to {}",
            jtb_probe::Layout::MAX_PIECES
        )));
    }
    let memory_limit = match memory_limit_mib {
        Some(mib) => mib
            .checked_mul(1 << 20)
            .ok_or_else(|| PyValueError::new_err("memory_limit_mib is too large"))?,
        None => jtb_gen::run::available_memory().unwrap_or(u64::MAX),
    };
    let materials = materials.unwrap_or_default();
    let report = Reporter::new(progress);
    // Under flip4x4 a name with `-` is a chance table (RULES.md 8), made after the revealed
    // tables it needs; without names, every one up to `max_pieces` tiles.
    let targets = rules
        .targets(&materials, max_pieces)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let opts = jtb_gen::targets::Options {
        out: &directory,
        memory_limit,
        only_targets: false,
    };
    let generated = interruptible(py, &report, || {
        jtb_gen::targets::generate(&targets, opts, &report)
    });
    // Ctrl-C or the callback's exception first: the generation then stopped for it.
    report.raise()?;
    let generated = generated.map_err(|e| PyOSError::new_err(e.to_string()))?;
    Ok(generated.tables.generated.len() + generated.chance.map_or(0, |c| c.generated.len()))
}

/// Runs `work` on a thread of its own with the GIL released, while this thread looks for
/// signals every 50 ms (Python runs its signal handlers only on the main thread, between
/// bytecodes): a KeyboardInterrupt, or any exception a handler raises, stops the work through
/// `report` before its next table, and is raised once the work has returned.
fn interruptible<T: Send>(py: Python<'_>, report: &Reporter, work: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        let worker = scope.spawn(work);
        while !worker.is_finished() {
            py.detach(|| std::thread::park_timeout(Duration::from_millis(50)));
            if let Err(e) = py.check_signals() {
                report.stop(e);
            }
        }
        match worker.join() {
            Ok(done) => done,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// Calls the Python progress callback from the generator's threads. The first exception it
/// raises (or a signal's, [`interruptible`]) stops the generation before its next table and is
/// raised when it returns.
struct Reporter {
    callback: Option<Py<PyAny>>,
    counts: Mutex<(usize, usize)>,
    error: Mutex<Option<PyErr>>,
}

impl Reporter {
    fn new(callback: Option<Py<PyAny>>) -> Reporter {
        Reporter {
            callback,
            counts: Mutex::new((0, 0)),
            error: Mutex::new(None),
        }
    }

    /// Stops the generation for `e` (the first such exception is the one raised).
    fn stop(&self, e: PyErr) {
        self.stopped().get_or_insert(e);
    }

    /// The exception the generation stopped for, if it did.
    fn stopped(&self) -> std::sync::MutexGuard<'_, Option<PyErr>> {
        self.error.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `more` tables planned after those already counted (the chance tables after the
    /// revealed ones they lead into).
    fn more_planned(&self, more: usize) {
        self.counts.lock().unwrap_or_else(|e| e.into_inner()).1 += more;
    }

    fn one_done(&self, material: &str) {
        let (done, total) = {
            let mut c = self.counts.lock().unwrap_or_else(|e| e.into_inner());
            c.0 += 1;
            *c
        };
        let Some(callback) = &self.callback else {
            return;
        };
        Python::attach(|py| {
            if let Err(e) = callback.call1(py, (done, total, material)) {
                self.stop(e);
            }
        });
    }

    /// The exception that stopped the generation, if one did.
    fn raise(&self) -> PyResult<()> {
        self.stopped().take().map_or(Ok(()), Err)
    }
}

impl<T: std::fmt::Display> jtb_gen::driver::Progress<T> for Reporter {
    fn planned(&self, tables: usize, _entries: u64) {
        self.more_planned(tables);
    }
    fn kept(&self, table: T) {
        self.one_done(&table.to_string());
    }
    fn replacing(&self, _: T, _: &str) {}
    fn started(&self, _: T, _: u64) {}
    fn finished(&self, table: T, _: u64, _: Duration) {
        self.one_done(&table.to_string());
    }
    /// Asked once a table (a lock nobody holds long).
    fn cancelled(&self) -> bool {
        self.stopped().is_some()
    }
}

/// The position of a record that `Position.pack` made.
#[pyfunction]
fn unpack(data: &[u8]) -> PyResult<Position> {
    let pos = AnyPosition::unpack(data).map_err(position_err)?;
    Ok(Position {
        pos: HashablePosition(pos),
    })
}

/// The positions of the table `material` under `rules`, packed: every one it stores, or
/// `sample` of them drawn with `seed` (see `jtb_edge::table_records`).
#[pyfunction]
#[pyo3(signature = (material, rules, sample=None, seed=0))]
fn _table_records<'py>(
    py: Python<'py>,
    material: &str,
    rules: &str,
    sample: Option<usize>,
    seed: u64,
) -> PyResult<Bound<'py, PyBytes>> {
    let rules = rules_arg(Some(rules))?.expect("a rule set was named");
    let pick = match sample {
        Some(count) => Pick::Sample { count, seed },
        None => Pick::All,
    };
    let records = py
        .detach(|| table_records(rules, material, pick))
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(PyBytes::new(py, &records))
}

/// The rule sets' ids, in `jtb --help`'s order.
#[pyfunction]
fn rule_sets() -> Vec<&'static str> {
    Rules::all().into_iter().map(Rules::name).collect()
}

#[pymodule]
fn _jtb(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<Position>()?;
    m.add_class::<GameEnd>()?;
    m.add_class::<Tablebase>()?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    m.add_function(wrap_pyfunction!(rule_sets, m)?)?;
    m.add_function(wrap_pyfunction!(unpack, m)?)?;
    m.add_function(wrap_pyfunction!(_table_records, m)?)?;
    m.add("PACKED_LEN", PACKED_LEN)?;
    m.add("PositionError", py.get_type::<PositionError>())?;
    m.add("MissingTableError", py.get_type::<MissingTableError>())?;
    m.add("NoDistanceError", py.get_type::<NoDistanceError>())?;
    m.add("TableError", py.get_type::<TableError>())?;
    Ok(())
}
