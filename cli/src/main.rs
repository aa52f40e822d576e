//! `jtb`: generate, probe and verify Jungle and flip-game endgame tablebases.
//!
//! Exit status: 0 when every input was answered, 1 when some input line was bad (each bad line
//! is reported in place and the command goes on), 2 for a usage error or a failure that stops
//! the command.

mod input;
mod moves;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Jungle (Dou Shou Qi) and Mistboard flip-game endgame tablebases.
#[derive(Parser)]
#[command(name = "jtb", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the legal moves of positions.
    Moves(moves::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Moves(args) => moves::run(&args),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("jtb: {e}");
            ExitCode::from(2)
        }
    }
}
