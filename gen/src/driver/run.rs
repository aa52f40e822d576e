//! Solving a plan and writing its tables, for every game: the game solves the plan's groups in
//! turn ([`Solver`]); [`run`] hands each table, once it is solved and encoded, to a writer
//! thread of its own (writing and syncing the files then holds up no core, and the next table
//! is solved meanwhile), tells the front end, and keeps the summary.

use std::{
    io,
    path::PathBuf,
    sync::mpsc,
    time::{Duration, Instant},
};

use super::{
    files::{create_dir, remove_stale_temporaries, write_atomic},
    Progress, Summary,
};

/// How a game solves the groups of its plan ([`super::Plan::todo`]).
pub trait Solver {
    /// A table's name.
    type Table: Copy + Send + 'static;
    /// What stops the game's generation.
    type Error: From<io::Error>;

    /// The directory the tables go to (temporaries that killed generations left there are
    /// cleared first).
    fn dir(&self) -> PathBuf;

    /// Whether solving a group reads the files of the groups before it: each table is then
    /// written by [`Out::write`] on the solving thread, before it returns (where the game
    /// solves many small tables side by side, their writes then go side by side too).
    fn reads_written(&self) -> bool {
        false
    }

    /// Solves the tables of `group` (from the tables of earlier groups, those of this run or
    /// on disk), handing each to `out` as it is done; `later` holds the groups still to come,
    /// for the game to keep in memory what they need.
    ///
    /// # Errors
    /// The game's error; a table that `out` cannot take (the writer stopped).
    fn solve_group(
        &mut self,
        group: &[Self::Table],
        later: &[Vec<Self::Table>],
        out: &Out<'_, Self::Table>,
    ) -> Result<(), Self::Error>;
}

/// Where a game hands its solved tables.
pub struct Out<'a, T> {
    to_writer: mpsc::SyncSender<Message<T>>,
    progress: &'a dyn Progress<T>,
    /// Write on the solving thread ([`Solver::reads_written`]).
    write_here: bool,
}

/// A table being solved: when it began.
pub struct Started<T> {
    table: T,
    entries: u64,
    at: Instant,
}

/// A solved table, ready to write.
pub struct Made<T> {
    /// The table, as [`Out::start`] gave it.
    pub started: Started<T>,
    /// Its files, in the order to write them: the one that makes the table complete last.
    pub files: Vec<(PathBuf, Vec<u8>)>,
    /// Solved from its colour flip ([`Summary::from_flip`]).
    pub from_flip: bool,
    /// Where its time went, by the game's own phases (the time spent writing its files is
    /// added to `writing`).
    pub phases: Vec<(&'static str, Duration)>,
}

/// A table for the writer: to write, or written (by the solving thread, in that time).
struct Message<T> {
    made: Made<T>,
    written: Option<Duration>,
}

impl<T: Copy> Out<'_, T> {
    /// Solving `table` of `entries` begins.
    ///
    /// # Errors
    /// [`cancelled`] when the front end asked the generation to stop
    /// ([`Progress::cancelled`]): the table is not started.
    pub fn start(&self, table: T, entries: u64) -> io::Result<Started<T>> {
        if self.progress.cancelled() {
            return Err(cancelled());
        }
        self.progress.started(table, entries);
        Ok(Started {
            table,
            entries,
            at: Instant::now(),
        })
    }

    /// Hands a solved table to the writer. It waits while the writer has a table per thread
    /// still to write (a slow disk makes the solving wait, rather than encoded tables pile up).
    /// Where the game reads what it wrote ([`Solver::reads_written`]), the files are written
    /// here, before it returns.
    ///
    /// # Errors
    /// Writing failed (here), or the writer stopped (a write failed: [`run`] reports it).
    pub fn write(&self, mut made: Made<T>) -> io::Result<()> {
        let mut written = None;
        if self.write_here {
            written = Some(write_files(&made.files)?);
            made.files = Vec::new();
        }
        self.to_writer
            .send(Message { made, written })
            .map_err(|_| writer_stopped())
    }
}

/// The error of a generation the front end stopped ([`Progress::cancelled`]).
#[must_use]
pub fn cancelled() -> io::Error {
    io::Error::new(io::ErrorKind::Interrupted, "generation cancelled")
}

fn writer_stopped() -> io::Error {
    io::Error::other("the table writer stopped")
}

/// Solves the groups of `todo` with `solver`, in turn, writing each table as it comes: every
/// file atomically, in the order given. `summary` gets each table written, its entries, and
/// the phases of its time.
///
/// # Errors
/// The first write that failed (solving then stops too), or else the solver's error.
pub fn run<S: Solver>(
    solver: &mut S,
    todo: &[Vec<S::Table>],
    progress: &dyn Progress<S::Table>,
    summary: &mut Summary<S::Table>,
) -> Result<(), S::Error> {
    remove_stale_temporaries(&solver.dir());
    let write_here = solver.reads_written();
    std::thread::scope(|scope| {
        let (to_writer, tables) = mpsc::sync_channel(rayon::current_num_threads());
        let writer = scope.spawn(move || write_all(&tables, progress, summary));
        let out = Out {
            to_writer,
            progress,
            write_here,
        };
        let solved = (|| {
            for (g, group) in todo.iter().enumerate() {
                if progress.cancelled() {
                    return Err(cancelled().into());
                }
                if !group.is_empty() {
                    solver.solve_group(group, &todo[g + 1..], &out)?;
                }
            }
            Ok(())
        })();
        drop(out);
        let written = writer.join().expect("the table writer does not panic");
        // A failed write stops the solving too: report the write.
        written?;
        solved
    })
}

/// Writes every table that comes through `tables` (where the solving thread has not), in
/// turn, until the channel closes or a write fails (the channel then closes on the solving side
/// too), and records it.
fn write_all<T: Copy>(
    tables: &mpsc::Receiver<Message<T>>,
    progress: &dyn Progress<T>,
    summary: &mut Summary<T>,
) -> io::Result<()> {
    for Message { made, written } in tables {
        let writing = match written {
            Some(took) => took,
            None => write_files(&made.files)?,
        };
        let Started { table, entries, at } = made.started;
        summary.generated.push(table);
        summary.entries += entries;
        if made.from_flip {
            summary.from_flip.push(table);
        }
        for (name, took) in made.phases {
            summary.add_phase(name, took);
        }
        summary.add_phase("writing", writing);
        progress.finished(table, entries, at.elapsed());
    }
    Ok(())
}

/// Writes a table's files, atomically each, in the order given; returns the time it took.
fn write_files(files: &[(PathBuf, Vec<u8>)]) -> io::Result<Duration> {
    let began = Instant::now();
    for (path, bytes) in files {
        if let Some(dir) = path.parent() {
            create_dir(dir)?;
        }
        write_atomic(path, bytes)?;
    }
    Ok(began.elapsed())
}

#[cfg(test)]
mod tests {
    use std::{path::Path, sync::Mutex};

    use super::*;
    use crate::driver::Silent;

    /// Tables named by numbers, each one file `N.t` holding its name; a table `fail` stops the
    /// solve. Records, for each table, whether the files of the groups before it were there.
    struct Fake<'a> {
        dir: &'a Path,
        write_here: bool,
        fail: Option<u8>,
        saw_earlier: Mutex<Vec<bool>>,
    }

    impl Solver for Fake<'_> {
        type Table = u8;
        type Error = io::Error;

        fn dir(&self) -> PathBuf {
            self.dir.to_path_buf()
        }

        fn reads_written(&self) -> bool {
            self.write_here
        }

        fn solve_group(
            &mut self,
            group: &[u8],
            _: &[Vec<u8>],
            out: &Out<'_, u8>,
        ) -> io::Result<()> {
            for &t in group {
                // The first group's tables, for the last group's.
                let earlier = t < 20 || (0..10).all(|e| self.dir.join(format!("{e}.t")).exists());
                self.saw_earlier.lock().unwrap().push(earlier);
                if self.fail == Some(t) {
                    return Err(io::Error::other(format!("table {t} failed")));
                }
                let started = out.start(t, 1)?;
                out.write(Made {
                    started,
                    files: vec![(self.dir.join(format!("{t}.t")), vec![t])],
                    from_flip: t % 2 == 1,
                    phases: vec![("solving", Duration::from_millis(1))],
                })?;
            }
            Ok(())
        }
    }

    fn fake(dir: &Path, write_here: bool, fail: Option<u8>) -> Fake<'_> {
        Fake {
            dir,
            write_here,
            fail,
            saw_earlier: Mutex::new(Vec::new()),
        }
    }

    /// Groups of ten: 0..10, then 10..20 (empty), then 20..25.
    fn todo() -> Vec<Vec<u8>> {
        vec![(0..10).collect(), Vec::new(), (20..25).collect()]
    }

    #[test]
    fn every_table_is_written_and_summed() {
        for write_here in [false, true] {
            let dir = tempfile::tempdir().unwrap();
            let mut solver = fake(dir.path(), write_here, None);
            let mut summary = Summary::default();
            run(&mut solver, &todo(), &Silent, &mut summary).unwrap();
            let written: Vec<u8> = todo().concat();
            assert_eq!(summary.generated, written);
            assert_eq!(summary.entries, 15);
            assert_eq!(summary.from_flip, [1, 3, 5, 7, 9, 21, 23]);
            assert_eq!(summary.phases[0], ("solving", Duration::from_millis(15)));
            assert_eq!(summary.phases[1].0, "writing");
            for t in written {
                assert_eq!(
                    std::fs::read(dir.path().join(format!("{t}.t"))).unwrap(),
                    [t]
                );
            }
            if write_here {
                // A group sees every file of the groups before it.
                assert!(solver.saw_earlier.into_inner().unwrap().iter().all(|&s| s));
            }
        }
    }

    #[test]
    fn a_failed_write_is_the_error_and_stops_the_solving() {
        for write_here in [false, true] {
            let dir = tempfile::tempdir().unwrap();
            // The tables' directory cannot be made: a file stands in its place.
            let blocked = dir.path().join("tables");
            std::fs::write(&blocked, b"a file").unwrap();
            let mut solver = fake(&blocked, write_here, Some(22));
            let mut summary = Summary::default();
            let e = run(&mut solver, &todo(), &Silent, &mut summary).unwrap_err();
            assert!(
                e.to_string().contains(&blocked.display().to_string()),
                "{e}"
            );
            assert!(summary.generated.is_empty());
            // The solving stopped at the first group: the writer's failure reached it.
            assert!(solver.saw_earlier.into_inner().unwrap().len() <= 10);
        }
    }

    /// Asks to stop once `after` tables have started. Counted on the solving thread, where the
    /// next table's start asks: the writer thread hears of a table finished later, so a count
    /// of finished tables would let a loaded machine start one more.
    struct StopAfter {
        after: usize,
        started: std::sync::atomic::AtomicUsize,
    }

    impl Progress<u8> for StopAfter {
        fn planned(&self, _: usize, _: u64) {}
        fn kept(&self, _: u8) {}
        fn replacing(&self, _: u8, _: &str) {}
        fn started(&self, _: u8, _: u64) {
            self.started
                .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
        fn finished(&self, _: u8, _: u64, _: Duration) {}
        fn cancelled(&self) -> bool {
            self.started.load(std::sync::atomic::Ordering::SeqCst) >= self.after
        }
    }

    #[test]
    fn a_cancelled_run_stops_before_its_next_table_and_keeps_what_it_wrote() {
        let dir = tempfile::tempdir().unwrap();
        // Written on the solving thread: a table is finished before the next one starts.
        let mut solver = fake(dir.path(), true, None);
        let mut summary = Summary::default();
        let progress = StopAfter {
            after: 3,
            started: 0.into(),
        };
        let e = run(&mut solver, &todo(), &progress, &mut summary).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::Interrupted);
        assert_eq!(e.to_string(), "generation cancelled");
        assert_eq!(summary.generated, [0, 1, 2]);
        for t in 0..10 {
            assert_eq!(dir.path().join(format!("{t}.t")).exists(), t < 3);
        }
        // Cancelled before it began: nothing is solved.
        let mut solver = fake(dir.path(), false, None);
        let progress = StopAfter {
            after: 0,
            started: 0.into(),
        };
        let e = run(&mut solver, &todo(), &progress, &mut Summary::default()).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::Interrupted);
        assert!(solver.saw_earlier.into_inner().unwrap().is_empty());
    }

    #[test]
    fn the_solvers_error_comes_back_after_what_was_solved_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let mut solver = fake(dir.path(), false, Some(22));
        let mut summary = Summary::default();
        let e = run(&mut solver, &todo(), &Silent, &mut summary).unwrap_err();
        assert_eq!(e.to_string(), "table 22 failed");
        assert_eq!(summary.generated, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 20, 21]);
        assert!(dir.path().join("21.t").exists() && !dir.path().join("22.t").exists());
    }
}
