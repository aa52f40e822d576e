//! `jtb site`: what the static site holds (the page told where its tables are, the package,
//! the tables and their listings, the table routes' answers equal to the server's over the
//! same tables), and its refusals. The site in a browser: `serve_browser.rs`.

mod serve_support;

use std::{fs, path::Path, process::Command};

use serve_support::{gen, get, Server};

/// A stand-in for the built npm package: the four files `jtb site` copies.
fn package(dir: &Path) {
    for (file, text) in [
        ("index.js", "export {};"),
        ("sources.js", "export {};"),
        ("pkg/jtb.js", "export default 0;"),
        ("pkg/jtb_bg.wasm", "\0asm"),
    ] {
        let path = dir.join(file);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
}

fn site(args: &[&str], tables: &Path, out: &Path, package: &Path) -> (bool, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_jtb"))
        .arg("site")
        .arg("--tables")
        .arg(tables)
        .arg("--out")
        .arg(out)
        .arg("--package")
        .arg(package)
        .args(args)
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_site_holds_the_page_the_package_the_tables_and_the_answers_of_the_table_routes() {
    let tables = tempfile::tempdir().unwrap();
    gen(tables.path(), "mistboard", &["LRvE"]);
    gen(tables.path(), "animal-gambit", &["ERvR"]);
    let work = tempfile::tempdir().unwrap();
    let pkg = work.path().join("package");
    package(&pkg);
    let out = work.path().join("site");
    let (ok, err) = site(&["--rules", "mistboard"], tables.path(), &out, &pkg);
    assert!(ok, "{err}");

    let page = fs::read_to_string(out.join("index.html")).unwrap();
    assert!(page.contains("<meta name=\"jtb-tables\" content=\"tables/\">"));
    assert!(page.contains("src=\"assets/app.js\""), "relative links");
    assert_eq!(fs::read(out.join("jtb/pkg/jtb_bg.wasm")).unwrap(), b"\0asm");
    let server = Server::start(&out.join("tables"));
    assert_eq!(
        fs::read(out.join("assets/app.js")).unwrap(),
        get(server.addr, "/assets/app.js").body
    );

    // The tables of the rule set asked, byte for byte, and a listing of them.
    assert!(!out.join("tables/animal-gambit").exists());
    let listing = fs::read_to_string(out.join("tables/mistboard/index.html")).unwrap();
    let mut files = 0;
    for entry in fs::read_dir(tables.path().join("mistboard")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap();
        assert_eq!(
            fs::read(&path).unwrap(),
            fs::read(out.join("tables/mistboard").join(name)).unwrap()
        );
        assert!(listing.contains(&format!("<a href=\"{name}\">")), "{name}");
        files += 1;
    }
    assert!(files >= 9, "{files} table files");

    // The table routes' answers are the server's over the site's tables.
    let json = |path: &str| -> serde_json::Value {
        serde_json::from_slice(&fs::read(out.join("data").join(path)).unwrap()).unwrap()
    };
    assert_eq!(json("index.json"), get(server.addr, "/api/v1").json());
    let materials = json("mistboard/materials.json");
    assert_eq!(
        materials,
        get(server.addr, "/api/v1/mistboard/materials").json()
    );
    let mut stats = 0;
    for m in materials["materials"].as_array().unwrap() {
        let m = m.as_str().unwrap();
        let (a, b) = m.split_once('v').unwrap();
        for asked in [m.to_owned(), format!("{b}v{a}")] {
            let route = format!("/api/v1/mistboard/stats/{asked}");
            assert_eq!(
                json(&format!("mistboard/stats/{asked}.json")),
                get(server.addr, &route).json(),
                "{route}"
            );
            stats += 1;
        }
    }
    assert!(stats >= 6, "{stats} statistics");

    // A second run replaces the site, and leaves nothing beside it.
    let (ok, err) = site(&[], tables.path(), &out, &pkg);
    assert!(ok, "{err}");
    assert!(out.join("tables/animal-gambit/ERvR.dtm").exists());
    let beside: Vec<_> = fs::read_dir(work.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(beside.len(), 2, "{beside:?}");
}

#[test]
fn a_site_is_refused_with_the_reason_and_nothing_is_written() {
    let tables = tempfile::tempdir().unwrap();
    gen(tables.path(), "mistboard", &["EvL"]);
    let work = tempfile::tempdir().unwrap();
    let pkg = work.path().join("package");
    package(&pkg);
    let out = work.path().join("site");

    let (ok, err) = site(&[], tables.path(), &out, &work.path().join("nowhere"));
    assert!(!ok);
    assert!(err.contains("the browser package is not built"), "{err}");
    assert!(err.contains("npm run build"), "{err}");

    let (ok, err) = site(&["--rules", "chess"], tables.path(), &out, &pkg);
    assert!(!ok);
    assert!(err.contains("unknown rule set `chess`"), "{err}");

    let (ok, err) = site(&["--rules", "clesto"], tables.path(), &out, &pkg);
    assert!(!ok);
    assert!(err.contains("clesto: no tables in"), "{err}");

    let empty = tempfile::tempdir().unwrap();
    let (ok, err) = site(&[], empty.path(), &out, &pkg);
    assert!(!ok);
    assert!(err.contains("no rule set's tables here"), "{err}");
    assert!(!out.exists());

    // A folder of something else is not replaced.
    fs::create_dir_all(&out).unwrap();
    fs::write(out.join("notes.txt"), "mine").unwrap();
    let (ok, err) = site(&[], tables.path(), &out, &pkg);
    assert!(!ok);
    assert!(err.contains("is not a site written by jtb site"), "{err}");
    assert_eq!(fs::read_to_string(out.join("notes.txt")).unwrap(), "mine");
}
