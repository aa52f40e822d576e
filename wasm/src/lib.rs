//! The probe of jungle-tablebase built for WebAssembly, under the npm package
//! `jungle-tablebase` (`wasm/index.js`): the edge's tables ([`jtb_edge::Tables`]) over bytes
//! that JavaScript fetches ([`Fetched`]), answering as `jtb serve`'s HTTP API does (the same
//! printer, the same errors).
//!
//! WebAssembly cannot wait for a fetch, so a question is asked again until it is answered: an
//! [`Engine::run`] whose probe read something not yet fetched answers what it needs instead;
//! the JavaScript fetches it, supplies it and runs the question again. A probe keeps every
//! table file it opened and every block it decoded, so each run goes further, and a question
//! whose blocks are all in memory is answered by its first run.

mod fetched;

use std::{path::PathBuf, sync::Arc};

use jtb_edge::{
    api::{self, ApiError},
    AnyPosition, Played, Rules, Tables,
};
use jtb_probe::{CacheStats, RuleSet, Wdl};
use wasm_bindgen::prelude::wasm_bindgen;

pub use fetched::{Fetched, Need, HEAD_BYTES};

/// The questions [`Engine::run`] answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Question {
    /// `GET /api/v1/{rules}?position=...`'s answer.
    Probe,
    /// `GET /api/v1/{rules}/line?position=...`'s answer.
    Line,
    /// Win (1), draw (0) or loss (-1) for the side to move.
    Wdl,
    /// The signed distance to mate, or `null`.
    Dtm,
    /// The best move, or `null`.
    BestMove,
    /// `jtb adjudicate --json`'s object.
    Adjudicate,
}

impl Question {
    fn named(name: &str) -> Option<Question> {
        Some(match name {
            "probe" => Question::Probe,
            "line" => Question::Line,
            "wdl" => Question::Wdl,
            "dtm" => Question::Dtm,
            "best-move" => Question::BestMove,
            "adjudicate" => Question::Adjudicate,
            _ => return None,
        })
    }
}

/// The tables of every rule set, read from what JavaScript fetches.
#[wasm_bindgen]
pub struct Engine {
    tables: Tables,
    fetched: Fetched,
    cache_bytes: u64,
}

#[wasm_bindgen]
impl Engine {
    /// An engine whose decoded blocks take at most `cache_bytes` for each rule set (as `jtb
    /// serve --cache-mib` bounds them; the flip game's chance tables are three more such
    /// caches), and which holds at most `raw_bytes` of fetched bytes not yet decoded (more
    /// only while one answer needs them).
    #[wasm_bindgen(constructor)]
    #[must_use]
    pub fn new(cache_bytes: f64, raw_bytes: f64) -> Engine {
        let cache_bytes = bytes(cache_bytes);
        let fetched = Fetched::new(bytes(raw_bytes));
        Engine {
            tables: Tables::with_storage(PathBuf::new(), cache_bytes, Arc::new(fetched.clone())),
            fetched,
            cache_bytes,
        }
    }

    /// Asks `question` (`probe`, `line`, `wdl`, `dtm`, `best-move`, `adjudicate`) of the
    /// position `text` under `rules`, answered as JSON text: `{"ok": answer}`, `{"error":
    /// message, "code": code, "status": status}` in the HTTP API's words, or `{"needs":
    /// [...]}`: what to fetch and supply before asking again (a folder's listing `{"list":
    /// dir}`, a file's size and first bytes `{"head": path, "length": n}`, a range `{"path":
    /// path, "offset": n, "length": n}`).
    #[must_use]
    pub fn run(&self, question: &str, rules: &str, text: &str) -> String {
        let answer = self.answer(question, rules, text);
        let needs = self.fetched.take_needs();
        if !needs.is_empty() {
            let needs: Vec<_> = needs.iter().map(Need::json).collect();
            return serde_json::json!({ "needs": needs }).to_string();
        }
        self.fetched.answered();
        match answer {
            Ok(json) => format!("{{\"ok\":{json}}}"),
            Err(e) => error_json(&e),
        }
    }

    /// Win (1), draw (0) or loss (-1) of the position `text` under `rules` where it is
    /// answered with no fetch and no error (its blocks in memory): the fast path of a cached
    /// probe, without the JSON of [`Engine::run`]; 2 where `run` must answer.
    #[must_use]
    pub fn wdl_now(&self, rules: &str, text: &str) -> i32 {
        const ASK_RUN: i32 = 2;
        let Ok(rules) = rules.parse::<Rules>() else {
            return ASK_RUN;
        };
        // A rule set not listed is not opened here: its opening would fail and be kept.
        if !self.fetched.is_listed(rules.name()) {
            return ASK_RUN;
        }
        let Ok(pos) = api::position(rules, text, None) else {
            return ASK_RUN;
        };
        match jtb_probe::in_memory_only(|| self.tables.wdl(&pos)) {
            Some(Ok(Wdl::Win)) => 1,
            Some(Ok(Wdl::Draw)) => 0,
            Some(Ok(Wdl::Loss)) => -1,
            _ => ASK_RUN,
        }
    }

    /// The API's answer of `/api/v1/{rules}/moves` for the position `text` (no tables needed),
    /// as [`Engine::run`] answers.
    #[must_use]
    pub fn moves(&self, rules: &str, text: &str) -> String {
        let moves = api::rule_set(rules)
            .and_then(|rules| api::position(rules, text, None))
            .map(|pos| pos.moves_json());
        done(moves)
    }

    /// The API's answer of `/api/v1/{rules}/steps` for the position `text` and the steps
    /// played so far (Animal Gambit's turn), as [`Engine::run`] answers.
    #[must_use]
    pub fn steps(&self, rules: &str, text: &str, steps: &str) -> String {
        let answer = api::rule_set(rules).and_then(|rules| {
            if !rules.has_turns_of_steps() {
                return Err(api::not_turns(rules));
            }
            api::turn_steps(&api::position(rules, text, None)?, steps)
        });
        done(answer)
    }

    /// The file names of the folder `dir` (a rule set's), one a line; `undefined` where the
    /// folder is not there.
    pub fn supply_listing(&self, dir: &str, names: Option<String>) {
        let names = names.map(|n| n.lines().map(str::to_owned).collect());
        self.fetched.supply_listing(dir, names);
    }

    /// The size of the file at `path` (`rules/name`); `undefined` where it is not there.
    pub fn supply_size(&self, path: &str, size: Option<f64>) {
        self.fetched.supply_size(path, size.map(bytes));
    }

    /// Bytes of the file at `path`, from `offset`.
    pub fn supply_bytes(&self, path: &str, offset: f64, data: Vec<u8>) {
        self.fetched.supply_bytes(path, bytes(offset), data);
    }

    /// What the engine holds, as JSON: each cache of decoded blocks (`caches`: its rule set,
    /// or `chance`, `revealed`, `revealed-dte` for the flip game's chance tables; its `bytes`,
    /// `blocks` and `decodes` so far), their bound (`cache_bound`, each), their `cache_bytes`
    /// in all, and the fetched bytes not yet decoded (`fetched_bytes`).
    #[must_use]
    pub fn stats(&self) -> String {
        let mut caches = Vec::new();
        let mut add = |name: &str, s: CacheStats| {
            caches.push(serde_json::json!({
                "name": name, "bytes": s.bytes, "blocks": s.blocks, "decodes": s.decodes,
            }));
            s.bytes
        };
        let mut total = 0;
        for rules in Rules::all() {
            // A rule set not listed yet is not opened: its opening would fail and be kept.
            if self.fetched.is_listed(rules.name()) {
                if let Ok(stats) = self.tables.with_any(rules, |tb| tb.cache_stats()) {
                    total += add(rules.name(), stats);
                }
            }
        }
        if self.fetched.is_listed(RuleSet::Flip4x4.name()) {
            if let Ok(chance) = self.tables.chance() {
                total += add("chance", chance.chance().cache_stats());
                total += add("revealed", chance.revealed().cache_stats());
                total += add("revealed-dte", chance.revealed_dte().cache_stats());
            }
        }
        serde_json::json!({
            "caches": caches, "cache_bound": self.cache_bytes, "cache_bytes": total,
            "fetched_bytes": self.fetched.held_bytes(),
        })
        .to_string()
    }
}

impl Engine {
    /// The answer of `question` as JSON text, or the API's error.
    fn answer(&self, question: &str, rules: &str, text: &str) -> Result<String, ApiError> {
        let rules = api::rule_set(rules)?;
        let Some(question) = Question::named(question) else {
            return Err(ApiError::bad_query(format!(
                "unknown question `{}`",
                question.escape_debug()
            )));
        };
        let pos = api::position(rules, text, None)?;
        if !self.fetched.is_listed(rules.name()) {
            self.fetched.need_listing(rules.name());
            return Err(ApiError::internal("the tables are not listed yet"));
        }
        let tables = &self.tables;
        let edge = |e| tables.edge_error(e, rules);
        let json = |value: serde_json::Value| value.to_string();
        match question {
            Question::Probe | Question::Line => {
                let note = |missing: &_| tables.missing_note(rules, missing);
                let answer = tables
                    .api_text(&pos, question == Question::Line, &note)
                    .map_err(|e| tables.api_error(e, rules));
                // Only a run that lacked bytes looks further ahead: a cached answer is probed once.
                if self.fetched.has_needs() {
                    self.prefetch(&pos);
                }
                answer
            }
            Question::Wdl => {
                let wdl = tables.wdl(&pos).map_err(edge)?;
                Ok(json(
                    match wdl {
                        Wdl::Win => 1,
                        Wdl::Draw => 0,
                        Wdl::Loss => -1,
                    }
                    .into(),
                ))
            }
            Question::Dtm => Ok(json(tables.dtm(&pos).map_err(edge)?.into())),
            Question::BestMove => {
                let answer = tables.probe(pos, false).map_err(edge)?;
                Ok(json(answer.best().into()))
            }
            Question::Adjudicate => {
                let verdict = tables.adjudicate(pos).map_err(edge)?;
                Ok(json(verdict.json(text)))
            }
        }
    }

    /// Probes the positions after each move of `pos` for their values, the answers dropped,
    /// after a run of its answer that lacked bytes: a move's table and block not fetched yet
    /// are needed by this run, all together, rather than one a run while the answer reads them
    /// in turn.
    fn prefetch(&self, pos: &AnyPosition) {
        let _ = self.tables.dtm(pos);
        for mv in pos.moves() {
            if let Ok(Played::Next(next)) = pos.play(&mv) {
                let _ = self.tables.dtm(&next);
            }
        }
    }
}

/// An answer that needs no tables, as [`Engine::run`] writes it.
fn done(answer: Result<serde_json::Value, ApiError>) -> String {
    match answer {
        Ok(json) => serde_json::json!({ "ok": json }).to_string(),
        Err(e) => error_json(&e),
    }
}

/// The API's error as [`Engine::run`] writes it.
fn error_json(e: &ApiError) -> String {
    serde_json::json!({ "error": e.message, "code": e.problem.code(), "status": e.status() })
        .to_string()
}

/// A byte count from JavaScript's number (a negative or fractional one taken as its whole
/// part, at least 0).
fn bytes(n: f64) -> u64 {
    if n.is_finite() && n > 0.0 {
        n as u64
    } else {
        0
    }
}
