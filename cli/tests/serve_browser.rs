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
use serve_support::{gen, get, probe_url, Server};
use tungstenite::{Message, WebSocket};

/// Headless Chromium with one page, spoken to through the DevTools protocol.
struct Browser {
    child: Child,
    ws: WebSocket<TcpStream>,
    session: String,
    next_id: u64,
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
            _profile: profile,
        };
        let target = browser.call("Target.createTarget", json!({"url": "about:blank"}), false);
        let attached = browser.call(
            "Target.attachToTarget",
            json!({"targetId": target["targetId"], "flatten": true}),
            false,
        );
        browser.session = attached["sessionId"].as_str().unwrap().to_owned();
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
                continue; // an event, or the answer to nobody
            }
            assert!(reply["error"].is_null(), "{method}: {}", reply["error"]);
            return reply["result"].clone();
        }
    }

    fn viewport(&mut self, width: u32, height: u32) {
        let metrics =
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false});
        self.call("Emulation.setDeviceMetricsOverride", metrics, true);
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
                "timed out waiting for {expression}; status: {}",
                self.eval("document.querySelector('#status').textContent")
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
        let found = self.eval(
            "[...document.querySelectorAll('#moves button[data-move]')].map(b => b.dataset.move)",
        );
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
        "[...document.querySelectorAll('#moves ul')].map(u => [u.dataset.group, u.querySelectorAll('button').length])",
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
        "#moves button[data-move='{}']",
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
    b.click_square("g9");
    let mut pos: Position = at.parse().unwrap();
    let g9 = Square::parse("g9", pos.board()).unwrap();
    pos.put(Piece::from_letter('T').unwrap(), g9).unwrap();
    let edited = pos.to_string();
    // Four pieces: no table here, but the legal moves are still listed.
    b.wait_for_position(&edited, "error");
    assert!(b.text("#status").contains("more than the tables cover"));
    assert_eq!(b.pieces(), pieces_of(&edited));
    let legal: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
    assert_eq!(b.listed_moves(), legal);
    b.click("#palette-pieces button[data-piece='x']");
    b.click_square("g9");
    b.wait_for_position(at, "ready");
    b.click("#done");

    let pos: Position = at.parse().unwrap();
    let mut turned = pos.clone();
    turned.set_turn(pos.turn().other());
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
    // The clock: at 95 the win in 34 (DTC 8 for Red) is out of reach: a rule draw.
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
}

/// The statistics panel and its links.
fn statistics(b: &mut Browser, server: &Server) {
    let stats = get(server.addr, "/api/v1/mistboard/stats/LRvE").json();
    b.wait_for("document.querySelectorAll('#stats-out tbody tr').length === 2");
    let wins = b.eval("document.querySelector('#stats-out tbody tr td:nth-child(2)').textContent");
    let red_wins = stats["stats"][0]["wins"].as_u64().unwrap();
    assert_eq!(
        wins.as_str().unwrap().replace(',', ""),
        red_wins.to_string()
    );
    // The link to a table it depends on opens that material at its longest win.
    b.click("#stats-out .deps a[href*='material=EvL']");
    let evl = get(server.addr, "/api/v1/mistboard/stats/EvL").json();
    let longest = evl["stats"][0]["longest_win_position"].as_str().unwrap();
    let answer = get(server.addr, &probe_url("mistboard", "", longest)).json();
    b.wait_for_position(answer["position"].as_str().unwrap(), "ready");
    assert_eq!(
        b.eval("new URLSearchParams(location.search).get('material')"),
        json!("EvL")
    );
    b.wait_for("document.querySelector('#stats-out h2').textContent.startsWith('EvL')");
    // A material typed in the form opens the same way.
    b.eval("document.querySelector('#material').value = 'RvE'");
    b.click("#material-form button");
    let evr = get(server.addr, "/api/v1/mistboard/stats/EvR").json();
    let stats = evr["stats"].as_array().unwrap();
    let longest = stats[0]["longest_win_position"]
        .as_str()
        .or(stats[1]["longest_win_position"].as_str())
        .unwrap();
    let answer = get(server.addr, &probe_url("mistboard", "", longest)).json();
    b.wait_for_position(answer["position"].as_str().unwrap(), "ready");
    b.wait_for("document.querySelector('#stats-out h2').textContent.startsWith('EvR')");
}

/// The best line, the line under the clock rule, and a step of it played by its link.
fn lines(b: &mut Browser, server: &Server, at: &str) {
    b.click("#back"); // from the clock the controls set back to `at`
    b.wait_for_position(at, "ready");
    let line = get(server.addr, &probe_url("mistboard", "/line", at)).json();
    b.click("#show-line");
    let steps = line["line"].as_array().unwrap();
    b.wait_for(&format!(
        "document.querySelectorAll('#line-out ol')[0]?.children.length === {}",
        steps.len()
    ));
    let shown = b.eval(
        "[...document.querySelectorAll('#line-out ol')[0].children].map(li => li.textContent)",
    );
    let moves: Vec<String> = steps
        .iter()
        .map(|s| match s["position"].as_str() {
            Some(_) => s["move"].as_str().unwrap().to_owned(),
            None => format!("{} (game over)", s["move"].as_str().unwrap()),
        })
        .collect();
    assert_eq!(shown, json!(moves));
    b.click("#line-out ol li:nth-child(3) a");
    b.wait_for_position(steps[2]["position"].as_str().unwrap(), "ready");
    assert_eq!(
        b.eval("new URLSearchParams(location.search).get('last')"),
        steps[2]["move"]
    );
}

#[test]
#[ignore = "needs chromium; run by .ci/run"]
fn the_explorer_works_in_chromium() {
    let dir = tempfile::tempdir().unwrap();
    gen(dir.path(), "mistboard", &["LRvE"]);
    gen(dir.path(), "flip4x4", &["LRvE"]);
    let server = Server::start(dir.path());
    let base = format!("http://{}", server.addr);
    let mut b = Browser::start();

    let at = play_by_clicking(&mut b, &base, &server);
    controls(&mut b, &server, &at);
    lines(&mut b, &server, &at);
    statistics(&mut b, &server);

    // The flip board: 4x4, one animal each, no water; chosen in the rule-set menu.
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

    // A phone-width screen: nothing wider than the screen, the whole board in view.
    b.viewport(390, 844);
    b.open(&format!(
        "{base}/?rules=mistboard&position={}",
        serve_support::enc(&at)
    ));
    b.wait_for_position(&at, "ready");
    let fit = b.eval(
        "[document.documentElement.scrollWidth, document.querySelector('#board').getBoundingClientRect().right]",
    );
    assert!(
        fit[0].as_f64().unwrap() <= 390.0 && fit[1].as_f64().unwrap() <= 390.0,
        "{fit}"
    );
}
