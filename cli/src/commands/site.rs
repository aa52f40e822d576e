//! `jtb site`: the explorer as a static site. One folder holds the page and its scripts, the
//! WebAssembly probe (the npm package of `wasm/`), the tables, a listing page in each rule
//! set's folder (for hosts that list no folder), and the answers of the API's table routes
//! (the rule sets, each one's materials and each material's statistics) written as files by
//! the server's own handlers. Any static host with Range support serves it, from any path: the
//! page probes the tables in the browser and sends no request but for files.

use std::{
    fs,
    io::{self, Write},
    path::{Path, PathBuf},
};

use axum::{body::Body, extract::ConnectInfo, http::Request};
use jtb_edge::Rules;
use tower::ServiceExt;

use crate::{serve, CliResult};

/// What a folder written by `jtb site` holds at its top, so that a later run may replace it.
const MARK: &str = ".jtb-site";

/// The package's files the page loads, relative to its folder (`wasm/`).
const PACKAGE_FILES: [&str; 4] = ["index.js", "sources.js", "pkg/jtb.js", "pkg/jtb_bg.wasm"];

#[derive(clap::Args)]
pub struct Args {
    /// Table root directory (a rule set's tables are in DIR/<rules>/).
    #[arg(long, value_name = "DIR", default_value = "tables")]
    tables: PathBuf,
    /// The folder to write the site to (replaced if it holds an earlier site).
    #[arg(long, value_name = "SITE")]
    out: PathBuf,
    /// A rule set to put in the site (repeatable); by default every rule set under DIR.
    #[arg(long = "rules", value_name = "RULES")]
    rules: Vec<String>,
    /// The built npm package jungle-tablebase (its folder: `index.js`, `pkg/jtb_bg.wasm`); by
    /// default the `wasm/` folder of the source tree jtb was built from, after `npm run build`.
    #[arg(long, value_name = "DIR")]
    package: Option<PathBuf>,
}

/// Why no site was written.
#[derive(Debug)]
enum SiteError {
    Package(PathBuf, &'static str),
    NoRules(PathBuf),
    NotARuleSet(String),
    NoTables(String, PathBuf),
    NotASite(PathBuf),
    Io(String, io::Error),
    Answer(String, u16, String),
}

impl std::fmt::Display for SiteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SiteError::Package(dir, file) => write!(
                f,
                "the browser package is not built: {} is missing (run `npm ci && npm run build` \
                 in wasm/, or give --package)",
                dir.join(file).display()
            ),
            SiteError::NoRules(dir) => write!(
                f,
                "{}: no rule set's tables here (make them with `jtb gen --rules R --out {}`)",
                dir.display(),
                dir.display()
            ),
            SiteError::NotARuleSet(name) => {
                let known: Vec<_> = Rules::all().into_iter().map(Rules::name).collect();
                write!(f, "unknown rule set `{name}` (known: {})", known.join(", "))
            }
            SiteError::NoTables(rules, dir) => {
                write!(f, "{rules}: no tables in {}", dir.display())
            }
            SiteError::NotASite(out) => write!(
                f,
                "{} exists and is not a site written by jtb site: give a new folder",
                out.display()
            ),
            SiteError::Io(what, e) => write!(f, "{what}: {e}"),
            SiteError::Answer(route, status, body) => {
                write!(f, "the server answered {route} with {status}: {body}")
            }
        }
    }
}

impl std::error::Error for SiteError {}

fn io_error(what: &Path) -> impl FnOnce(io::Error) -> SiteError + '_ {
    move |e| SiteError::Io(what.display().to_string(), e)
}

/// # Errors
/// A package not built, no tables, a folder that cannot be written: nothing is left behind
/// but the earlier site, if any.
pub fn run(args: &Args) -> CliResult {
    let package = args.package.clone().unwrap_or_else(|| {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join("wasm")
    });
    for file in PACKAGE_FILES {
        if !package.join(file).is_file() {
            return Err(SiteError::Package(package, file).into());
        }
    }
    let rules = rule_sets(args)?;
    if args.out.exists() && !args.out.join(MARK).exists() {
        let empty = fs::read_dir(&args.out)
            .map(|mut d| d.next().is_none())
            .unwrap_or(false);
        if !empty {
            return Err(SiteError::NotASite(args.out.clone()).into());
        }
    }
    let partial = sibling(&args.out, "partial");
    if partial.exists() {
        fs::remove_dir_all(&partial).map_err(io_error(&partial))?;
    }
    let written = write_site(args, &package, &rules, &partial);
    if let Err(e) = written {
        let _ = fs::remove_dir_all(&partial);
        return Err(e.into());
    }
    replace(&partial, &args.out)?;
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "wrote {} ({}): serve it from any static host with Range support",
        args.out.display(),
        rules
            .iter()
            .map(|r| r.name())
            .collect::<Vec<_>>()
            .join(", ")
    )?;
    Ok(true)
}

/// The rule sets to put in the site: those asked, else every one with a folder under DIR.
fn rule_sets(args: &Args) -> Result<Vec<Rules>, SiteError> {
    let rules = if args.rules.is_empty() {
        Rules::all()
            .into_iter()
            .filter(|r| args.tables.join(r.name()).is_dir())
            .collect()
    } else {
        let mut asked = Vec::new();
        for name in &args.rules {
            let r: Rules = name
                .parse()
                .map_err(|_| SiteError::NotARuleSet(name.clone()))?;
            if !args.tables.join(r.name()).is_dir() {
                return Err(SiteError::NoTables(name.clone(), args.tables.clone()));
            }
            if !asked.contains(&r) {
                asked.push(r);
            }
        }
        asked
    };
    if rules.is_empty() {
        return Err(SiteError::NoRules(args.tables.clone()));
    }
    Ok(rules)
}

/// `path` with `.suffix` added to its name.
fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{suffix}"));
    path.with_file_name(name)
}

/// Puts the finished site `partial` where `out` is, replacing an earlier site there.
fn replace(partial: &Path, out: &Path) -> Result<(), SiteError> {
    let old = sibling(out, "old");
    if old.exists() {
        fs::remove_dir_all(&old).map_err(io_error(&old))?;
    }
    if out.exists() {
        fs::rename(out, &old).map_err(io_error(out))?;
    }
    fs::rename(partial, out).map_err(io_error(out))?;
    if old.exists() {
        fs::remove_dir_all(&old).map_err(io_error(&old))?;
    }
    Ok(())
}

fn write(path: &Path, bytes: impl AsRef<[u8]>) -> Result<(), SiteError> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).map_err(io_error(dir))?;
    }
    fs::write(path, bytes).map_err(io_error(path))
}

fn write_site(args: &Args, package: &Path, rules: &[Rules], out: &Path) -> Result<(), SiteError> {
    fs::create_dir_all(out).map_err(io_error(out))?;
    // The page, told where its tables are: the same page as the server's, probing in the
    // browser instead of asking the API.
    let index = serve::page::INDEX_HTML.replacen(
        "<meta charset=\"utf-8\">",
        "<meta charset=\"utf-8\">\n<meta name=\"jtb-tables\" content=\"tables/\">",
        1,
    );
    write(&out.join("index.html"), index)?;
    for (name, text) in serve::page::ASSETS {
        write(&out.join("assets").join(name), text)?;
    }
    for file in PACKAGE_FILES {
        let from = package.join(file);
        let bytes = fs::read(&from).map_err(io_error(&from))?;
        write(&out.join("jtb").join(file), bytes)?;
    }
    let tables = out.join("tables");
    for r in rules {
        put_tables(&args.tables.join(r.name()), &tables.join(r.name()))?;
    }
    write_answers(&tables, rules, &out.join("data"))?;
    write(&out.join(MARK), "a site written by jtb site\n")
}

/// The table files of one rule set's folder, hard-linked where the file system allows, else
/// copied, and a listing page of them (`index.html`) for hosts that list no folder.
fn put_tables(from: &Path, to: &Path) -> Result<(), SiteError> {
    fs::create_dir_all(to).map_err(io_error(to))?;
    let mut names = Vec::new();
    for entry in fs::read_dir(from).map_err(io_error(from))? {
        let entry = entry.map_err(io_error(from))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let is_table = Path::new(&name)
            .extension()
            .and_then(|e| e.to_str())
            .and_then(jtb_probe::Kind::from_extension)
            .is_some();
        if !is_table || !entry.file_type().map_err(io_error(from))?.is_file() {
            continue;
        }
        let target = to.join(&name);
        if fs::hard_link(entry.path(), &target).is_err() {
            fs::copy(entry.path(), &target).map_err(io_error(&target))?;
        }
        names.push(name);
    }
    names.sort();
    let links: String = names
        .iter()
        .map(|n| format!("<a href=\"{n}\">{n}</a>\n"))
        .collect();
    write(
        &to.join("index.html"),
        format!("<!doctype html>\n<meta charset=\"utf-8\">\n<title>tables</title>\n{links}"),
    )
}

/// The answers of the API's table routes over the site's tables, as files under `data/`: the
/// rule sets (`index.json`), each one's materials (`<rules>/materials.json`), and each
/// material's statistics in both orientations (`<rules>/stats/<material>.json`).
fn write_answers(tables: &Path, rules: &[Rules], data: &Path) -> Result<(), SiteError> {
    let server = axum::Router::new().fallback_service(serve::in_process(tables));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .map_err(|e| SiteError::Io("the server's runtime".to_owned(), e))?;
    let get = |route: String| -> Result<(u16, Vec<u8>), SiteError> {
        let mut request = Request::get(&route)
            .body(Body::empty())
            .expect("a route is a URI");
        let client: std::net::SocketAddr = ([127, 0, 0, 1], 0).into();
        request.extensions_mut().insert(ConnectInfo(client));
        runtime.block_on(async {
            let response = server.clone().oneshot(request).await.expect("infallible");
            let status = response.status().as_u16();
            let body = axum::body::to_bytes(response.into_body(), 256 << 20)
                .await
                .map_err(|e| SiteError::Answer(route.clone(), status, e.to_string()))?;
            Ok((status, body.to_vec()))
        })
    };
    let ok = |route: String| -> Result<Vec<u8>, SiteError> {
        match get(route.clone())? {
            (200, body) => Ok(body),
            (status, body) => Err(SiteError::Answer(
                route,
                status,
                String::from_utf8_lossy(&body).into_owned(),
            )),
        }
    };
    write(&data.join("index.json"), ok("/api/v1".to_owned())?)?;
    for r in rules {
        let dir = data.join(r.name());
        let materials = ok(format!("/api/v1/{}/materials", r.name()))?;
        let listed: serde_json::Value = serde_json::from_slice(&materials)
            .map_err(|e| SiteError::Answer(r.name().to_owned(), 200, e.to_string()))?;
        write(&dir.join("materials.json"), materials)?;
        let names = listed["materials"].as_array().cloned().unwrap_or_default();
        for name in names.iter().filter_map(|m| m.as_str()) {
            let flipped = name
                .split_once('v')
                .map(|(a, b)| format!("{b}v{a}"))
                .filter(|f| f != name);
            for asked in std::iter::once(name.to_owned()).chain(flipped) {
                let route = format!("/api/v1/{}/stats/{asked}", r.name());
                if let (200, body) = get(route)? {
                    write(&dir.join("stats").join(format!("{asked}.json")), body)?;
                }
            }
        }
    }
    Ok(())
}
