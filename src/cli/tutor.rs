//! `hint`, `steps` and `rate`: the library's [`Tutor`] answers, and this
//! prints.

use super::args::{HintArgs, HintFormat, LogicArgs, RateArgs, StepsArgs, TextOrJson};
use super::render::{Pretty, Render};
use super::{Failure, print, read_puzzle};
use std::time::Duration;
use z3doku::logic::{PathError, Step, Tutor};
use z3doku::puzzle::Puzzle;
use z3doku::report::Report;
use z3doku::solve::{Status, exit};

impl LogicArgs {
    fn tutor(&self) -> Tutor {
        Tutor::new(self.engine, self.timeout.map(Duration::from_millis))
    }
}

/// What to do when a question has no answer: JSON says so on standard
/// output; otherwise one line on standard error. The exit status follows
/// the status; a wrong step is an internal error.
fn unanswered(puzzle: &Puzzle, error: &PathError, json: bool) -> Result<u8, Failure> {
    if let PathError::Internal(_) = error {
        return Err(Failure::internal(error.to_string()));
    }
    if json {
        print(&Report::of_path_error(puzzle, error).to_json_line())?;
    } else {
        eprintln!("z3doku: {error}");
    }
    Ok(error.status().exit_code())
}

/// A step's rating as text: `2.3`, or `-` for none.
fn rating_text(step: &Step) -> String {
    step.difficulty
        .map_or_else(|| "-".into(), |d| d.to_string())
}

pub fn hint(args: &HintArgs) -> Result<u8, Failure> {
    let puzzle = read_puzzle(&args.input)?;
    let json = args.output == HintFormat::Json;
    let step = match args.logic.tutor().hint(&puzzle) {
        Ok(step) => step,
        Err(e) => return unanswered(&puzzle, &e, json),
    };
    let text = match (args.output, &step) {
        (HintFormat::Json, _) => Report::of_hint(&puzzle, step.as_ref()).to_json_line(),
        (_, None) => "the puzzle is solved\n".to_string(),
        (HintFormat::Text, Some(step)) => format!("{step}\n"),
        (HintFormat::Pretty, Some(step)) => {
            let size = puzzle.size();
            let cells: Vec<usize> = step.cells.iter().map(|&c| size.index(c)).collect();
            let mut text = format!("{step}\n");
            text += &Pretty.grid(puzzle.givens(), &puzzle, &cells, args.color.enabled());
            text += &format!("rating: {}\n", rating_text(step));
            if !step.placements.is_empty() {
                let placed: Vec<String> = step.placements.iter().map(|p| p.to_string()).collect();
                text += &format!("places: {}\n", placed.join(" "));
            }
            if !step.eliminations.is_empty() {
                let removed: Vec<String> = step
                    .eliminations
                    .iter()
                    .map(|e| format!("{}<>{}", e.cell, z3doku::puzzle::grid::digit_char(e.digit)))
                    .collect();
                text += &format!("eliminates: {}\n", removed.join(" "));
            }
            text
        }
    };
    print(&text)?;
    Ok(exit::SOLVED)
}

pub fn steps(args: &StepsArgs) -> Result<u8, Failure> {
    let puzzle = read_puzzle(&args.input)?;
    let json = args.output == TextOrJson::Json;
    let path = match args.logic.tutor().path(&puzzle) {
        Ok(path) => path,
        Err(e) => return unanswered(&puzzle, &e, json),
    };
    if json {
        print(&Report::of_path(&path).to_json_line())?;
        return Ok(exit::SOLVED);
    }
    let mut text = String::new();
    for step in &path.steps {
        if let (Some(open), z3doku::logic::Technique::Search) = (path.stuck_at, step.technique) {
            text += &format!("no technique applies: {open} cells remain; search finishes\n");
        }
        text += &format!("{} {step}\n", rating_text(step));
    }
    print(&text)?;
    Ok(Status::Unique.exit_code())
}

pub fn rate(args: &RateArgs) -> Result<u8, Failure> {
    let puzzle = read_puzzle(&args.input)?;
    let json = args.output == TextOrJson::Json;
    let (rating, path) = match args.logic.tutor().rate(&puzzle) {
        Ok(rated) => rated,
        Err(e) => return unanswered(&puzzle, &e, json),
    };
    print(&if json {
        Report::of_rating(&path, &rating).to_json_line()
    } else {
        format!("{rating}\n")
    })?;
    Ok(exit::SOLVED)
}
