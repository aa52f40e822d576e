//! Table files on disk, for every game: written atomically, and the temporaries of killed
//! generations cleared.

use std::{
    fs::{self, File},
    io::{self, Write},
    path::Path,
};

/// This host's name as it goes into temporary file names: letters, digits and `-` only
/// (`localhost` where the system does not tell).
#[must_use]
pub fn host_name() -> String {
    let name = fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
    let name: String = name
        .trim()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    if name.is_empty() {
        "localhost".to_owned()
    } else {
        name
    }
}

/// Writes `bytes` to `path` atomically: a temporary file in the same directory (named after the
/// file, the host and the process), synced, then renamed over `path`. A crash leaves either the
/// old file, the new one, or a stray temporary (never a partial file under the final name).
///
/// # Errors
/// Any I/O error, with the path in its message.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("table");
    let tmp = dir.join(format!(
        ".{name}.{}.{}.tmp",
        host_name(),
        std::process::id()
    ));
    let with_path =
        |e: io::Error, p: &Path| io::Error::new(e.kind(), format!("{}: {e}", p.display()));
    let result = (|| {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp);
        return Err(with_path(e, path));
    }
    // Make the rename durable; not every platform can sync a directory.
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Creates `dir` and the directories above it, naming it in the error.
///
/// # Errors
/// Any I/O error, with the directory in its message.
pub fn create_dir(dir: &Path) -> io::Result<()> {
    fs::create_dir_all(dir).map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", dir.display())))
}

/// Removes temporary files (`.NAME.HOST.PID.tmp`, see [`write_atomic`]) left in `dir` by
/// generations that were killed. Only where the system lists live processes in `/proc`, and
/// only files of this host's processes that no longer run: a table directory may be shared by
/// the nodes of a cluster, whose processes this host cannot see.
pub fn remove_stale_temporaries(dir: &Path) {
    let proc = Path::new("/proc");
    let (true, Ok(entries)) = (proc.join("self").exists(), fs::read_dir(dir)) else {
        return;
    };
    let host = host_name();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(stem) = name
            .to_str()
            .and_then(|n| n.strip_prefix('.')?.strip_suffix(".tmp"))
        else {
            continue;
        };
        let mut parts = stem.rsplit('.');
        let (Some(pid), Some(their_host)) = (parts.next(), parts.next()) else {
            continue;
        };
        if their_host == host
            && !pid.is_empty()
            && pid.bytes().all(|b| b.is_ascii_digit())
            && !proc.join(pid).exists()
        {
            let _ = fs::remove_file(entry.path());
        }
    }
}
