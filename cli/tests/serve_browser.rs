//! The explorer page in a real browser: headless Chromium (Debian's `chromium` package, or the
//! program named by `JTB_CHROMIUM`), driven through the DevTools protocol. It loads a position,
//! checks that the board shows its pieces and the move list is the API's, plays moves by
//! clicking squares and list entries, refuses an illegal move, edits the board, follows the
//! controls and the statistics links, draws the flip board, and fits a phone-width screen.
//!
//! Run by `.ci/run`: `cargo test -p jtb --test serve_browser -- --ignored`.

mod serve_support;

use std::{
    io::{BufRead, BufReader},
    net::TcpStream,
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use jtb_probe::{Piece, Position, Square};
use serde_json::{json, Value as Json};
use serve_support::{gen, get, probe_url, wdl_files_alone, Server, StaticHost};
use tungstenite::{Message, WebSocket};

/// Headless Chromium with one page, spoken to through the DevTools protocol.
struct Browser {
    child: Child,
    ws: WebSocket<TcpStream>,
    session: String,
    next_id: u64,
    /// Errors the page logged (exceptions, `console.error`, the renderer's complaints).
    errors: Vec<String>,
    /// The URL of every request the page sent.
    requests: Vec<String>,
    _profile: tempfile::TempDir,
}

impl Browser {
    /// Starts Chromium on `about:blank` with a fresh profile and attaches to a new page.
    fn start() -> Browser {
        let profile = tempfile::tempdir().unwrap();
        let program = std::env::var("JTB_CHROMIUM").unwrap_or_else(|_| "chromium".to_owned());
        let mut child = Command::new(&program)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--remote-debugging-port=0",
                "--window-size=1200,1000",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {program} ({e}): install Debian's chromium"));
        let ws_url = devtools_url(&mut child);
        let address = ws_url
            .trim_start_matches("ws://")
            .split('/')
            .next()
            .unwrap()
            .to_owned();
        let stream = TcpStream::connect(address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let (ws, _) = tungstenite::client(ws_url.as_str(), stream).unwrap();
        let mut browser = Browser {
            child,
            ws,
            session: String::new(),
            next_id: 0,
            errors: Vec::new(),
            requests: Vec::new(),
            _profile: profile,
        };
        let target = browser.call("Target.createTarget", json!({"url": "about:blank"}), false);
        let attached = browser.call(
            "Target.attachToTarget",
            json!({"targetId": target["targetId"], "flatten": true}),
            false,
        );
        browser.session = attached["sessionId"].as_str().unwrap().to_owned();
        browser.call("Runtime.enable", json!({}), true);
        browser.call("Log.enable", json!({}), true);
        browser.call("Network.enable", json!({}), true);
        browser.viewport(1200, 1000);
        browser
    }

    /// Sends one command (to the page's session, or to the browser) and waits for its result.
    fn call(&mut self, method: &str, params: Json, page: bool) -> Json {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if page {
            msg["sessionId"] = json!(self.session);
        }
        self.ws.send(Message::text(msg.to_string())).unwrap();
        loop {
            let Message::Text(text) = self.ws.read().unwrap() else {
                continue;
            };
            let reply: Json = serde_json::from_str(text.as_str()).unwrap();
            if reply["id"] != id {
                self.note_event(&reply);
                continue; // an event, or the answer to nobody
            }
            assert!(reply["error"].is_null(), "{method}: {}", reply["error"]);
            return reply["result"].clone();
        }
    }

    /// Keeps the page's errors: uncaught exceptions, `console.error`, and log entries of level
    /// error, except failed requests (the API answers 404 for a missing table and 400 for bad
    /// text by design, and the page shows those answers; Chromium logs each such response).
    fn note_event(&mut self, event: &Json) {
        let params = &event["params"];
        match event["method"].as_str() {
            Some("Runtime.exceptionThrown") => {
                self.errors
                    .push(format!("exception: {}", params["exceptionDetails"]));
            }
            Some("Network.requestWillBeSent") => {
                self.requests
                    .push(params["request"]["url"].as_str().unwrap_or("").to_owned());
            }
            Some("Runtime.consoleAPICalled") if params["type"] == "error" => {
                self.errors
                    .push(format!("console.error: {}", params["args"]));
            }
            Some("Log.entryAdded")
                if params["entry"]["level"] == "error"
                    && params["entry"]["source"] != "network" =>
            {
                self.errors
                    .push(format!("log: {}", params["entry"]["text"]));
            }
            _ => {}
        }
    }

    /// Fails if the page has logged an error since the last check.
    fn no_console_errors(&mut self, during: &str) {
        self.eval("1"); // collect the events sent meanwhile
        let errors = std::mem::take(&mut self.errors);
        assert!(errors.is_empty(), "{during}: console errors: {errors:#?}");
    }

    fn viewport(&mut self, width: u32, height: u32) {
        let metrics =
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false});
        self.call("Emulation.setDeviceMetricsOverride", metrics, true);
    }

    /// The whole page as PNG bytes, `width` CSS pixels wide at `scale` device pixels each
    /// (`mobile`: a phone's screen): the screen is made as tall as the page, so that no
    /// scroll bar takes room.
    fn screenshot(&mut self, width: u32, scale: u32, mobile: bool) -> Vec<u8> {
        let set = |b: &mut Browser, height: u64| {
            let metrics = json!({"width": width, "height": height, "deviceScaleFactor": scale,
                                 "mobile": mobile});
            b.call("Emulation.setDeviceMetricsOverride", metrics, true);
        };
        set(self, 844);
        let height = self
            .eval("document.documentElement.scrollHeight")
            .as_u64()
            .unwrap();
        set(self, height);
        let shot = self.call("Page.captureScreenshot", json!({"format": "png"}), true);
        base64_decode(shot["data"].as_str().unwrap())
    }

    fn open(&mut self, url: &str) {
        self.call("Page.navigate", json!({ "url": url }), true);
    }

    /// The value of a JavaScript expression in the page.
    fn eval(&mut self, expression: &str) -> Json {
        let params = json!({"expression": expression, "returnByValue": true});
        let result = self.call("Runtime.evaluate", params, true);
        assert!(
            result["exceptionDetails"].is_null(),
            "{expression}: {}",
            result["exceptionDetails"]
        );
        result["result"]["value"].clone()
    }

    /// Waits until `expression` is true in the page.
    fn wait_for(&mut self, expression: &str) {
        let start = Instant::now();
        // While a page loads, `document.body` may not be there yet: that is a `false`.
        let test = format!(
            "(() => {{ try {{ return Boolean({expression}); }} catch (e) {{ return false; }} }})()"
        );
        while self.eval(&test) != json!(true) {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "timed out waiting for {expression}; status: {}; page: {}",
                self.eval("document.querySelector('#status').textContent"),
                self.eval("[location.href, document.body.dataset.state, document.body.dataset.position, document.querySelector('#value').textContent]")
            );
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    /// Waits until the page shows `position` with its answer rendered (`ready`, or `error`
    /// where no table answers).
    fn wait_for_position(&mut self, position: &str, state: &str) {
        self.wait_for(&format!(
            "document.body.dataset.position === {} && document.body.dataset.state === '{state}'",
            json!(position)
        ));
    }

    /// Clicks with the mouse at the centre of the element `selector` finds.
    fn click(&mut self, selector: &str) {
        let at = self.eval(&format!(
            "(() => {{ const e = document.querySelector({}); e.scrollIntoView({{block: 'center'}}); \
             const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()",
            json!(selector)
        ));
        let (x, y) = (at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
        for kind in ["mouseMoved", "mousePressed", "mouseReleased"] {
            let event = json!({"type": kind, "x": x, "y": y, "button": "left", "buttons": 1, "clickCount": 1});
            self.call("Input.dispatchMouseEvent", event, true);
        }
    }

    fn click_square(&mut self, square: &str) {
        self.click(&format!("#board rect.sq[data-square='{square}']"));
    }

    /// The pieces on the drawn board, `square` + letter, sorted.
    fn pieces(&mut self) -> Vec<String> {
        let found = self.eval(
            "[...document.querySelectorAll('#board [data-piece]')]\
             .map(e => e.dataset.square + e.dataset.piece).sort()",
        );
        serde_json::from_value(found).unwrap()
    }

    /// The moves of the move list, in the order shown.
    fn listed_moves(&mut self) -> Vec<String> {
        let found = self
            .eval("[...document.querySelectorAll('#moves [data-move]')].map(b => b.dataset.move)");
        serde_json::from_value(found).unwrap()
    }

    fn text(&mut self, selector: &str) -> String {
        self.eval(&format!(
            "document.querySelector({}).textContent",
            json!(selector)
        ))
        .as_str()
        .unwrap()
        .to_owned()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // Ask politely (Chromium then ends its helper processes too), then make sure.
        let _ = self.ws.send(Message::text(
            json!({"id": 0, "method": "Browser.close"}).to_string(),
        ));
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(5) {
            if self.child.try_wait().ok().flatten().is_some() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads Chromium's standard error up to its `DevTools listening on ws://...` line, then keeps
/// draining it in the background (a full pipe would stall the browser).
fn devtools_url(child: &mut Child) -> String {
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let mut seen = Vec::new();
    for line in lines.by_ref() {
        let line = line.unwrap_or_default();
        if let Some(url) = line.split("DevTools listening on ").nth(1) {
            let url = url.trim().to_owned();
            std::thread::spawn(move || lines.for_each(drop));
            return url;
        }
        seen.push(line);
    }
    panic!("Chromium ended before it listened:\n{}", seen.join("\n"));
}

/// Decodes standard base64 (the DevTools protocol's screenshots).
fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=').map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &d)| n | u32::from(d) << (18 - 6 * i));
        let bytes = n.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    out
}

/// The pieces of a position as the board should show them.
fn pieces_of(text: &str) -> Vec<String> {
    let pos: Position = text.parse().unwrap();
    let mut out: Vec<String> = pos
        .pieces()
        .map(|(p, sq)| format!("{sq}{}", p.letter()))
        .collect();
    out.sort();
    out
}

fn api_moves(answer: &Json) -> Vec<String> {
    answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_owned())
        .collect()
}

/// Loads a position, plays by clicking, refuses an illegal move, goes back.
fn play_by_clicking(b: &mut Browser, base: &str, server: &Server) -> String {
    let start = "7/7/7/7/7/7/2L4/1e5/R6 r";
    b.open(&format!(
        "{base}/?rules=mistboard&position={}",
        serve_support::enc(start)
    ));
    let answer = get(server.addr, &probe_url("mistboard", "", start)).json();
    let canonical = answer["position"].as_str().unwrap().to_owned();
    b.wait_for_position(&canonical, "ready");
    assert_eq!(b.pieces(), pieces_of(start));
    assert_eq!(b.listed_moves(), api_moves(&answer));
    // Each move sits in the group of what it is worth to the mover.
    let groups = b.eval(
        "[...document.querySelectorAll('#moves ul')].map(u => [u.dataset.group, u.querySelectorAll('[data-move]').length])",
    );
    let count = |wdl: &str| {
        answer["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["wdl"] == wdl)
            .count()
    };
    let mut expected = Vec::new();
    for (group, after) in [("win", "loss"), ("draw", "draw"), ("loss", "win")] {
        if count(after) > 0 {
            expected.push(json!([group, count(after)]));
        }
    }
    assert_eq!(groups, json!(expected));
    assert_eq!(
        b.eval("document.querySelector('#board [data-arrow=best]').dataset.move"),
        answer["best"]
    );
    assert!(
        b.text("#value").contains("Red to move: win in 35"),
        "{}",
        b.text("#value")
    );
    assert!(b.text("#value").contains("DTC 7"));

    // An illegal move is refused: the rat on a1 cannot reach a3.
    b.click_square("a1");
    b.wait_for("document.querySelectorAll('#board .target').length === 2");
    b.click_square("a3");
    b.wait_for("document.querySelector('#status').textContent.includes('illegal move a1a3')");
    assert_eq!(b.eval("document.body.dataset.position"), json!(canonical));

    // The best move, a1b1, by clicking the piece and then its square.
    let best = &answer["moves"][0];
    assert_eq!(best["move"], "a1b1");
    let after = best["position"].as_str().unwrap().to_owned();
    b.click_square("a1");
    b.click_square("b1");
    b.wait_for_position(&after, "ready");
    assert_eq!(b.pieces(), pieces_of(&after));
    let url = b.eval("[new URLSearchParams(location.search).get('position'), new URLSearchParams(location.search).get('last')]");
    assert_eq!(url, json!([after, "a1b1"]));
    assert_eq!(
        b.eval("document.querySelector('#text').value"),
        json!(after)
    );
    let answer = get(server.addr, &probe_url("mistboard", "", &after)).json();
    assert_eq!(b.listed_moves(), api_moves(&answer));
    assert!(b.text("#value").contains("Blue to move: loss in 34"));

    // A move of the list, then back.
    let reply = answer["moves"][0].clone();
    b.click(&format!(
        "#moves [data-move='{}']",
        reply["move"].as_str().unwrap()
    ));
    let next = reply["position"].as_str().unwrap();
    b.wait_for_position(next, "ready");
    assert_eq!(b.pieces(), pieces_of(next));
    b.click("#back");
    b.wait_for_position(&after, "ready");
    after
}

/// Edit mode, side to move, mirror, colour swap and clock.
fn controls(b: &mut Browser, server: &Server, at: &str) {
    b.click("#edit");
    b.click("#palette-pieces button[data-piece='T']");
    // The piece being placed is named, not only marked by a colour.
    assert_eq!(
        b.eval("document.querySelector('#palette-pieces button[aria-pressed=true]').dataset.piece"),
        json!("T")
    );
    assert!(
        b.text("#palette-choice").contains("Red tiger"),
        "{}",
        b.text("#palette-choice")
    );
    let depth_before = b.eval("history.state.depth");
    b.click_square("g9");
    let mut pos: Position = at.parse().unwrap();
    let g9 = Square::parse("g9", pos.board()).unwrap();
    pos.put(Piece::from_letter('T').unwrap(), g9).unwrap();
    let edited = pos.to_string();
    // Four pieces: no table here, said as such, but the legal moves are still listed.
    b.wait_for_position(&edited, "error");
    let value = b.text("#value");
    assert!(value.contains("no table here"), "{value}");
    assert!(
        value.contains("missing table LTRvE: mistboard/LTRvE.dtm is not there (make it with `jtb gen --rules mistboard --material LTRvE`)"),
        "{value}"
    );
    assert!(b.eval("document.querySelector('#show-line').hidden") == json!(true));
    assert_eq!(b.pieces(), pieces_of(&edited));
    let legal: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
    assert_eq!(b.listed_moves(), legal);
    b.click("#palette-pieces button[data-piece='x']");
    b.click_square("g9");
    b.wait_for_position(at, "ready");
    // Two edits, one history entry: one Back leaves the editing session.
    assert_eq!(
        b.eval("history.state.depth").as_u64().unwrap(),
        depth_before.as_u64().unwrap() + 1
    );
    b.click("#done");
    b.no_console_errors("edit mode");

    let pos: Position = at.parse().unwrap();
    let mut turned = pos.clone();
    turned.set_turn(pos.turn().other());
    // Buttons say what they do.
    assert_eq!(b.text("#turn"), "Give the move to Red");
    for (button, expected) in [
        ("#turn", turned),
        ("#mirror", pos.mirrored()),
        ("#swap", pos.color_flipped()),
    ] {
        b.click(button);
        let text = expected.to_string();
        b.wait_for_position(&text, "ready");
        let answer = get(server.addr, &probe_url("mistboard", "", &text)).json();
        assert_eq!(b.listed_moves(), api_moves(&answer), "{button}");
        b.click("#back");
        b.wait_for_position(at, "ready");
    }
    // The clock: at 95 the win in 34 (DTC 8 for Red) is out of reach: a rule draw, and the
    // headline says so first.
    b.eval("(() => { const c = document.querySelector('#clock'); c.value = '95'; c.dispatchEvent(new Event('change')); })()");
    let mut clocked = pos.clone();
    clocked.set_clock(Some(95)).unwrap();
    b.wait_for_position(&clocked.to_string(), "ready");
    let answer = get(
        server.addr,
        &probe_url("mistboard", "", &clocked.to_string()),
    )
    .json();
    assert_eq!(answer["rule_wdl"], "draw");
    assert!(
        b.text("#value").contains("at clock 95 of 100: draw"),
        "{}",
        b.text("#value")
    );
    // A clock above the limit is refused at the field, in view; nothing else changes.
    b.eval("(() => { const c = document.querySelector('#clock'); c.value = '150'; c.dispatchEvent(new Event('change')); })()");
    b.wait_for("document.querySelector('#clock-error').textContent.includes('0 to 100')");
    assert_eq!(
        b.eval("document.querySelector('#clock-error').parentElement.className"),
        json!("clock")
    );
    assert_eq!(
        b.eval("document.body.dataset.position"),
        json!(clocked.to_string())
    );
    assert_eq!(b.text("#status"), "");
    b.no_console_errors("controls");
}

/// The clock in the headline: at clock 94 the README's win in 35 (DTC 7) is a draw, said
/// first with the reason, the moves grouped by their value at the clock, no "best" arrow.
fn clock_headline(b: &mut Browser, base: &str, server: &Server) {
    let text = "7/7/7/7/7/7/2L4/1e5/R6 r 94";
    b.open(&format!(
        "{base}/?rules=mistboard&position={}",
        serve_support::enc(text)
    ));
    b.wait_for_position(text, "ready");
    assert_eq!(
        b.text("#value [data-field=wdl]"),
        "Red to move: draw at clock 94"
    );
    assert_eq!(
        b.text("#value [data-field=detail]"),
        "The capture needs 7 plies and 6 are left: a win in 35 without the clock."
    );
    let answer = get(server.addr, &probe_url("mistboard", "", text)).json();
    let groups = b.eval("[...document.querySelectorAll('#moves h3')].map(h => h.textContent)");
    let draws = answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["rule_wdl"] == "draw")
        .count();
    assert!(
        groups
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g == &json!(format!("Drawing moves at clock 94 ({draws})"))),
        "{groups}"
    );
    assert!(groups.to_string().contains("at clock 94"), "{groups}");
    assert_eq!(
        b.eval("document.querySelectorAll('#board [data-arrow=best]').length"),
        json!(0)
    );
    assert_eq!(
        b.eval("document.querySelector('#board [data-arrow=plain]').dataset.move"),
        answer["best"]
    );
    // At clock 90 the win is still in reach: the arrow is the rule's best move (the capture
    // soonest), the plain best move dashed.
    let text = "7/7/7/7/7/7/2L4/1e5/R6 r 90";
    b.open(&format!(
        "{base}/?rules=mistboard&position={}",
        serve_support::enc(text)
    ));
    b.wait_for_position(text, "ready");
    let answer = get(server.addr, &probe_url("mistboard", "", text)).json();
    assert_ne!(answer["rule_best"], answer["best"]);
    assert_eq!(
        b.eval("document.querySelector('#board [data-arrow=best]').dataset.move"),
        answer["rule_best"]
    );
    assert_eq!(
        b.eval("document.querySelector('#board [data-arrow=plain]').dataset.move"),
        answer["best"]
    );
    b.no_console_errors("the clock in the headline");
}

/// A flip position with face-down tiles (RULES.md 8): the tiles drawn face down, the hidden set
/// beside the board, the score with its win/draw/loss bar, the flips and the steps each sorted
/// by worth, a flip opened to its outcomes and one played by a click, the clock field.
fn chance_view(b: &mut Browser, base: &str, server: &Server) {
    let text = "?3/4/1?2/3L r 5 ?:Tw";
    b.open(&format!(
        "{base}/?rules=flip4x4&position={}",
        serve_support::enc(text)
    ));
    b.wait_for_position(text, "ready");
    let answer = get(server.addr, &probe_url("flip4x4", "", text)).json();
    assert_eq!(
        b.eval("document.querySelectorAll('#board [data-piece=\"?\"]').length"),
        json!(2)
    );
    // A certain win reads in words, with its distance (RULES.md 8, DTE).
    assert_eq!(answer["score"], "1");
    assert_eq!(
        b.text("#value [data-field=wdl]"),
        format!(
            "Red wins in {} plies whatever the flips show (clock 5)",
            answer["dte"].as_u64().unwrap()
        )
    );
    // Each move's odds beside its score: a certain one in words with its DTE worth.
    let odds = b
        .eval("[...document.querySelectorAll('#moves [data-field=odds]')].map(e => e.textContent)");
    let expected: Vec<String> = answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| match m["dte"].as_u64() {
            Some(d) if m["score"] == "1" => format!("wins in {d} plies whatever the flips show"),
            Some(d) => format!("loses in {d} plies whatever the flips show"),
            None => {
                let pct = |f: &str| {
                    let v: f64 = match f.split_once('/') {
                        Some((n, d)) => n.parse::<f64>().unwrap() / d.parse::<f64>().unwrap(),
                        None => f.parse().unwrap(),
                    };
                    format!("{:.1}%", 100.0 * v)
                };
                let at = |k: &str| pct(m[k].as_str().unwrap());
                format!(
                    "win {} · draw {} · loss {}",
                    at("win"),
                    at("draw"),
                    at("loss")
                )
            }
        })
        .collect();
    let mut shown: Vec<String> = serde_json::from_value(odds).unwrap();
    let mut expected = expected;
    shown.sort();
    expected.sort();
    assert_eq!(shown, expected);
    // The menu counts the chance tables beside the revealed ones.
    let option = b.eval("document.querySelector('#rules option[value=flip4x4]').textContent");
    assert!(
        option.as_str().unwrap().contains("chance tables"),
        "{option}"
    );
    assert!(b
        .text("#value [data-field=hidden]")
        .contains("face down: Tw"));
    let detail = b.text("#value [data-field=detail]");
    assert!(
        detail.contains(&format!("Win {} (", answer["win"].as_str().unwrap())),
        "{detail}"
    );
    let bar = b.eval("[...document.querySelectorAll('#value [data-field=wdl-bar] span')].map(s => s.dataset.part)");
    assert_eq!(bar, json!(["win", "draw", "loss"]));
    // The flips, then the steps, each as the API ranks them (best first).
    let moves = answer["moves"].as_array().unwrap();
    let ranked = |flips: bool| -> Vec<Json> {
        moves
            .iter()
            .filter(|m| m["move"].as_str().unwrap().starts_with('?') == flips)
            .map(|m| m["move"].clone())
            .collect()
    };
    let listed = |group: &str| -> String {
        format!("[...document.querySelectorAll('#moves [data-group={group}] [data-move]')].map(e => e.dataset.move)")
    };
    assert_eq!(b.eval(&listed("flips")), json!(ranked(true)));
    assert_eq!(b.eval(&listed("steps")), json!(ranked(false)));
    assert_eq!(
        b.eval("document.querySelector('#moves .best').closest('[data-move]').dataset.move"),
        answer["best"]
    );
    // A flip opens to its outcomes; clicking one plays it.
    b.eval("document.querySelector('#moves details.flip[data-move=\"?a4\"] summary').click()");
    let flip = moves.iter().find(|m| m["move"] == "?a4").unwrap();
    let outcome = &flip["outcomes"][0];
    assert_eq!(
        b.eval(
            "document.querySelectorAll('#moves details.flip[data-move=\"?a4\"] a.outcome').length"
        ),
        json!(flip["outcomes"].as_array().unwrap().len())
    );
    b.click(&format!(
        "#moves details.flip[data-move=\"?a4\"] a.outcome[data-animal={}]",
        outcome["animal"].as_str().unwrap()
    ));
    b.wait_for_position(outcome["position"].as_str().unwrap(), "ready");
    // The clock field keeps the hidden set.
    b.open(&format!(
        "{base}/?rules=flip4x4&position={}",
        serve_support::enc(text)
    ));
    b.wait_for_position(text, "ready");
    b.eval("(() => { const c = document.querySelector('#clock'); c.value = '39'; c.dispatchEvent(new Event('change')); })()");
    b.wait_for_position("?3/4/1?2/3L r 39 ?:Tw", "ready");
    assert!(b.text("#value [data-field=wdl]").ends_with("clock 39)"));
    // The best line stops at the first flip that is a best move: its steps, then the flip's
    // outcomes as links to step into.
    let at = "?3/4/4/2wL r 0 ?:t";
    b.open(&format!(
        "{base}/?rules=flip4x4&position={}",
        serve_support::enc(at)
    ));
    b.wait_for_position(at, "ready");
    let line = get(server.addr, &probe_url("flip4x4", "/line", at)).json();
    let steps = line["line"].as_array().unwrap().len();
    let outcomes = line["flip"]["outcomes"].as_array().unwrap().clone();
    assert!(steps > 0 && !outcomes.is_empty(), "{line}");
    b.click("#show-line");
    b.wait_for("document.querySelector('#line-flip') !== null");
    assert_eq!(
        b.eval("document.querySelectorAll('#line-out ol.steps li').length"),
        json!(steps)
    );
    assert!(b
        .text("#line-flip")
        .contains(line["flip"]["move"].as_str().unwrap()));
    b.click("#line-out button#line-next");
    assert!(
        b.text("#line-caption").contains("plays d1c1"),
        "{}",
        b.text("#line-caption")
    );
    let first = outcomes[0]["position"].as_str().unwrap().to_owned();
    b.click("#line-flip a.outcome");
    b.wait_for_position(&first, "ready");
    b.no_console_errors("face-down tiles");
}

/// The statistics panel and its links, in the orientation of the position.
fn statistics(b: &mut Browser, base: &str, server: &Server) {
    let stats = get(server.addr, "/api/v1/mistboard/stats/LRvE").json();
    b.wait_for("document.querySelectorAll('#stats-out tbody tr').length === 7");
    let wins = b.eval("document.querySelector('#stats-out tr[data-row=wins] td').textContent");
    let red_wins = stats["stats"][0]["wins"].as_u64().unwrap();
    assert_eq!(
        wins.as_str().unwrap().replace(',', ""),
        red_wins.to_string()
    );
    // The links to the tables it depends on are separate names, in the same orientation.
    assert!(
        b.text("#stats-out .deps").contains("LvE, RvE"),
        "{}",
        b.text("#stats-out .deps")
    );
    b.click("#stats-out .deps a[href*='material=LvE']");
    let lve = get(server.addr, "/api/v1/mistboard/stats/LvE").json();
    let longest = lve["stats"][0]["longest_win_position"].as_str().unwrap();
    let answer = get(server.addr, &probe_url("mistboard", "", longest)).json();
    b.wait_for_position(answer["position"].as_str().unwrap(), "ready");
    assert_eq!(
        b.eval("new URLSearchParams(location.search).get('material')"),
        json!("LvE")
    );
    b.wait_for("document.querySelector('#stats-out h2').textContent.startsWith('LvE')");
    // The material box follows the position.
    assert_eq!(
        b.eval("document.querySelector('#material').value"),
        json!("LvE")
    );
    // A material typed in the form opens the same way, Red with the rat.
    b.eval("document.querySelector('#material').value = 'RvE'");
    b.click("#material-form button");
    let rve = get(server.addr, "/api/v1/mistboard/stats/RvE").json();
    let sides = rve["stats"].as_array().unwrap();
    let longest = sides[0]["longest_win_position"]
        .as_str()
        .or(sides[1]["longest_win_position"].as_str())
        .unwrap();
    let answer = get(server.addr, &probe_url("mistboard", "", longest)).json();
    b.wait_for_position(answer["position"].as_str().unwrap(), "ready");
    b.wait_for("document.querySelector('#stats-out h2').textContent.startsWith('RvE')");
    assert!(
        b.pieces().iter().any(|p| p.ends_with('R')),
        "{:?}",
        b.pieces()
    );

    // Defect 1: Blue has the lion and the rat. The panel says EvLR, its Red row is Red's (the
    // elephant's), and /?material=EvLR opens a position where Red has the elephant.
    let flipped = "r6/1E5/2l4/7/7/7/7/7/7 b";
    b.open(&format!(
        "{base}/?rules=mistboard&position={}",
        serve_support::enc(flipped)
    ));
    let answer = get(server.addr, &probe_url("mistboard", "", flipped)).json();
    b.wait_for_position(answer["position"].as_str().unwrap(), "ready");
    b.wait_for("document.querySelector('#stats-out h2')?.textContent.startsWith('EvLR')");
    let asked = get(server.addr, "/api/v1/mistboard/stats/EvLR").json();
    let heads =
        b.eval("[...document.querySelectorAll('#stats-out thead th')].map(t => t.textContent)");
    assert_eq!(heads, json!(["", "Red (E) to move", "Blue (LR) to move"]));
    let longest =
        b.eval("document.querySelector('#stats-out tr[data-row=\"longest win\"] td').textContent");
    assert_eq!(
        longest,
        json!(format!("{} plies", asked["stats"][0]["longest_win"]))
    );
    b.open(&format!("{base}/?rules=mistboard&material=EvLR"));
    b.wait_for("document.body.dataset.state === 'ready' && document.body.dataset.position");
    let shown: Position = b
        .eval("document.body.dataset.position")
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(jtb_probe::Material::of(&shown).to_string(), "EvLR");
    // The histograms: one chart per side to move, its bars the API's counts.
    b.wait_for("document.querySelectorAll('#stats-out svg.histogram').length === 2");
    let counted = b.eval(
        "[...document.querySelector('#stats-out svg.histogram').querySelectorAll('rect.bar-win')].reduce((n, r) => n + Number(r.dataset.count), 0)",
    );
    assert_eq!(counted, asked["stats"][0]["wins"]);
    b.click("#stats-out button[data-metric=dtc]");
    b.wait_for("document.querySelector('#stats-out svg.histogram').dataset.metric === 'dtc'");
    b.no_console_errors("statistics");
}

/// Lines to step through: buttons, arrow keys and the slider move the board ply by ply, each
/// step with its DTM and DTC; every step is a link.
fn lines(b: &mut Browser, base: &str, server: &Server) {
    let at = "7/7/7/7/7/7/2L4/1e5/R6 r 60";
    b.open(&format!(
        "{base}/?rules=mistboard&position={}",
        serve_support::enc(at)
    ));
    b.wait_for_position(at, "ready");
    let line = get(server.addr, &probe_url("mistboard", "/line", at)).json();
    let steps = line["line"].as_array().unwrap().clone();
    b.click("#show-line");
    b.wait_for(&format!(
        "document.querySelectorAll('#line-out ol.steps li').length === {}",
        steps.len()
    ));
    let board_is = |b: &mut Browser, ply: usize| {
        let step = &steps[ply - 1];
        if let Some(text) = step["position"].as_str() {
            assert_eq!(b.pieces(), pieces_of(text), "ply {ply}");
        } else {
            // The game's last move: the board after it, the mover's piece on its square.
            let mv = step["move"].as_str().unwrap();
            let before = match ply {
                1 => pieces_of(at),
                _ => pieces_of(steps[ply - 2]["position"].as_str().unwrap()),
            };
            let shown = b.pieces();
            let taken = usize::from(step["kind"] == "capture");
            assert_eq!(shown.len() + taken, before.len(), "{shown:?}");
            assert!(
                shown.iter().any(|p| p.starts_with(&mv[2..])),
                "{shown:?} {mv}"
            );
        }
        let caption = b.text("#line-caption");
        assert!(
            caption.starts_with(&format!("Ply {ply} of {}", steps.len())),
            "{caption}"
        );
        if step["position"].is_string() {
            let dtm = match step["dtm"].as_u64() {
                Some(d) => format!("DTM {d}"),
                None => "DTM \u{2013}".to_owned(),
            };
            let dtc = match step["dtc"].as_u64() {
                Some(d) => format!("DTC {d}"),
                None => "DTC \u{2013}".to_owned(),
            };
            assert!(
                caption.contains(&dtm) && caption.contains(&dtc),
                "{caption}"
            );
        }
    };
    b.click("#line-next");
    b.wait_for("document.querySelector('#line-caption').textContent.startsWith('Ply 1 ')");
    board_is(b, 1);
    // The arrow keys (the page has the focus, not a field).
    b.eval("document.activeElement.blur()");
    b.call(
        "Input.dispatchKeyEvent",
        json!({"type": "keyDown", "key": "ArrowRight", "code": "ArrowRight", "windowsVirtualKeyCode": 39}),
        true,
    );
    b.wait_for("document.querySelector('#line-caption').textContent.startsWith('Ply 2 ')");
    board_is(b, 2);
    // The slider to the end: the game's last move, with the final board.
    let n = steps.len();
    b.eval(&format!("(() => {{ const s = document.querySelector('#line-slider'); s.value = '{n}'; s.dispatchEvent(new Event('input')); }})()"));
    b.wait_for(&format!(
        "document.querySelector('#line-caption').textContent.startsWith('Ply {n} ')"
    ));
    board_is(b, n);
    assert!(
        b.text("#line-caption").contains("the game is over"),
        "{}",
        b.text("#line-caption")
    );
    // Captures and the game's end are marked in the list; each step is a link.
    let captures = steps.iter().filter(|s| s["kind"] == "capture").count();
    assert_eq!(
        b.eval("document.querySelectorAll('#line-out ol.steps .mark[title=capture]').length"),
        json!(captures)
    );
    let linked = b.eval(
        "new URLSearchParams(document.querySelector('#line-out ol.steps li:nth-child(3) a').getAttribute('href').split('?')[1]).get('position')",
    );
    assert_eq!(linked, steps[2]["position"]);
    b.click("#line-first");
    b.wait_for("document.querySelector('#line-caption').textContent.startsWith('Start')");
    assert_eq!(b.pieces(), pieces_of(at));
    // The line under the clock rule is there too where it differs.
    if line["rule_line"] != line["line"] {
        b.click("#line-out button[data-line=rule_line]");
        b.wait_for("document.querySelector('#line-out button[data-line=rule_line]').getAttribute('aria-pressed') === 'true'");
    }
    b.no_console_errors("lines");
}

/// Defects 3, 4, 5, 9, 10: bad text refused in place, one message per kind of failure, moves
/// and flips with face-down tiles, the end of the game shown, a bad `last` ignored quietly.
fn failures(b: &mut Browser, base: &str) {
    let at = "7/7/7/7/7/7/2L4/1e5/R6 r 0";
    b.open(&format!(
        "{base}/?rules=mistboard&position={}",
        serve_support::enc(at)
    ));
    b.wait_for_position(at, "ready");
    let before = b.pieces();
    let url = b.eval("location.href");
    b.eval("document.querySelector('#text').value = 'hello'");
    b.click("#text-form button");
    b.wait_for("document.querySelector('#text-error').textContent.includes('bad position text')");
    assert_eq!(b.pieces(), before);
    assert_eq!(b.eval("location.href"), url);

    // Each failure has its own words, and only what can work is offered.
    for (text, rules, says) in [
        ("hello", "mistboard", "Not a position"),
        ("7/7/7/7/7/1L5/7/1e5/R6 r", "mistboard", "water"),
        (
            "7/7/7/7/7/7/2L4/1e5/R6 r 150",
            "mistboard",
            "above the limit",
        ),
        ("7/7/7/7/7/7/2L4/1e5/R6 r", "chess", "unknown rule set"),
        (
            "7/7/7/7/7/7/7/7/R6 r",
            "mistboard",
            "Red has won (Blue has no piece left)",
        ),
        ("?3/4/4/c2L r", "flip4x4", "face-down tiles, no values"),
    ] {
        b.open(&format!(
            "{base}/?rules={rules}&position={}",
            serve_support::enc(text)
        ));
        b.wait_for_position(text, "error");
        let value = b.text("#value");
        assert!(value.contains(says), "{text}: {value}");
        assert!(!value.contains("not in the tables"), "{text}: {value}");
        assert_eq!(
            b.eval("document.querySelector('#show-line').hidden"),
            json!(true),
            "{text}"
        );
        if says == "Not a position" || says == "water" {
            // Not drawn as a board.
            assert_eq!(b.pieces(), Vec::<String>::new(), "{text}");
        }
    }
    // Face-down tiles: the lion's moves and the flip are listed, without values.
    assert_eq!(b.listed_moves(), ["d1c1", "d1d2"]);
    assert_eq!(
        b.eval("[...document.querySelectorAll('#moves [data-flip]')].map(e => e.dataset.flip)"),
        json!(["a4"])
    );
    // Nine ranks under the flip game: refused in place, the 4x4 board kept.
    let before = b.pieces();
    b.eval("document.querySelector('#text').value = '7/7/7/7/7/7/2L4/1e5/R6 r'");
    b.click("#text-form button");
    b.wait_for("document.querySelector('#text-error').textContent.includes('ranks')");
    assert_eq!(b.pieces(), before);
    assert_eq!(
        b.eval("document.querySelectorAll('#board rect.sq').length"),
        json!(16)
    );

    // A den entry: the final board and the result, not a grey line.
    let den = "7/3L3/7/7/7/7/7/7/R5e r 0";
    b.open(&format!(
        "{base}/?rules=mistboard&position={}",
        serve_support::enc(den)
    ));
    b.wait_for_position(den, "ready");
    let badge = b.text("#moves [data-move=d8d9]");
    assert!(badge.contains("wins at once: den entry"), "{badge}");
    assert!(!badge.contains("DTM 0"), "{badge}");
    b.click("#moves [data-move=d8d9]");
    b.wait_for("document.body.dataset.end === 'd8d9'");
    assert!(b.pieces().contains(&"d9L".to_owned()), "{:?}", b.pieces());
    assert_eq!(
        b.text("#value [data-field=wdl]"),
        "Red has won: den entry (d8d9)"
    );
    assert_eq!(
        b.eval("new URLSearchParams(location.search).get('end')"),
        json!("d8d9")
    );
    b.click("#back");
    b.wait_for_position(den, "ready");
    b.no_console_errors("failures");

    // A `last` that names no move is ignored without a console error.
    b.open(&format!(
        "{base}/?rules=mistboard&position={}&last=zz99",
        serve_support::enc(at)
    ));
    b.wait_for_position(at, "ready");
    assert_eq!(
        b.eval("document.querySelectorAll('#board .hl-last').length"),
        json!(0)
    );
    b.no_console_errors("last=zz99");
}

/// Links, the board flip, the keyboard, piece faces, the title, Back after a reload, and
/// switching rule sets and back.
fn player_tools(b: &mut Browser, base: &str, server: &Server) {
    let at = "7/7/7/7/7/7/2L4/1e5/R6 r 0";
    b.open(&format!(
        "{base}/?rules=mistboard&position={}",
        serve_support::enc(at)
    ));
    b.wait_for_position(at, "ready");
    let answer = get(server.addr, &probe_url("mistboard", "", at)).json();
    // Every move is a real link to the position after it.
    let first = &answer["moves"][0];
    let href = b.eval(&format!(
        "document.querySelector('#moves a[data-move={}]').getAttribute('href')",
        first["move"].as_str().unwrap()
    ));
    let params = b.eval(&format!(
        "(() => {{ const q = new URLSearchParams({}.split('?')[1]); return [q.get('position'), q.get('last')]; }})()",
        href
    ));
    assert_eq!(params, json!([first["position"], first["move"]]));
    // The title follows the position.
    assert!(b.eval("document.title").as_str().unwrap().contains(at));
    // The board seen from Blue: a1 drawn at the top right.
    let corner = "(() => { const r = document.querySelector(\"#board rect.sq[data-square='a1']\").getBoundingClientRect(); const g = document.querySelector(\"#board rect.sq[data-square='g9']\").getBoundingClientRect(); return r.y < g.y && r.x > g.x; })()";
    assert_eq!(b.eval(corner), json!(false));
    b.click("#flip-board");
    b.wait_for(corner);
    assert_eq!(
        b.eval("new URLSearchParams(location.search).get('flip')"),
        json!("1")
    );
    b.click("#flip-board");
    b.wait_for(&format!("!({corner})"));
    // The keyboard: focus the board, move the cursor to a1, select, move right, play a1b1.
    b.eval("document.querySelector('#board').focus()");
    let key = |b: &mut Browser, k: &str, code: u32| {
        for kind in ["keyDown", "keyUp"] {
            b.call(
                "Input.dispatchKeyEvent",
                json!({"type": kind, "key": k, "code": k, "windowsVirtualKeyCode": code}),
                true,
            );
        }
    };
    key(b, "Enter", 13); // the cursor starts on a1
    b.wait_for("document.querySelectorAll('#board .target').length === 2");
    key(b, "ArrowRight", 39);
    key(b, "Enter", 13);
    let after = answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == "a1b1")
        .unwrap()["position"]
        .as_str()
        .unwrap()
        .to_owned();
    b.wait_for_position(&after, "ready");
    // Back after a reload.
    b.call("Page.reload", json!({}), true);
    b.wait_for_position(&after, "ready");
    assert_eq!(
        b.eval("document.querySelector('#back').disabled"),
        json!(false)
    );
    b.click("#back");
    b.wait_for_position(at, "ready");
    // Piece faces: characters, remembered over a reload; animal drawings.
    b.eval("(() => { const s = document.querySelector('#faces'); s.value = 'characters'; s.dispatchEvent(new Event('change')); })()");
    b.wait_for("document.querySelector(\"#board [data-piece='L'] .letter\").textContent === '獅'");
    b.call("Page.reload", json!({}), true);
    b.wait_for_position(at, "ready");
    b.wait_for("document.querySelector(\"#board [data-piece='e'] .letter\")?.textContent === '象'");
    b.eval("(() => { const s = document.querySelector('#faces'); s.value = 'animals'; s.dispatchEvent(new Event('change')); })()");
    b.wait_for("document.querySelectorAll('#board .piece .drawing').length === 3");
    b.eval("(() => { const s = document.querySelector('#faces'); s.value = 'letters'; s.dispatchEvent(new Event('change')); })()");
    // Switching rule sets and back keeps the position.
    b.eval("(() => { const s = document.querySelector('#rules'); s.value = 'flip4x4'; s.dispatchEvent(new Event('change')); })()");
    b.wait_for("document.body.dataset.position.split('/').length === 4 && document.body.dataset.state === 'ready'");
    b.eval("(() => { const s = document.querySelector('#rules'); s.value = 'mistboard'; s.dispatchEvent(new Event('change')); })()");
    b.wait_for_position(at, "ready");
    b.no_console_errors("player tools");
}

/// The material index: every table, grouped by piece count, with bars, links and a search.
fn material_index(b: &mut Browser, base: &str, server: &Server) {
    b.open(&format!("{base}/?rules=mistboard&index"));
    b.wait_for("document.body.dataset.view === 'index' && document.body.dataset.state === 'ready'");
    let materials = get(server.addr, "/api/v1/mistboard/materials").json();
    let rows = b.eval("[...document.querySelectorAll('#index-out tr[data-material]')].map(r => r.dataset.material)");
    assert_eq!(rows, materials["materials"]);
    let groups = b.eval("[...document.querySelectorAll('#index-out h3')].map(h => h.textContent)");
    assert_eq!(groups, json!(["2 pieces (2 tables)", "3 pieces (1 table)"]));
    assert_eq!(
        b.eval("[document.title, document.querySelector('#index-search').placeholder]"),
        json!([
            "All tables of mistboard \u{2013} Jungle tablebase",
            "LR, vE, ELvT"
        ])
    );
    // The bar's win share is the table's.
    let lrve = materials["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["material"] == "LRvE")
        .unwrap();
    let (w, d, l) = (
        lrve["wins"][0].as_f64().unwrap(),
        lrve["draws"][0].as_f64().unwrap(),
        lrve["losses"][0].as_f64().unwrap(),
    );
    let shown = b.eval("Number(document.querySelector('#index-out tr[data-material=LRvE] td:nth-child(2) rect[data-share=win]').getAttribute('width'))");
    assert!(
        (shown.as_f64().unwrap() - 100.0 * w / (w + d + l)).abs() < 1e-6,
        "{shown}"
    );
    let link = b.eval(
        "document.querySelector('#index-out tr[data-material=LRvE] td:nth-child(4) a').title",
    );
    let longest = if lrve["longest_win"][0].as_u64() >= lrve["longest_win"][1].as_u64() {
        0
    } else {
        1
    };
    assert_eq!(link, lrve["longest_win_position"][longest]);
    // The search.
    b.eval("(() => { const s = document.querySelector('#index-search'); s.value = 'LR'; s.dispatchEvent(new Event('input')); })()");
    b.wait_for("document.querySelectorAll('#index-out tr[data-material]').length === 1");
    b.click("#index-out tr[data-material=LRvE] a[data-material]");
    b.wait_for(
        "document.body.dataset.view === 'position' && document.body.dataset.state === 'ready'",
    );
    b.wait_for("document.querySelector('#stats-out h2')?.textContent.startsWith('LRvE')");
    b.no_console_errors("material index");
}

/// The pieces of a Clesto position text (it may carry a hungry set), `square` + letter.
fn clesto_pieces(text: &str) -> Vec<String> {
    let pos = Position::parse(text, Some(jtb_probe::RuleSet::Clesto)).unwrap();
    let mut out: Vec<String> = pos
        .pieces()
        .map(|(p, sq)| format!("{sq}{}", p.letter()))
        .collect();
    out.sort();
    out
}

/// Clesto: hungry animals ringed and named, starvations on the moves, no clock field; a ban
/// win explained in words, the moves grouped by plain and ban values with their exits, a ban
/// loss one move on, and the best line stopping where only the ban decides.
fn clesto(b: &mut Browser, base: &str, server: &Server) {
    let open = |b: &mut Browser, text: &str| {
        b.open(&format!(
            "{base}/?rules=clesto&position={}",
            serve_support::enc(text)
        ));
        b.wait_for_position(text, "ready");
    };
    // The red cat and elephant both hungry (the text's set, not the board's).
    let hungry = "7/7/7/7/7/7/7/r6/C5E r h:a1,g1";
    open(b, hungry);
    assert_eq!(b.pieces(), clesto_pieces(hungry));
    assert_eq!(
        b.eval("[document.title.endsWith('\u{2013} Clesto tablebase'), document.querySelector('#faces').disabled]"),
        json!([true, false])
    );
    assert_eq!(
        b.eval(
            "[...document.querySelectorAll('#board g.piece.hungry')].map(g => g.dataset.square)"
        ),
        json!(["a1", "g1"])
    );
    assert_eq!(
        b.eval("document.querySelectorAll('#board g.piece.hungry .hunger-ring').length"),
        json!(2)
    );
    assert!(b
        .eval("document.querySelector('#board g.piece.hungry title').textContent")
        .as_str()
        .unwrap()
        .contains("hungry: it must capture this move or starve"));
    assert_eq!(
        b.eval("document.querySelector('#hunger-legend').hidden"),
        json!(false)
    );
    assert_eq!(
        b.eval("document.querySelector('#clock').closest('.clock').hidden"),
        json!(true)
    );
    assert_eq!(b.text("#value [data-field=wdl]"), "Red to move: win in 1");
    assert_eq!(b.text("#value [data-field=hungry]"), "hungry: Ca1, Eg1");
    assert!(
        b.eval("Boolean(document.querySelector('#value [data-field=hungry-set]'))") == json!(true)
    );
    let answer = get(server.addr, &probe_url("clesto", "", hungry)).json();
    assert_eq!(b.listed_moves(), api_moves(&answer));
    assert_eq!(
        b.eval("document.querySelector('#moves [data-move=a1b1] [data-starves]').textContent"),
        json!("starves: Cb1, Eg1")
    );
    assert_eq!(
        b.eval("[...document.querySelectorAll('#moves ul')].map(u => u.dataset.group)"),
        json!(["win", "loss"])
    );
    // The move that starves Red's last animals: the final board has none of them.
    b.click("#moves [data-move=a1b1]");
    b.wait_for("document.body.dataset.end === 'a1b1' && document.body.dataset.state === 'ready'");
    assert_eq!(b.pieces(), vec!["a2r".to_owned()]);
    assert!(b
        .text("#value [data-field=wdl]")
        .starts_with("Blue has won: own last animal starved"));
    // The board's own set: only the cat.
    let canonical = "7/7/7/7/7/7/7/r6/C5E r";
    open(b, canonical);
    assert_eq!(
        b.eval(
            "[...document.querySelectorAll('#board g.piece.hungry')].map(g => g.dataset.square)"
        ),
        json!(["a1"])
    );
    assert!(
        b.eval("Boolean(document.querySelector('#value [data-field=hungry-set]'))") == json!(false)
    );
    b.no_console_errors("clesto hunger");

    // Blue, with more animals, is banned and wins by the ban: out of the material in 20.
    let ban_win = "1r5/1c5/7/7/7/7/7/7/6D b";
    open(b, ban_win);
    let answer = get(server.addr, &probe_url("clesto", "", ban_win)).json();
    assert_eq!(
        b.text("#value [data-field=wdl]"),
        "Blue to move: wins by the repetition ban"
    );
    let detail = b.text("#value [data-field=detail]");
    assert!(
        detail.contains("Blue (more animals) may not repeat a position a fourth time")
            && detail.contains("in 20 plies"),
        "{detail}"
    );
    assert_eq!(b.text("#value [data-field=exit]"), "exit 20");
    assert_eq!(b.listed_moves(), api_moves(&answer));
    let groups = b.eval("[...document.querySelectorAll('#moves ul')].map(u => u.dataset.group)");
    let mut expected: Vec<&str> = Vec::new();
    for m in answer["moves"].as_array().unwrap() {
        let c = m["mover"]["category"].as_str().unwrap();
        if !expected.contains(&c) {
            expected.push(c);
        }
    }
    assert_eq!(groups, json!(expected));
    assert_eq!(
        b.eval("document.querySelector('#board [data-arrow=best]').dataset.move"),
        answer["best"]
    );
    let best = answer["best"].as_str().unwrap();
    assert_eq!(
        b.eval(&format!(
            "document.querySelector('#moves [data-move={best}] .badge.ban').textContent"
        )),
        json!(format!(
            "by the ban, exit {}",
            answer["moves"][0]["mover"]["exit"]
        ))
    );
    // The statistics: plain and ban counts, the exit histogram.
    b.wait_for("document.querySelector('#stats-out h2')?.textContent === 'DvCR (clesto)'");
    assert!(
        b.eval(r#"Boolean(document.querySelector('#stats-out tr[data-row="wins by the ban"]'))"#)
            == json!(true)
    );
    assert!(
        b.eval("Boolean(document.querySelector('#stats-out tr[data-row=draws]'))") == json!(false)
    );
    b.click("#stats-out button[data-metric=ban]");
    b.wait_for("document.querySelector('#stats-out svg.histogram').dataset.metric === 'ban'");

    // The best line: it leaves the material and stops where Blue, unbanned there, wins by the ban.
    let line = get(server.addr, &probe_url("clesto", "/line", ban_win)).json();
    let steps = line["line"].as_array().unwrap().clone();
    assert_eq!(line["line_stops_at_ban"], true);
    b.click("#show-line");
    b.wait_for(&format!(
        "document.querySelectorAll('#line-out ol.steps li').length === {}",
        steps.len()
    ));
    let stop = b.text("#line-stop");
    assert!(
        stop.starts_with(&format!("The line stops after {} plies", steps.len()))
            && stop.contains("wins by the repetition ban"),
        "{stop}"
    );
    let n = steps.len();
    b.eval(&format!("(() => {{ const s = document.querySelector('#line-slider'); s.value = '{n}'; s.dispatchEvent(new Event('input')); }})()"));
    b.wait_for(&format!(
        "document.querySelector('#line-caption').textContent.startsWith('Ply {n} ')"
    ));
    let last = steps[n - 1]["position"].as_str().unwrap();
    assert_eq!(b.pieces(), clesto_pieces(last));
    let caption = b.text("#line-caption");
    assert!(
        caption.contains("win by the ban") && caption.contains("banned: Red"),
        "{caption}"
    );
    b.no_console_errors("clesto ban win");

    // One move on, Red to move loses by the ban: Blue gets out in 19.
    b.click("#line-first");
    b.click(&format!("#moves [data-move={best}]"));
    let after = answer["moves"][0]["position"].as_str().unwrap();
    b.wait_for_position(after, "ready");
    assert_eq!(
        b.text("#value [data-field=wdl]"),
        "Red to move: loses by the repetition ban"
    );
    assert!(b.text("#value [data-field=detail]").contains("in 19 plies"));
    b.no_console_errors("clesto ban loss");

    // At a phone's width the explanation and the badges wrap: nothing wider than the screen.
    b.viewport(390, 844);
    open(b, ban_win);
    let width = b.eval("document.documentElement.scrollWidth");
    assert!(width.as_f64().unwrap() <= 390.0, "{width}");
    b.viewport(1200, 1000);

    // The index: the menu names Clesto, and each bar shows the wins and losses by the ban.
    b.open(&format!("{base}/?rules=clesto&index"));
    b.wait_for("document.body.dataset.view === 'index' && document.body.dataset.state === 'ready'");
    assert_eq!(
        b.eval("document.querySelector('#rules').value"),
        json!("clesto")
    );
    let shares = b.eval(
        "[...document.querySelectorAll('#index-out tr[data-material=DvCR] td:nth-child(3) rect')].map(r => r.dataset.share)",
    );
    assert_eq!(shares, json!(["win", "ban-win", "ban-loss", "loss"]));
    b.no_console_errors("clesto index");
}

/// The pieces of an Animal Gambit position as the board should show them: square and letter.
fn gambit_pieces(text: &str) -> Vec<String> {
    let pos: jtb_probe::gambit::Position = text.parse().unwrap();
    let mut out: Vec<String> = pos
        .board()
        .iter()
        .map(|(sq, p)| format!("{sq}{}", p.letter()))
        .collect();
    out.sort();
    out
}

/// The squares each step of Animal Gambit turn text joins (`Ed2n` -> `d2d3`), removals left out.
fn turn_moves(turn: &str) -> Vec<String> {
    turn.split(' ')
        .filter(|t| !t.ends_with('x'))
        .map(|t| {
            let (file, rank) = (t.as_bytes()[1], t.as_bytes()[2]);
            let (f, r) = match t.as_bytes()[3] {
                b'n' => (file, rank + 1),
                b's' => (file, rank - 1),
                b'e' => (file + 1, rank),
                _ => (file - 1, rank),
            };
            format!("{}{}", &t[1..3], String::from_utf8(vec![f, r]).unwrap())
        })
        .collect()
}

/// Animal Gambit: the 8x8 board with its traps and gold and silver pieces, the turns grouped by
/// what they are worth with a "show all", the best turn drawn as its steps, a turn played by
/// clicking steps (a push onto a trap included) then "End turn", an illegal step refused, a
/// step undone, a listed turn clicked, the URL following each change and Back, the statistics,
/// and bad or missing-table positions.
fn gambit(b: &mut Browser, base: &str, server: &Server) {
    const AG: &str = "animal-gambit";
    let url = |text: &str| format!("{base}/?rules={AG}&position={}", serve_support::enc(text));
    let query = "[...new URLSearchParams(location.search)].map(([k, v]) => k + '=' + v)";
    let race = "8/3r4/8/8/8/8/4R3/8 g";
    b.open(&url(race));
    b.wait_for_position(race, "ready");
    assert_eq!(
        b.eval("document.querySelectorAll('#board rect.sq').length"),
        json!(64)
    );
    assert_eq!(
        b.eval(
            "[...document.querySelectorAll('#board rect.trap')].map(r => r.dataset.square).sort()"
        ),
        json!(["c3", "c6", "f3", "f6"])
    );
    assert_eq!(b.pieces(), gambit_pieces(race));
    // The page names the game, and the Jungle faces are off: its pieces are letters.
    assert_eq!(
        b.eval("[document.title.endsWith('\u{2013} Animal Gambit tablebase'), document.querySelector('#faces').disabled]"),
        json!([true, true])
    );
    assert_eq!(
        b.eval("[...document.querySelectorAll('#board g.piece')].map(g => g.dataset.square + ':' + g.getAttribute('class')).sort()"),
        json!(["d7:piece silver", "e2:piece gold"])
    );
    assert_eq!(
        b.eval("document.querySelector('#board g.piece.gold title').textContent"),
        json!("Gold rabbit on e2")
    );
    assert_eq!(
        b.text("#value [data-field=wdl]"),
        "Gold to move: win in 3 turns"
    );
    assert_eq!(b.text("#value [data-field=dtm]"), "DTM 3 turns");
    let answer = get(server.addr, &probe_url(AG, "", race)).json();
    let turns: Vec<String> = answer["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["turn"].as_str().unwrap().to_owned())
        .collect();
    // The groups in the order win, repetition, loss, each cut at 10 with a "show all".
    let mut groups: Vec<(String, usize)> = Vec::new();
    for t in answer["turns"].as_array().unwrap() {
        let c = t["mover"]["category"].as_str().unwrap().to_owned();
        match groups.last_mut() {
            Some((g, n)) if *g == c => *n += 1,
            _ => groups.push((c, 1)),
        }
    }
    assert!(groups.iter().any(|(_, n)| *n > 12), "{groups:?}");
    let shown = b.eval("[...document.querySelectorAll('#moves ul')].map(u => [u.dataset.group, u.querySelectorAll('[data-move]').length])");
    let want: Vec<Json> = groups
        .iter()
        .map(|(g, n)| json!([g, if *n > 12 { 10 } else { *n }]))
        .collect();
    assert_eq!(shown, json!(want));
    while b.eval("Boolean(document.querySelector('#moves button.show-all'))") == json!(true) {
        b.click("#moves button.show-all");
    }
    assert_eq!(b.listed_moves(), turns);
    // The best turn, drawn as its four numbered steps.
    let best = answer["best"].as_str().unwrap();
    assert_eq!(best, turns[0]);
    assert_eq!(
        b.eval(
            "[...document.querySelectorAll('#board [data-arrow=best]')].map(a => a.dataset.move)"
        ),
        json!(turn_moves(best))
    );
    assert_eq!(
        b.eval(
            "[...document.querySelectorAll('#board .step-label.best')].map(l => l.dataset.step)"
        ),
        json!(["1", "2", "3", "4"])
    );
    assert_eq!(
        b.eval("document.querySelector('#end-turn').disabled"),
        json!(true)
    );
    b.no_console_errors("gambit position");

    // A turn by clicking its steps: an illegal step refused, a step undone, then End turn.
    b.click_square("e2");
    b.wait_for("document.querySelectorAll('#board .target').length === 3");
    b.click_square("e1");
    b.wait_for("document.querySelector('#status').textContent.includes('illegal step: the Gold rabbit on e2 cannot step to e1')");
    b.click_square("e2");
    b.click_square("e3");
    b.wait_for("document.body.dataset.steps === 'Re2n' && document.body.dataset.state === 'ready'");
    assert_eq!(
        b.eval(query),
        json!([
            format!("rules={AG}"),
            format!("position={race}"),
            "steps=Re2n".to_owned()
        ])
    );
    assert_eq!(b.pieces(), vec!["d7r".to_owned(), "e3R".to_owned()]);
    assert_eq!(
        b.eval("document.querySelector('#end-turn').disabled"),
        json!(false)
    );
    b.click_square("e3");
    b.click_square("e4");
    b.wait_for(
        "document.body.dataset.steps === 'Re2n Re3n' && document.body.dataset.state === 'ready'",
    );
    b.click("#undo-step");
    b.wait_for("document.body.dataset.steps === 'Re2n' && document.body.dataset.state === 'ready'");
    b.click_square("e3");
    b.click_square("e4");
    b.wait_for(
        "document.body.dataset.steps === 'Re2n Re3n' && document.body.dataset.state === 'ready'",
    );
    assert!(b
        .text("#steps-info")
        .contains("Steps so far: Re2n Re3n (2 of 4)."));
    b.click("#end-turn");
    let played = answer["turns"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["turn"] == "Re2n Re3n")
        .unwrap();
    let after = played["position"].as_str().unwrap();
    b.wait_for_position(after, "ready");
    assert_eq!(b.pieces(), gambit_pieces(after));
    assert_eq!(
        b.eval(query),
        json!([
            format!("rules={AG}"),
            format!("position={after}"),
            "last=Re2n Re3n".to_owned()
        ])
    );
    let words = match played["wdl"].as_str().unwrap() {
        "draw" => "repetition".to_owned(),
        wdl => format!("{wdl} in {}", played["dtm"]),
    };
    assert!(
        b.text("#value [data-field=wdl]")
            .starts_with(&format!("Silver to move: {words}")),
        "{}",
        b.text("#value [data-field=wdl]")
    );
    // Back: to the turn as it stood before its end.
    b.eval("history.back()");
    b.wait_for(
        "document.body.dataset.steps === 'Re2n Re3n' && document.body.dataset.state === 'ready'",
    );
    assert_eq!(b.eval("document.body.dataset.position"), json!(race));
    b.eval("history.forward()");
    b.wait_for_position(after, "ready");
    b.no_console_errors("gambit steps");

    // The best line, turn by turn: the board after each turn, its caption in turns.
    b.open(&url(race));
    b.wait_for_position(race, "ready");
    let line = get(server.addr, &probe_url(AG, "/line", race)).json();
    let steps = line["line"].as_array().unwrap().clone();
    b.click("#show-line");
    b.wait_for(&format!(
        "document.querySelectorAll('#line-out ol.steps li').length === {}",
        steps.len()
    ));
    assert_eq!(
        b.text("#line-out button[data-line=line]"),
        format!("Best line: {} turns", steps.len())
    );
    b.click("#line-next");
    b.wait_for("document.querySelector('#line-caption').textContent.startsWith('Turn 1 ')");
    assert_eq!(
        b.pieces(),
        gambit_pieces(steps[0]["position"].as_str().unwrap())
    );
    assert_eq!(
        b.text("#line-caption"),
        format!(
            "Turn 1 of {}: Gold plays {}. Silver to move: loss in {} turns.",
            steps.len(),
            steps[0]["turn"].as_str().unwrap(),
            steps[0]["dtm"]
        )
    );
    b.click("#line-last");
    b.wait_for("document.querySelector('#line-last').disabled");
    let last = steps.last().unwrap();
    assert!(last["position"].is_null());
    // The final board, the rabbit on its goal: no position any more, only a board.
    let board: jtb_probe::gambit::Board = last["board"].as_str().unwrap().parse().unwrap();
    let mut on_board: Vec<String> = board
        .iter()
        .map(|(sq, p)| format!("{sq}{}", p.letter()))
        .collect();
    on_board.sort();
    assert_eq!(b.pieces(), on_board);
    assert!(b
        .text("#line-caption")
        .ends_with("the mover's rabbit reached its goal, the game is over."));
    b.no_console_errors("gambit line");

    // The controls: the other side to move, and the colour flip.
    b.open(&url(race));
    b.wait_for_position(race, "ready");
    assert_eq!(b.text("#turn"), "Give the move to Silver");
    b.click("#turn");
    b.wait_for_position("8/3r4/8/8/8/8/4R3/8 s", "ready");
    b.click("#swap");
    let given: jtb_probe::gambit::Position = "8/3r4/8/8/8/8/4R3/8 s".parse().unwrap();
    b.wait_for_position(&given.flip().to_string(), "ready");
    b.no_console_errors("gambit controls");

    // A listed turn, clicked.
    b.open(&url(race));
    b.wait_for_position(race, "ready");
    b.click(&format!("#moves [data-move='{best}']"));
    let after = answer["turns"][0]["position"].as_str().unwrap();
    b.wait_for_position(after, "ready");
    assert_eq!(
        b.eval("new URLSearchParams(location.search).get('last')"),
        json!(best)
    );
    assert_eq!(b.pieces(), gambit_pieces(after));

    // A push onto a trap: the silver rabbit is removed at once, the turn cannot end inside the
    // push, and the elephant's step into d3 ends the game (Silver has no rabbit left).
    let push = "8/8/8/8/8/3r4/3E4/7R g";
    b.open(&url(push));
    b.wait_for_position(push, "ready");
    b.click_square("d3");
    b.click_square("c3");
    b.wait_for(
        "document.body.dataset.steps === 'rd3w rc3x' && document.body.dataset.state === 'ready'",
    );
    assert_eq!(b.pieces(), vec!["d2E".to_owned(), "h1R".to_owned()]);
    assert_eq!(
        b.eval("document.querySelector('#end-turn').disabled"),
        json!(true)
    );
    assert!(
        b.text("#steps-info").contains("inside a push"),
        "{}",
        b.text("#steps-info")
    );
    b.click_square("d2");
    b.wait_for("document.querySelectorAll('#board .target').length === 1");
    b.click_square("d3");
    b.wait_for("document.body.dataset.steps === 'rd3w rc3x Ed2n' && document.body.dataset.state === 'ready'");
    b.click("#end-turn");
    b.wait_for(
        "document.body.dataset.end === 'rd3w rc3x Ed2n' && document.body.dataset.state === 'ready'",
    );
    assert_eq!(b.pieces(), vec!["d3E".to_owned(), "h1R".to_owned()]);
    assert_eq!(
        b.text("#value [data-field=wdl]"),
        "Gold has won: the opponent has no rabbit left (rd3w rc3x Ed2n)"
    );
    b.no_console_errors("gambit push");

    // Steps in the URL that are no beginning of a turn: said, and the turn starts afresh.
    b.open(&format!("{}&steps=Ed2n", url(push)));
    b.wait_for("document.querySelector('#status').textContent.includes('token 1 `Ed2n` is not a legal step here')");
    b.wait_for("document.body.dataset.state === 'ready'");
    assert_eq!(b.pieces(), gambit_pieces(push));

    // The statistics of the material, Gold to move first, distances in turns.
    b.open(&url(race));
    b.wait_for_position(race, "ready");
    b.wait_for("document.querySelector('#stats-out h2')?.textContent === 'RvR (animal-gambit)'");
    let head =
        b.eval("[...document.querySelectorAll('#stats-out thead th')].map(t => t.textContent)");
    assert_eq!(head, json!(["", "Gold (R) to move", "Silver (R) to move"]));
    let stats = get(server.addr, &format!("/api/v1/{AG}/stats/RvR")).json();
    let longest = stats["stats"][0]["longest_win"].as_u64().unwrap();
    assert_eq!(
        b.eval("document.querySelector('#stats-out tr[data-row=\"longest win\"] td').textContent"),
        json!(format!("{longest} turns"))
    );
    assert!(
        b.eval("Boolean(document.querySelector('#stats-out tr[data-row=\"draws (repetition)\"]'))")
            == json!(true)
    );
    // Its histograms: one chart per side, in turns, the bars the API's counts.
    b.wait_for("document.querySelectorAll('#stats-out svg.histogram').length === 2");
    let charts = b.eval(
        "[...document.querySelectorAll('#stats-out svg.histogram')].map(c => [c.getAttribute('aria-label'), c.querySelector('.chart-note').textContent, [...c.querySelectorAll('rect.bar-win')].reduce((n, r) => n + Number(r.dataset.count), 0)])",
    );
    for (i, side) in ["Gold", "Silver"].into_iter().enumerate() {
        assert_eq!(
            charts[i][0],
            json!(format!("{side} (R) to move: positions per DTM"))
        );
        assert!(charts[i][1]
            .as_str()
            .unwrap()
            .contains("draws (repetition); turns along"));
        assert_eq!(charts[i][2], stats["stats"][i]["wins"]);
    }
    assert_eq!(
        b.eval("document.querySelector('#stats-out .metric button').textContent"),
        json!("DTM (turns to the end)")
    );

    // A Jungle position under animal-gambit, and a position whose table is not there.
    b.open(&url("7/7/7/7/7/7/2L4/1e5/R6 r"));
    b.wait_for("document.body.dataset.state === 'error'");
    assert_eq!(b.text("#value [data-field=wdl]"), "Not a position");
    assert!(b
        .text("#value [data-field=detail]")
        .contains("Jungle (7x9) board, not an Animal Gambit one"));
    let missing = "8/3r4/8/8/8/8/3HR3/8 g";
    b.open(&url(missing));
    b.wait_for_position(missing, "error");
    assert_eq!(
        b.text("#value [data-field=wdl]"),
        "Gold to move: no table here"
    );
    assert!(b
        .text("#value [data-field=detail]")
        .contains("missing table HRvR"));
    b.wait_for("document.querySelector('#moves ul[data-group=legal]')");
    // Playing on without values: a step, then the turn ended.
    b.click_square("e2");
    b.click_square("e3");
    b.wait_for("document.body.dataset.steps === 'Re2n' && document.body.dataset.state === 'error'");
    b.click("#end-turn");
    b.wait_for_position("8/3r4/8/8/8/4R3/3H4/8 s", "error");
    b.no_console_errors("gambit failures");
}

#[test]
#[ignore = "needs chromium; run by .ci/run"]
fn the_explorer_works_in_chromium() {
    let dir = tempfile::tempdir().unwrap();
    explorer_tables(dir.path());
    let server = Server::start(dir.path());
    let base = format!("http://{}", server.addr);
    let mut b = Browser::start();
    the_explorer(&mut b, &base, &server);
}

/// The tables of the explorer's test.
fn explorer_tables(dir: &std::path::Path) {
    gen(dir, "mistboard", &["LRvE"]);
    gen(dir, "flip4x4", &["LRvE", "Lv-Tw", "LvW-t"]);
    gen(dir, "clesto", &["DvCR", "ECvR"]);
}

/// The static site of `jtb site` over the explorer test's tables, on a plain static host under
/// a path of its own, goes through the whole explorer test as the server's page does (its
/// answers compared with the server's API), probing in the browser: it sends no request to
/// the API, only for files of the site.
#[test]
#[ignore = "needs chromium and the built npm package (wasm/); run by .ci/run"]
fn the_static_site_works_in_chromium() {
    let dir = tempfile::tempdir().unwrap();
    explorer_tables(dir.path());
    let (host, _root) = static_site(dir.path(), "some/path");
    let server = Server::start(dir.path());
    let base = format!("http://{}/some/path", host.addr);
    let mut b = Browser::start();
    the_explorer(&mut b, &base, &server);
    b.no_console_errors("the static site");
    let to_api: Vec<_> = b.requests.iter().filter(|u| u.contains("/api/")).collect();
    assert!(to_api.is_empty(), "requests to the API: {to_api:#?}");
    let elsewhere: Vec<_> = host
        .requests()
        .into_iter()
        .filter(|t| !t.starts_with("/some/path/"))
        .collect();
    assert!(
        elsewhere.is_empty(),
        "requests outside the site: {elsewhere:#?}"
    );
    assert!(
        host.requests()
            .iter()
            .any(|t| t.contains("/tables/mistboard/")),
        "the tables are read from the host"
    );

    // The npm package in a Web Worker (a module worker) answers as the API does.
    let stats = get(server.addr, "/api/v1/mistboard/stats/LRvE").json();
    let text = stats["stats"][0]["longest_win_position"].as_str().unwrap();
    b.open(&format!("{base}/"));
    b.wait_for("document.body.dataset.state === 'ready'");
    b.eval(&format!(
        "(() => {{ const source = `import {{ openTablebase }} from '{base}/jtb/index.js';
           const tb = await openTablebase('{base}/tables/');
           postMessage(await tb.probe('mistboard', {text:?}));`;
         const url = URL.createObjectURL(new Blob([source], {{ type: 'text/javascript' }}));
         const worker = new Worker(url, {{ type: 'module' }});
         worker.onmessage = (e) => {{ window.workerAnswer = e.data; }};
         worker.onerror = (e) => {{ window.workerAnswer = {{ error: String(e.message) }}; }};
       }})()"
    ));
    b.wait_for("window.workerAnswer !== undefined");
    assert_eq!(
        b.eval("window.workerAnswer"),
        get(server.addr, &probe_url("mistboard", "", text)).json()
    );
    b.no_console_errors("the package in a worker");
}

/// The whole explorer test, with the page at `base` and `server`'s API for the answers
/// expected.
fn the_explorer(b: &mut Browser, base: &str, server: &Server) {
    let at = play_by_clicking(b, base, server);
    b.no_console_errors("playing by clicking");
    controls(b, server, &at);
    clock_headline(b, base, server);
    lines(b, base, server);
    statistics(b, base, server);
    failures(b, base);
    player_tools(b, base, server);
    material_index(b, base, server);
    clesto(b, base, server);
    chance_view(b, base, server);

    // The flip board: 4x4, one animal each, no water; chosen in the rule-set menu, drawn from
    // the server's description of the board.
    b.open(&format!("{base}/?rules=mistboard"));
    b.wait_for("document.body.dataset.state === 'ready'");
    let flip = "4/4/4/c2L r";
    b.wait_for("[...document.querySelector('#rules').options].some(o => o.value === 'flip4x4')");
    b.eval("(() => { const s = document.querySelector('#rules'); s.value = 'flip4x4'; s.dispatchEvent(new Event('change')); })()");
    let answer = get(server.addr, &probe_url("flip4x4", "", flip)).json();
    b.wait_for_position(answer["position"].as_str().unwrap(), "ready");
    assert_eq!(
        b.eval("document.querySelectorAll('#board rect.sq').length"),
        json!(16)
    );
    assert_eq!(
        b.eval("document.querySelectorAll('#board rect.water').length"),
        json!(0)
    );
    assert_eq!(b.pieces(), pieces_of(flip));
    assert_eq!(b.listed_moves(), api_moves(&answer));
    b.click_square("d1");
    b.click_square("d2");
    let after = answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == "d1d2")
        .unwrap();
    b.wait_for_position(after["position"].as_str().unwrap(), "ready");
    b.no_console_errors("the flip board");

    // A phone-width screen: nothing wider than the screen, the whole board in view, the
    // statistics whole, the position text whole (its side to move included).
    b.viewport(390, 844);
    b.open(&format!(
        "{base}/?rules=mistboard&position={}",
        serve_support::enc(&at)
    ));
    b.wait_for_position(&at, "ready");
    b.wait_for("document.querySelectorAll('#stats-out tbody tr').length === 7");
    let fit = b.eval(
        "[document.documentElement.scrollWidth, document.querySelector('#board').getBoundingClientRect().right]",
    );
    assert!(
        fit[0].as_f64().unwrap() <= 390.0 && fit[1].as_f64().unwrap() <= 390.0,
        "{fit}"
    );
    let table = b.eval("(() => { const t = document.querySelector('#stats-out table'); return t.getBoundingClientRect().right <= t.parentElement.getBoundingClientRect().right + 0.5; })()");
    assert_eq!(table, json!(true));
    let text = b.eval("(() => { const i = document.querySelector('#text'); return i.scrollWidth <= i.clientWidth; })()");
    assert_eq!(text, json!(true));
    b.no_console_errors("phone width");
}

/// The Animal Gambit view ([`gambit`]), on the tables of `ERvR` and `RvR`.
#[test]
#[ignore = "needs chromium; run by .ci/run"]
fn the_animal_gambit_explorer_works_in_chromium() {
    let dir = tempfile::tempdir().unwrap();
    gen(dir.path(), "animal-gambit", &["ERvR"]);
    let server = Server::start(dir.path());
    let base = format!("http://{}", server.addr);
    let mut b = Browser::start();
    the_gambit_explorer(&mut b, &base, &server);
}

/// The Animal Gambit explorer test on the static site of `jtb site`, as
/// [`the_static_site_works_in_chromium`] runs the explorer's.
#[test]
#[ignore = "needs chromium and the built npm package (wasm/); run by .ci/run"]
fn the_animal_gambit_static_site_works_in_chromium() {
    let dir = tempfile::tempdir().unwrap();
    gen(dir.path(), "animal-gambit", &["ERvR"]);
    let (host, _root) = static_site(dir.path(), "site");
    let server = Server::start(dir.path());
    let mut b = Browser::start();
    the_gambit_explorer(&mut b, &format!("http://{}/site", host.addr), &server);
    b.no_console_errors("the static site");
    let to_api: Vec<_> = b.requests.iter().filter(|u| u.contains("/api/")).collect();
    assert!(to_api.is_empty(), "requests to the API: {to_api:#?}");
}

/// The static site from a host that ignores Range requests (a development server): the page
/// reads whole table files instead, and plays as it does elsewhere.
#[test]
#[ignore = "needs chromium and the built npm package (wasm/); run by .ci/run"]
fn the_static_site_works_from_a_host_without_range_support() {
    let dir = tempfile::tempdir().unwrap();
    explorer_tables(dir.path());
    let (ranged, root) = static_site(dir.path(), "site");
    drop(ranged);
    let host = StaticHost::start_with(root.path(), false);
    let server = Server::start(dir.path());
    let mut b = Browser::start();
    let base = format!("http://{}/site", host.addr);
    play_by_clicking(&mut b, &base, &server);
    lines(&mut b, &base, &server);
    b.no_console_errors("a host without Range support");
    assert!(
        host.requests()
            .iter()
            .any(|t| t.starts_with("/site/tables/mistboard/")),
        "the tables are read from the host"
    );
}

/// `jtb site` of the tables under `tables`, in the folder `path` of a static host's root.
fn static_site(tables: &std::path::Path, path: &str) -> (StaticHost, tempfile::TempDir) {
    let root = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_jtb"))
        .args(["site", "--tables"])
        .arg(tables)
        .arg("--out")
        .arg(root.path().join(path))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "jtb site: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (StaticHost::start(root.path()), root)
}

/// The whole Animal Gambit explorer test, with the page at `base` and `server`'s API for the
/// answers expected.
fn the_gambit_explorer(b: &mut Browser, base: &str, server: &Server) {
    gambit(b, base, server);
    // A material opens at its longest win, in the orientation asked (Silver has the elephant).
    let stats = get(server.addr, "/api/v1/animal-gambit/stats/RvER").json();
    let longest = stats["stats"][0]["longest_win_position"]
        .as_str()
        .unwrap()
        .to_owned();
    b.open(&format!("{base}/?rules=animal-gambit&material=RvER"));
    b.wait_for_position(&longest, "ready");
    assert_eq!(b.pieces(), gambit_pieces(&longest));
    b.wait_for("document.querySelector('#stats-out h2')?.textContent === 'RvER (animal-gambit)'");
    // The rule-set menu names Animal Gambit, and the index lists its tables.
    b.open(&format!("{base}/?rules=animal-gambit&index"));
    b.wait_for("document.body.dataset.view === 'index' && document.body.dataset.state === 'ready'");
    assert_eq!(
        b.eval("document.querySelector('#rules').value"),
        json!("animal-gambit")
    );
    assert_eq!(
        b.eval("[...document.querySelectorAll('#index-out tr[data-material]')].map(r => r.dataset.material)"),
        json!(["RvR", "ERvR"])
    );
    assert_eq!(
        b.eval("[...document.querySelectorAll('#index-out thead th')].slice(0, 4).map(t => t.textContent)"),
        json!(["material", "Gold to move", "Silver to move", "longest win"])
    );
    b.no_console_errors("gambit index");
    // At a phone's width nothing is wider than the screen.
    b.viewport(390, 844);
    b.open(&format!(
        "{base}/?rules=animal-gambit&position={}",
        serve_support::enc("8/3r4/8/8/8/8/4R3/8 g")
    ));
    b.wait_for_position("8/3r4/8/8/8/8/4R3/8 g", "ready");
    let width = b.eval("document.documentElement.scrollWidth");
    assert!(width.as_f64().unwrap() <= 390.0, "{width}");
    b.no_console_errors("gambit phone");
}

/// The width and height of a PNG image, from its header.
fn png_size(png: &[u8]) -> (u32, u32) {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    let word = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    (word(16), word(20))
}

/// Screenshots of the explorer at a desktop's width (1280 pixels) and a phone's (390), of a
/// 4-piece position at a running clock with its line stepped into, the statistics with their
/// histograms, the material index, a Clesto ban win with its line stepped to where it stops,
/// an Animal Gambit position with its best turn drawn as its steps, and the phone with the
/// animal drawings. Each must be a
/// whole page of that width, with no console error. With `JTB_SCREENSHOTS=DIR` they are
/// written there, a relative `DIR` from the workspace's root (`JTB_SCREENSHOTS=docs` makes the
/// README's).
#[test]
#[ignore = "needs chromium; run by .ci/run"]
fn screenshots_at_desktop_and_phone_width() {
    let dir = tempfile::tempdir().unwrap();
    gen(dir.path(), "mistboard", &["LRvET", "LRvE"]);
    gen(dir.path(), "clesto", &["DvCR"]);
    gen(dir.path(), "animal-gambit", &["ERvR"]);
    let server = Server::start(dir.path());
    let base = format!("http://{}", server.addr);
    // A relative directory is taken from the workspace's root, as the README's command means it.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = std::env::var_os("JTB_SCREENSHOTS").map(|dir| root.join(dir));
    let mut b = Browser::start();
    let save = |b: &mut Browser, name: &str, width: u32, scale: u32| {
        b.no_console_errors(name);
        // The mouse off the page: no hover arrow in the picture.
        let away = json!({"type": "mouseMoved", "x": 0, "y": 0});
        b.call("Input.dispatchMouseEvent", away, true);
        let png = b.screenshot(width, scale, scale > 1);
        let (w, h) = png_size(&png);
        assert_eq!(w, width * scale, "{name}: {w}x{h}");
        assert!(h > 400, "{name}: {w}x{h}");
        if let Some(out) = &out {
            std::fs::write(out.join(name), &png).unwrap();
        }
    };
    // The issue's position at clock 60: a win in 83 that the clock makes a draw.
    let at = "7/5e1/7/7/7/7/t6/5R1/L6 r 60";
    b.viewport(1280, 900);
    b.open(&format!(
        "{base}/?rules=mistboard&position={}",
        serve_support::enc(at)
    ));
    b.wait_for_position(at, "ready");
    b.wait_for("document.querySelectorAll('#stats-out svg.histogram').length === 2");
    b.click("#show-line");
    b.wait_for("document.querySelector('#line-next')");
    for _ in 0..6 {
        b.click("#line-next");
    }
    b.wait_for("document.querySelector('#line-caption').textContent.startsWith('Ply 6 ')");
    b.eval("window.scrollTo(0, 0)");
    save(&mut b, "explorer.png", 1280, 1);
    b.open(&format!("{base}/?rules=mistboard&index"));
    b.wait_for("document.body.dataset.view === 'index' && document.body.dataset.state === 'ready'");
    save(&mut b, "explorer-index.png", 1280, 1);
    // Clesto: Blue, banned, wins by the ban; its best line stepped to where it stops.
    let ban_win = "1r5/1c5/7/7/7/7/7/7/6D b";
    b.open(&format!(
        "{base}/?rules=clesto&position={}",
        serve_support::enc(ban_win)
    ));
    b.wait_for_position(ban_win, "ready");
    b.wait_for("document.querySelectorAll('#stats-out svg.histogram').length === 2");
    b.click("#show-line");
    b.wait_for("document.querySelector('#line-last')");
    b.click("#line-last");
    b.wait_for("document.querySelector('#line-last').disabled");
    b.eval("window.scrollTo(0, 0)");
    save(&mut b, "explorer-clesto.png", 1280, 1);
    // Animal Gambit: ERvR's longest win for Gold (7 turns), its best turn drawn as its steps.
    let longest = "8/8/8/8/1r6/8/4R3/4E3 g";
    b.open(&format!(
        "{base}/?rules=animal-gambit&position={}",
        serve_support::enc(longest)
    ));
    b.wait_for_position(longest, "ready");
    b.wait_for("document.querySelector('#stats-out h2')?.textContent === 'ERvR (animal-gambit)'");
    b.wait_for("document.querySelectorAll('#board [data-arrow=best]').length > 0");
    b.eval("window.scrollTo(0, 0)");
    save(&mut b, "explorer-gambit.png", 1280, 1);
    // The phone, with the animal drawings.
    let metrics = json!({"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": true});
    b.call("Emulation.setDeviceMetricsOverride", metrics, true);
    b.open(&format!(
        "{base}/?rules=mistboard&position={}",
        serve_support::enc(at)
    ));
    b.wait_for_position(at, "ready");
    b.eval("(() => { const s = document.querySelector('#faces'); s.value = 'animals'; s.dispatchEvent(new Event('change')); })()");
    b.wait_for("document.querySelectorAll('#board .piece .drawing').length === 4");
    b.wait_for("document.querySelectorAll('#stats-out svg.histogram').length === 2");
    save(&mut b, "explorer-phone.png", 390, 2);
}

/// The explorer over a set of WDL files alone (as an engine ships it), in every game: the
/// headline gives the WDL and says which files the set lacks, every move is listed with its
/// WDL, no line is offered, and nothing fails in the page.
#[test]
#[ignore = "needs chromium; run by .ci/run"]
fn a_set_of_wdl_files_alone_in_chromium() {
    let full = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let games = [
        (
            "mistboard",
            "LRvE",
            "7/7/7/7/7/3e3/7/3LR2/7 r",
            "moves",
            "move",
        ),
        (
            "clesto",
            "DvCR",
            "1r5/1c5/7/7/7/7/7/7/6D b",
            "moves",
            "move",
        ),
        (
            "animal-gambit",
            "ERvR",
            "8/8/8/8/1r6/8/4R3/4E3 g",
            "turns",
            "turn",
        ),
    ];
    for (rules, material, ..) in games {
        gen(full.path(), rules, &[material]);
        wdl_files_alone(full.path(), dir.path(), rules);
    }
    let server = Server::start(dir.path());
    let base = format!("http://{}", server.addr);
    let mut b = Browser::start();
    for (rules, material, text, moves_key, move_key) in games {
        let answer = get(server.addr, &probe_url(rules, "", text)).json();
        assert!(answer["missing"].is_string(), "{answer}");
        b.open(&format!(
            "{base}/?rules={rules}&position={}",
            serve_support::enc(text)
        ));
        b.wait_for_position(answer["position"].as_str().unwrap(), "ready");
        let value = b.text("#value");
        let wdl = answer["wdl"].as_str().unwrap();
        assert!(
            value.contains(&format!("to move: {wdl}")),
            "{rules}: {value}"
        );
        assert!(
            value.contains(&format!(
                "Not in this set: no DTM file for table {material}"
            )),
            "{rules}: {value}"
        );
        // Every turn, the long groups opened.
        while b.eval("document.querySelector('#moves .show-all') !== null") == json!(true) {
            b.click("#moves .show-all");
        }
        let mut listed = b.listed_moves();
        let mut expected: Vec<String> = answer[moves_key]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m[move_key].as_str().unwrap().to_owned())
            .collect();
        listed.sort();
        expected.sort();
        assert_eq!(listed, expected, "{rules}");
        assert_eq!(
            b.eval("document.querySelector('#show-line').hidden"),
            json!(true),
            "{rules}"
        );
        b.no_console_errors(rules);
    }
}

/// A measurement, not a test of behaviour (`.ci/run` skips it): the explorer's first view of a
/// position from a cold cache, on the site `jtb site` wrote to `JTB_SITE`, served by a plain
/// static host on localhost: milliseconds from navigation to the position's answer shown, in a
/// fresh browser (an empty cache) each time.
///
/// `JTB_SITE=SITE JTB_SITE_POSITION=TEXT cargo test -p jtb --test serve_browser -- --ignored
/// --nocapture measure_first_view`
#[test]
#[ignore = "a measurement: needs JTB_SITE (a site written by jtb site) and chromium"]
fn measure_first_view_of_a_static_site() {
    let site = std::env::var("JTB_SITE").expect("JTB_SITE names a site written by jtb site");
    let text = std::env::var("JTB_SITE_POSITION")
        .unwrap_or_else(|_| "7/5e1/7/7/7/7/t6/5R1/L6 r".to_owned());
    let host = StaticHost::start(std::path::Path::new(&site));
    let url = format!(
        "http://{}/?rules=mistboard&position={}",
        host.addr,
        serve_support::enc(&text)
    );
    for run in 1..=3 {
        let mut b = Browser::start();
        b.open(&url);
        b.wait_for(
            "document.body.dataset.state === 'ready' || document.body.dataset.state === 'error'",
        );
        let ms = b.eval("performance.now()");
        let state = b.eval("document.body.dataset.state");
        let requests = b.requests.len();
        eprintln!("run {run}: {state} {ms} ms after navigation, {requests} requests");
    }
}
