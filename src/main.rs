//! The `z3doku` command: parses arguments, runs the library, prints.

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = cli::args::Cli::parse();
    match cli::run(args.command) {
        Ok(code) => ExitCode::from(code),
        Err(cli::Failure { message, code }) => {
            eprintln!("z3doku: {message}");
            ExitCode::from(code)
        }
    }
}
