//! The command line: clap's flags ([`args`]) become the library's requests
//! ([`options`]); one function per command calls the library and prints,
//! in one of the [`render`] formats, with [`tables`] on standard error.
//! Terminal concerns (colour, progress, Ctrl-C, closed pipes) live here and
//! nowhere in the library.

pub mod args;
mod batch;
mod generate;
mod listen;
mod options;
mod render;
mod tables;
mod tutor;

use args::{
    BenchArgs, CandidatesArgs, CandidatesFormat, CheckArgs, CliCommand, CountArgs, DrawArgs,
    EmitArgs, EmitFormat, MinimizeArgs, MinimizeFormat, PictureArgs, PictureFormat, PuzzleArgs,
    QueensArgs, QueensFormat, ReportFormat, ResultFormat, SolveArgs,
};
use render::Show;
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};
use z3doku::bench;
use z3doku::engine::z3::emit;
use z3doku::engine::{Budget, EncodingKind, EngineError, EngineKind};
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::fpuzzles;
use z3doku::puzzle::input::{Source, display_path};
use z3doku::puzzle::sigh;
use z3doku::queens::{MAX_QUEENS, Queens};
use z3doku::report::Report;
use z3doku::solve::minimize::{parse_cells, parse_rule_items};
use z3doku::solve::{InternalError, Outcome, Pipeline, Status, clue_text, exit};

/// A failure that ends the command: its message and exit status.
pub struct Failure {
    /// The message, printed as `z3doku: MESSAGE`.
    pub message: String,
    /// The exit status.
    pub code: u8,
}

impl Failure {
    /// A usage error: flags that do not fit together.
    fn usage(message: &str) -> Failure {
        Failure::input(message.to_string())
    }

    /// An input error.
    fn input(message: String) -> Failure {
        Failure {
            message,
            code: exit::INPUT,
        }
    }

    /// An internal error: a bug in z3doku.
    fn internal(message: String) -> Failure {
        Failure {
            message,
            code: exit::INTERNAL,
        }
    }
}

impl From<InternalError> for Failure {
    fn from(e: InternalError) -> Self {
        Failure::internal(e.to_string())
    }
}

/// Runs a command and gives its exit status.
pub fn run(command: CliCommand) -> Result<u8, Failure> {
    if !matches!(
        command,
        CliCommand::Batch(_) | CliCommand::Generate(_) | CliCommand::Listen(_)
    ) {
        // One search has nothing to save: say so and go. (Batch and generate stop
        // cleanly on their own handler, and so does listen.)
        let _ = ctrlc::set_handler(|| {
            eprintln!("z3doku: interrupted");
            std::process::exit(i32::from(exit::INTERRUPTED));
        });
    }
    match command {
        CliCommand::Solve(args) => solve(&args),
        CliCommand::Batch(args) => batch::run(&args),
        CliCommand::Check(args) => check(&args),
        CliCommand::Count(args) => count(&args),
        CliCommand::Queens(args) => queens(&args),
        CliCommand::Emit(args) => emit(&args),
        CliCommand::Bench(args) => bench(&args),
        CliCommand::Candidates(args) => candidates(&args),
        CliCommand::Minimize(args) => minimize(&args),
        CliCommand::Generate(args) => generate::run(&args),
        CliCommand::Listen(args) => listen::run(&args),
        CliCommand::Hint(args) => tutor::hint(&args),
        CliCommand::Steps(args) => tutor::steps(&args),
        CliCommand::Rate(args) => tutor::rate(&args),
        CliCommand::Draw(args) => draw(&args),
    }
}

/// The puzzle the arguments name, for a command that writes digits as
/// 1 to N (its steps, pencil marks, pictures, encodings): a board whose
/// digits run from 0 is refused here.
fn read_puzzle(args: &PuzzleArgs) -> Result<Puzzle, Failure> {
    let puzzle = read_any_puzzle(args)?;
    from_one(&puzzle, &Source::from_arg(&args.puzzle))?;
    Ok(puzzle)
}

/// The puzzle the arguments name, whatever its digits run from: for
/// `solve`, `check` and `count`, which print values as the board has them.
fn read_any_puzzle(args: &PuzzleArgs) -> Result<Puzzle, Failure> {
    let source = Source::from_arg(&args.puzzle);
    source
        .read_puzzle(args.size)
        .map_err(|e| Failure::input(format!("{source}: {e}")))
}

/// Refuses a board whose digits run from 0 (sigh's `Shape~9x9~0-8`), that
/// has more values than a row has cells (`Shape~9x9~10`) or whose rows and
/// columns differ (`Shape~6x9`), for the commands that would show its
/// digits as 1 to N on an N x N board.
fn from_one(puzzle: &Puzzle, source: &dyn std::fmt::Display) -> Result<(), Failure> {
    match unusual_board(puzzle, "its") {
        None => Ok(()),
        Some(board) => Err(Failure::input(format!(
            "{source}: {board}, which only `solve`, `check` and `count` take"
        ))),
    }
}

/// What makes a board other than N x N with values 1 to N, as messages
/// say it after `whose` (`its`, `this board's`): `its values run from 0 to
/// 8`, `its values run from 1 to 10 on a 9x9 board`, `its shape is 6x9`,
/// `its cells form a 9x9 Raw grid (…)`; `None` for the usual ones.
fn unusual_board(puzzle: &Puzzle, whose: &str) -> Option<String> {
    unusual_values(puzzle, whose).or_else(|| {
        let extra = puzzle.size().extra();
        let cells = if extra == 1 { "cell" } else { "cells" };
        (extra > 0).then(|| format!("{whose} grid has {extra} {cells} outside it (sigh's `Var`)"))
    })
}

/// [`unusual_board`] but for the cells outside the grid, which a model
/// names as it names the grid's.
fn unusual_values(puzzle: &Puzzle, whose: &str) -> Option<String> {
    let (size, lowest) = (puzzle.size(), usize::from(puzzle.rules().lowest_value()));
    let last = lowest + size.values() - 1;
    if size.is_raw() {
        return Some(format!(
            "{whose} cells form a {size} Raw grid (no rows, columns or boxes) of values {lowest} \
             to {last}"
        ));
    }
    if !size.is_square() {
        return Some(format!("{whose} shape is {size}"));
    }
    match (lowest, size.lines_full()) {
        (1, true) => None,
        (_, true) => Some(format!("{whose} values run from {lowest} to {last}")),
        (_, false) => Some(format!(
            "{whose} values run from {lowest} to {last} on a {size} board"
        )),
    }
}

/// Refuses, on a board whose values run from 0 (or past its side, or whose
/// rows and columns differ), the outputs that would show it as 1 to N on
/// an N x N board: f-puzzles links (whose digits run from 1 on a square),
/// pictures and Z3's models; and on a board with cells outside the grid,
/// the outputs that have no place for them (f-puzzles links, pictures).
fn values_writable(format: ResultFormat, model: bool, puzzle: &Puzzle) -> Result<(), Failure> {
    let whose = "this board's";
    let (flag, board) = match format {
        ResultFormat::Fpuzzles => ("--output fpuzzles", unusual_board(puzzle, whose)),
        ResultFormat::Svg => ("--output svg", unusual_board(puzzle, whose)),
        ResultFormat::Png => ("--output png", unusual_board(puzzle, whose)),
        _ if model => ("--model", unusual_values(puzzle, whose)),
        _ => return Ok(()),
    };
    let Some(board) = board else {
        return Ok(());
    };
    Err(Failure::input(format!(
        "{flag}: {board}, which it cannot show"
    )))
}

/// What `solve` and `check` print besides the result on standard output:
/// the statistics and the verification, on standard error.
fn report_on_stderr(outcome: &Outcome) {
    if !outcome.statistics.is_empty() {
        eprint!("{}", tables::statistics(&outcome.statistics));
    }
    if let Some(line) = outcome.verification_summary() {
        eprintln!("{line}");
    }
}

/// Refuses, before any solving, a puzzle `-o sigh` cannot write: a rule a
/// sigh string cannot say must not be dropped from what is printed.
fn writable(format: ResultFormat, puzzle: &Puzzle) -> Result<(), Failure> {
    match format {
        ResultFormat::Sigh => sigh_can_say(puzzle),
        ResultFormat::Fpuzzles => fpuzzles_can_say(puzzle, "--output fpuzzles"),
        _ => Ok(()),
    }
}

/// Refuses to write `puzzle` as a sigh string when sigh cannot say one of
/// its rules.
fn sigh_can_say(puzzle: &Puzzle) -> Result<(), Failure> {
    sigh::to_sigh(puzzle)
        .map(|_| ())
        .map_err(|e| Failure::input(format!("--output sigh: {e}")))
}

/// Says on standard error why an f-puzzles link holds no solution, when
/// one was found but left out (see [`render::missing_solution`]).
fn note_missing_solution(format: ResultFormat, outcome: &Outcome) {
    if format == ResultFormat::Fpuzzles
        && let Some(why) = render::missing_solution(outcome)
    {
        eprintln!("z3doku: {why}");
    }
}

/// Refuses to write `puzzle` as f-puzzles (for `what`, the flag that asks)
/// when f-puzzles cannot say one of its rules: dropping the rule would
/// hand the setter a different puzzle.
fn fpuzzles_can_say(puzzle: &Puzzle, what: &str) -> Result<(), Failure> {
    match z3doku::puzzle::fpuzzles::write::unwritable(puzzle).first() {
        Some(rule) => Err(Failure::input(format!(
            "{what}: f-puzzles has no rule for \"{rule}\"; write the puzzle with --output json, \
             or keep it as text with its rule lines"
        ))),
        None => Ok(()),
    }
}

impl PictureArgs {
    /// Where the picture goes when `format` is a picture's; `--out` with
    /// any other format is refused, and so is `--model`, which is text.
    fn target(&self, format: Option<PictureFormat>, model: bool) -> Result<Option<&Path>, Failure> {
        match format {
            None if self.out.is_some() => Err(Failure::usage(
                "--out writes a picture: use it with -o svg or -o png",
            )),
            Some(_) if model => Err(Failure::usage(
                "--model prints text, which a picture does not hold: leave it out, or use another \
                 -o",
            )),
            _ => Ok(self.out.as_deref()),
        }
    }
}

fn solve(args: &SolveArgs) -> Result<u8, Failure> {
    let format = args.output.output;
    let out = args.output.picture.target(format.picture(), args.model)?;
    let request = args
        .engine
        .request(args.unique, true, args.model, args.stats.stats)?;
    let puzzle = read_any_puzzle(&args.input)?;
    values_writable(format, args.model, &puzzle)?;
    writable(args.output.output, &puzzle)?;
    let outcome = Pipeline::new(request).solve(&puzzle)?;
    let show = Show {
        grids: true,
        models: args.model,
        verdict: args.unique,
        color: args.output.color(),
    };
    let text = format.renderer().outcome(&outcome, show);
    match format.picture() {
        Some(picture) => render::emit(&text, picture, out)?,
        None => print(&text)?,
    }
    if format != ResultFormat::Json && matches!(outcome.status, Status::None | Status::GaveUp) {
        eprintln!("{}", outcome.summary());
    }
    note_missing_solution(format, &outcome);
    report_on_stderr(&outcome);
    Ok(outcome.status.exit_code())
}

fn check(args: &CheckArgs) -> Result<u8, Failure> {
    let format = args.output.output;
    let out = args.output.picture.target(format.picture(), args.model)?;
    let request = args
        .engine
        .request(true, true, args.model, args.stats.stats)?;
    let puzzle = read_any_puzzle(&args.input)?;
    values_writable(format, args.model, &puzzle)?;
    writable(args.output.output, &puzzle)?;
    let outcome = Pipeline::new(request).solve(&puzzle)?;
    if let Some(picture) = format.picture() {
        // The verdict under the picture; the solution in it with --grid.
        let svg = render::outcome_picture(&outcome, args.grid, vec![outcome.summary()]);
        render::emit(&svg, picture, out)?;
        report_on_stderr(&outcome);
        return Ok(outcome.status.exit_code());
    }
    let show = Show {
        // A format that only draws grids (or writes the link) is asked for
        // what it draws: without it, `-o line` would print the verdict
        // alone, as the default does.
        grids: args.grid
            || matches!(
                format,
                ResultFormat::Line
                    | ResultFormat::Matrix
                    | ResultFormat::Fpuzzles
                    | ResultFormat::Sigh
            ),
        models: args.model,
        verdict: false,
        color: args.output.color(),
    };
    let mut text = format.renderer().outcome(&outcome, show);
    if format != ResultFormat::Json {
        text = format!("{}\n{text}", outcome.summary());
    }
    print(&text)?;
    note_missing_solution(format, &outcome);
    report_on_stderr(&outcome);
    Ok(outcome.status.exit_code())
}

fn count(args: &CountArgs) -> Result<u8, Failure> {
    let request = args.engine.request(false, false, false, args.stats.stats)?;
    let puzzle = read_any_puzzle(&args.input)?;
    if args.estimate {
        return estimate(args, request, &puzzle);
    }
    let limit = usize::try_from(args.limit).unwrap_or(usize::MAX);
    // The count comes first, so solutions wait until it is known: each
    // printed with its regions on a chaos construction, whose solutions
    // may share their digits.
    let mut solutions = Vec::new();
    let count = match args.jobs {
        Some(jobs) => {
            let (count, grids) = Pipeline::new(request).count_split(
                &puzzle,
                limit,
                jobs.get(),
                args.print,
                &|| {},
            )?;
            solutions = grids;
            count
        }
        None => Pipeline::new(request).count(&puzzle, limit, &mut |grid| {
            if args.print {
                solutions.push(grid.clone());
            }
        })?,
    };
    if !count.statistics.is_empty() {
        eprint!("{}", tables::statistics(&count.statistics));
    }
    match args.output {
        ReportFormat::Json => {
            let mut report = Report::of_count(&count, &puzzle);
            report.regions = z3doku::report::regions_of(&solutions);
            report = report.with_extra_cells(puzzle.rules(), &solutions);
            report.solutions = args.print.then(|| {
                solutions
                    .iter()
                    .map(|g| puzzle.rules().value_line(g))
                    .collect()
            });
            print(&report.to_json_line())?;
        }
        ReportFormat::Text => {
            let mut text = count.summary() + "\n";
            for grid in &solutions {
                text += &puzzle.rules().solution_line(grid);
                if let Some(regions) = grid.regions_line() {
                    text += "\nregions ";
                    text += &regions;
                }
                text.push('\n');
            }
            print(&text)?;
        }
    }
    if let Some(line) = count.verification.summary(&count.summary()) {
        eprintln!("{line}");
    }
    Ok(count.status().exit_code())
}

/// `count --estimate`: the estimate on standard output, a progress line
/// on standard error while it samples (on a terminal), and how it was made.
fn estimate(
    args: &CountArgs,
    request: z3doku::solve::Request,
    puzzle: &z3doku::puzzle::Puzzle,
) -> Result<u8, Failure> {
    use std::io::IsTerminal;
    if args.engine.verify {
        return Err(Failure::usage(
            "--verify confirms a count; an estimate has no count to confirm (leave out --estimate)",
        ));
    }
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
    });
    let samples = usize::try_from(args.samples).unwrap_or(usize::MAX);
    let terminal = std::io::stderr().is_terminal();
    let mut progress = |so_far: &z3doku::solve::estimate::Estimate| {
        if terminal {
            eprint!(
                "\restimating: {}/{samples} samples, about {} so far   ",
                so_far.samples,
                z3doku::solve::estimate::number(so_far.estimate)
            );
        }
        std::ops::ControlFlow::Continue(())
    };
    let estimate = Pipeline::new(request).estimate(puzzle, samples, seed, &mut progress)?;
    if terminal && estimate.elapsed.as_millis() >= 200 {
        eprint!("\r\x1b[K");
    }
    match args.output {
        ReportFormat::Json => {
            print(&Report::of_estimate(&estimate, puzzle, seed).to_json_line())?;
        }
        ReportFormat::Text => print(&(estimate.summary() + "\n"))?,
    }
    if estimate.exact {
        eprintln!(
            "counted: fewer than {} solutions ({} searches, {:.2} s)",
            z3doku::solve::estimate::EXACT_BELOW,
            estimate.searches,
            estimate.elapsed.as_secs_f64()
        );
    } else {
        eprintln!(
            "{} samples, seed {seed}, {} searches, {:.2} s",
            estimate.samples,
            estimate.searches,
            estimate.elapsed.as_secs_f64()
        );
    }
    Ok(if estimate.gave_up.is_some() && estimate.samples == 0 {
        exit::GAVE_UP
    } else if estimate.estimate <= 0.0 {
        exit::NO_SOLUTION
    } else {
        exit::SOLVED
    })
}

fn queens(args: &QueensArgs) -> Result<u8, Failure> {
    let n = usize::try_from(args.n).unwrap_or(MAX_QUEENS);
    let start = Instant::now();
    let budget = Budget::within(args.timeout.map(Duration::from_millis));
    let mut queens = Queens::new(n, args.model);
    let json = args.output == QueensFormat::Json;
    let engine_failure = |e: EngineError| match e {
        EngineError::GaveUp(reason) => Failure {
            message: format!("gave up: {reason}"),
            code: exit::GAVE_UP,
        },
        EngineError::Internal(_) => Failure::internal(e.to_string()),
    };
    if args.count {
        let limit = usize::try_from(args.limit).unwrap_or(usize::MAX);
        let count = queens.count(limit, &budget).map_err(engine_failure)?;
        print(&if json {
            Report::of_queens_count(n, &count).to_json_line()
        } else {
            count.summary() + "\n"
        })?;
        return Ok(match (&count.gave_up, count.placements) {
            (Some(_), _) => exit::GAVE_UP,
            (None, 0) => exit::NO_SOLUTION,
            _ => exit::SOLVED,
        });
    }
    let placement = queens.next_placement(&budget).map_err(engine_failure)?;
    if json {
        print(&Report::of_placement(n, placement.as_ref(), start.elapsed()).to_json_line())?;
    } else if let Some(placement) = &placement {
        let model = placement.model.as_deref().unwrap_or_default();
        print(&format!("{model}{}", placement.board()))?;
    } else {
        eprintln!("no solution: {n} queens cannot be placed on a {n}x{n} board");
    }
    Ok(match placement {
        Some(_) => exit::SOLVED,
        None => exit::NO_SOLUTION,
    })
}

fn emit(args: &EmitArgs) -> Result<u8, Failure> {
    if args.format == EmitFormat::Dimacs && args.encoding.is_some_and(|e| e != EncodingKind::Bool) {
        return Err(Failure::usage(
            "--format dimacs writes the `bool` encoding's clauses; --encoding applies to smt2 only",
        ));
    }
    let puzzle = read_puzzle(&args.input)?;
    print(&match args.format {
        EmitFormat::Smt2 => emit::smt2(&puzzle, args.encoding.unwrap_or_default()),
        EmitFormat::Dimacs => emit::dimacs(&puzzle).map_err(Failure::input)?,
    })?;
    Ok(exit::SOLVED)
}

fn bench(args: &BenchArgs) -> Result<u8, Failure> {
    if !args.encoding.is_empty() && !args.engine.contains(&EngineKind::Z3) {
        return Err(Failure::usage(
            "--encoding chooses how Z3 sees the puzzle; it does not apply to --engine native",
        ));
    }
    let encodings = match args.encoding.as_slice() {
        [] => EncodingKind::ALL.as_slice(),
        chosen => chosen,
    };
    let limit = args.limit.map(|n| usize::try_from(n).unwrap_or(usize::MAX));
    let puzzles = match bench::read_puzzles(&args.file, limit) {
        Ok(puzzles) => puzzles,
        // As `batch` takes the same file: nothing to do is not an error
        // (a filter's empty input), though here it is said out loud, as
        // there is no table to print.
        Err(e @ bench::BenchFileError::Empty) => {
            eprintln!(
                "z3doku: {}: {e}: nothing to measure",
                display_path(&args.file)
            );
            return Ok(exit::SOLVED);
        }
        Err(e) => {
            return Err(Failure::input(format!("{}: {e}", display_path(&args.file))));
        }
    };
    let configs = bench::Config::combinations(&args.engine, encodings);
    let timeout = args.timeout.map(Duration::from_millis);
    let rows = bench::run(&puzzles, &configs, args.unique, timeout)?;
    print(&tables::bench(&rows, args.unique))?;
    Ok(exit::SOLVED)
}

/// The statistics table of a setter's command: its checks, then the
/// engine's statistics of its last search.
fn setter_statistics(checks: usize, outcome: &Outcome) -> String {
    let mut rows = vec![("checks".to_string(), checks.to_string())];
    rows.extend(outcome.statistics.iter().cloned());
    tables::statistics(&rows)
}

fn candidates(args: &CandidatesArgs) -> Result<u8, Failure> {
    let picture = match args.output {
        CandidatesFormat::Svg => Some(PictureFormat::Svg),
        CandidatesFormat::Png => Some(PictureFormat::Png),
        _ => None,
    };
    let out = args.picture.target(picture, false)?;
    let request = args.engine.request(false, true, false, args.stats)?;
    let puzzle = read_puzzle(&args.input)?;
    let cap = usize::try_from(args.cap).unwrap_or(usize::MAX);
    let result = match args.jobs {
        Some(jobs) => Pipeline::new(request).candidates_split(&puzzle, cap, jobs.get())?,
        None => Pipeline::new(request).candidates(&puzzle, cap)?,
    };
    let outcome = &result.outcome;
    let deciding = result.deciding();
    match args.output {
        CandidatesFormat::Json => print(&Report::of_candidates(&result).to_json_line())?,
        _ if !result.is_known() => eprintln!("{}", result.summary()),
        CandidatesFormat::Pretty => {
            let mut text = render::pencil_grid(&result, args.color.enabled());
            text += &result.summary();
            text.push('\n');
            if !deciding.is_empty() {
                text += &format!(
                    "deciding ({}): {}\n",
                    render::DECIDING_MARK,
                    clue_text(&deciding)
                );
            }
            print(&text)?;
        }
        CandidatesFormat::Pencilmarks => {
            let mut text = result.pencilmarks() + "\n";
            if !deciding.is_empty() {
                text += &format!("# deciding: {}\n", clue_text(&deciding));
            }
            print(&text)?;
        }
        CandidatesFormat::Svg | CandidatesFormat::Png => {
            let puzzle = &outcome.puzzle;
            let size = puzzle.size();
            let marks: Vec<u32> = (0..size.cells())
                .map(|i| {
                    (1..=size.side() as u8)
                        .filter(|&d| result.count(i, d) > 0)
                        .fold(0, |set, d| set | 1 << (d - 1))
                })
                .collect();
            let counts: Vec<usize> = (0..size.cells())
                .flat_map(|i| (1..=size.side() as u8).map(move |d| (i, d)))
                .map(|(i, d)| result.count(i, d))
                .collect();
            let mut drawn = z3doku::draw::Picture::new(puzzle)
                .candidates(marks)
                .counts(counts, result.cap)
                .deciding(&deciding)
                .caption(result.summary());
            if !deciding.is_empty() {
                drawn = drawn.caption(format!("deciding (ringed): {}", clue_text(&deciding)));
            }
            let format = picture.unwrap_or(PictureFormat::Svg);
            render::emit(&drawn.draw().svg, format, out)?;
        }
    }
    if args.stats {
        eprint!("{}", setter_statistics(result.checks, outcome));
    }
    if let Some(line) = outcome.verification_summary() {
        eprintln!("{line}");
    }
    // A puzzle with several solutions is what a setter asks about: it is
    // not a failure here.
    Ok(match outcome.status {
        Status::Multiple => exit::SOLVED,
        status => status.exit_code(),
    })
}

fn draw(args: &DrawArgs) -> Result<u8, Failure> {
    let out = args.picture.out.as_deref();
    let png = out
        .and_then(Path::extension)
        .is_some_and(|e| e.eq_ignore_ascii_case("png"));
    let format = args.output.unwrap_or(if png {
        PictureFormat::Png
    } else {
        PictureFormat::Svg
    });
    let puzzle = read_puzzle(&args.input)?;
    let svg = z3doku::draw::Picture::new(&puzzle).draw().svg;
    render::emit(&svg, format, out)?;
    Ok(exit::SOLVED)
}

fn minimize(args: &MinimizeArgs) -> Result<u8, Failure> {
    let request = args.engine.request(true, true, false, args.stats.stats)?;
    let source = Source::from_arg(&args.input.puzzle);
    let (puzzle, as_grid) = source
        .read_puzzle_and_form(args.input.size)
        .map_err(|e| Failure::input(format!("{source}: {e}")))?;
    from_one(&puzzle, &source)?;
    let keep_rules = match (&args.keep, args.rules) {
        (Some(text), true) => {
            parse_rule_items(text, &puzzle).map_err(|e| Failure::input(format!("--keep: {e}")))?
        }
        _ => Vec::new(),
    };
    let keep = match (&args.keep, args.rules) {
        (Some(text), false) => {
            parse_cells(text, puzzle.size()).map_err(|e| Failure::input(format!("--keep: {e}")))?
        }
        _ => Vec::new(),
    };
    let size = puzzle.size();
    if let Some(&cell) = keep
        .iter()
        .find(|&&c| puzzle.givens().get(size.index(c)) == 0)
    {
        return Err(Failure::input(format!(
            "--keep: {cell} holds no clue; only clues can be kept"
        )));
    }
    let variant = !puzzle.rules().is_classic();
    // A file that draws (a title, lines, colours) comes back as a link,
    // drawing and all, even under classic rules.
    let format = args
        .output
        .unwrap_or(if variant || puzzle.cosmetics().is_some() {
            MinimizeFormat::Fpuzzles
        } else if as_grid {
            MinimizeFormat::Grid
        } else {
            MinimizeFormat::Line
        });
    // A line or a grid holds the givens alone: printed for a variant, the
    // minimal puzzle would lose the rules that make it unique.
    if variant && matches!(format, MinimizeFormat::Line | MinimizeFormat::Grid) {
        return Err(Failure::usage(
            "a variant puzzle's minimal givens print only with their rules (-o fpuzzles or -o \
             json): a line or a grid would lose them",
        ));
    }
    match format {
        MinimizeFormat::Sigh => sigh_can_say(&puzzle)?,
        MinimizeFormat::Fpuzzles => fpuzzles_can_say(&puzzle, "minimize -o fpuzzles")?,
        _ => {}
    }
    let result = if args.rules {
        Pipeline::new(request).minimize_rules(&puzzle, &keep_rules)?
    } else {
        Pipeline::new(request).minimize(&puzzle, &keep)?
    };
    match (format, &result.minimal) {
        (MinimizeFormat::Json, _) => print(&Report::of_minimized(&result).to_json_line())?,
        (_, None) => eprintln!("{}", result.summary()),
        (MinimizeFormat::Fpuzzles, Some(minimal)) => {
            print(&(fpuzzles::write::to_link(minimal, None) + "\n"))?
        }
        (MinimizeFormat::Sigh, Some(minimal)) => print(
            &(sigh::to_sigh(minimal).map_err(|e| Failure::input(format!("--output sigh: {e}")))?
                + "\n"),
        )?,
        (MinimizeFormat::Text, Some(minimal)) => print(
            &z3doku::puzzle::rule_text::write(minimal)
                .map_err(|e| Failure::input(format!("--output text: {e}")))?,
        )?,
        (MinimizeFormat::Line, Some(minimal)) => print(&(minimal.givens().to_line() + "\n"))?,
        (MinimizeFormat::Grid, Some(minimal)) => {
            let rows: String = minimal
                .givens()
                .rows()
                .map(|row| {
                    row.iter()
                        .map(|&d| z3doku::puzzle::grid::digit_char(d))
                        .collect::<String>()
                        + "\n"
                })
                .collect();
            print(&rows)?;
        }
    }
    if format != MinimizeFormat::Json && result.minimal.is_some() {
        eprintln!("{}", result.summary());
        if args.rules {
            // Numbered as --keep names them.
            let rules = puzzle.rules();
            let all: Vec<String> = rules
                .items()
                .into_iter()
                .map(|i| rules.item_name(i))
                .collect();
            for (heading, names) in [
                ("needed", &result.needed_rules),
                ("redundant", &result.redundant_rules),
            ] {
                eprintln!("{heading}:");
                for name in names {
                    let number = all.iter().position(|n| n == name).map_or(0, |k| k + 1);
                    eprintln!("  #{number} {name}");
                }
            }
        } else {
            eprintln!("needed: {}", clue_text(&result.needed));
            eprintln!("redundant: {}", clue_text(&result.redundant));
        }
    }
    if args.stats.stats {
        eprint!("{}", setter_statistics(result.checks, &result.outcome));
    }
    if let Some(line) = result.outcome.verification_summary() {
        eprintln!("{line}");
    }
    Ok(result.outcome.status.exit_code())
}

/// Writes to standard output. A closed pipe (`z3doku ... | head -1`) ends
/// the program quietly with status 0, as the reader wanted no more.
/// Prints clap's word on arguments it does not take, and gives the exit
/// status. Clap's tip for an unknown flag, "to pass '--unique' as a value,
/// use '-- --unique'", misleads: no z3doku command takes a value that
/// starts with `--`. It is dropped, and a flag that belongs to other
/// commands says which.
pub fn refuse(e: &clap::Error) -> u8 {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let code = u8::try_from(e.exit_code()).unwrap_or(exit::INPUT);
    if e.kind() != ErrorKind::UnknownArgument {
        // Help and version go to standard output, errors to standard error.
        let _ = e.print();
        return code;
    }
    let flag = match e.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(flag)) => flag.clone(),
        _ => String::new(),
    };
    let mut lines: Vec<String> = Vec::new();
    for line in e.render().to_string().lines() {
        if line.trim_start().starts_with("tip: to pass") {
            // The blank line before the tip goes with it.
            if lines.last().is_some_and(|l| l.is_empty()) {
                lines.pop();
            }
            continue;
        }
        lines.push(line.to_string());
        if line.starts_with("error: unexpected argument")
            && let Some(note) = elsewhere(std::env::args().nth(1).as_deref(), &flag)
        {
            lines.push(String::new());
            lines.push(format!("  note: {note}"));
        }
    }
    eprintln!("{}", lines.join("\n"));
    code
}

/// Where a flag that `command` does not take belongs, when that helps.
fn elsewhere(command: Option<&str>, flag: &str) -> Option<&'static str> {
    match (command, flag) {
        (Some("check"), "--unique") => Some(
            "`check` always says whether the puzzle is unique; --unique belongs to `solve`, \
             `batch` and `bench`",
        ),
        _ => None,
    }
}

fn print(text: &str) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => Err(Failure::input(format!("cannot write the output: {e}"))),
    }
}
