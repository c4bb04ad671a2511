//! `z3doku generate`: the library's generator, with a progress bar on a
//! terminal, each puzzle printed as soon as it and all before it are made,
//! and a summary line on standard error.

use super::args::{DifficultyLevel, GenerateArgs, GenerateFormat, PuzzleArgs};
use super::batch::{progress_bar, stop_on_ctrl_c};
use super::{Failure, read_puzzle};
use indicatif::ProgressBar;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::io::{IsTerminal, Write};
use std::ops::ControlFlow;
use std::sync::atomic::Ordering;
use std::time::{Instant, SystemTime, UNIX_EPOCH};
use z3doku::batch::{self, JOBS_PER_CORE};
use z3doku::engine::native::NativeEngine;
use z3doku::engine::{EngineKind, Settings};
use z3doku::generate::{GenerateError, Generated, Generator, RatingRange, Spec, default_tries};
use z3doku::logic::QqwingLevel;
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::fpuzzles::write::to_link;
use z3doku::report::{RatingReport, Report};
use z3doku::solve::{Pipeline, Request, Status, exit};

/// Runs `z3doku generate`.
pub fn run(args: &GenerateArgs) -> Result<u8, Failure> {
    let seed = args.seed.unwrap_or_else(clock_seed);
    let rating = args
        .rating
        .as_deref()
        .map(str::parse::<RatingRange>)
        .transpose()
        .map_err(|e| Failure::input(format!("--rating: {e}")))?;
    let rules = args.rules.as_deref().map(read_rules).transpose()?;
    if let Some(rules) = &rules {
        super::refuse_unwritable(rules, "generate --rules")?;
    }
    let size = rules.as_ref().map_or(args.size, Puzzle::size);
    let difficulty = args.difficulty.map(level);
    let spec = Spec {
        size,
        symmetry: args.symmetry,
        minimal: args.minimal,
        max_clues: args.max_clues,
        tries: args.tries.unwrap_or_else(|| default_tries(size)),
        killer: args.killer,
        difficulty,
        rating,
        // The report shows the ratings whenever a filter rated the puzzle.
        rated: args.output == GenerateFormat::Json && (difficulty.is_some() || rating.is_some()),
    };
    let generator = match &rules {
        Some(rules) => Generator::under(spec, seed, rules),
        None => Generator::new(spec, seed),
    }
    .map_err(|e| Failure::input(e.to_string()))?;
    let max = batch::max_jobs();
    let jobs = args.jobs.unwrap_or_else(batch::default_jobs);
    if jobs > max && !args.quiet {
        eprintln!(
            "z3doku: warning: --jobs {jobs} is more than {JOBS_PER_CORE} per core; using {max}"
        );
    }
    let stop = stop_on_ctrl_c();
    let bar = if args.quiet || !std::io::stderr().is_terminal() {
        ProgressBar::hidden()
    } else {
        progress_bar(Some(args.count))
    };
    let mut out = std::io::stdout().lock();
    let shared_terminal = !bar.is_hidden() && out.is_terminal();
    let mut write_error = None;
    let start = Instant::now();
    let made = generator.run(args.count, jobs.min(max), &stop, |made| {
        bar.inc(1);
        let line = render(args.output, made, seed);
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
    });
    bar.finish_and_clear();
    let flushed = match write_error {
        Some(e) => Err(e),
        None => out.flush(),
    };
    drop(out);
    match flushed {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(exit::SOLVED),
        Err(e) => return Err(Failure::input(format!("cannot write the output: {e}"))),
        Ok(()) => {}
    }
    let made = made.map_err(|e| match e {
        GenerateError::NotFound { .. } => Failure {
            message: format!("gave up: {e}"),
            code: exit::GAVE_UP,
        },
        GenerateError::Impossible(_) => Failure::input(e.to_string()),
        GenerateError::Internal(_) => Failure::internal(e.to_string()),
    })?;
    if !args.quiet {
        let seconds = start.elapsed().as_secs_f64();
        let rate = made as f64 / seconds.max(1e-9);
        // Large boards take seconds a puzzle: a rate below 10 keeps a
        // decimal.
        let decimals = usize::from(rate < 10.0);
        eprintln!(
            "made {made} {} puzzle{} in {seconds:.2} s ({rate:.decimals$}/s), seed {seed}",
            size,
            if made == 1 { "" } else { "s" },
        );
    }
    if stop.load(Ordering::SeqCst) && made < args.count {
        // The exit-status table's promise, as `solve` keeps it.
        eprintln!("z3doku: interrupted");
        return Ok(exit::INTERRUPTED);
    }
    Ok(exit::SOLVED)
}

/// The output line for a made puzzle, with its newline.
fn render(format: GenerateFormat, made: &Generated, seed: u64) -> String {
    // Variant rules need f-puzzles' form: a line holds the givens alone.
    let link = (!made.puzzle.rules().is_classic()).then(|| to_link(&made.puzzle, None));
    match (format, link) {
        (GenerateFormat::Line, Some(link)) => link + "\n",
        (GenerateFormat::Line, None) => made.puzzle.givens().to_line() + "\n",
        (GenerateFormat::Json, link) => {
            let mut report = Report::of_generated(made, seed);
            report.fpuzzles = link;
            report.rating = made.rating.as_ref().map(RatingReport::of);
            report.to_json_line()
        }
    }
}

/// The library's level for the flag's.
fn level(level: DifficultyLevel) -> QqwingLevel {
    match level {
        DifficultyLevel::Simple => QqwingLevel::Simple,
        DifficultyLevel::Easy => QqwingLevel::Easy,
        DifficultyLevel::Intermediate => QqwingLevel::Intermediate,
        DifficultyLevel::Expert => QqwingLevel::Expert,
    }
}

/// The puzzle of `--rules FILE`, once it is known to have a solution: rules
/// without one end the command as `solve` would (exit status 1, with the
/// clues and rules to blame).
fn read_rules(path: &str) -> Result<Puzzle, Failure> {
    let rules = read_puzzle(&PuzzleArgs {
        puzzle: path.to_string(),
        size: None,
    })?;
    // The randomised search finds a solution of loose rules far sooner
    // than the solver's fixed order; only rules without one go on to the
    // explanation.
    let mut native = NativeEngine::new(&Settings::default());
    if native
        .random_solution(&rules, &mut ChaCha8Rng::seed_from_u64(0))
        .is_some()
    {
        return Ok(rules);
    }
    let request = Request {
        settings: Settings {
            engine: EngineKind::Native,
            ..Settings::default()
        },
        unique: false,
        explain: true,
        verify: false,
        timeout: None,
    };
    let outcome = Pipeline::new(request).solve(&rules)?;
    if outcome.status == Status::None {
        return Err(Failure {
            message: format!("--rules {path}: {}", outcome.summary()),
            code: exit::NO_SOLUTION,
        });
    }
    Ok(rules)
}

/// A seed from the clock, for runs that name none.
fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |t| t.as_nanos() as u64)
}
