//! Load test of `jtb serve`: probes per second and latency of `GET /api/v1/mistboard?position=`
//! (the value with every move), many kept-alive connections, against a table set on disk.
//!
//! ```sh
//! JTB_TABLES=tables cargo bench -p jtb --bench serve
//! ```
//!
//! The server is the `jtb` binary, started on a free port (two worker threads on two cores);
//! the client is this program (a small HTTP/1.1 client on tokio, one thread by default), on the
//! same machine. The positions are uniformly random legal positions of uniformly random
//! materials of the largest piece count present. First one pass over them all (blocks read
//! from the files: the cold figure), then each concurrency level for a fixed time (the warm
//! figure). Settings (environment): `JTB_TABLES` (required), `JTB_BENCH_POSITIONS` (4096),
//! `JTB_BENCH_SECONDS` (10), `JTB_BENCH_CONNECTIONS` (`1,4,16,64`),
//! `JTB_BENCH_CLIENT_THREADS` (1), `JTB_BENCH_SERVER_THREADS` and `JTB_BENCH_CACHE_MIB` (the
//! server's defaults), `JTB_BENCH_SERVER` (another `jtb` binary to serve, for side-by-side
//! runs; this build's by default) and `JTB_BENCH_SERVER_ARGS` (more `jtb serve` options, such
//! as `--response-cache-mib 0` for answers computed afresh) and `JTB_BENCH_BROWSER=1` (each
//! connection behaves as a browser does with answers it has seen: it sends `Accept-Encoding:
//! gzip` and, for a position it asked for before, `If-None-Match` with the tag it was given, so
//! that a repeated request may be answered `304 Not Modified`).
//!
//! Each line ends with the server's CPU time per answer (user and system, from `/proc`): what
//! a server can answer, where the requests a second also count this client's work.
//! `cli/benches/serve_side_by_side.sh` runs two builds' servers alternating.

use std::{
    io::{BufRead, BufReader},
    path::Path,
    process::{Child, Command, Stdio},
    sync::Arc,
    time::{Duration, Instant},
};

use jtb_probe::{Jungle, Material, Position, RuleSet, Tablebase};
use tokio::{
    io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader as AsyncBufReader},
    net::TcpStream,
};

fn setting(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_owned())
}

fn number(name: &str, default: usize) -> usize {
    setting(name, &default.to_string())
        .parse()
        .unwrap_or_else(|_| panic!("{name} must be a number"))
}

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// `n` request targets: random legal unfinished positions of random materials with the most
/// pieces of any table in `dir`.
fn targets(dir: &Path, n: usize) -> Vec<String> {
    let tb = Tablebase::open(dir, Jungle::Mistboard).expect("JTB_TABLES has mistboard tables");
    let materials: Vec<Material> = tb
        .materials()
        .into_iter()
        .filter(|m| m.total() == tb.max_pieces())
        .collect();
    let squares: Vec<_> = RuleSet::Mistboard.board().squares().collect();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut out = Vec::with_capacity(n);
    let mut moves = 0;
    while out.len() < n {
        let m = materials[rng.below(materials.len())];
        let turn = jtb_probe::Color::ALL[rng.below(2)];
        let placed = m.pieces().map(|p| (p, squares[rng.below(squares.len())]));
        let Ok(pos) = Position::from_pieces(RuleSet::Mistboard, turn, placed) else {
            continue;
        };
        if pos.is_game_over() {
            continue;
        }
        moves += pos.legal_moves().len();
        let text: String = pos.to_string().replace(' ', "%20");
        out.push(format!("/api/v1/mistboard?position={text}"));
    }
    println!(
        "{} positions of {} materials of {} pieces, {:.1} legal moves each on average",
        out.len(),
        materials.len(),
        tb.max_pieces(),
        moves as f64 / n as f64
    );
    out
}

/// `jtb serve` on a free port of localhost; killed when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(tables: &str, threads: Option<usize>, cache_mib: Option<usize>) -> Server {
        // Another build's server, to compare side by side in one run (`JTB_BENCH_SERVER`), and
        // options of its own (`JTB_BENCH_SERVER_ARGS`, e.g. `--response-cache-mib 0`).
        let server = std::env::var("JTB_BENCH_SERVER")
            .unwrap_or_else(|_| env!("CARGO_BIN_EXE_jtb").to_owned());
        // On CPUs of its own (`JTB_BENCH_SERVER_CPUS`): `taskset` runs the server in its own
        // process, so the process id read for the CPU time is the server's.
        let mut cmd = match std::env::var("JTB_BENCH_SERVER_CPUS") {
            Ok(cpus) => {
                let mut cmd = Command::new("taskset");
                cmd.args(["-c", &cpus, &server]);
                cmd
            }
            Err(_) => Command::new(server),
        };
        cmd.args(["serve", "--addr", "127.0.0.1:0", "--tables", tables]);
        cmd.args(setting("JTB_BENCH_SERVER_ARGS", "").split_whitespace());
        if let Some(n) = threads {
            cmd.args(["--threads", &n.to_string()]);
        }
        if let Some(n) = cache_mib {
            cmd.args(["--cache-mib", &n.to_string()]);
        }
        let mut child = cmd
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("jtb serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .trim()
            .strip_prefix("listening on http://")
            .expect("the listening line")
            .to_owned();
        Server { child, addr }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One kept-alive connection.
struct Conn {
    reader: AsyncBufReader<tokio::net::tcp::OwnedReadHalf>,
    writer: tokio::net::tcp::OwnedWriteHalf,
    line: String,
    body: Vec<u8>,
    /// As a browser: the tag of each target seen, by its index (`JTB_BENCH_BROWSER`).
    tags: Option<std::collections::HashMap<usize, String>>,
}

impl Conn {
    async fn open(addr: &str, browser: bool) -> std::io::Result<Conn> {
        let stream = TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        let (read, writer) = stream.into_split();
        Ok(Conn {
            reader: AsyncBufReader::new(read),
            writer,
            line: String::new(),
            body: Vec::new(),
            tags: browser.then(std::collections::HashMap::new),
        })
    }

    /// Sends `GET target` (the `key`th target); whether the answer was a 200 with a JSON
    /// object (gzipped or not), or, as a browser, a 304 for a tag it sent.
    async fn get(&mut self, key: usize, target: &str) -> std::io::Result<bool> {
        let mut request = format!("GET {target} HTTP/1.1\r\nHost: bench\r\n");
        let sent_tag = match &self.tags {
            Some(tags) => {
                request.push_str("Accept-Encoding: gzip, deflate, br\r\n");
                tags.get(&key)
                    .inspect(|tag| {
                        request.push_str(&format!("If-None-Match: {tag}\r\n"));
                    })
                    .is_some()
            }
            None => false,
        };
        request.push_str("\r\n");
        self.writer.write_all(request.as_bytes()).await?;
        self.line.clear();
        self.reader.read_line(&mut self.line).await?;
        let ok = self.line.starts_with("HTTP/1.1 200");
        let not_modified = sent_tag && self.line.starts_with("HTTP/1.1 304");
        let (mut length, mut gzipped) = (0, false);
        loop {
            self.line.clear();
            self.reader.read_line(&mut self.line).await?;
            let l = self.line.trim_end();
            if l.is_empty() {
                break;
            }
            if let Some((name, value)) = l.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse().unwrap_or(0);
                } else if name.eq_ignore_ascii_case("content-encoding") {
                    gzipped = value.trim() == "gzip";
                } else if name.eq_ignore_ascii_case("etag") {
                    if let Some(tags) = &mut self.tags {
                        tags.insert(key, value.trim().to_owned());
                    }
                }
            }
        }
        self.body.resize(length, 0);
        self.reader.read_exact(&mut self.body).await?;
        let json = if gzipped {
            self.body.starts_with(&[0x1f, 0x8b])
        } else {
            self.body.starts_with(b"{\"position\"")
        };
        Ok(not_modified || (ok && json))
    }
}

/// What one run measured.
struct Run {
    requests: usize,
    errors: usize,
    seconds: f64,
    /// Latencies in microseconds, sorted.
    micros: Vec<u32>,
}

impl Run {
    fn quantile(&self, q: f64) -> f64 {
        if self.micros.is_empty() {
            return f64::NAN;
        }
        let i = ((self.micros.len() - 1) as f64 * q).round() as usize;
        f64::from(self.micros[i]) / 1000.0
    }

    /// `server_cpu`: the server's CPU time over the run, in seconds, where the system tells.
    fn print(&self, label: &str, server_cpu: Option<f64>) {
        let per_request = server_cpu.map_or_else(String::new, |s| {
            format!("  server {:>5.1} us/req", s * 1e6 / self.requests as f64)
        });
        println!(
            "{label:<28} {:>9} req {:>10.0} req/s  p50 {:>6.3} ms  p90 {:>6.3} ms  p99 {:>6.3} ms  max {:>7.3} ms  errors {}{per_request}",
            self.requests,
            self.requests as f64 / self.seconds,
            self.quantile(0.5),
            self.quantile(0.9),
            self.quantile(0.99),
            self.quantile(1.0),
            self.errors
        );
    }
}

/// The CPU time (user and system) process `pid` has used, in seconds, where `/proc` tells.
fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command name, which is in parentheses and may hold spaces.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    // Linux counts in USER_HZ, 100 a second on every architecture it runs on.
    Some(ticks / 100.0)
}

/// `connections` clients, each on its own connection, each going through `targets` from its
/// own offset, until `rounds` passes over the targets are done or `time` is up.
async fn load(
    addr: &str,
    targets: Arc<Vec<String>>,
    connections: usize,
    time: Option<Duration>,
) -> Run {
    let start = Instant::now();
    let browser = setting("JTB_BENCH_BROWSER", "0") == "1";
    let per_client = targets.len().div_ceil(connections);
    let mut tasks = Vec::new();
    for c in 0..connections {
        let (targets, addr) = (Arc::clone(&targets), addr.to_owned());
        tasks.push(tokio::spawn(async move {
            let mut conn = Conn::open(&addr, browser).await.expect("connect");
            let (mut micros, mut errors) = (Vec::new(), 0);
            let mut k = 0usize;
            loop {
                let done = match time {
                    Some(t) => start.elapsed() >= t,
                    None => k >= per_client,
                };
                if done {
                    break;
                }
                let key = (c * per_client + k) % targets.len();
                let sent = Instant::now();
                match conn.get(key, &targets[key]).await {
                    Ok(true) => {}
                    Ok(false) => errors += 1,
                    Err(_) => {
                        errors += 1;
                        conn = Conn::open(&addr, browser).await.expect("reconnect");
                    }
                }
                micros.push(sent.elapsed().as_micros().min(u128::from(u32::MAX)) as u32);
                k += 1;
            }
            (micros, errors)
        }));
    }
    let mut run = Run {
        requests: 0,
        errors: 0,
        seconds: 0.0,
        micros: Vec::new(),
    };
    for t in tasks {
        let (micros, errors) = t.await.expect("client task");
        run.requests += micros.len();
        run.errors += errors;
        run.micros.extend(micros);
    }
    run.seconds = start.elapsed().as_secs_f64();
    run.micros.sort_unstable();
    run
}

fn main() {
    let Ok(tables) = std::env::var("JTB_TABLES") else {
        println!("serve bench: set JTB_TABLES to a table directory (e.g. the full 4-piece set)");
        return;
    };
    let positions = number("JTB_BENCH_POSITIONS", 4096);
    let seconds = number("JTB_BENCH_SECONDS", 10);
    let client_threads = number("JTB_BENCH_CLIENT_THREADS", 1);
    let optional = |name: &str| std::env::var(name).ok().map(|_| number(name, 0));
    let server_threads = optional("JTB_BENCH_SERVER_THREADS");
    let cache_mib = optional("JTB_BENCH_CACHE_MIB");
    let levels: Vec<usize> = setting("JTB_BENCH_CONNECTIONS", "1,4,16,64")
        .split(',')
        .map(|s| s.trim().parse().expect("JTB_BENCH_CONNECTIONS: numbers"))
        .collect();

    let targets = Arc::new(targets(Path::new(&tables), positions));
    let server = Server::start(&tables, server_threads, cache_mib);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(client_threads)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let pid = server.child.id();
        let cpu = cpu_seconds(pid);
        let cold = load(&server.addr, Arc::clone(&targets), 4, None).await;
        let mut cpu_before = cpu_seconds(pid);
        cold.print(
            "first pass, 4 connections",
            cpu_before.zip(cpu).map(|(b, a)| b - a),
        );
        for &c in &levels {
            let run = load(
                &server.addr,
                Arc::clone(&targets),
                c,
                Some(Duration::from_secs(seconds as u64)),
            )
            .await;
            let cpu_after = cpu_seconds(pid);
            let used = cpu_after.zip(cpu_before).map(|(a, b)| a - b);
            run.print(&format!("warm, {c} connections"), used);
            cpu_before = cpu_after;
        }
    });
}
