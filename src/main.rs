//! The `z3doku` command: parses arguments, runs the library, prints.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use clap::{Args, Parser, Subcommand};
use std::io::{IsTerminal, Write};
use std::num::NonZeroUsize;
use std::ops::ControlFlow;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use z3doku::batch::{self, Batch, BatchFormat, LineError};
use z3doku::encoding::EncodingKind;
use z3doku::engine::{EngineKind, Settings};
use z3doku::grid::Size;
use z3doku::input::Source;
use z3doku::render::{OutputFormat, Show};
use z3doku::verdict::{self, Outcome, Status};

/// Exit status for usage and input errors (clap uses it too).
const EXIT_INPUT: u8 = 2;
/// Exit status for an internal error: a bug in z3doku.
const EXIT_INTERNAL: u8 = 5;

#[derive(Parser)]
#[command(
    name = "z3doku",
    version,
    about = "Solve Sudoku with the Z3 SMT solver, prove solutions unique, and explain puzzles without one.",
    after_help = "Exit status: 0 solved (and unique, when asked); 1 no solution; 2 usage or input \
                  error; 3 not unique; 4 gave up (timeout or Z3 unknown); 5 internal error."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve one puzzle and print the solution.
    Solve(SolveArgs),
    /// Solve a file of puzzles, one per line, printing a line per puzzle in input order.
    Batch(BatchArgs),
}

/// Where the puzzle comes from and how to read it.
#[derive(Args)]
struct PuzzleArgs {
    /// The puzzle: its text (81 characters, `.` `0` `*` `_` for blanks), a file holding it
    /// (one line or a grid of rows), or `-` for standard input.
    #[arg(value_name = "PUZZLE")]
    puzzle: String,

    /// The board's side (4, 9, 16 or 25), when the input should not decide it.
    #[arg(long, value_name = "N", value_parser = parse_side)]
    size: Option<Size>,
}

/// How to solve.
#[derive(Args)]
struct SolveOptions {
    /// The engine that searches.
    #[arg(long, value_enum, default_value_t)]
    engine: EngineKind,

    /// How Z3 sees the puzzle.
    #[arg(long, value_enum, default_value_t)]
    encoding: EncodingKind,

    /// Give up on the puzzle after this many milliseconds (exit status 4).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    timeout: Option<u64>,
}

/// How to print.
#[derive(Args)]
struct OutputOptions {
    /// The output format.
    #[arg(long, short, value_enum, default_value_t)]
    output: OutputFormat,

    /// Colour and bold in the pretty table: `auto` uses them on a terminal unless NO_COLOR is
    /// set.
    #[arg(long, value_enum, default_value_t)]
    color: ColorChoice,
}

#[derive(Args)]
struct SolveArgs {
    #[command(flatten)]
    input: PuzzleArgs,

    #[command(flatten)]
    solve: SolveOptions,

    #[command(flatten)]
    output: OutputOptions,

    /// Also print the Z3 model, one `c_R_C -> digit` per line.
    #[arg(long)]
    model: bool,

    /// Prove the solution unique by solving again with it blocked (exit status 3 if not).
    #[arg(long)]
    unique: bool,
}

#[derive(Args)]
#[command(
    after_help = "Blank lines and `#` comment lines are skipped and print nothing, so the \
                  output has one line per puzzle line. Exit status: the largest of the lines' \
                  statuses (0 solved, 1 no solution, 2 a bad line, 3 not unique, 4 gave up, \
                  5 internal error); 130 when interrupted."
)]
struct BatchArgs {
    /// The file of puzzles, one per line, or `-` for standard input.
    #[arg(value_name = "FILE")]
    file: String,

    /// The board's side (4, 9, 16 or 25) of every puzzle, when the lines should not decide it.
    #[arg(long, value_name = "N", value_parser = parse_side)]
    size: Option<Size>,

    #[command(flatten)]
    solve: SolveOptions,

    /// The output format: `line`, the solution (or the status word `multiple`, `none`,
    /// `gave-up` or `error`) per puzzle; `json`, an object per puzzle (JSON Lines).
    #[arg(long, short, value_enum, default_value_t)]
    output: BatchFormat,

    /// Prove each solution unique (status `multiple` if not).
    #[arg(long)]
    unique: bool,

    /// Solve this many puzzles at once [default: the number of cores].
    #[arg(long, short, value_name = "N")]
    jobs: Option<NonZeroUsize>,

    /// No progress bar and no summary on standard error.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}

impl OutputOptions {
    fn color(&self) -> bool {
        match self.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::io::stdout().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
        }
    }
}

impl SolveOptions {
    fn settings(&self, keep_models: bool) -> Settings {
        Settings {
            engine: self.engine,
            encoding: self.encoding,
            timeout: self.timeout.map(Duration::from_millis),
            keep_models,
        }
    }
}

fn parse_side(text: &str) -> Result<Size, String> {
    text.parse::<usize>()
        .ok()
        .and_then(Size::from_side)
        .ok_or_else(|| format!("{text:?} is not a board side: use 4, 9, 16 or 25"))
}

/// A failure that ends the command: its message and exit status.
struct Failure {
    message: String,
    code: u8,
}

impl From<verdict::InternalError> for Failure {
    fn from(e: verdict::InternalError) -> Self {
        Failure {
            message: e.to_string(),
            code: EXIT_INTERNAL,
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Solve(args) => solve(&args),
        Command::Batch(args) => batch(&args),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(Failure { message, code }) => {
            eprintln!("z3doku: {message}");
            ExitCode::from(code)
        }
    }
}

fn read_puzzle(args: &PuzzleArgs) -> Result<z3doku::grid::Grid, Failure> {
    let source = Source::from_arg(&args.puzzle);
    source.read_puzzle(args.size).map_err(|e| Failure {
        message: format!("{source}: {e}"),
        code: EXIT_INPUT,
    })
}

fn solve(args: &SolveArgs) -> Result<u8, Failure> {
    let puzzle = read_puzzle(&args.input)?;
    let outcome = verdict::solve(&puzzle, &args.solve.settings(args.model), args.unique)?;
    let show = Show {
        grids: true,
        models: args.model,
        verdict: args.unique,
        color: args.output.color(),
    };
    print(&args.output.output.renderer().outcome(&outcome, show))?;
    if args.output.output != OutputFormat::Json {
        report_failure(&outcome);
    }
    Ok(outcome.status.exit_code())
}

/// Exit status after Ctrl-C, as shells report a process ended by SIGINT.
const EXIT_INTERRUPTED: u8 = 130;

fn batch(args: &BatchArgs) -> Result<u8, Failure> {
    let source = match args.file.as_str() {
        "-" => Source::Stdin,
        path => Source::File(path.into()),
    };
    let input = batch::open(&args.file).map_err(|e| Failure {
        message: format!("{source}: {e}"),
        code: EXIT_INPUT,
    })?;
    let stop = stop_on_ctrl_c();
    let bar = match (
        args.quiet || !std::io::stderr().is_terminal(),
        args.file.as_str(),
    ) {
        (true, _) => indicatif::ProgressBar::hidden(),
        // Only a regular file can be read twice: counting a pipe's lines
        // would eat them.
        (false, path) if std::path::Path::new(path).is_file() => {
            batch::progress_bar(batch::open(path).ok().map(batch::count_puzzles))
        }
        (false, _) => batch::progress_bar(None),
    };
    let runner = Batch {
        settings: args.solve.settings(false),
        unique: args.unique,
        size: args.size,
        jobs: args.jobs.unwrap_or_else(batch::default_jobs),
    };
    let mut out = std::io::stdout().lock();
    let shared_terminal = !bar.is_hidden() && out.is_terminal();
    let mut write_error = None;
    let summary = runner
        .run(input, stop, |record| {
            bar.inc(1);
            if let Err(error) = &record.result {
                // JSON carries the message itself; an internal error is
                // always said out loud.
                if args.output == BatchFormat::Line || matches!(error, LineError::Internal { .. }) {
                    bar.suspend(|| eprintln!("z3doku: {source}: {error}"));
                }
            }
            let line = args.output.render(record);
            // Output on the bar's terminal must not be drawn over.
            let written = if shared_terminal {
                bar.suspend(|| out.write_all(line.as_bytes()))
            } else {
                out.write_all(line.as_bytes())
            };
            match written {
                Ok(()) => ControlFlow::Continue(()),
                Err(e) => {
                    write_error = Some(e);
                    ControlFlow::Break(())
                }
            }
        })
        .map_err(|e| Failure {
            message: e.to_string(),
            code: EXIT_INTERNAL,
        })?;
    bar.finish_and_clear();
    let flushed = match write_error {
        Some(e) => Err(e),
        None => out.flush(),
    };
    match flushed {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(0),
        Err(e) => {
            return Err(Failure {
                message: format!("cannot write the output: {e}"),
                code: EXIT_INPUT,
            });
        }
        Ok(()) => {}
    }
    if !args.quiet {
        eprint!("{}", summary.table());
    }
    Ok(if summary.interrupted {
        EXIT_INTERRUPTED
    } else {
        summary.worst
    })
}

/// A flag that the first Ctrl-C sets, for a clean stop; a second one, for
/// the impatient, ends the process at once.
fn stop_on_ctrl_c() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let on_interrupt = Arc::clone(&stop);
    if let Err(e) = ctrlc::set_handler(move || {
        if on_interrupt.swap(true, Ordering::SeqCst) {
            std::process::exit(i32::from(EXIT_INTERRUPTED));
        }
    }) {
        eprintln!("z3doku: warning: Ctrl-C will not stop cleanly: {e}");
    }
    stop
}

/// Says on standard error why there is no answer, if there is none.
fn report_failure(outcome: &Outcome) {
    match (outcome.status, &outcome.clash, &outcome.gave_up) {
        (Status::None, Some(clash), _) => eprintln!("no solution: {clash}"),
        (Status::None, None, _) => eprintln!("no solution"),
        (Status::GaveUp, _, reason) => {
            eprintln!(
                "gave up: {}",
                reason.as_deref().unwrap_or("no reason given")
            )
        }
        _ => {}
    }
}

/// Writes to standard output. A closed pipe (`z3doku ... | head -1`) ends
/// the program quietly with status 0, as the reader wanted no more.
fn print(text: &str) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => Err(Failure {
            message: format!("cannot write the output: {e}"),
            code: EXIT_INPUT,
        }),
    }
}
