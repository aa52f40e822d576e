//! `jtb`: generate, probe, verify and serve endgame tablebases of Jungle, the Mistboard flip
//! game, Clesto and Animal Gambit (the program is the library's [`jtb_cli::main`]).

fn main() -> std::process::ExitCode {
    jtb_cli::main()
}
