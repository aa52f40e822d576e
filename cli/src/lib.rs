//! The `jtb` command as a library: [`main`] is the whole program (the `jtb` binary calls it),
//! and [`serve_in_process`] the server of `jtb serve` without a socket, for the fuzz target of
//! its HTTP API (`fuzz/fuzz_targets/http_api.rs`).
//!
//! Exit status: 0 when every input was answered (and every check passed), 1 when some input
//! line was bad or a check failed (each reported in place; the command goes on), 2 for a usage
//! error or a failure that stops the command, 3 when `jtb adjudicate` found no tables for some
//! position and every other input was answered. A closed output pipe ends the command quietly
//! with 0, as it does for ripgrep.

mod api;
mod commands;
mod games;
mod input;
mod serve;
mod table_set;

pub use self::serve::in_process as serve_in_process;

// Each command's module by its name in the crate.
use self::commands::{adjudicate, gen, info, moves, plan, probe, site, stats, verify};

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Endgame tablebases of Jungle (Dou Shou Qi), the Mistboard flip game, Clesto and Animal Gambit.
#[derive(Parser)]
#[command(name = "jtb", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the legal moves of positions (Animal Gambit: every distinct turn, separated by
    /// `, `).
    Moves(moves::Args),
    /// Generate tables (resumable: complete tables are kept).
    Gen(gen::Args),
    /// Write the generation of a table set as tasks: a list, a Makefile or a Slurm script.
    Plan(plan::Args),
    /// Probe positions: value, distance to mate, best move, line.
    Probe(probe::Args),
    /// Say whether positions are decided (dead draws) for an engine.
    Adjudicate(adjudicate::Args),
    /// Show what table files hold.
    Info(info::Args),
    /// Check table files: checksums, then every entry (DTM and DTC) against its successors.
    Verify(verify::Args),
    /// Win/draw/loss counts and longest wins per material.
    Stats(stats::Args),
    /// Serve the tablebase explorer page and the HTTP JSON API.
    Serve(serve::Args),
    /// Write the explorer as a static site: the page, the WebAssembly probe and the tables,
    /// for any static host with Range support.
    Site(site::Args),
}

/// An error that stops a command, shown as one line.
pub type CliResult = Result<bool, Box<dyn std::error::Error>>;

/// Runs `jtb` with the process's arguments; the exit status as the module documentation says.
#[must_use]
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Moves(args) => moves::run(&args).map_err(Into::into),
        Command::Gen(args) => gen::run(&args),
        Command::Plan(args) => plan::run(&args),
        Command::Probe(args) => probe::run(&args),
        Command::Adjudicate(args) => adjudicate::run(&args),
        Command::Info(args) => info::run(&args),
        Command::Verify(args) => verify::run(&args),
        Command::Stats(args) => stats::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Site(args) => site::run(&args),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        // A reader that closed the pipe (`jtb moves - | head -1`) wants no more: end quietly.
        Err(e) if is_broken_pipe(e.as_ref()) => ExitCode::SUCCESS,
        // Positions without tables (`jtb adjudicate`): each already said so on its line.
        Err(e) if e.is::<input::Uncovered>() => ExitCode::from(3),
        Err(e) => {
            eprintln!("jtb: {e}");
            ExitCode::from(2)
        }
    }
}

/// Whether `e`, or an error it came from, is a closed pipe.
fn is_broken_pipe(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(e);
    while let Some(c) = cause {
        if c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
        {
            return true;
        }
        cause = c.source();
    }
    false
}
