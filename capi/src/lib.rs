//! C ABI of the probe library; the header is `include/jtb.h`. A `jtb_tablebase` is the edge's
//! [`AnyTablebase`], so positions are read and probed as the CLI and the Python package do.
//!
//! Every exported function catches panics, checks its pointers and returns a status code; the
//! message of the last error is kept per thread.

#![allow(clippy::missing_safety_doc)] // the safety contract is the C header's

use std::{
    cell::RefCell,
    ffi::{c_char, c_int, CStr, CString},
    panic::{catch_unwind, AssertUnwindSafe},
    path::Path,
    ptr,
};

use jtb_edge::{AnyPosition, AnyTablebase, EdgeError, PositionError, Rules, Verdict};
use jtb_probe::{
    flip::{ChanceTables, ChanceValue, DENOMINATOR},
    gambit, Category, ClestoValue, ParseError, Position, ProbeError, RuleSet, Tablebase, Value,
    Wdl, DEFAULT_CACHE_BYTES,
};

/// Status codes (see `jtb.h`).
pub const JTB_OK: c_int = 0;
const ERR_ARGUMENT: c_int = 1;
const ERR_POSITION: c_int = 2;
const ERR_GAME_OVER: c_int = 3;
const ERR_NOT_COVERED: c_int = 4;
const ERR_WRONG_RULES: c_int = 5;
const ERR_TABLE: c_int = 6;
const ERR_DIRECTORY: c_int = 7;
const ERR_INTERNAL: c_int = 8;

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// An error: status code and message.
struct Failure(c_int, String);

fn set_error(msg: &str) {
    let c = CString::new(msg.replace('\0', " ")).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = c);
}

/// Runs `f`, turning errors and panics into status codes.
fn guard(f: impl FnOnce() -> Result<(), Failure>) -> c_int {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => JTB_OK,
        Ok(Err(Failure(code, msg))) => {
            set_error(&msg);
            code
        }
        Err(_) => {
            set_error("internal error (panic) in jtb");
            ERR_INTERNAL
        }
    }
}

fn probe_failure(e: &ProbeError) -> Failure {
    let code = match e {
        ProbeError::NoDirectory(..) => ERR_DIRECTORY,
        ProbeError::NotForRules { .. } => ERR_WRONG_RULES,
        ProbeError::GameOver => ERR_GAME_OVER,
        ProbeError::HiddenTiles
        | ProbeError::HiddenSetUnknown
        | ProbeError::NoFaceDownTiles
        | ProbeError::MissingTable { .. }
        | ProbeError::MissingFile { .. } => ERR_NOT_COVERED,
        ProbeError::WrongRules { .. } => ERR_WRONG_RULES,
        // A file of another rule set: one of the game's (`WrongRules`), or one its header names
        // and the game has not (`UnknownRuleSet`: a Clesto file among Jungle's tables).
        ProbeError::Table(t)
            if matches!(
                t.kind,
                jtb_probe::TableErrorKind::WrongRules { .. }
                    | jtb_probe::TableErrorKind::UnknownRuleSet(_)
            ) =>
        {
            ERR_WRONG_RULES
        }
        // `NotInMemory` is met only inside `in_memory_only`, which no C entry point uses.
        ProbeError::Table(_) | ProbeError::Inconsistent { .. } | ProbeError::NotInMemory => {
            ERR_TABLE
        }
    };
    Failure(code, e.to_string())
}

unsafe fn text<'a>(p: *const c_char, what: &str) -> Result<&'a str, Failure> {
    if p.is_null() {
        return Err(Failure(ERR_ARGUMENT, format!("{what} is a null pointer")));
    }
    // Safety: the caller passes a NUL-terminated string that outlives the call (jtb.h).
    unsafe { CStr::from_ptr(p) }
        .to_str()
        .map_err(|_| Failure(ERR_ARGUMENT, format!("{what} is not UTF-8")))
}

/// What `jtb_open` hands out (`jtb_tablebase` in C): one rule set's tables, opened by the edge
/// as its game's own tablebase type ([`AnyTablebase::open`]): Jungle's or the flip game's,
/// Clesto's or Animal Gambit's (which also have `jtb_gambit_` functions of their own).
pub type Handle = AnyTablebase;

/// `text` read as a position of the rule set of `tb`.
fn position(tb: &Handle, text: &str) -> Result<AnyPosition, Failure> {
    AnyPosition::from_text(text, Some(tb.rules())).map_err(|e| Failure(ERR_POSITION, e.to_string()))
}

/// The Jungle or flip position `pos` with its tables, or why the tables of `tb` do not answer
/// `what`.
fn jungle<'a>(
    tb: &'a Handle,
    pos: AnyPosition,
    what: &'static str,
) -> Result<(&'a Tablebase, Position), Failure> {
    match (tb, pos) {
        (AnyTablebase::Jungle(tb), AnyPosition::Jungle(pos)) => Ok((tb, pos)),
        _ => Err(not_for(tb.rules(), what)),
    }
}

/// `JTB_ERR_WRONG_RULES`: `rules`' tables do not answer `what`.
fn not_for(rules: Rules, what: &'static str) -> Failure {
    probe_failure(&ProbeError::NotForRules {
        rules: rules.name(),
        what,
    })
}

unsafe fn handle<'a, T>(tb: *const T) -> Result<&'a T, Failure> {
    // Safety: a non-null `tb` comes from jtb_open (or jtb_gambit_open, jtb_chance_open for
    // those functions' own handles) and has not been closed (jtb.h).
    unsafe { tb.as_ref() }
        .ok_or_else(|| Failure(ERR_ARGUMENT, "tablebase is a null pointer".into()))
}

/// Why a game whose values are not all distances to mate (Clesto's) answers no `jtb_probe_dtm`.
const NO_DTM: &str = "no distance to mate for every position (Clesto's values are win or loss, \
                      with a distance to mate or by the repetition ban: jtb_probe_clesto)";

/// Why Clesto's and Animal Gambit's tables answer no clock-rule question.
const NO_CLOCK: &str = "no clock rule (Clesto and Animal Gambit have no move-count rule)";

/// Sets the clock of `pos` to `clock`, or keeps the text's (0 without one) when it is negative.
fn with_clock(mut pos: Position, clock: c_int) -> Result<Position, Failure> {
    pos.set_rule_clock(u32::try_from(clock).ok())
        .map_err(|e| Failure(ERR_POSITION, e.to_string()))?;
    Ok(pos)
}

fn category_int(c: Category) -> c_int {
    match c {
        Category::Loss => -2,
        Category::BlessedLoss => -1,
        Category::Draw => 0,
        Category::CursedWin => 1,
        Category::Win => 2,
    }
}

/// Writes `s` and a NUL into `buf` of `len` bytes.
fn copy_out(s: &str, buf: *mut c_char, len: usize) -> Result<(), Failure> {
    if buf.is_null() || len < s.len() + 1 {
        return Err(Failure(
            ERR_ARGUMENT,
            format!("buffer of {len} bytes too small"),
        ));
    }
    // Safety: `buf` holds `len` writable bytes (jtb.h), and `s.len() + 1 <= len`.
    unsafe {
        ptr::copy_nonoverlapping(s.as_ptr().cast::<c_char>(), buf, s.len());
        buf.add(s.len()).write(0);
    }
    Ok(())
}

fn wdl_int(w: Wdl) -> c_int {
    match w {
        Wdl::Loss => -1,
        Wdl::Draw => 0,
        Wdl::Win => 1,
    }
}

fn out<T>(p: *mut T, v: T) -> Result<(), Failure> {
    if p.is_null() {
        return Err(Failure(ERR_ARGUMENT, "output pointer is null".into()));
    }
    // Safety: non-null output pointers point to writable memory of the caller (jtb.h).
    unsafe { p.write(v) };
    Ok(())
}

/// Opens the tables of a rule set under a root directory.
#[no_mangle]
pub unsafe extern "C" fn jtb_open(
    root: *const c_char,
    rules: *const c_char,
    tb_out: *mut *mut Handle,
) -> c_int {
    guard(|| {
        // Safety: see `text`.
        let root = unsafe { text(root, "root") }?;
        let rules = unsafe { text(rules, "rules") }?;
        let rules: Rules = rules
            .parse()
            .map_err(|e: jtb_probe::UnknownRuleSet| Failure(ERR_ARGUMENT, e.to_string()))?;
        let tb = AnyTablebase::open(Path::new(root), rules, DEFAULT_CACHE_BYTES)
            .map_err(|e| probe_failure(&e))?;
        out(tb_out, Box::into_raw(Box::new(tb)))
    })
}

/// Closes a tablebase.
#[no_mangle]
pub unsafe extern "C" fn jtb_close(tb: *mut Handle) {
    if !tb.is_null() {
        // Safety: `tb` came from jtb_open and is closed once (jtb.h).
        drop(unsafe { Box::from_raw(tb) });
    }
}

/// Win, draw or loss for the side to move.
#[no_mangle]
pub unsafe extern "C" fn jtb_probe_wdl(
    tb: *const Handle,
    position: *const c_char,
    wdl: *mut c_int,
) -> c_int {
    guard(|| {
        // Safety: see `tablebase` and `text`.
        let tb = unsafe { handle(tb) }?;
        let pos = self::position(tb, unsafe { text(position, "position") }?)?;
        let w = tb.wdl(&pos).map_err(|e| probe_failure(&e))?;
        out(wdl, wdl_int(w))
    })
}

/// Value and distance to mate.
#[no_mangle]
pub unsafe extern "C" fn jtb_probe_dtm(
    tb: *const Handle,
    position: *const c_char,
    wdl: *mut c_int,
    dtm: *mut c_int,
) -> c_int {
    guard(|| {
        // Safety: see `tablebase` and `text`.
        let tb = unsafe { handle(tb) }?;
        let pos = self::position(tb, unsafe { text(position, "position") }?)?;
        if !tb.dtm_of_every_value() {
            return Err(not_for(tb.rules(), NO_DTM));
        }
        let v = tb
            .value(&pos)
            .map_err(|e| probe_failure(&e))?
            .ok_or_else(|| not_for(tb.rules(), NO_DTM))?;
        out(wdl, wdl_int(v.wdl()))?;
        out(dtm, c_int::from(v.dtm().unwrap_or(0)))
    })
}

/// The best move as text.
#[no_mangle]
pub unsafe extern "C" fn jtb_best_move(
    tb: *const Handle,
    position: *const c_char,
    buf: *mut c_char,
    len: usize,
) -> c_int {
    guard(|| {
        // Safety: see `tablebase` and `text`.
        let tb = unsafe { handle(tb) }?;
        let pos = self::position(tb, unsafe { text(position, "position") }?)?;
        let best = tb.best_move(&pos).map_err(|e| probe_failure(&e))?;
        copy_out(&best.unwrap_or_default(), buf, len)
    })
}

/// A Clesto value: win or loss, the distance to mate of a plain value, the category, and the
/// banned side's exit distance.
#[no_mangle]
pub unsafe extern "C" fn jtb_probe_clesto(
    tb: *const Handle,
    position: *const c_char,
    wdl: *mut c_int,
    dtm: *mut c_int,
    category: *mut c_int,
    exit: *mut c_int,
) -> c_int {
    guard(|| {
        // Safety: see `tablebase` and `text`.
        let tb = unsafe { handle(tb) }?;
        let pos = self::position(tb, unsafe { text(position, "position") }?)?;
        let (AnyTablebase::Clesto(tb), AnyPosition::Clesto(pos)) = (tb, pos) else {
            return Err(not_for(
                tb.rules(),
                "no Clesto values (jtb_probe_clesto is for Clesto's tables)",
            ));
        };
        let v = tb.probe_clesto(&pos).map_err(|e| probe_failure(&e))?;
        let (c, e) = match v {
            ClestoValue::Plain(Value::Win(_)) => (2, None),
            ClestoValue::Plain(_) => (-2, None),
            ClestoValue::BanWin { exit } => (1, exit),
            ClestoValue::BanLoss { exit } => (-1, exit),
        };
        out(wdl, wdl_int(v.wdl()))?;
        out(dtm, v.dtm().map_or(-1, c_int::from))?;
        out(category, c)?;
        out(exit, e.map_or(-1, c_int::from))
    })
}

/// The value under the clock rule at a clock, with the distance to conversion and the category.
#[no_mangle]
pub unsafe extern "C" fn jtb_probe_rule(
    tb: *const Handle,
    position: *const c_char,
    clock: c_int,
    wdl: *mut c_int,
    dtc: *mut c_int,
    category: *mut c_int,
) -> c_int {
    guard(|| {
        // Safety: see `tablebase` and `text`.
        let tb = unsafe { handle(tb) }?;
        let pos = self::position(tb, unsafe { text(position, "position") }?)?;
        let (tb, pos) = jungle(tb, pos, NO_CLOCK)?;
        let rule = tb.probe_rule(&with_clock(pos, clock)?);
        let rule = rule.map_err(|e| probe_failure(&e))?;
        out(wdl, wdl_int(rule.wdl))?;
        out(dtc, rule.dtc.dtm().map_or(-1, c_int::from))?;
        out(category, category_int(rule.category))
    })
}

/// The best move under the clock rule at a clock, as text.
#[no_mangle]
pub unsafe extern "C" fn jtb_rule_best_move(
    tb: *const Handle,
    position: *const c_char,
    clock: c_int,
    buf: *mut c_char,
    len: usize,
) -> c_int {
    guard(|| {
        // Safety: see `tablebase` and `text`.
        let tb = unsafe { handle(tb) }?;
        let pos = self::position(tb, unsafe { text(position, "position") }?)?;
        let (tb, pos) = jungle(tb, pos, NO_CLOCK)?;
        let best = tb.rule_best_move(&with_clock(pos, clock)?);
        let best = best.map_err(|e| probe_failure(&e))?;
        copy_out(
            &best.map(|m| m.mv.to_string()).unwrap_or_default(),
            buf,
            len,
        )
    })
}

/// Whether a position is decided at its clock: the edge's [`Verdict`], as `jtb adjudicate`.
#[no_mangle]
pub unsafe extern "C" fn jtb_adjudicate(
    tb: *const Handle,
    position: *const c_char,
    clock: c_int,
    dead: *mut c_int,
    known: *mut c_int,
    wdl: *mut c_int,
    dtm: *mut c_int,
) -> c_int {
    guard(|| {
        // Safety: see `text`; a null `tb` means no tables, else see `handle` (jtb.h).
        let text_in = unsafe { text(position, "position") }?;
        let tables = unsafe { tb.as_ref() };
        let pos = adjudicated_position(tables, text_in, clock)?;
        let verdict = Verdict::with(tables, pos).map_err(|e| edge_failure(&e))?;
        let value = verdict.value();
        out(dead, c_int::from(verdict.is_dead_draw()))?;
        out(known, c_int::from(value.is_some()))?;
        out(wdl, value.map_or(0, |v| wdl_int(v.wdl())))?;
        out(dtm, value.and_then(Value::dtm).map_or(0, c_int::from))
    })
}

/// The position `text` for `jtb_adjudicate`: read under the rule set of `tables` where it is on
/// that rule set's board, else (and without tables) as its board says, so that a one-animal-each
/// flip position needs no flip tables; at `clock`, or its own (0 without one) when negative.
fn adjudicated_position(
    tables: Option<&Handle>,
    text: &str,
    clock: c_int,
) -> Result<AnyPosition, Failure> {
    let clock = u32::try_from(clock).ok();
    let rules = tables.map(AnyTablebase::rules);
    let read = match AnyPosition::parse(text, rules, clock) {
        Err(PositionError::Parse(ParseError::WrongShape { .. })) => {
            AnyPosition::parse(text, None, clock)
        }
        read => read,
    };
    read.map_err(|e| Failure(ERR_POSITION, e.to_string()))
}

/// The status code and message of an edge error.
fn edge_failure(e: &EdgeError) -> Failure {
    match e {
        EdgeError::Position(p) => Failure(ERR_POSITION, p.to_string()),
        EdgeError::Open(p) | EdgeError::Probe(p) => probe_failure(p),
        EdgeError::NotCovered(why) => Failure(ERR_NOT_COVERED, why.clone()),
    }
}

/// An Animal Gambit category as `enum jtb_gambit_category`: 1 win, 0 repetition, -1 loss.
fn gambit_category_int(c: gambit::Category) -> c_int {
    match c {
        gambit::Category::Win => 1,
        gambit::Category::Repetition => 0,
        gambit::Category::Loss => -1,
    }
}

fn gambit_position(text: &str) -> Result<gambit::Position, Failure> {
    text.parse()
        .map_err(|e: gambit::ParseError| Failure(ERR_POSITION, e.to_string()))
}

/// Opens the Animal Gambit tables under a root directory (files in root/animal-gambit/).
#[no_mangle]
pub unsafe extern "C" fn jtb_gambit_open(
    root: *const c_char,
    tb_out: *mut *mut Tablebase<gambit::AnimalGambit>,
) -> c_int {
    guard(|| {
        // Safety: see `text`.
        let root = unsafe { text(root, "root") }?;
        let tb = Tablebase::open(root, gambit::AnimalGambit).map_err(|e| probe_failure(&e))?;
        out(tb_out, Box::into_raw(Box::new(tb)))
    })
}

/// Closes Animal Gambit tables.
#[no_mangle]
pub unsafe extern "C" fn jtb_gambit_close(tb: *mut Tablebase<gambit::AnimalGambit>) {
    if !tb.is_null() {
        // Safety: `tb` came from jtb_gambit_open and is closed once (jtb.h).
        drop(unsafe { Box::from_raw(tb) });
    }
}

/// An Animal Gambit value: win, draw or loss, the distance to mate in turns, the category.
#[no_mangle]
pub unsafe extern "C" fn jtb_gambit_probe(
    tb: *const Tablebase<gambit::AnimalGambit>,
    position: *const c_char,
    wdl: *mut c_int,
    dtm: *mut c_int,
    category: *mut c_int,
) -> c_int {
    guard(|| {
        // Safety: see `tablebase` and `text`.
        let tb = unsafe { handle(tb) }?;
        let pos = gambit_position(unsafe { text(position, "position") }?)?;
        let v = tb.probe_dtm(&pos).map_err(|e| probe_failure(&e))?;
        out(wdl, wdl_int(v.wdl()))?;
        out(dtm, v.dtm().map_or(-1, c_int::from))?;
        out(category, gambit_category_int(gambit::Category::of(v)))
    })
}

/// The best Animal Gambit turn in its canonical text.
#[no_mangle]
pub unsafe extern "C" fn jtb_gambit_best_turn(
    tb: *const Tablebase<gambit::AnimalGambit>,
    position: *const c_char,
    buf: *mut c_char,
    len: usize,
) -> c_int {
    guard(|| {
        // Safety: see `tablebase` and `text`.
        let tb = unsafe { handle(tb) }?;
        let pos = gambit_position(unsafe { text(position, "position") }?)?;
        let best = tb.best_move(&pos).map_err(|e| probe_failure(&e))?;
        copy_out(
            &best.map(|b| b.mv.to_string()).unwrap_or_default(),
            buf,
            len,
        )
    })
}

/// Opens the flip game's tables under a root directory (files in root/flip4x4/): the chance
/// tables of positions with face-down tiles, and the revealed ones.
#[no_mangle]
pub unsafe extern "C" fn jtb_chance_open(
    root: *const c_char,
    tb_out: *mut *mut ChanceTables,
) -> c_int {
    guard(|| {
        // Safety: see `text`.
        let root = unsafe { text(root, "root") }?;
        let tb = ChanceTables::open(root).map_err(|e| probe_failure(&e))?;
        out(tb_out, Box::into_raw(Box::new(tb)))
    })
}

/// Closes the flip game's chance tables.
#[no_mangle]
pub unsafe extern "C" fn jtb_chance_close(tb: *mut ChanceTables) {
    if !tb.is_null() {
        // Safety: `tb` came from jtb_chance_open and is closed once (jtb.h).
        drop(unsafe { Box::from_raw(tb) });
    }
}

/// The chance tables behind `tb`, and the flip position `text` at `clock` (negative: the
/// text's).
unsafe fn chance_position<'a>(
    tb: *const ChanceTables,
    text: &str,
    clock: c_int,
) -> Result<(&'a ChanceTables, Position), Failure> {
    // Safety: a non-null `tb` comes from jtb_chance_open and has not been closed (jtb.h).
    let tb = unsafe { tb.as_ref() }
        .ok_or_else(|| Failure(ERR_ARGUMENT, "tablebase is a null pointer".into()))?;
    let pos = Position::parse(text, Some(RuleSet::Flip4x4))
        .map_err(|e| Failure(ERR_POSITION, e.to_string()))?;
    Ok((tb, with_clock(pos, clock)?))
}

/// The exact value of a flip position at a clock: score and probabilities over one
/// denominator.
#[no_mangle]
pub unsafe extern "C" fn jtb_chance_probe(
    tb: *const ChanceTables,
    position: *const c_char,
    clock: c_int,
    value: *mut JtbChance,
) -> c_int {
    guard(|| {
        // Safety: see `chance_position` and `text`.
        let (tb, pos) = unsafe { chance_position(tb, text(position, "position")?, clock) }?;
        let v = tb.probe(&pos).map_err(|e| probe_failure(&e))?;
        out(value, JtbChance::of(v))
    })
}

/// The DTE of a flip position at a clock: the distance of a certain result, -1 for none.
#[no_mangle]
pub unsafe extern "C" fn jtb_chance_dte(
    tb: *const ChanceTables,
    position: *const c_char,
    clock: c_int,
    dte: *mut c_int,
) -> c_int {
    guard(|| {
        // Safety: see `chance_position` and `text`.
        let (tb, pos) = unsafe { chance_position(tb, text(position, "position")?, clock) }?;
        let d = tb.dte(&pos).map_err(|e| probe_failure(&e))?;
        out(
            dte,
            d.map_or(-1, |d| c_int::try_from(d).unwrap_or(c_int::MAX)),
        )
    })
}

/// The best move of a flip position at a clock (a flip `?a4` or a step) as text.
#[no_mangle]
pub unsafe extern "C" fn jtb_chance_best_move(
    tb: *const ChanceTables,
    position: *const c_char,
    clock: c_int,
    buf: *mut c_char,
    len: usize,
) -> c_int {
    guard(|| {
        // Safety: see `chance_position` and `text`.
        let (tb, pos) = unsafe { chance_position(tb, text(position, "position")?, clock) }?;
        let best = tb.best_move(&pos).map_err(|e| probe_failure(&e))?;
        copy_out(
            &best.map(|b| b.mv.to_string()).unwrap_or_default(),
            buf,
            len,
        )
    })
}

/// A chance value for C (jtb.h `jtb_chance_value`): the score, the win, draw and loss
/// probabilities as numerators over one denominator, the smallest that holds them all.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct JtbChance {
    score: c_int,
    win: c_int,
    draw: c_int,
    loss: c_int,
    denominator: c_int,
}

impl JtbChance {
    fn of(v: ChanceValue) -> JtbChance {
        let [score, win, draw] = v.parts();
        let loss = DENOMINATOR - win - draw;
        let g = [score, win, draw, loss].into_iter().fold(DENOMINATOR, gcd);
        let c = |n: u32| (n / g) as c_int;
        JtbChance {
            score: c(score),
            win: c(win),
            draw: c(draw),
            loss: c(loss),
            denominator: c(DENOMINATOR),
        }
    }
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The last error message of the calling thread.
#[no_mangle]
pub extern "C" fn jtb_last_error() -> *const c_char {
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}
