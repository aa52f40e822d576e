//! Positions from the command line or, for `-`, from standard input, one per line.

use std::io::{self, BufRead};

use jtb_probe::{ParseError, Position, RuleSet};

/// The positions named on the command line, with `-` expanded to the lines of standard input
/// (blank lines skipped). Calls `f` with each input text in order.
///
/// # Errors
/// Reading standard input failed.
pub fn for_each_input(args: &[String], mut f: impl FnMut(&str)) -> io::Result<()> {
    for arg in args {
        if arg == "-" {
            for line in io::stdin().lock().lines() {
                let line = line?;
                let text = line.trim();
                if !text.is_empty() {
                    f(text);
                }
            }
        } else {
            f(arg);
        }
    }
    Ok(())
}

/// Parses `text` under `rules`, or by the board's shape when no rule set was given.
pub fn parse(text: &str, rules: Option<RuleSet>) -> Result<Position, ParseError> {
    Position::parse(text, rules)
}
