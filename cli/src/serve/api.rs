//! The JSON API, modelled on the lichess tablebase API: a position's value with every move
//! (each describing the position after it, from the view of its side to move, best first),
//! the best lines, legal moves, the board of each rule set, the materials present and
//! per-material statistics with distance histograms.
//!
//! Every table read runs on tokio's blocking threads ([`blocking`]): a cold block is a file
//! read, and an answer may read many.

use std::sync::{Arc, PoisonError};

use axum::{
    extract::{rejection::PathRejection, FromRequestParts, Path, State},
    http::{request::Parts, Method, Uri},
    Json,
};
use jtb_probe::{
    format::table_path, histogram, Color, Kind, Layout, Material, MoveKind, Outcome, Position,
    RuleSet, RuleStep, SideHistogram, TableFile, Value,
};
use percent_encoding::percent_decode_str;
use serde::Serialize;
use serde_json::json;

use super::{
    error::{ApiError, Problem},
    source::{play, Library, Memo, Source},
};
use crate::stats::MaterialStats;

/// Longer position text is refused before it is parsed: the longest canonical text of a Jungle
/// position with its clocks is under 100 bytes.
const MAX_POSITION_BYTES: usize = 256;

/// Longer material names are refused before they are parsed (`ELRvTR` has 6 bytes).
const MAX_MATERIAL_BYTES: usize = 24;

/// Runs `answer` on a blocking thread (table reads are file reads), once more if it met a
/// missing table that has appeared since ([`Library::answer`]).
///
/// # Errors
/// `answer`'s error; 500 if it panicked.
async fn blocking<T: Send + 'static>(
    lib: Arc<Library>,
    answer: impl Fn(&Library) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(move || lib.answer(answer))
        .await
        .map_err(|_| ApiError::internal("internal error"))?
}

/// The answer of `GET /api/v1/{rules}`: the fields of `jtb probe --json`, the best move under
/// the clock rule, and the moves.
#[derive(Serialize)]
pub struct ProbeAnswer {
    position: String,
    rules: &'static str,
    wdl: &'static str,
    dtm: Option<u16>,
    best: Option<String>,
    dtc: Option<u16>,
    category: &'static str,
    clock: u32,
    rule_wdl: &'static str,
    /// The best move under the clock rule at `clock` (`null` in a rule draw).
    rule_best: Option<String>,
    moves: Vec<MoveAnswer>,
}

/// A move and the position after it, seen by the side then to move.
#[derive(Serialize)]
pub struct MoveAnswer {
    #[serde(rename = "move")]
    mv: String,
    /// The position after the move; `null` when the move ended the game.
    position: Option<String>,
    /// Whether the move takes a piece (or trades, in the flip game).
    capture: bool,
    /// `quiet`, `den-entry`, `capture` or `trade`.
    kind: &'static str,
    /// How the move ended the game, if it did.
    end: Option<String>,
    wdl: &'static str,
    dtm: Option<u16>,
    dtc: Option<u16>,
    category: &'static str,
    /// The clock after the move (0 after a capture); `null` when the game ended.
    clock: Option<u32>,
    rule_wdl: &'static str,
}

/// A step of a line: the move, what kind it is, and the position after it with both its
/// distances (`null` once the game ended).
#[derive(Serialize)]
struct StepAnswer {
    #[serde(rename = "move")]
    mv: String,
    kind: &'static str,
    end: Option<String>,
    position: Option<String>,
    clock: Option<u32>,
    wdl: Option<&'static str>,
    dtm: Option<u16>,
    rule_wdl: Option<&'static str>,
    dtc: Option<u16>,
}

const fn kind_name(kind: MoveKind) -> &'static str {
    match kind {
        MoveKind::Quiet => "quiet",
        MoveKind::DenEntry => "den-entry",
        MoveKind::Capture => "capture",
        MoveKind::Trade => "trade",
    }
}

/// The rule set named in the path (`{rules}`).
pub struct Rules(RuleSet);

impl<S: Send + Sync> FromRequestParts<S> for Rules {
    type Rejection = ApiError;

    /// # Errors
    /// 400 for a path that is not UTF-8, 404 for a name that is no rule set (whatever it holds:
    /// it is only compared with the names, never used as a path).
    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Rules, ApiError> {
        let Path(name) = Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(path_error)?;
        rule_set(&name).map(Rules)
    }
}

/// A path that axum could not take apart: it is not UTF-8 once percent-decoded (the only way
/// a matched route's parameters fail).
fn path_error(_: PathRejection) -> ApiError {
    ApiError::bad_query("the path is not UTF-8 once percent-decoded")
}

/// The rule set called `name`.
///
/// # Errors
/// 404 when there is none.
fn rule_set(name: &str) -> Result<RuleSet, ApiError> {
    name.parse().map_err(|_| {
        let known: Vec<&str> = RuleSet::ALL.iter().map(|r| r.name()).collect();
        let shown: String = name.chars().take(40).collect();
        ApiError::new(
            Problem::UnknownRules,
            format!(
                "unknown rule set `{}` (known: {})",
                shown.escape_debug(),
                known.join(", ")
            ),
        )
    })
}

/// The query of the position endpoints: `position` and the optional `clock`, as written.
/// Other parameters are ignored, as lichess's API does.
pub struct PositionParams {
    position: Option<String>,
    clock: Option<String>,
}

impl<S: Send + Sync> FromRequestParts<S> for PositionParams {
    type Rejection = ApiError;

    /// # Errors
    /// 400 for a query that is not UTF-8 once percent-decoded, or names a parameter twice.
    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<PositionParams, ApiError> {
        let raw = parts.uri.query().unwrap_or("");
        let mut params = PositionParams {
            position: None,
            clock: None,
        };
        for pair in raw.split('&').filter(|p| !p.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let decode = |s: &str| {
                percent_decode_str(&s.replace('+', " "))
                    .decode_utf8()
                    .map(|s| s.into_owned())
                    .map_err(|_| {
                        ApiError::bad_query("the query string is not UTF-8 once percent-decoded")
                    })
            };
            let (name, value) = (decode(name)?, decode(value)?);
            let slot = match name.as_str() {
                "position" => &mut params.position,
                "clock" => &mut params.clock,
                _ => continue,
            };
            if slot.is_some() {
                return Err(ApiError::bad_query(format!(
                    "query parameter `{name}` given twice (duplicate)"
                )));
            }
            *slot = Some(value);
        }
        Ok(params)
    }
}

/// The position of the query, with its clock (the query's `clock`, else the text's, else 0).
///
/// # Errors
/// 400 for missing or bad position text, or a clock that is no number or above the limit.
fn position(rules: RuleSet, params: &PositionParams) -> Result<Position, ApiError> {
    let text = params
        .position
        .as_deref()
        .ok_or_else(|| ApiError::bad_query("missing query parameter `position`"))?;
    if text.len() > MAX_POSITION_BYTES {
        return Err(ApiError::bad_query(format!(
            "position text of {} bytes: at most {MAX_POSITION_BYTES}",
            text.len()
        )));
    }
    let clock = match params.clock.as_deref() {
        None => None,
        Some(c) => Some(parse_clock(c, rules)?),
    };
    let mut pos = Position::parse(text, Some(rules))?;
    pos.set_rule_clock(clock)?;
    Ok(pos)
}

/// The `clock` parameter: a whole number of half-moves (the limit is checked with the
/// position).
fn parse_clock(text: &str, rules: RuleSet) -> Result<u32, ApiError> {
    let shown: String = text.chars().take(20).collect();
    let limit = rules.clock_limit();
    let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    match text.parse::<u32>() {
        Ok(c) if digits => Ok(c),
        _ if digits => Err(ApiError::new(
            Problem::BadClock,
            format!("clock {shown} is above the limit of {limit} for {rules}"),
        )),
        _ => Err(ApiError::new(
            Problem::BadClock,
            format!(
                "clock `{}` is not a number of half-moves (0 to {limit} for {rules})",
                shown.escape_debug()
            ),
        )),
    }
}

/// `GET /api/v1/{rules}?position=...[&clock=N]`.
///
/// # Errors
/// 400 for bad input, 404 for a missing table, 500 for a damaged one.
pub async fn probe(
    State(lib): State<Arc<Library>>,
    Rules(rules): Rules,
    params: PositionParams,
) -> Result<Json<ProbeAnswer>, ApiError> {
    let pos = position(rules, &params)?;
    blocking(lib, move |lib| probe_answer(lib, &pos))
        .await
        .map(Json)
}

fn probe_answer(lib: &Library, pos: &Position) -> Result<ProbeAnswer, ApiError> {
    let source = lib.source(pos)?;
    let value = source.value(pos)?;
    let rule = source.rule(pos)?;
    let ranked = source.ranked_moves(pos)?;
    // As `jtb probe`: no best move in a draw, where every drawing move is as good.
    let best = match value {
        Value::Draw => None,
        _ => ranked.first().map(|m| m.mv.to_string()),
    };
    let rule_best = source.rule_best(pos)?.map(|m| m.to_string());
    let moves = ranked
        .iter()
        .map(|m| move_answer(&source, pos, m.mv))
        .collect::<Result<_, _>>()?;
    Ok(ProbeAnswer {
        position: pos.to_string(),
        rules: pos.rules().name(),
        wdl: value.wdl().name(),
        dtm: value.dtm(),
        best,
        dtc: rule.dtc.dtm(),
        category: rule.category.name(),
        clock: rule.clock,
        rule_wdl: rule.wdl.name(),
        rule_best,
        moves,
    })
}

fn move_kind(pos: &Position, mv: jtb_probe::Move) -> Result<MoveKind, ApiError> {
    pos.move_kind(mv)
        .ok_or_else(|| ApiError::internal(format!("{mv} is not legal in {pos}")))
}

fn move_answer(
    source: &Source<'_>,
    pos: &Position,
    mv: jtb_probe::Move,
) -> Result<MoveAnswer, ApiError> {
    let kind = move_kind(pos, mv)?;
    let capture = matches!(kind, MoveKind::Capture | MoveKind::Trade);
    Ok(match play(pos, mv)? {
        Outcome::Over { result, reason } => {
            // The game is over: the side that would move next has lost (or drawn) in 0.
            let after = result.flipped();
            let dtm = (after != jtb_probe::Wdl::Draw).then_some(0);
            MoveAnswer {
                mv: mv.to_string(),
                position: None,
                capture,
                kind: kind_name(kind),
                end: Some(reason.to_string()),
                wdl: after.name(),
                dtm,
                dtc: dtm,
                category: after.name(),
                clock: None,
                rule_wdl: after.name(),
            }
        }
        Outcome::Ongoing(next) => {
            let value = source.value(&next)?;
            let rule = source.rule(&next)?;
            MoveAnswer {
                mv: mv.to_string(),
                position: Some(next.to_string()),
                capture,
                kind: kind_name(kind),
                end: None,
                wdl: value.wdl().name(),
                dtm: value.dtm(),
                dtc: rule.dtc.dtm(),
                category: rule.category.name(),
                clock: Some(rule.clock),
                rule_wdl: rule.wdl.name(),
            }
        }
    })
}

/// `GET /api/v1/{rules}/line?position=...[&clock=N]`: the best line, and the line under the
/// clock rule from the position's clock, each step with its DTM and its DTC.
///
/// # Errors
/// As [`probe`].
pub async fn line(
    State(lib): State<Arc<Library>>,
    Rules(rules): Rules,
    params: PositionParams,
) -> Result<Json<serde_json::Value>, ApiError> {
    let pos = position(rules, &params)?;
    blocking(lib, move |lib| {
        let source = lib.source(&pos)?;
        let plain = source.line(&pos)?.into_iter().map(|s| s.mv).collect();
        let rule = source
            .rule_line(&pos)?
            .into_iter()
            .map(|s: RuleStep| s.mv)
            .collect();
        Ok(json!({
            "position": pos.to_string(),
            "rules": pos.rules().name(),
            "clock": pos.clock().unwrap_or(0),
            "line": steps(&source, &pos, plain)?,
            "rule_line": steps(&source, &pos, rule)?,
        }))
    })
    .await
    .map(Json)
}

/// The steps of a line played from `pos` at its clock: each position with the clock it has
/// then (the library's plain line carries none), so that a step can be opened as it stands in
/// the game, and with both its values.
///
/// # Errors
/// As [`Source::value`]; 500 if a move of the line is not legal (it always is).
fn steps(
    source: &Source<'_>,
    pos: &Position,
    moves: Vec<jtb_probe::Move>,
) -> Result<Vec<StepAnswer>, ApiError> {
    let mut current = pos.clone();
    let mut out = Vec::with_capacity(moves.len());
    for mv in moves {
        let kind = kind_name(move_kind(&current, mv)?);
        let step = match play(&current, mv)? {
            Outcome::Over { reason, .. } => StepAnswer {
                mv: mv.to_string(),
                kind,
                end: Some(reason.to_string()),
                position: None,
                clock: None,
                wdl: None,
                dtm: None,
                rule_wdl: None,
                dtc: None,
            },
            Outcome::Ongoing(next) => {
                let value = source.value(&next)?;
                let rule = source.rule(&next)?;
                let step = StepAnswer {
                    mv: mv.to_string(),
                    kind,
                    end: None,
                    position: Some(next.to_string()),
                    clock: Some(rule.clock),
                    wdl: Some(value.wdl().name()),
                    dtm: value.dtm(),
                    rule_wdl: Some(rule.wdl.name()),
                    dtc: rule.dtc.dtm(),
                };
                current = next;
                step
            }
        };
        out.push(step);
    }
    Ok(out)
}

/// `GET /api/v1/{rules}/moves?position=...`: the legal moves, in ASCII order, with the position
/// after each; no tables needed (the explorer plays on where no table answers). With face-down
/// tiles: the moves of the revealed pieces, and the tiles that can be flipped.
///
/// # Errors
/// 400 for bad input, 404 for an unknown rule set.
pub async fn moves(
    Rules(rules): Rules,
    params: PositionParams,
) -> Result<Json<serde_json::Value>, ApiError> {
    let pos = position(rules, &params)?;
    let hidden = pos.hidden() != 0;
    let mut moves = Vec::new();
    for mv in pos.revealed_moves() {
        let kind = if hidden {
            // `move_kind` knows no moves while tiles are face down: ask the board.
            match pos.piece_at(mv.to) {
                Some(_) => MoveKind::Capture,
                None => MoveKind::Quiet,
            }
        } else {
            move_kind(&pos, mv)?
        };
        let (after, end) = if hidden {
            (None, None)
        } else {
            match play(&pos, mv)? {
                Outcome::Over { reason, .. } => (None, Some(reason.to_string())),
                Outcome::Ongoing(next) => (Some(next.to_string()), None),
            }
        };
        let capture = matches!(kind, MoveKind::Capture | MoveKind::Trade);
        moves.push(
            json!({"move": mv.to_string(), "position": after, "capture": capture,
                          "kind": kind_name(kind), "end": end}),
        );
    }
    let flips: Vec<String> = pos
        .board()
        .squares()
        .filter(|&sq| pos.hidden() & jtb_probe::bit(sq) != 0)
        .map(|sq| sq.to_string())
        .collect();
    Ok(Json(json!({
        "position": pos.to_string(),
        "rules": pos.rules().name(),
        "moves": moves,
        "flips": flips,
        "game_over": pos.is_game_over(),
    })))
}

/// The board of a rule set as data: its size, water, traps and dens, and its clock limit, so
/// that the page draws any board from the server's description.
fn board_json(rules: RuleSet) -> serde_json::Value {
    let board = rules.board();
    let names = |set: jtb_probe::SquareSet| -> Vec<String> {
        board
            .squares()
            .filter(|&sq| set & jtb_probe::bit(sq) != 0)
            .map(|sq| sq.to_string())
            .collect()
    };
    let side = |c: Color| json!({"den": board.den(c).map(|s| s.to_string()), "traps": names(board.traps(c))});
    json!({
        "width": board.width, "height": board.height, "water": names(board.water()),
        "red": side(Color::Red), "blue": side(Color::Blue),
        "clock_limit": rules.clock_limit(),
    })
}

/// `GET /api/v1`: the rule sets, their boards and what tables each has.
pub async fn index(State(lib): State<Arc<Library>>) -> Json<serde_json::Value> {
    lib.refresh();
    let sets: Vec<_> = RuleSet::ALL
        .iter()
        .map(|&rules| {
            let board = board_json(rules);
            match lib.tables(rules) {
                Ok(tb) => json!({"rules": rules.name(), "tables": tb.materials().len(),
                             "max_pieces": tb.max_pieces(), "error": null, "board": board}),
                Err(e) => json!({"rules": rules.name(), "tables": 0, "max_pieces": 0,
                             "error": e.message, "board": board}),
            }
        })
        .collect();
    Json(json!({ "rule_sets": sets }))
}

/// The statistics in a material's file headers, read once per scan of its rule set.
///
/// # Errors
/// As [`Library::table_error`].
fn headers(lib: &Library, rules: RuleSet, m: Material) -> Result<Arc<MaterialStats>, ApiError> {
    memo(&lib.headers, rules, m, || {
        MaterialStats::read(lib.root(), rules, m).map_err(|e| lib.table_error(e, rules, m))
    })
}

/// Positions per distance of a material's DTM and DTC files, read once per scan.
type Histograms = [[SideHistogram; 2]; 2];

fn histograms(lib: &Library, rules: RuleSet, m: Material) -> Result<Arc<Histograms>, ApiError> {
    memo(&lib.histograms, rules, m, || {
        let layout = Layout::new(rules, m);
        let count = |kind: Kind| {
            let path = table_path(lib.root(), rules, m, kind);
            TableFile::open_expecting(&path, rules, m, kind)
                .and_then(|file| histogram(&file, &layout))
                .map_err(|e| lib.table_error(e, rules, m))
        };
        Ok([count(Kind::Dtm)?, count(Kind::Dtc)?])
    })
}

fn memo<T>(
    map: &Memo<T>,
    rules: RuleSet,
    m: Material,
    compute: impl FnOnce() -> Result<T, ApiError>,
) -> Result<Arc<T>, ApiError> {
    let key = (rules, m);
    if let Some(found) = map.lock().unwrap_or_else(PoisonError::into_inner).get(&key) {
        return Ok(Arc::clone(found));
    }
    // Computed without the lock: two requests may both compute it, and either copy serves.
    let value = Arc::new(compute()?);
    map.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(key, Arc::clone(&value));
    Ok(value)
}

/// `GET /api/v1/{rules}/materials`: the materials present, fewest pieces first, and for the
/// material index each one's counts and longest wins (Red to move, then Blue).
///
/// # Errors
/// 404 for an unknown rule set or one without tables; 500 for a damaged header.
pub async fn materials(
    State(lib): State<Arc<Library>>,
    Rules(rules): Rules,
) -> Result<Json<serde_json::Value>, ApiError> {
    blocking(lib, move |lib| {
        lib.refresh();
        let tb = lib.tables(rules)?;
        let mut names = Vec::new();
        let mut tables = Vec::new();
        for m in tb.materials() {
            names.push(m.to_string());
            let found = headers(lib, rules, m)?;
            let side = |i: usize| &found.sides[i].0;
            let pair = |f: &dyn Fn(&jtb_probe::SideStats) -> serde_json::Value| {
                json!([f(side(0)), f(side(1))])
            };
            let position = |s: &jtb_probe::SideStats| {
                json!((!s.longest_win_position.is_empty()).then(|| s.longest_win_position.clone()))
            };
            tables.push(json!({
                "material": m.to_string(), "pieces": m.total(),
                "wins": pair(&|s| json!(s.wins)), "draws": pair(&|s| json!(s.draws)),
                "losses": pair(&|s| json!(s.losses)),
                "longest_win": pair(&|s| json!(s.longest_win)),
                "longest_win_position": pair(&position),
            }));
        }
        Ok(json!({"rules": rules.name(), "materials": names, "tables": tables}))
    })
    .await
    .map(Json)
}

/// `GET /api/v1/{rules}/stats/{material}`: the material's `jtb stats --json` objects (Red to
/// move, then Blue), its distance histograms, and the tables it depends on (where its
/// captures lead), in the orientation asked: `LRvET` answers for Red with L+R, although the
/// table is stored as `ETvLR` (`table`, and `flipped` says the colours were swapped).
///
/// # Errors
/// 400 for a malformed material, 404 for an unknown rule set or a table that is not there, 500
/// for a damaged one.
pub async fn stats(
    State(lib): State<Arc<Library>>,
    path: Result<Path<(String, String)>, PathRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let Path((rules, material)) = path.map_err(path_error)?;
    let rules = rule_set(&rules)?;
    if material.len() > MAX_MATERIAL_BYTES {
        return Err(ApiError::new(
            Problem::BadMaterial,
            format!(
                "material name of {} bytes: at most {MAX_MATERIAL_BYTES}",
                material.len()
            ),
        ));
    }
    let asked: Material = material
        .parse()
        .map_err(|e: jtb_probe::BadMaterial| ApiError::new(Problem::BadMaterial, e.to_string()))?;
    if asked.total() > Layout::MAX_PIECES {
        return Err(ApiError::new(
            Problem::MissingTable,
            format!(
                "no table {asked}: tables hold at most {} pieces",
                Layout::MAX_PIECES
            ),
        ));
    }
    blocking(lib, move |lib| stats_answer(lib, rules, asked))
        .await
        .map(Json)
}

fn stats_answer(
    lib: &Library,
    rules: RuleSet,
    asked: Material,
) -> Result<serde_json::Value, ApiError> {
    let table = asked.canonical();
    lib.tables(rules)?;
    // The material is parsed and printed again, so the file name is built from animal letters
    // only: no request can name a file outside the table directory.
    let found = headers(lib, rules, table)?;
    let counted = histograms(lib, rules, table)?;
    let flipped = asked != table;
    // Side `i` of the answer is side `order[i]` of the table.
    let order = if flipped { [1, 0] } else { [0, 1] };
    let objects = found.json();
    let stats: Vec<serde_json::Value> = order
        .iter()
        .zip(["red", "blue"])
        .map(|(&i, to_move)| {
            let mut o = objects[i].clone();
            o["material"] = json!(asked.to_string());
            o["to_move"] = json!(to_move);
            if flipped {
                for key in ["longest_win_position", "longest_dtc_position"] {
                    if let Some(text) = o[key].as_str() {
                        o[key] = json!(colour_flip(text, rules)?);
                    }
                }
            }
            Ok(o)
        })
        .collect::<Result<_, ApiError>>()?;
    let sides = |h: &[SideHistogram; 2]| -> Vec<serde_json::Value> {
        order
            .iter()
            .zip(["red", "blue"])
            .map(|(&i, to_move)| {
                json!({"to_move": to_move, "wins": h[i].wins, "losses": h[i].losses,
                       "draws": h[i].draws})
            })
            .collect()
    };
    // Where captures lead, each seen with the colours of the material asked.
    let within = |m: Material| {
        [Color::Red, Color::Blue]
            .iter()
            .all(|&c| m.set(c) & !asked.set(c) == 0)
    };
    let mut depends: Vec<String> = jtb_gen::plan::successors(rules, table)
        .into_iter()
        .map(|m| if within(m) { m } else { m.flipped() })
        .map(|m| m.to_string())
        .collect();
    depends.sort_unstable();
    Ok(json!({
        "rules": rules.name(),
        "material": asked.to_string(),
        "table": table.to_string(),
        "flipped": flipped,
        "stats": stats,
        "histogram": {"dtm": sides(&counted[0]), "dtc": sides(&counted[1])},
        "depends_on": depends,
    }))
}

/// `text` seen from the other side (a position of a table header).
fn colour_flip(text: &str, rules: RuleSet) -> Result<String, ApiError> {
    Position::parse(text, Some(rules))
        .map(|p| p.color_flipped().to_string())
        .map_err(|e| {
            ApiError::new(
                Problem::DamagedTable,
                format!("a table header's {text}: {e}"),
            )
        })
}

/// Any path the server does not know.
pub async fn not_found(uri: Uri) -> ApiError {
    let path = uri.path();
    let shown: String = path.chars().take(100).collect();
    ApiError::not_found(format!("no such page: {}", shown.escape_debug()))
}

/// A known path asked with a method other than GET or HEAD.
pub async fn method_not_allowed(method: Method) -> ApiError {
    ApiError::new(
        Problem::MethodNotAllowed,
        format!("method {method} not allowed: the API answers GET"),
    )
}
