//! `z3doku generate`: the library's generator, with a progress bar on a
//! terminal, each puzzle printed as soon as it and all before it are made,
//! and a summary line on standard error.

use super::Failure;
use super::args::{GenerateArgs, GenerateFormat};
use super::batch::{progress_bar, stop_on_ctrl_c};
use indicatif::ProgressBar;
use std::io::{IsTerminal, Write};
use std::ops::ControlFlow;
use std::sync::atomic::Ordering;
use std::time::{Instant, SystemTime, UNIX_EPOCH};
use z3doku::batch::{self, JOBS_PER_CORE};
use z3doku::generate::{GenerateError, Generated, Generator, Spec, default_tries};
use z3doku::puzzle::fpuzzles::write::to_link;
use z3doku::report::Report;
use z3doku::solve::exit;

/// Runs `z3doku generate`.
pub fn run(args: &GenerateArgs) -> Result<u8, Failure> {
    let seed = args.seed.unwrap_or_else(clock_seed);
    let spec = Spec {
        size: args.size,
        symmetry: args.symmetry,
        minimal: args.minimal,
        max_clues: args.max_clues,
        tries: args.tries.unwrap_or_else(|| default_tries(args.size)),
        killer: args.killer,
    };
    let generator = Generator::new(spec, seed).map_err(|e| Failure::input(e.to_string()))?;
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
            args.size,
            if made == 1 { "" } else { "s" },
        );
    }
    Ok(if stop.load(Ordering::SeqCst) && made < args.count {
        exit::INTERRUPTED
    } else {
        exit::SOLVED
    })
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
            report.to_json_line()
        }
    }
}

/// A seed from the clock, for runs that name none.
fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |t| t.as_nanos() as u64)
}
