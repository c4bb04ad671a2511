//! The `z3doku` command: parses arguments, runs the library, prints.

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    // A panic the Z3 engine catches (Z3 out of memory) becomes a verdict;
    // it must not print on its way there.
    z3doku::engine::z3::quiet_guarded_panics();
    let args = match cli::args::Cli::try_parse() {
        Ok(args) => args,
        Err(e) => return ExitCode::from(cli::refuse(&e)),
    };
    match cli::run(args.command) {
        Ok(code) => ExitCode::from(code),
        Err(cli::Failure { message, code }) => {
            eprintln!("z3doku: {message}");
            ExitCode::from(code)
        }
    }
}
