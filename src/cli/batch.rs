//! `z3doku batch`: the library's batch run, with a progress bar on a
//! terminal, each record printed as it comes in order, and the summary on
//! standard error.

use super::args::{BatchArgs, BatchFormat};
use super::{Failure, tables};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::io::{BufWriter, IsTerminal, Write};
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use z3doku::batch::{self, Batch, Event, JOBS_PER_CORE, LineError, Record};
use z3doku::puzzle::input::Source;
use z3doku::report::Report;
use z3doku::solve::{Status, exit};

/// The output buffer: some 800 lines of 9x9 solutions.
const OUTPUT_BUFFER: usize = 64 * 1024;

/// Runs `z3doku batch`.
pub fn run(args: &BatchArgs) -> Result<u8, Failure> {
    let source = match args.file.as_str() {
        "-" => Source::Stdin,
        path => Source::File(path.into()),
    };
    let request = args.engine.request(args.unique, false, false, false)?;
    let input = batch::open(&args.file).map_err(|e| Failure::input(format!("{source}: {e}")))?;
    let max = batch::max_jobs();
    let jobs = args.jobs.unwrap_or_else(batch::default_jobs);
    if jobs > max && !args.quiet {
        eprintln!(
            "z3doku: warning: --jobs {jobs} is more than {JOBS_PER_CORE} per core; using {max}"
        );
    }
    let stop = stop_on_ctrl_c();
    let bar = match (
        args.quiet || !std::io::stderr().is_terminal(),
        args.file.as_str(),
    ) {
        (true, _) => ProgressBar::hidden(),
        // Only a regular file can be read twice: counting a pipe's lines
        // would eat them.
        (false, path) if std::path::Path::new(path).is_file() => {
            progress_bar(batch::open(path).ok().map(batch::count_puzzles))
        }
        (false, _) => progress_bar(None),
    };
    let runner = Batch {
        request,
        size: args.size,
        jobs: jobs.min(max),
        rate: args.rate,
    };
    let stdout = std::io::stdout();
    let interactive = stdout.is_terminal();
    let shared_terminal = !bar.is_hidden() && interactive;
    // A line written at a time would cost a system call per puzzle, as much
    // as the native engine's search: the lines are gathered and written out
    // whenever the run waits (and at once on a terminal).
    let mut out = BufWriter::with_capacity(OUTPUT_BUFFER, stdout.lock());
    let mut write_error = None;
    let summary = runner
        .run_streaming(input, stop, |event| {
            let record = match event {
                Event::Record(record) => record,
                Event::Waiting => {
                    return match out.flush() {
                        Ok(()) => ControlFlow::Continue(()),
                        Err(e) => {
                            write_error = Some(e);
                            ControlFlow::Break(())
                        }
                    };
                }
            };
            bar.inc(1);
            if let Err(error) = &record.result {
                // JSON carries the message itself; an internal error is
                // always said out loud.
                if args.output == BatchFormat::Line || matches!(error, LineError::Internal { .. }) {
                    // The lines before it first, for output and messages
                    // sent to the same place (`2>&1`) to keep their order.
                    if let Err(e) = out.flush() {
                        write_error = Some(e);
                        return ControlFlow::Break(());
                    }
                    bar.suspend(|| eprintln!("z3doku: {source}: {error}"));
                }
            }
            let line = render(args.output, record);
            // Output on the bar's terminal must not be drawn over.
            let mut write_out = || {
                out.write_all(line.as_bytes())?;
                if interactive {
                    out.flush()?;
                }
                Ok(())
            };
            let written = if shared_terminal {
                bar.suspend(write_out)
            } else {
                write_out()
            };
            match written {
                Ok(()) => ControlFlow::Continue(()),
                Err(e) => {
                    write_error = Some(e);
                    ControlFlow::Break(())
                }
            }
        })
        .map_err(|e| Failure::internal(e.to_string()))?;
    bar.finish_and_clear();
    let flushed = match write_error {
        Some(e) => Err(e),
        None => out.flush(),
    };
    match flushed {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(exit::SOLVED),
        Err(e) => return Err(Failure::input(format!("cannot write the output: {e}"))),
        Ok(()) => {}
    }
    if !args.quiet {
        eprint!("{}", tables::summary(&summary));
    }
    if summary.interrupted {
        // The exit-status table's promise, after the lines in hand.
        eprintln!("z3doku: interrupted");
        return Ok(exit::INTERRUPTED);
    }
    Ok(summary.worst)
}

/// The output line for `record`, with its newline.
pub fn render(format: BatchFormat, record: &Record) -> String {
    match format {
        BatchFormat::Line => {
            let mut text = match (record.status(), &record.result) {
                (Status::Solved | Status::Unique, Ok(outcome)) => {
                    outcome.solutions.first().map_or_else(
                        || record.status().name().to_string(),
                        |s| outcome.puzzle.rules().solution_line(&s.grid),
                    )
                }
                (status, _) => status.name().to_string(),
            };
            match &record.rating {
                Some(Ok(rating)) => text += &format!(" {rating}"),
                Some(Err(_)) => text += " unrated",
                None => {}
            }
            text.push('\n');
            text
        }
        BatchFormat::Json => Report::of_record(record).to_json_line(),
    }
}

/// A flag that the first Ctrl-C sets, for a clean stop; a second one, for
/// the impatient, ends the process at once.
pub(super) fn stop_on_ctrl_c() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let on_interrupt = Arc::clone(&stop);
    if let Err(e) = ctrlc::set_handler(move || {
        if on_interrupt.swap(true, Ordering::SeqCst) {
            eprintln!("z3doku: interrupted");
            std::process::exit(i32::from(exit::INTERRUPTED));
        }
    }) {
        eprintln!("z3doku: warning: Ctrl-C will not stop cleanly: {e}");
    }
    stop
}

/// A progress bar for standard error: count, rate and time left when the
/// number of puzzles is known, count and rate when not.
pub(super) fn progress_bar(total: Option<u64>) -> ProgressBar {
    let (bar, template) = match total {
        Some(n) => (
            ProgressBar::new(n),
            "{elapsed_precise} {wide_bar} {human_pos}/{human_len} puzzles, {rate}, ETA {eta}",
        ),
        None => (
            ProgressBar::new_spinner(),
            "{elapsed_precise} {spinner} {human_pos} puzzles, {rate}",
        ),
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        // indicatif's own {per_sec} prints four decimals.
        bar.set_style(style.with_key(
            "rate",
            |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.0}/s", state.per_sec());
            },
        ));
    }
    bar.set_draw_target(ProgressDrawTarget::stderr());
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use z3doku::batch::LineError;
    use z3doku::engine::GiveUp;
    use z3doku::puzzle::Puzzle;
    use z3doku::puzzle::parse::parse_line;
    use z3doku::solve::{Outcome, Solution, Status};

    const SOLUTION: &str =
        "715894632234516897689723145493657218867231954152489763376148529928365471541972386";

    fn record(status: Status, solutions: usize) -> Record {
        let grid = parse_line(SOLUTION, 1, None).unwrap_or_else(|e| panic!("{e}"));
        Record {
            line: 7,
            puzzle: Some("1...".into()),
            result: Ok(Outcome {
                status,
                solutions: vec![
                    Solution {
                        grid: grid.clone(),
                        model: None
                    };
                    solutions
                ],
                gave_up: (status == Status::GaveUp).then_some(GiveUp::Timeout),
                ..Outcome::new(&Puzzle::classic(grid))
            }),
            time: Duration::from_micros(1234),
            rating: None,
        }
    }

    #[test]
    fn line_format_is_the_solution_or_a_word() {
        let line = |r: &Record| render(BatchFormat::Line, r);
        assert_eq!(line(&record(Status::Solved, 1)), format!("{SOLUTION}\n"));
        assert_eq!(line(&record(Status::Unique, 1)), format!("{SOLUTION}\n"));
        assert_eq!(line(&record(Status::Multiple, 2)), "multiple\n");
        assert_eq!(line(&record(Status::None, 0)), "none\n");
        assert_eq!(line(&record(Status::GaveUp, 0)), "gave-up\n");
        let bad = Record {
            line: 3,
            puzzle: None,
            result: Err(LineError::TooLong { line: 3 }),
            time: Duration::ZERO,
            rating: None,
        };
        assert_eq!(line(&bad), "error\n");
    }

    #[test]
    fn json_lines() {
        let json = |r: &Record| -> serde_json::Value {
            let text = render(BatchFormat::Json, r);
            assert_eq!(text.matches('\n').count(), 1);
            assert!(text.starts_with(r#"{"line":"#), "{text}");
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"))
        };
        let solved = json(&record(Status::Solved, 1));
        assert_eq!(solved["line"], 7);
        assert_eq!(solved["puzzle"], "1...");
        assert_eq!(solved["status"], "solved");
        assert_eq!(solved["solutions"][0], SOLUTION);
        assert_eq!(solved["time_ms"], 1.234);
        let multiple = json(&record(Status::Multiple, 2));
        assert_eq!(multiple["solutions"][1], SOLUTION);
        assert_eq!(json(&record(Status::GaveUp, 0))["reason"], "timeout");
        let bad = json(&Record {
            line: 3,
            puzzle: None,
            result: Err(LineError::NotUtf8 { line: 3, column: 2 }),
            time: Duration::ZERO,
            rating: None,
        });
        assert_eq!(bad["status"], "error");
        assert_eq!(bad["puzzle"], serde_json::Value::Null);
        assert_eq!(
            bad["error"],
            "line 3, column 2: bytes that are not UTF-8 text"
        );
        assert!(bad.get("time_ms").is_none());
    }
}
