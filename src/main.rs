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
use z3doku::bench;
use z3doku::emit::EmitFormat;
use z3doku::encoding::EncodingKind;
use z3doku::engine::{EngineError, EngineKind, Settings, new_engine};
use z3doku::grid::Size;
use z3doku::input::Source;
use z3doku::queens::{MAX_QUEENS, Queens};
use z3doku::render::{self, OutputFormat, Show};
use z3doku::verdict::{self, Outcome, Status};

/// Exit status for usage and input errors (clap uses it too).
const EXIT_INPUT: u8 = 2;
/// How long naming the clues to blame may take, without `--timeout`.
const EXPLAIN_BUDGET: Duration = Duration::from_secs(10);

/// Exit status for an internal error: a bug in z3doku.
const EXIT_INTERNAL: u8 = 5;

#[derive(Parser)]
#[command(
    name = "z3doku",
    version,
    about = "Solve Sudoku with the Z3 SMT solver, prove solutions unique, and explain puzzles without one.",
    after_help = "Exit status: 0 solved (and unique, when asked); 1 no solution; 2 usage or input \
                  error; 3 not unique; 4 gave up (timeout or Z3 unknown); 5 internal error; 130 interrupted (Ctrl-C)."
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
    /// Give a puzzle's verdict (unique, not unique, no solution) with its evidence.
    Check(CheckArgs),
    /// Count a puzzle's solutions, up to a limit.
    Count(CountArgs),
    /// Place N queens on an NxN board so that none attacks another.
    Queens(QueensArgs),
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

    /// How Z3 sees the puzzle [default: int].
    #[arg(long, value_enum)]
    encoding: Option<EncodingKind>,

    /// Give up on the puzzle after this many milliseconds (exit status 4).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    timeout: Option<u64>,

    /// Confirm the verdict with the other engine (native for Z3, Z3 for native).
    #[arg(long)]
    verify: bool,

    /// Also print the engine's statistics of the search (Z3: conflicts, decisions, propagations,
    /// memory; native: nodes) as a table on standard error.
    #[arg(long)]
    stats: bool,

    /// Cap Z3's memory at this many MiB (at least 64); past it Z3 gives up (exit status 4).
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u32).range(64..))]
    memory: Option<u32>,
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

#[derive(Args)]
struct CheckArgs {
    #[command(flatten)]
    input: PuzzleArgs,

    #[command(flatten)]
    solve: SolveOptions,

    #[command(flatten)]
    output: OutputOptions,

    /// Also draw the solution (both solutions, when not unique).
    #[arg(long)]
    grid: bool,

    /// Also print the Z3 model of each solve.
    #[arg(long)]
    model: bool,
}

#[derive(Args)]
struct CountArgs {
    #[command(flatten)]
    input: PuzzleArgs,

    #[command(flatten)]
    solve: SolveOptions,

    /// Stop counting at this many solutions.
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    limit: u64,

    /// Print each solution as a line, after the count.
    #[arg(long)]
    print: bool,
}

#[derive(Args)]
struct QueensArgs {
    /// The board's side and the number of queens.
    #[arg(value_name = "N", value_parser = clap::value_parser!(u64).range(1..=MAX_QUEENS as u64))]
    n: u64,

    /// Count the placements (by blocking each one found) instead of printing one.
    #[arg(long)]
    count: bool,

    /// With --count, stop at this many.
    #[arg(long, value_name = "L", default_value_t = 100_000, requires = "count", value_parser = clap::value_parser!(u64).range(1..))]
    limit: u64,

    /// `board`: a row per line, X for a queen and * for an empty square; `json`: the positions.
    #[arg(long, short, value_enum, default_value_t)]
    output: QueensOutput,

    /// Also print the Z3 model, one `q_R_C -> true|false` per line.
    #[arg(long, conflicts_with = "count")]
    model: bool,

    /// Give up after this many milliseconds (exit status 4).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    timeout: Option<u64>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
enum QueensOutput {
    #[default]
    Board,
    Json,
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
    /// The engine settings these options ask for, or why they do not fit
    /// together.
    fn settings(&self, keep_models: bool) -> Result<Settings, Failure> {
        if self.engine == EngineKind::Native && keep_models {
            return Err(usage(
                "--model prints Z3's model; the native engine has none",
            ));
        }
        if self.engine == EngineKind::Native && self.encoding.is_some() {
            return Err(usage(
                "--encoding chooses how Z3 sees the puzzle; it does not apply to --engine native",
            ));
        }
        if let Some(mib) = self.memory {
            // No Z3 context exists yet: nothing has touched Z3 before this.
            z3doku::engine::limit_z3_memory(mib);
        }
        Ok(Settings {
            engine: self.engine,
            encoding: self.encoding.unwrap_or_default(),
            timeout: self.timeout.map(Duration::from_millis),
            keep_models,
            keep_statistics: self.stats,
        })
    }

    /// The referee's settings for `--verify`: the other engine, same limits.
    fn referee(&self) -> Settings {
        Settings {
            engine: self.engine.referee(),
            timeout: self.timeout.map(Duration::from_millis),
            ..Settings::default()
        }
    }
}

fn parse_side(text: &str) -> Result<Size, String> {
    text.parse::<usize>()
        .ok()
        .and_then(Size::from_side)
        .ok_or_else(|| format!("{text:?} is not a board side: use 4, 9, 16 or 25"))
}

/// A usage error found after parsing: options that do not fit together.
fn usage(message: &str) -> Failure {
    Failure {
        message: message.to_string(),
        code: EXIT_INPUT,
    }
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
    if !matches!(cli.command, Command::Batch(_)) {
        // One search has nothing to save: say so and go. (Batch stops
        // cleanly on its own handler.)
        let _ = ctrlc::set_handler(|| {
            eprintln!("z3doku: interrupted");
            std::process::exit(i32::from(EXIT_INTERRUPTED));
        });
    }
    let result = match cli.command {
        Command::Solve(args) => solve(&args),
        Command::Batch(args) => batch(&args),
        Command::Check(args) => check(&args),
        Command::Count(args) => count(&args),
        Command::Queens(args) => queens(&args),
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

/// Solves a puzzle; when it has no solution, names the clues to blame; with
/// `--verify`, has the other engine confirm the verdict.
fn verdict_of(
    input: &PuzzleArgs,
    options: &SolveOptions,
    model: bool,
    unique: bool,
) -> Result<Outcome, Failure> {
    let settings = options.settings(model)?;
    let puzzle = read_puzzle(input)?;
    let mut engine = new_engine(&settings);
    let mut outcome = verdict::solve_with(engine.as_mut(), &puzzle, unique)?;
    if options.stats {
        eprint!("{}", render::statistics_table(&engine.statistics()));
    }
    // Naming the clues to blame takes many solves: each gets the timeout,
    // and all of them together the same again, so a refutation that is
    // hard for the engine cannot hold the answer up for long.
    let budget = settings.timeout.unwrap_or(EXPLAIN_BUDGET);
    let mut explainer = new_engine(&Settings {
        timeout: Some(budget),
        keep_models: false,
        ..settings.clone()
    });
    verdict::explain(explainer.as_mut(), &mut outcome, budget)?;
    if options.verify {
        let referee = options.referee();
        if !verdict::confirm(new_engine(&referee).as_mut(), referee.engine, &mut outcome)? {
            eprintln!("not verified: an engine gave up before reaching a verdict");
        }
    }
    Ok(outcome)
}

/// Says on standard error which engine confirmed the verdict, if one did.
fn report_verified(outcome: &Outcome) {
    if let Some(referee) = outcome.verified_by {
        eprintln!(
            "verified: the {} engine agrees ({})",
            referee.name(),
            outcome.status.name()
        );
    }
}

fn solve(args: &SolveArgs) -> Result<u8, Failure> {
    let outcome = verdict_of(&args.input, &args.solve, args.model, args.unique)?;
    let show = Show {
        grids: true,
        models: args.model,
        verdict: args.unique,
        color: args.output.color(),
    };
    print(&args.output.output.renderer().outcome(&outcome, show))?;
    if args.output.output != OutputFormat::Json
        && matches!(outcome.status, Status::None | Status::GaveUp)
    {
        eprintln!("{}", outcome.summary());
    }
    if args.output.output != OutputFormat::Json {
        report_verified(&outcome);
    }
    Ok(outcome.status.exit_code())
}

fn check(args: &CheckArgs) -> Result<u8, Failure> {
    let outcome = verdict_of(&args.input, &args.solve, args.model, true)?;
    let format = args.output.output;
    let show = Show {
        grids: args.grid,
        models: args.model,
        verdict: false,
        color: args.output.color(),
    };
    let mut text = format.renderer().outcome(&outcome, show);
    if format != OutputFormat::Json {
        text = format!("{}\n{text}", outcome.summary());
        report_verified(&outcome);
    }
    print(&text)?;
    Ok(outcome.status.exit_code())
}

fn count(args: &CountArgs) -> Result<u8, Failure> {
    let settings = args.solve.settings(false)?;
    let puzzle = read_puzzle(&args.input)?;
    let mut engine = new_engine(&settings);
    let limit = usize::try_from(args.limit).unwrap_or(usize::MAX);
    // The count comes first, so solutions wait until it is known.
    let mut lines = String::new();
    let count = verdict::count_with(engine.as_mut(), &puzzle, limit, &mut |grid| {
        if args.print {
            lines += &grid.to_line();
            lines.push('\n');
        }
    })?;
    if args.solve.stats {
        eprint!("{}", render::statistics_table(&engine.statistics()));
    }
    if args.solve.verify {
        let referee = args.solve.referee();
        let mut engine = new_engine(&referee);
        match verdict::confirm_count(engine.as_mut(), referee.engine, &puzzle, limit, &count)? {
            true => eprintln!(
                "verified: the {} engine agrees ({})",
                referee.engine.name(),
                count.summary()
            ),
            false => eprintln!("not verified: an engine gave up before finishing the count"),
        }
    }
    print(&format!("{}\n{lines}", count.summary()))?;
    Ok(count.exit_code())
}

fn queens(args: &QueensArgs) -> Result<u8, Failure> {
    let n = usize::try_from(args.n).unwrap_or(MAX_QUEENS);
    let mut queens = Queens::new(n, args.timeout.map(Duration::from_millis), args.model);
    let json = args.output == QueensOutput::Json;
    let failure = |e: EngineError| match e {
        EngineError::GaveUp(reason) => Failure {
            message: format!("gave up: {reason}"),
            code: Status::GaveUp.exit_code(),
        },
        EngineError::Internal(_) => Failure {
            message: e.to_string(),
            code: EXIT_INTERNAL,
        },
    };
    if args.count {
        let limit = usize::try_from(args.limit).unwrap_or(usize::MAX);
        let mut found = 0;
        while found < limit && queens.next_placement().map_err(failure)?.is_some() {
            found += 1;
        }
        let limit_reached = found == limit;
        print(&if json {
            format!(
                "{}\n",
                serde_json::json!({"n": n, "count": found, "limit_reached": limit_reached})
            )
        } else if limit_reached {
            format!("{found} solutions (limit reached)\n")
        } else {
            format!(
                "{found} {}\n",
                if found == 1 { "solution" } else { "solutions" }
            )
        })?;
        return Ok(if found == 0 {
            Status::None.exit_code()
        } else {
            0
        });
    }
    let Some(placement) = queens.next_placement().map_err(failure)? else {
        if json {
            print(&format!(
                "{}\n",
                serde_json::json!({"n": n, "status": "none", "queens": []})
            ))?;
        } else {
            eprintln!("no solution: {n} queens cannot be placed on a {n}x{n} board");
        }
        return Ok(Status::None.exit_code());
    };
    let mut text = placement.model.clone().unwrap_or_default();
    if json {
        let positions: Vec<[usize; 2]> = placement
            .columns
            .iter()
            .enumerate()
            .map(|(r, &c)| [r + 1, c + 1])
            .collect();
        text += &format!(
            "{}\n",
            serde_json::json!({"n": n, "status": "solved", "queens": positions})
        );
    } else {
        text += &placement.board();
    }
    print(&text)?;
    Ok(0)
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

/// Exit status after Ctrl-C, as shells report a process ended by SIGINT.
const EXIT_INTERRUPTED: u8 = 130;

fn batch(args: &BatchArgs) -> Result<u8, Failure> {
    if args.solve.stats {
        return Err(usage(
            "--stats shows one search; batch runs many: see its summary instead",
        ));
    }
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
        settings: args.solve.settings(false)?,
        unique: args.unique,
        size: args.size,
        jobs: args.jobs.unwrap_or_else(batch::default_jobs),
        referee: args.solve.verify.then(|| args.solve.referee()),
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
