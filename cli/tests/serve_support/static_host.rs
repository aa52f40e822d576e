//! A plain static file host, as a site written by `jtb site` is served from: GET and HEAD,
//! single byte ranges (206, 416), a folder answered by its `index.html`, nothing else. Every
//! request's target is kept, so that a test can say what the page asked for.

use std::{
    io::{BufRead, BufReader, Read, Seek, SeekFrom, Write},
    net::{SocketAddr, TcpListener, TcpStream},
    path::{Path, PathBuf},
    sync::{Arc, Mutex},
    thread,
};

/// A static host over a folder, on a free port of localhost, serving until the process ends.
pub struct StaticHost {
    /// Where it listens.
    pub addr: SocketAddr,
    requests: Arc<Mutex<Vec<String>>>,
}

impl StaticHost {
    /// Serves the files under `root`.
    pub fn start(root: &Path) -> StaticHost {
        StaticHost::start_with(root, true)
    }

    /// As [`StaticHost::start`]; without `ranges`, Range headers are ignored (a whole file in
    /// a `200`), as some development servers do.
    pub fn start_with(root: &Path, ranges: bool) -> StaticHost {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let (root, seen) = (root.to_owned(), Arc::clone(&requests));
        thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (root, seen) = (root.clone(), Arc::clone(&seen));
                thread::spawn(move || {
                    let _ = answer(stream, &root, &seen, ranges);
                });
            }
        });
        StaticHost { addr, requests }
    }

    /// The request targets (path and query) so far.
    pub fn requests(&self) -> Vec<String> {
        self.requests.lock().unwrap().clone()
    }
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("json") => "application/json",
        Some("svg") => "image/svg+xml",
        Some("wasm") => "application/wasm",
        _ => "application/octet-stream",
    }
}

/// Answers the requests of one connection (kept alive) until the client closes it.
fn answer(
    stream: TcpStream,
    root: &Path,
    seen: &Mutex<Vec<String>>,
    ranges: bool,
) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut out = stream;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let mut parts = line.split_whitespace();
        let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
        let (method, target) = (method.to_owned(), target.to_owned());
        let mut range = None;
        loop {
            let mut header = String::new();
            reader.read_line(&mut header)?;
            let header = header.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                if ranges && name.eq_ignore_ascii_case("range") {
                    range = Some(value.trim().to_owned());
                }
            }
        }
        seen.lock().unwrap().push(target.clone());
        let path = target.split('?').next().unwrap_or("/");
        let decoded = percent_decode(path);
        let mut file: PathBuf = root.to_owned();
        for part in decoded.split('/').filter(|p| !p.is_empty()) {
            if part == ".." {
                file = PathBuf::from("/nonexistent");
                break;
            }
            file.push(part);
        }
        if file.is_dir() {
            file.push("index.html");
        }
        let Ok(mut body) = std::fs::File::open(&file) else {
            write!(
                out,
                "HTTP/1.1 404 Not Found\r\ncontent-length: 9\r\n\r\nnot found"
            )?;
            continue;
        };
        let size = body.metadata()?.len();
        let head = method == "HEAD";
        let bytes = range
            .as_deref()
            .and_then(|r| r.strip_prefix("bytes="))
            .and_then(|r| {
                let (first, last) = r.split_once('-')?;
                let first: u64 = first.parse().ok()?;
                let last: u64 = if last.is_empty() {
                    size.saturating_sub(1)
                } else {
                    last.parse().ok()?
                };
                Some((first, last.min(size.saturating_sub(1))))
            });
        let kind = content_type(&file);
        let (status, first, len, extra) = match bytes {
            Some((first, last)) if first >= size || last < first => {
                write!(out, "HTTP/1.1 416 Range Not Satisfiable\r\ncontent-range: bytes */{size}\r\ncontent-length: 0\r\n\r\n")?;
                continue;
            }
            Some((first, last)) => (
                "206 Partial Content",
                first,
                last - first + 1,
                format!("content-range: bytes {first}-{last}/{size}\r\n"),
            ),
            None => ("200 OK", 0, size, String::new()),
        };
        write!(
            out,
            "HTTP/1.1 {status}\r\ncontent-type: {kind}\r\ncontent-length: {len}\r\naccept-ranges: bytes\r\n{extra}\r\n"
        )?;
        if !head {
            body.seek(SeekFrom::Start(first))?;
            std::io::copy(&mut (&mut body).take(len), &mut out)?;
        }
        out.flush()?;
    }
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let Ok(b) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
