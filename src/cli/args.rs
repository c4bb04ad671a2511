//! The command line as clap sees it: raw flags, their help, and nothing
//! else. [`super::options`] turns them into the library's requests.

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::num::NonZeroUsize;
use std::path::PathBuf;
use z3doku::engine::{EncodingKind, EngineKind};
use z3doku::generate::{Symmetry, SymmetryChoice};
use z3doku::puzzle::grid::Size;
use z3doku::queens::MAX_QUEENS;

#[derive(Parser)]
#[command(
    name = "z3doku",
    version,
    about = "Solve Sudoku with the Z3 SMT solver, prove solutions unique, and explain puzzles without one.",
    after_help = "Exit status: 0 solved (and unique, when asked); 1 no solution; 2 usage or input \
                  error; 3 not unique; 4 gave up (timeout, out of memory, or Z3 unknown); 5 internal \
                  error; 130 interrupted (Ctrl-C)."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: CliCommand,
}

// `--timeout` is declared once, in [`EngineArgs`]; what it bounds differs by
// command, and each command's help says so here. Two commands stand apart on
// purpose: `bench` takes lists of engines and encodings (each a row to
// compare), not the one engine a request runs on, and `queens` is the Z3
// lesson on another board, with no engine to choose; each declares the
// options it has ([`BenchArgs`], [`QueensArgs`]) and still turns its timeout
// into the one `Budget` every engine takes.
#[derive(Subcommand)]
pub enum CliCommand {
    /// Solve one puzzle and print the solution.
    Solve(SolveArgs),
    /// Solve a file of puzzles, one per line, printing a line per puzzle in input order.
    #[command(mut_arg("timeout", |a| a.help(
        "Give up on each puzzle after this many milliseconds: status `gave-up` for that puzzle \
         only (exit status 4 at the end). It bounds the puzzle's solving, proving uniqueness, \
         verifying and rating together."
    )))]
    Batch(BatchArgs),
    /// Give a puzzle's verdict (unique, not unique, no solution) with its evidence.
    Check(CheckArgs),
    /// Count a puzzle's solutions, up to a limit.
    #[command(mut_arg("timeout", |a| a.help(
        "Give up after this many milliseconds (exit status 4), printing the count so far as a \
         lower bound. It bounds the whole count, verifying included."
    )))]
    Count(CountArgs),
    /// Place N queens on an NxN board so that none attacks another.
    Queens(QueensArgs),
    /// Write a puzzle's formula for another solver: SMT-LIB 2 or DIMACS CNF.
    Emit(EmitArgs),
    /// Solve a file of puzzles with each engine and encoding, check every answer, and print one
    /// table of the timings.
    Bench(BenchArgs),
    /// Show each empty cell's true candidates: the digits it takes in some solution, with how
    /// many solutions have each, and which would make the puzzle unique if placed.
    #[command(mut_arg("timeout", |a| a.help(
        "Give up after this many milliseconds (exit status 4). It bounds the whole command: \
         every candidate's search, explaining and verifying together."
    )))]
    Candidates(CandidatesArgs),
    /// Name the clues a unique puzzle needs and the ones it can do without, and print a minimal
    /// puzzle with the same solution.
    #[command(mut_arg("timeout", |a| a.help(
        "Give up after this many milliseconds (exit status 4). It bounds the whole command: \
         proving the puzzle unique, trying each clue, explaining and verifying together."
    )))]
    Minimize(MinimizeArgs),
    /// Make new puzzles, each proven to have one solution: minimal when asked, with a symmetric
    /// clue pattern when asked, printed one per line as they are made.
    Generate(GenerateArgs),
    /// Serve f-puzzles' solver buttons (true candidates, solve, check, count, step, path) over a
    /// WebSocket, for the userscript that connects them to a local solver.
    #[command(
        mut_arg("engine", |a| a.default_value("race").help(
            "The engine that answers (race: native and Z3 side by side, the first answer wins)"
        )),
        mut_arg("timeout", |a| a.help(
            "Give up on each request after this many milliseconds (it is answered `invalid`; a \
             step or a path stops with the steps found). Without it, a step or a path has 10000 \
             ms and the other buttons no limit."
        )),
    )]
    Listen(ListenArgs),
    /// The easiest next step: its technique, the cells and digits that make it, what it places or
    /// eliminates, and why in one sentence.
    #[command(mut_arg("engine", |a| a.help(LOGIC_ENGINE)), mut_arg("timeout", |a| a.help(LOGIC_TIMEOUT)))]
    Hint(HintArgs),
    /// The whole solving path, a step per line as each is found; where the techniques run out,
    /// search finishes, marked as such.
    #[command(mut_arg("engine", |a| a.help(LOGIC_ENGINE)), mut_arg("timeout", |a| a.help(LOGIC_TIMEOUT)))]
    Steps(StepsArgs),
    /// Rate a puzzle: Sudoku Explainer's ER/EP/ED and the qqwing level.
    #[command(mut_arg("engine", |a| a.help(LOGIC_ENGINE)), mut_arg("timeout", |a| a.help(LOGIC_TIMEOUT)))]
    Rate(RateArgs),
    /// Draw a puzzle as given, its rules as setters draw them, as SVG or PNG.
    Draw(DrawArgs),
}

/// Where a picture goes (`-o svg`, `-o png`).
#[derive(Args)]
pub struct PictureArgs {
    /// Write the picture (`-o svg` or `-o png`) to this file instead of standard output; for
    /// `steps` and for `generate -n` above 1, the folder that takes one picture each
    /// (`step-001.svg`, `puzzle-001.png`, ...), made if missing. A PNG is not written to a
    /// terminal.
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,
}

/// The picture formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PictureFormat {
    /// SVG, a text file any browser shows.
    Svg,
    /// PNG, drawn here from the same SVG.
    Png,
}

#[derive(Args)]
#[command(
    after_help = "Cages are dashed with their sums, rising lines grey with bulbs, arrows circled, \
                  lines coloured by kind, dots and X/V on the edges, outside clues beside the \
                  grid; rules with no mark of their own (anti-knight, say) are named under it. \
                  Without -o, the format is PNG when --out ends in .png, else SVG."
)]
pub struct DrawArgs {
    #[command(flatten)]
    pub input: PuzzleArgs,

    /// The picture's format [default: png when --out ends in .png, else svg].
    #[arg(long, short, value_enum)]
    pub output: Option<PictureFormat>,

    #[command(flatten)]
    pub picture: PictureArgs,
}

/// `--engine` in `hint`, `steps` and `rate`.
const LOGIC_ENGINE: &str = "The engine that proves reasoned steps in variant puzzles, when no \
                            technique on the houses applies (Z3 names the facts it used first). \
                            The solution itself always comes from the native search, checked.";

/// `--timeout` in `hint`, `steps` and `rate`.
const LOGIC_TIMEOUT: &str = "Reason for at most this many milliseconds, finding the solution \
                             included [default: 10000]; past it the command stops with the steps \
                             found and one line that says so (exit status 4).";

/// Where the puzzle comes from and how to read it.
#[derive(Args)]
pub struct PuzzleArgs {
    /// The puzzle: its text (a character per cell, `.` `0` `*` `_` for blanks), a file holding
    /// it (one line, a grid of rows, or f-puzzles JSON with variant rules), an f-puzzles or
    /// SudokuPad link, or `-` for standard input.
    #[arg(value_name = "PUZZLE")]
    pub puzzle: String,

    /// The board's side (1 to 16, or 25), when the input should not decide it.
    #[arg(long, value_name = "N", value_parser = parse_side)]
    pub size: Option<Size>,
}

/// Which engine, and its limits: declared once for every command that
/// takes them, and checked in one place ([`EngineArgs::request`]). A
/// command whose `--engine` default or `--timeout` meaning differs says so
/// on its [`CliCommand`] variant.
#[derive(Args)]
pub struct EngineArgs {
    /// The engine that searches.
    #[arg(long, value_parser = choice::<EngineKind>(), default_value = "z3")]
    pub engine: EngineKind,

    /// How Z3 sees the puzzle [default: int].
    #[arg(long, value_parser = choice::<EncodingKind>())]
    pub encoding: Option<EncodingKind>,

    /// Give up after this many milliseconds (exit status 4). It bounds the whole command:
    /// solving, proving uniqueness, explaining and verifying together.
    #[arg(long, value_name = "MS", value_parser = parse_millis, allow_negative_numbers = true)]
    pub timeout: Option<u64>,

    /// Confirm the verdict with the other engine (native for Z3, Z3 for native; for a race, the
    /// one that did not answer).
    #[arg(long)]
    pub verify: bool,

    /// Cap Z3's memory at this many MiB (at least 64); past it Z3 gives up (exit status 4).
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u32).range(64..))]
    pub memory: Option<u32>,
}

/// Statistics of one search.
#[derive(Args)]
pub struct StatsArgs {
    /// Also print the engine's statistics of the search (Z3: conflicts, decisions, propagations,
    /// memory; native: nodes) as a table on standard error.
    #[arg(long)]
    pub stats: bool,
}

/// How to print one puzzle's result.
#[derive(Args)]
pub struct OutputArgs {
    /// The output format.
    #[arg(long, short, value_enum, default_value_t)]
    pub output: ResultFormat,

    /// Colour and bold in the pretty table: `auto` uses them on a terminal unless NO_COLOR is
    /// set.
    #[arg(long, value_enum, default_value_t)]
    pub color: ColorChoice,

    #[command(flatten)]
    pub picture: PictureArgs,
}

#[derive(Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pub input: PuzzleArgs,

    #[command(flatten)]
    pub engine: EngineArgs,

    #[command(flatten)]
    pub stats: StatsArgs,

    #[command(flatten)]
    pub output: OutputArgs,

    /// Also print the Z3 model: `c_R_C -> digit` per cell with `int`, `x_R_C_D -> true` per
    /// true literal with `bool` and `pb` (in the JSON's `models` with `-o json`).
    #[arg(long)]
    pub model: bool,

    /// Prove the solution unique by solving again with it blocked (exit status 3 if not).
    #[arg(long)]
    pub unique: bool,
}

#[derive(Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub input: PuzzleArgs,

    #[command(flatten)]
    pub engine: EngineArgs,

    #[command(flatten)]
    pub stats: StatsArgs,

    #[command(flatten)]
    pub output: OutputArgs,

    /// Also draw the solution (both solutions, when not unique); `-o line`, `-o matrix` and `-o
    /// fpuzzles` draw it without this.
    #[arg(long)]
    pub grid: bool,

    /// Also print the Z3 model of each solution (see `solve --model`).
    #[arg(long)]
    pub model: bool,
}

#[derive(Args)]
pub struct CountArgs {
    #[command(flatten)]
    pub input: PuzzleArgs,

    #[command(flatten)]
    pub engine: EngineArgs,

    #[command(flatten)]
    pub stats: StatsArgs,

    /// Stop counting at this many solutions.
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: u64,

    /// Print each solution as a line, after the count (in the JSON's `solutions` with `-o
    /// json`).
    #[arg(long)]
    pub print: bool,

    /// `text`: the count in words; `json`: an object.
    #[arg(long, short, value_enum, default_value_t)]
    pub output: ReportFormat,

    /// Estimate the number of solutions instead of counting them (for puzzles with too many to
    /// count): Knuth's tree estimate from random walks, resampled as they go, with its 95%
    /// interval. A puzzle with few solutions is counted exactly. `--engine native` is much the
    /// faster here.
    #[arg(long, conflicts_with_all = ["print", "limit"])]
    pub estimate: bool,

    /// With --estimate, the number of samples, each of 32 walks (more narrow the interval, as
    /// 1/√N).
    #[arg(long, value_name = "N", default_value_t = 16, requires = "estimate", value_parser = clap::value_parser!(u64).range(2..))]
    pub samples: u64,

    /// With --estimate, the seed of the samples' random draws (the same seed gives the same
    /// estimate) [default: drawn from the clock, and printed].
    #[arg(long, value_name = "S", requires = "estimate")]
    pub seed: Option<u64>,

    /// Split the count across this many threads: the puzzle is cut into parts by the digits of
    /// its most constrained cells, each thread counts parts with an engine of its own. The count
    /// and the solutions (with their order) are the same for every N; without --jobs, one engine
    /// counts the whole puzzle in its own order.
    #[arg(long, short, value_name = "N", value_parser = parse_at_least_one, conflicts_with = "estimate")]
    pub jobs: Option<NonZeroUsize>,
}

#[derive(Args)]
pub struct QueensArgs {
    /// The board's side and the number of queens.
    #[arg(value_name = "N", value_parser = clap::value_parser!(u64).range(1..=MAX_QUEENS as u64))]
    pub n: u64,

    /// Count the placements (by blocking each one found) instead of printing one.
    #[arg(long)]
    pub count: bool,

    /// With --count, stop at this many.
    #[arg(long, value_name = "L", default_value_t = 100_000, requires = "count", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: u64,

    /// `board`: a row per line, X for a queen and * for an empty square; `json`: the positions.
    #[arg(long, short, value_enum, default_value_t)]
    pub output: QueensFormat,

    /// Also print the Z3 model, one `q_R_C -> true|false` per line (in the JSON's `models` with
    /// `-o json`).
    #[arg(long, conflicts_with = "count")]
    pub model: bool,

    /// Give up after this many milliseconds (exit status 4); with --count, the count so far is
    /// printed as a lower bound.
    #[arg(long, value_name = "MS", value_parser = parse_millis, allow_negative_numbers = true)]
    pub timeout: Option<u64>,
}

#[derive(Args)]
pub struct EmitArgs {
    #[command(flatten)]
    pub input: PuzzleArgs,

    /// The file format: `smt2` for `z3 -smt2`, `dimacs` for any SAT solver (the `bool`
    /// encoding, whose clauses are CNF).
    #[arg(long, value_enum, default_value_t)]
    pub format: EmitFormat,

    /// The encoding to write (SMT-LIB 2 only) [default: int].
    #[arg(long, value_parser = choice::<EncodingKind>())]
    pub encoding: Option<EncodingKind>,
}

#[derive(Args)]
pub struct BenchArgs {
    /// A file of one-line puzzles (`#` comment lines and blank lines are skipped).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,

    /// Only the first N puzzles.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,

    /// Also prove each solution unique.
    #[arg(long)]
    pub unique: bool,

    /// The engines to run, each a row (repeat, or separate with commas).
    #[arg(long, value_parser = choice::<EngineKind>(), value_delimiter = ',', default_value = "z3")]
    pub engine: Vec<EngineKind>,

    /// The encodings to run on Z3, each a row (repeat, or separate with commas) [default: all].
    #[arg(long, value_parser = choice::<EncodingKind>(), value_delimiter = ',')]
    pub encoding: Vec<EncodingKind>,

    /// Give up on a puzzle after this many milliseconds.
    #[arg(long, value_name = "MS", value_parser = parse_millis, allow_negative_numbers = true)]
    pub timeout: Option<u64>,
}

#[derive(Args)]
#[command(
    after_help = "Blank lines and `#` comment lines are skipped and print nothing, so the \
                  output has one line per puzzle line. Exit status: the largest of the lines' \
                  statuses (0 solved, 1 no solution, 2 a bad line, 3 not unique, 4 gave up, \
                  5 internal error); 130 when interrupted."
)]
pub struct BatchArgs {
    /// The file of puzzles, one per line, or `-` for standard input.
    #[arg(value_name = "FILE")]
    pub file: String,

    /// The board's side (1 to 16, or 25) of every puzzle, when the lines should not decide it.
    #[arg(long, value_name = "N", value_parser = parse_side)]
    pub size: Option<Size>,

    #[command(flatten)]
    pub engine: EngineArgs,

    /// The output format: `line`, the solution (or the status word `multiple`, `none`,
    /// `gave-up` or `error`) per puzzle; `json`, an object per puzzle (JSON Lines).
    #[arg(long, short, value_enum, default_value_t)]
    pub output: BatchFormat,

    /// Prove each solution unique (status `multiple` if not).
    #[arg(long)]
    pub unique: bool,

    /// Solve this many puzzles at once [default: the number of cores; at most 8 per core].
    #[arg(long, short, value_name = "N", value_parser = parse_at_least_one)]
    pub jobs: Option<NonZeroUsize>,

    /// No progress bar and no summary on standard error.
    #[arg(long, short)]
    pub quiet: bool,

    /// Also rate each solved puzzle: ER/EP/ED and the qqwing level after the solution (`unrated`
    /// when it is not unique), `rating` in JSON.
    #[arg(long)]
    pub rate: bool,
}

/// How `hint`, `steps` and `rate` reason: the engine options, whose
/// `--engine` proves the reasoned steps.
#[derive(Args)]
pub struct LogicArgs {
    #[command(flatten)]
    pub engine: EngineArgs,

    /// Only these techniques, by name, comma-separated: a technique's word (`naked-pair`,
    /// `cage-combination`, `innies-outies`), `hidden-single`, the groups `singles`, `rules`
    /// and `all`, and `reasoned` for the engine's reasoned steps. Where they run out, search
    /// finishes the path. A technique found with another (`multiple-forcing-chain` with
    /// `forcing-chain`, `bug-3` with `bug-2`) chooses both.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub techniques: Vec<String>,

    /// Every technique but these (same names as --techniques). Leaving out a technique found
    /// with another is refused unless that one is left out too.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub without: Vec<String>,
}

#[derive(Args)]
#[command(
    after_help = "Exit status: 0 a step (or the puzzle is solved already); 1 no solution; 2 usage \
                  or input error; 3 not unique (the step printed, if any, holds in every \
                  solution); 4 gave up."
)]
pub struct HintArgs {
    #[command(flatten)]
    pub input: PuzzleArgs,

    #[command(flatten)]
    pub logic: LogicArgs,

    /// `pretty`: the sentence and the grid with the step's cells highlighted (in colour on a
    /// terminal); `text`: the sentence; `json`: an object with the step's fields; `svg`, `png`:
    /// a picture of the pencil marks with the step's cells shaded, its digits ringed, its
    /// eliminations struck out and its placements ringed green.
    #[arg(long, short, value_enum, default_value_t)]
    pub output: HintFormat,

    /// Colour in the pretty grid: `auto` uses it on a terminal unless NO_COLOR is set.
    #[arg(long, value_enum, default_value_t)]
    pub color: ColorChoice,

    #[command(flatten)]
    pub picture: PictureArgs,
}

#[derive(Args)]
#[command(after_help = "Exit status: as for `hint`.")]
pub struct StepsArgs {
    #[command(flatten)]
    pub input: PuzzleArgs,

    #[command(flatten)]
    pub logic: LogicArgs,

    /// `text`: a step per line, its rating first; `json`: an object with every step; `svg`,
    /// `png`: a picture per step, as `hint` draws it, into the folder --out names.
    #[arg(long, short, value_enum, default_value_t)]
    pub output: StepsFormat,

    #[command(flatten)]
    pub picture: PictureArgs,
}

/// Output formats of `steps`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum StepsFormat {
    /// A step per line, its rating first.
    #[default]
    Text,
    /// A JSON object.
    Json,
    /// An SVG picture per step.
    Svg,
    /// A PNG picture per step.
    Png,
}

#[derive(Args)]
#[command(
    after_help = "ER is the hardest step of the path, EP the hardest up to the first placement, \
                  ED the first step's (Sudoku Explainer 1.2.1.3's techniques and order). `ER ? \
                  (techniques ran out after 6.6)`: search finished the puzzle, so SE's ER is \
                  unknown; a `?` for EP or ED likewise. A variant has no SE or qqwing rating: \
                  the line says how far the techniques on its houses went. The qqwing level \
                  follows qqwing's rule: expert when its techniques need a guess; intermediate \
                  when pointing, box-line reduction or a pair is needed; easy when hidden \
                  singles are; simple otherwise. Exit status: as for `hint`."
)]
pub struct RateArgs {
    #[command(flatten)]
    pub input: PuzzleArgs,

    #[command(flatten)]
    pub logic: LogicArgs,

    /// `text`: one line, `ER 7.2/EP 7.2/ED 2.3 qqwing expert`; `json`: an object.
    #[arg(long, short, value_enum, default_value_t)]
    pub output: ReportFormat,
}

/// Output formats of `hint`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum HintFormat {
    /// The sentence, the grid with the step's cells highlighted, and what it changes.
    #[default]
    Pretty,
    /// The sentence alone.
    Text,
    /// A JSON object.
    Json,
    /// An SVG picture.
    Svg,
    /// A PNG picture.
    Png,
}

#[derive(Args)]
#[command(
    after_help = "A candidate in exactly one solution decides the puzzle: placed, it leaves the \
                  puzzle unique. The pretty grid marks it with `*` (in bold colour on a terminal); \
                  `pencilmarks` adds a `# deciding: r1c1=5 ...` line; JSON lists it in \
                  `deciding`. Exit status: 0 the puzzle has a solution (unique or not); 1 no \
                  solution; 4 gave up."
)]
pub struct CandidatesArgs {
    #[command(flatten)]
    pub input: PuzzleArgs,

    #[command(flatten)]
    pub engine: EngineArgs,

    /// Also print the number of checks and the engine's statistics of its last search as a
    /// table on standard error.
    #[arg(long)]
    pub stats: bool,

    /// Count the solutions of each candidate up to this many (at least 2, so that a candidate
    /// in exactly one solution is known).
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u64).range(2..))]
    pub cap: u64,

    /// Split the search across this many threads, each with an engine of its own: a first search
    /// that runs past 50 ms starts again as a count split as `count --jobs` splits it, then the
    /// candidates still short of the cap are searched for in turn by the threads. The counts and
    /// the verdict are the same for every N and as without --jobs; only the number of checks (and
    /// the solutions met on the way) varies.
    #[arg(long, short, value_name = "N", value_parser = parse_at_least_one)]
    pub jobs: Option<NonZeroUsize>,

    /// `pretty`: a pencil-mark grid; `pencilmarks`: one line of N³ characters (729 for 9x9), for
    /// each cell and digit the digit or `.`; `json`: an object with each cell's counts; `svg`,
    /// `png`: a picture of the pencil marks, each with its count, deciding ones ringed orange.
    #[arg(long, short, value_enum, default_value_t)]
    pub output: CandidatesFormat,

    /// Colour and bold in the pretty grid: `auto` uses them on a terminal unless NO_COLOR is
    /// set.
    #[arg(long, value_enum, default_value_t)]
    pub color: ColorChoice,

    #[command(flatten)]
    pub picture: PictureArgs,
}

#[derive(Args)]
#[command(
    after_help = "The minimal puzzle goes to standard output; which clues are needed, to \
                  standard error. Exit status: 0 minimized; 1 no solution; 2 usage or input \
                  error; 3 not unique (nothing to minimize); 4 gave up."
)]
pub struct MinimizeArgs {
    #[command(flatten)]
    pub input: PuzzleArgs,

    #[command(flatten)]
    pub engine: EngineArgs,

    #[command(flatten)]
    pub stats: StatsArgs,

    /// Minimize the rules instead of the clues: which rules (diagonals, disjoint groups, each
    /// cage, line, dot, outside clue or whole-board rule) the puzzle stays unique without, and
    /// the puzzle with every given and only the rules it needs.
    #[arg(long)]
    pub rules: bool,

    /// Clues to keep in the minimal puzzle, needed or not, as `r1c1,r5c5`; with --rules, rules
    /// to keep, separated by `;`, each as `#N` (its number in the list --rules prints) or as
    /// its rule line (`cage 15 (r1c1 r1c2)`).
    #[arg(long, value_name = "ITEMS")]
    pub keep: Option<String>,

    /// `line`: the minimal puzzle as one line; `grid`: a row per line; `json`: an object with
    /// the needed and redundant clues; `fpuzzles`: an f-puzzles link, rules and all; `sigh`: a sigh
    /// string, rules and all; `text`: the grid and a rule line per rule [default:
    /// the input's form, `fpuzzles` for a variant puzzle].
    #[arg(long, short, value_enum)]
    pub output: Option<MinimizeFormat>,
}

#[derive(Args)]
#[command(
    after_help = "Each puzzle is a random full grid with clues removed, an orbit of the symmetry at \
                  a time, for as long as the native engine proves the puzzle unique. The same \
                  --seed and options give the same puzzles whatever --jobs is. A puzzle that \
                  does not fit --max-clues, --minimal, --difficulty or --rating is drawn again \
                  from a new grid, up to --tries grids. Exit status: 0 made; 1 the --rules \
                  have no solution; 2 usage error, or an ask no puzzle can meet (fewer clues \
                  than a unique puzzle of the size needs); 4 gave up (no puzzle fit in --tries \
                  grids); 5 internal error; 130 interrupted."
)]
pub struct GenerateArgs {
    /// How many puzzles to make.
    #[arg(long, short = 'n', value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub count: u64,

    /// The board's side (1 to 16, or 25), under the classic rules of that size.
    #[arg(long, value_name = "N", value_parser = parse_side, default_value = "9")]
    pub size: Size,

    /// The seed: the same seed and options give the same puzzles [default: from the clock,
    /// printed in the summary].
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,

    /// The symmetry of the clue pattern: a cell holds a clue exactly when its images do.
    #[arg(long, value_parser = choice::<SymmetryChoice>(), default_value = "none")]
    pub symmetry: SymmetryChoice,

    /// Only minimal puzzles: every clue is needed. Without symmetry every puzzle is minimal
    /// already; with one, a puzzle holding a clue it can do without is drawn again.
    #[arg(long)]
    pub minimal: bool,

    /// Only puzzles with at most K clues.
    #[arg(long, value_name = "K")]
    pub max_clues: Option<usize>,

    /// Killer puzzles: cages of 2 to 5 cells over the solution with their sums, and givens only
    /// where the cages leave more than one solution (4x4 to 9x9; printed as f-puzzles links).
    #[arg(long)]
    pub killer: bool,

    /// Only puzzles of this qqwing level, as `z3doku rate` gives it; others are drawn again.
    #[arg(long, value_enum, value_name = "LEVEL")]
    pub difficulty: Option<DifficultyLevel>,

    /// Only puzzles whose Sudoku Explainer rating (ER, as `z3doku rate` gives it) lies in A..B,
    /// ends included: `7.0..9.0`, `8.5..` (no high end), `..2.0`, or one number for exactly
    /// that. A puzzle the techniques cannot finish (it needs search) counts as harder than any
    /// number: only a range without a high end keeps it.
    #[arg(long, value_name = "A..B", allow_hyphen_values = true)]
    pub rating: Option<String>,

    /// Make the givens of puzzles under the rules of this puzzle file (any form z3doku reads:
    /// f-puzzles JSON or link, or a grid and rule lines), keeping its givens; the board's size
    /// is the file's. Printed as f-puzzles links.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["size", "killer"])]
    pub rules: Option<String>,

    /// Full grids to draw for one puzzle before giving up (exit status 4) [default: 100000 up
    /// to 9x9, 1000 above].
    #[arg(long, value_name = "T", value_parser = parse_at_least_one)]
    pub tries: Option<NonZeroUsize>,

    /// Make this many puzzles at once [default: the number of cores; at most 8 per core].
    #[arg(long, short, value_name = "N", value_parser = parse_at_least_one)]
    pub jobs: Option<NonZeroUsize>,

    /// `line`: each puzzle as one line (a killer puzzle or one under --rules as an f-puzzles
    /// link); `json`: an object per puzzle (JSON Lines) with its solution, clue count and
    /// symmetry (a killer puzzle's or --rules puzzle's f-puzzles link; with --difficulty or
    /// --rating, its ratings as `rate` gives them); `svg`, `png`: a picture of each puzzle (to
    /// standard output for one, into the folder --out names for more).
    #[arg(long, short, value_enum, default_value_t)]
    pub output: GenerateFormat,

    #[command(flatten)]
    pub picture: PictureArgs,

    /// No progress bar and no summary on standard error.
    #[arg(long, short)]
    pub quiet: bool,
}

/// qqwing's difficulty levels, for `generate --difficulty`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DifficultyLevel {
    /// Naked singles and full houses alone solve it.
    Simple,
    /// Hidden singles are needed.
    Easy,
    /// Pointing, box-line reduction, or a naked or hidden pair is needed.
    Intermediate,
    /// qqwing's techniques run out: it would guess.
    Expert,
}

/// Output formats of `generate`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum GenerateFormat {
    /// The puzzle as one line, `.` for a blank.
    #[default]
    Line,
    /// JSON Lines: an object per puzzle.
    Json,
    /// An SVG picture per puzzle.
    Svg,
    /// A PNG picture per puzzle.
    Png,
}

/// Output formats of `candidates`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum CandidatesFormat {
    /// A pencil-mark grid: each empty cell a block of its candidates, `*` after a deciding one.
    #[default]
    Pretty,
    /// One line of N³ characters, as tdoku and Sudoku Explainer read it.
    Pencilmarks,
    /// A JSON object.
    Json,
    /// An SVG picture of the pencil marks.
    Svg,
    /// A PNG picture of the pencil marks.
    Png,
}

/// Output formats of `minimize`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MinimizeFormat {
    /// The minimal puzzle as one line, `.` for a blank.
    Line,
    /// The minimal puzzle as a row of characters per line.
    Grid,
    /// A JSON object.
    Json,
    /// An f-puzzles link with the minimal puzzle and its rules.
    Fpuzzles,
    /// The minimal puzzle and its rules as a sigh string.
    Sigh,
    /// The minimal puzzle as text: its grid, a row per line, then a rule line per rule.
    Text,
}

/// Output formats of one puzzle's result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ResultFormat {
    /// A drawn table with the boxes marked (clues in bold on a terminal).
    #[default]
    Pretty,
    /// The solution as one line, a character per cell.
    Line,
    /// The notebook's `print_matrix` form: `[a, b, ...]` rows inside `[...]`.
    Matrix,
    /// A JSON object.
    Json,
    /// An f-puzzles link with the puzzle, its rules and, when proven unique, the solution, to open
    /// in a browser.
    Fpuzzles,
    /// The puzzle and its rules as a sigh string, for sigh's Interactive Sudoku Solver (no
    /// solution: sigh's strings have no place for one).
    Sigh,
    /// An SVG picture of the solution (the puzzle as given when there is none): givens bold,
    /// solved digits blue, cells where two solutions differ shaded.
    Svg,
    /// The same picture as PNG.
    Png,
}

/// Output formats of `count`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    /// Words.
    #[default]
    Text,
    /// A JSON object.
    Json,
}

/// Output formats of `batch`, one line per puzzle line in both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum BatchFormat {
    /// The solution as one line, a character per cell; for a puzzle without one, its status
    /// word: `multiple`, `none`, `gave-up` or `error`.
    #[default]
    Line,
    /// JSON Lines: an object per puzzle.
    Json,
}

/// Output formats of `queens`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum QueensFormat {
    /// The board.
    #[default]
    Board,
    /// A JSON object.
    Json,
}

/// The file formats `emit` writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum EmitFormat {
    /// SMT-LIB 2: declarations, the rules and clues as assertions, and `(check-sat)`.
    #[default]
    Smt2,
    /// DIMACS CNF of the `bool` encoding, for any SAT solver.
    Dimacs,
}

/// When to colour the pretty table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// On a terminal, unless NO_COLOR is set.
    #[default]
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// A library enum the command line offers as a choice of words.
pub trait Choice: Copy + Default + Send + Sync + 'static {
    /// Every value, in the order `--help` lists them.
    const ALL: &'static [Self];
    /// The word for it.
    fn name(self) -> &'static str;
    /// What it means, for `--help`.
    fn help(self) -> &'static str;
}

impl Choice for EngineKind {
    const ALL: &'static [Self] = &EngineKind::ALL;
    fn name(self) -> &'static str {
        EngineKind::name(self)
    }
    fn help(self) -> &'static str {
        match self {
            EngineKind::Z3 => "The Z3 SMT solver, with the chosen encoding",
            EngineKind::Native => {
                "z3doku's own bit-vector search: fast, and an independent referee for Z3's answers"
            }
            EngineKind::Race => {
                "native and Z3 (bool) side by side on each search: the first answer wins, the other \
                 is called off"
            }
        }
    }
}

impl Choice for EncodingKind {
    const ALL: &'static [Self] = &EncodingKind::ALL;
    fn name(self) -> &'static str {
        EncodingKind::name(self)
    }
    fn help(self) -> &'static str {
        match self {
            EncodingKind::Int => {
                "The notebook's: an Int per cell in 1..=N, Distinct over every house"
            }
            EncodingKind::Bool => {
                "The SAT lesson's: a Boolean x_R_C_D per cell and digit, \"exactly one\" as an \
                 at-least-one clause and pairwise at-most-one clauses"
            }
            EncodingKind::Pb => {
                "The pysat lesson's: the same Booleans, each \"exactly one\" a single \
                 pseudo-Boolean equation"
            }
        }
    }
}

impl Choice for SymmetryChoice {
    const ALL: &'static [Self] = &SymmetryChoice::ALL;
    fn name(self) -> &'static str {
        SymmetryChoice::name(self)
    }
    fn help(self) -> &'static str {
        match self {
            SymmetryChoice::Fixed(Symmetry::None) => "No symmetry",
            SymmetryChoice::Fixed(Symmetry::Rotate180) => {
                "Half a turn about the centre: r1c1 goes with the opposite corner"
            }
            SymmetryChoice::Fixed(Symmetry::Rotate90) => {
                "A quarter turn about the centre: four cells a quarter turn apart go together"
            }
            SymmetryChoice::Fixed(Symmetry::Mirror) => {
                "Reflection in the vertical middle line: left and right"
            }
            SymmetryChoice::Fixed(Symmetry::Flip) => {
                "Reflection in the horizontal middle line: top and bottom"
            }
            SymmetryChoice::Fixed(Symmetry::Diagonal) => {
                "Reflection in the diagonal from r1c1: rows and columns swap"
            }
            SymmetryChoice::Random => "One of the five symmetries above, drawn for each puzzle",
        }
    }
}

/// The parser of a [`Choice`]: its words, each with its help.
fn choice<T: Choice>() -> impl TypedValueParser<Value = T> {
    let words = T::ALL
        .iter()
        .map(|&value| PossibleValue::new(value.name()).help(value.help()));
    // The parser only lets the listed words through, so the search always
    // finds one; the default only keeps the map total.
    PossibleValuesParser::new(words).map(|word| {
        T::ALL
            .iter()
            .copied()
            .find(|v| v.name() == word)
            .unwrap_or_default()
    })
}

/// A `--timeout`: a whole number of milliseconds from 1. Negative numbers
/// reach it (`allow_negative_numbers`) so that `--timeout -5` is told what
/// is wrong, rather than taken for a flag.
fn parse_millis(text: &str) -> Result<u64, String> {
    match text.trim().parse::<i128>() {
        Ok(ms) if ms >= 1 => u64::try_from(ms).map_err(|_| format!("{text} is too large")),
        Ok(_) => Err(format!(
            "{text} is not a time: give a whole number of milliseconds from 1"
        )),
        Err(_) => Err(format!(
            "{text:?} is not a whole number of milliseconds (from 1)"
        )),
    }
}

/// A count that must be at least 1 (`--jobs`, `--tries`): clap's own
/// message for 0 speaks of a "non-zero type".
fn parse_at_least_one(text: &str) -> Result<NonZeroUsize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) => NonZeroUsize::new(n).ok_or_else(|| "0 is too few: give at least 1".to_string()),
        Err(_) => Err(format!("{text:?} is not a whole number (from 1)")),
    }
}

fn parse_side(text: &str) -> Result<Size, String> {
    text.parse::<usize>()
        .ok()
        .and_then(Size::from_side)
        .ok_or_else(|| format!("{text:?} is not a board side: use 1 to 16, or 25"))
}

#[derive(Args)]
#[command(
    after_help = "Start it, then press Connect in f-puzzles: the userscript's buttons are answered \
                  here until Ctrl-C. Exit status: 0 stopped by Ctrl-C; 2 the address cannot be \
                  listened on."
)]
pub struct ListenArgs {
    /// The address to listen on: loopback only, unless you mean other machines to reach it.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,

    /// The port to listen on (0 takes any free one and says which).
    #[arg(long, default_value_t = z3doku::listen::DEFAULT_PORT)]
    pub port: u16,

    #[command(flatten)]
    pub engine: EngineArgs,

    /// Split a count across this many threads (see `count --jobs`) [default: the number of
    /// cores].
    #[arg(long, short, value_name = "N", value_parser = parse_at_least_one)]
    pub jobs: Option<NonZeroUsize>,
}
