//! What the `jtb serve` tests share: small tables generated into a temporary directory, the
//! server as a child process on a free port, and a plain HTTP/1.1 client (raw bytes allowed, so
//! that hostile requests can be sent as they are).

#![allow(dead_code)] // each test binary uses its own part of this module

mod static_host;

#[allow(unused_imports)] // only the browser test serves a static site
pub use static_host::StaticHost;

use std::{
    io::{BufRead, BufReader, Read, Write},
    net::{SocketAddr, TcpStream},
    path::Path,
    process::{Child, Command, Stdio},
    time::Duration,
};

/// Runs `jtb gen --quiet --out DIR --rules RULES --material M...`.
pub fn gen(dir: &Path, rules: &str, materials: &[&str]) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_jtb"));
    cmd.args(["gen", "--quiet", "--out"])
        .arg(dir)
        .args(["--rules", rules]);
    for m in materials {
        cmd.args(["--material", m]);
    }
    let out = cmd.output().expect("jtb gen runs");
    assert!(
        out.status.success(),
        "jtb gen failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Copies the `.wdl` files of `rules`' tables under `full` into `dir/<rules>/`: a set of WDL
/// files alone, as an engine ships it.
pub fn wdl_files_alone(full: &Path, dir: &Path, rules: &str) {
    std::fs::create_dir_all(dir.join(rules)).unwrap();
    for entry in std::fs::read_dir(full.join(rules)).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "wdl") {
            std::fs::copy(&path, dir.join(rules).join(path.file_name().unwrap())).unwrap();
        }
    }
}

/// A running `jtb serve`, killed when dropped.
pub struct Server {
    child: Child,
    /// Where it listens.
    pub addr: SocketAddr,
}

impl Server {
    /// Starts `jtb serve --tables DIR` on a free port of localhost and waits until it listens.
    pub fn start(tables: &Path) -> Server {
        Server::start_with(tables, &[])
    }

    /// As [`Server::start`], with more `jtb serve` options.
    pub fn start_with(tables: &Path, options: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_jtb"))
            .args([
                "serve",
                "--addr",
                "127.0.0.1:0",
                "--cache-mib",
                "64",
                "--tables",
            ])
            .arg(tables)
            .args(options)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("jtb serve starts");
        let mut line = String::new();
        let stdout = child.stdout.take().expect("piped");
        BufReader::new(stdout).read_line(&mut line).unwrap();
        let addr = line
            .trim()
            .strip_prefix("listening on http://")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .parse()
            .unwrap();
        Server { child, addr }
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP response.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    /// Header names in lower case.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "not JSON ({e}): status {} body {:?}",
                self.status,
                String::from_utf8_lossy(&self.body)
            )
        })
    }
}

/// A kept-alive connection.
pub struct Conn {
    reader: BufReader<TcpStream>,
}

impl Conn {
    pub fn open(addr: SocketAddr) -> Conn {
        let stream = TcpStream::connect(addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        Conn {
            reader: BufReader::new(stream),
        }
    }

    /// Sends `GET target` and reads the answer, keeping the connection.
    pub fn get(&mut self, target: &str) -> Response {
        let request = format!("GET {target} HTTP/1.1\r\nHost: localhost\r\n\r\n");
        self.send(request.as_bytes())
    }

    /// Sends raw request bytes and reads one answer.
    pub fn send(&mut self, request: &[u8]) -> Response {
        self.reader.get_mut().write_all(request).unwrap();
        read_response(&mut self.reader)
    }
}

fn read_response(reader: &mut BufReader<TcpStream>) -> Response {
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("bad status line {line:?}"));
    let mut headers = Vec::new();
    loop {
        line.clear();
        reader.read_line(&mut line).unwrap();
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        let (name, value) = l.split_once(':').expect("header line");
        headers.push((name.to_ascii_lowercase(), value.trim().to_owned()));
    }
    let length = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .map(|(_, v)| v.parse::<usize>().unwrap());
    let mut body = Vec::new();
    // A 304 (or 204) has no body, whatever its headers say.
    let length = if status == 304 || status == 204 {
        Some(0)
    } else {
        length
    };
    match length {
        Some(n) => {
            body.resize(n, 0);
            reader.read_exact(&mut body).unwrap();
        }
        // No length: the body runs to the end of the connection.
        None => {
            reader.read_to_end(&mut body).unwrap();
        }
    }
    Response {
        status,
        headers,
        body,
    }
}

/// One `GET` on a fresh connection.
pub fn get(addr: SocketAddr, target: &str) -> Response {
    Conn::open(addr).get(target)
}

/// Sends raw bytes on a fresh connection and reads whatever comes back (possibly nothing, when
/// the server closes the connection): the status, or `None`.
pub fn raw_status(addr: SocketAddr, request: &[u8]) -> Option<u16> {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    // The server may answer and close before it has read everything: ignore a broken pipe.
    let _ = stream.write_all(request);
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let text = String::from_utf8_lossy(&answer);
    text.lines()
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
}

/// Percent-encodes a query value (everything but letters, digits, `-._~` and `/`).
pub fn enc(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out += &format!("%{b:02X}");
        }
    }
    out
}

/// `/api/v1/{rules}{path}?position=...`.
/// Asserts that a `/materials` index entry's per-side columns are `jtb stats --json`'s rows for
/// its material (`rows`: the side to move's, in order).
pub fn assert_index_matches_stats(
    entry: &serde_json::Value,
    rows: &[&serde_json::Value],
    material: &str,
) {
    assert_eq!(rows.len(), 2, "{material}: a row per side to move");
    for (side, row) in rows.iter().enumerate() {
        for k in [
            "wins",
            "draws",
            "losses",
            "longest_win",
            "longest_win_position",
        ] {
            assert_eq!(entry[k][side], row[k], "{k} of {material}");
        }
    }
}

pub fn probe_url(rules: &str, path: &str, position: &str) -> String {
    format!("/api/v1/{rules}{path}?position={}", enc(position))
}

/// A small deterministic generator (xorshift), so that the positions tried are the same on
/// every run.
pub struct Rng(pub u64);

impl Rng {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Up to `n` legal, unfinished positions with these pieces (`(colour, animal letter)`), placed
/// at random squares of the rule set's board, each side to move in turn.
pub fn random_positions(
    rules: jtb_probe::RuleSet,
    pieces: &[jtb_probe::Piece],
    n: usize,
    rng: &mut Rng,
) -> Vec<jtb_probe::Position> {
    use jtb_probe::{Color, Position};
    let squares: Vec<_> = rules.board().squares().collect();
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < n && tries < n * 100 {
        tries += 1;
        let turn = if out.len() % 2 == 0 {
            Color::Red
        } else {
            Color::Blue
        };
        let placed = pieces
            .iter()
            .map(|&p| (p, squares[rng.below(squares.len())]));
        if let Ok(pos) = Position::from_pieces(rules, turn, placed) {
            if !pos.is_game_over() {
                out.push(pos);
            }
        }
    }
    out
}
