//! The `z3doku` command: parses arguments, runs the library, prints.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use clap::{Args, Parser, Subcommand};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;
use z3doku::bench;
use z3doku::emit::EmitFormat;
use z3doku::encoding::EncodingKind;
use z3doku::engine::{EngineKind, Settings, new_engine};
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
    /// Write a puzzle's formula for another solver: SMT-LIB 2 or DIMACS CNF.
    Emit(EmitArgs),
    /// Solve a file of puzzles with each engine and encoding, check every answer, and print one
    /// table of the timings.
    Bench(BenchArgs),
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

    /// Also print the Z3 model by the encoding's names: `c_R_C -> digit` per cell (int), the true
    /// `x_R_C_D -> true` literals (bool, pb).
    #[arg(long)]
    model: bool,

    /// Prove the solution unique by solving again with it blocked (exit status 3 if not).
    #[arg(long)]
    unique: bool,

    /// Also print Z3's statistics of the search (conflicts, decisions, propagations, memory,
    /// time) as a table on standard error.
    #[arg(long)]
    stats: bool,
}

#[derive(Args)]
struct EmitArgs {
    #[command(flatten)]
    input: PuzzleArgs,

    /// The file format: `smt2` for `z3 -smt2`, `dimacs` for any SAT solver (always the `bool`
    /// encoding).
    #[arg(long, value_enum, default_value_t)]
    format: EmitFormat,

    /// The encoding to write (SMT-LIB 2 only).
    #[arg(long, value_enum, default_value_t)]
    encoding: EncodingKind,
}

#[derive(Args)]
struct BenchArgs {
    /// A file of one-line puzzles (`#` comment lines and blank lines are skipped).
    #[arg(value_name = "FILE")]
    file: std::path::PathBuf,

    /// Only the first N puzzles.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    limit: Option<u64>,

    /// Also prove each solution unique.
    #[arg(long)]
    unique: bool,

    /// The engines to run, each a row (repeat, or separate with commas).
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = [EngineKind::Z3])]
    engine: Vec<EngineKind>,

    /// The encodings to run on Z3, each a row (repeat, or separate with commas).
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = EncodingKind::ALL)]
    encoding: Vec<EncodingKind>,

    /// Give up on a puzzle after this many milliseconds.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    timeout: Option<u64>,
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
        Command::Emit(args) => emit(&args),
        Command::Bench(args) => bench(&args),
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
    let mut engine = new_engine(&args.solve.settings(args.model));
    let outcome = verdict::solve_with(engine.as_mut(), &puzzle, args.unique)?;
    if args.stats {
        eprint!("{}", statistics_table(&engine.statistics()));
    }
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

fn emit(args: &EmitArgs) -> Result<u8, Failure> {
    let puzzle = read_puzzle(&args.input)?;
    print(&match args.format {
        EmitFormat::Smt2 => z3doku::emit::smt2(&puzzle, args.encoding),
        EmitFormat::Dimacs => z3doku::emit::dimacs(&puzzle),
    })?;
    Ok(0)
}

fn bench(args: &BenchArgs) -> Result<u8, Failure> {
    let limit = args.limit.map(|n| usize::try_from(n).unwrap_or(usize::MAX));
    let puzzles = bench::read_puzzles(&args.file, limit).map_err(|e| Failure {
        message: format!("{}: {e}", args.file.display()),
        code: EXIT_INPUT,
    })?;
    let configs = bench::Config::combinations(&args.engine, &args.encoding);
    let timeout = args.timeout.map(Duration::from_millis);
    let rows = bench::run(&puzzles, &configs, args.unique, timeout)?;
    print(&bench::table(&rows, args.unique))?;
    Ok(0)
}

/// Statistics as a two-column table.
fn statistics_table(rows: &[(String, String)]) -> String {
    let mut builder = tabled::builder::Builder::new();
    builder.push_record(["statistic", "value"]);
    for (name, value) in rows {
        builder.push_record([name, value]);
    }
    let mut table = builder.build();
    table.with(tabled::settings::Style::sharp());
    format!("{table}\n")
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
