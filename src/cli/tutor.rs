//! `hint`, `steps` and `rate`: the library's [`Tutor`] answers, and this
//! prints.

use super::args::{
    HintArgs, HintFormat, LogicArgs, PictureFormat, RateArgs, ReportFormat, StepsArgs, StepsFormat,
};
use super::render::{self, Pretty, Render};
use super::{Failure, print, read_puzzle};
use std::time::Duration;
use z3doku::draw::Picture;
use z3doku::engine::{Budget, GiveUp};
use z3doku::logic::select::select;
use z3doku::logic::{DEFAULT_TIMEOUT, PathError, Pencil, Step, Technique, Tutor};
use z3doku::puzzle::Puzzle;
use z3doku::report::Report;
use z3doku::solve::{Status, exit};

impl LogicArgs {
    /// How long a question may take: `--timeout`, or [`DEFAULT_TIMEOUT`].
    fn timeout(&self) -> Duration {
        self.engine
            .timeout
            .map_or(DEFAULT_TIMEOUT, Duration::from_millis)
    }

    /// The tutor these options ask for, checked as every command's engine
    /// options are.
    fn tutor(&self, command: &str) -> Result<Tutor, Failure> {
        let request = self.engine.unverified(command)?;
        let chosen = select(&self.techniques, &self.without).map_err(Failure::input)?;
        Ok(Tutor::with_prover(&request.settings, Some(self.timeout()))
            .with_techniques(&chosen.techniques, chosen.reasoned))
    }

    /// The budget of the question, from now.
    fn budget(&self) -> Budget {
        Budget::within(Some(self.timeout()))
    }

    /// The one line that says the budget ran out, after `found` steps of
    /// a path (`None` for a hint or a rating).
    fn spent_line(&self, reason: &GiveUp, found: Option<usize>) -> String {
        let ms = self.timeout().as_millis();
        let after = match found {
            Some(1) => " after 1 step".to_string(),
            Some(n) => format!(" after {n} steps"),
            None => String::new(),
        };
        match reason {
            GiveUp::Timeout => {
                format!("gave up: timeout ({ms} ms){after}; --timeout MS gives more time")
            }
            other => format!("gave up: {other}{after}"),
        }
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

/// The picture of `step` on the grid `pencil` holds before it: the digits
/// placed so far, the pencil marks, and the step's highlights.
fn step_picture(puzzle: &Puzzle, pencil: &Pencil, step: &Step, rating: bool) -> String {
    let size = puzzle.size();
    let marks: Vec<u32> = (0..size.cells()).map(|i| pencil.candidates(i)).collect();
    let mut picture = Picture::new(puzzle)
        .digits(&pencil.grid())
        .candidates(marks)
        .step(step);
    if let (true, Some(difficulty)) = (rating, step.difficulty) {
        picture = picture.caption(format!("rating: {difficulty}"));
    }
    picture.draw().svg
}

pub fn hint(args: &HintArgs) -> Result<u8, Failure> {
    let picture = match args.output {
        HintFormat::Svg => Some(PictureFormat::Svg),
        HintFormat::Png => Some(PictureFormat::Png),
        _ => None,
    };
    let out = args.picture.target(picture, false)?;
    let puzzle = read_puzzle(&args.input)?;
    let json = args.output == HintFormat::Json;
    let (step, unique) = match args
        .logic
        .tutor("hint")?
        .hint_open(&puzzle, &args.logic.budget())
    {
        Ok((None, false)) => {
            return unanswered(&puzzle, &PathError::NotUnique(Status::Multiple), json);
        }
        Ok(found) => found,
        Err(PathError::GaveUp(reason)) if !json => {
            eprintln!("z3doku: {}", args.logic.spent_line(&reason, None));
            return Ok(exit::GAVE_UP);
        }
        Err(e) => return unanswered(&puzzle, &e, json),
    };
    if let Some(format) = picture {
        let svg = match (&step, Pencil::new(&puzzle)) {
            (Some(step), Some(pencil)) => step_picture(&puzzle, &pencil, step, true),
            _ => {
                Picture::new(&puzzle)
                    .caption("the puzzle is solved")
                    .draw()
                    .svg
            }
        };
        render::emit(&svg, format, out)?;
        return Ok(exit::SOLVED);
    }
    let text = match (args.output, &step) {
        (HintFormat::Json, _) => Report::of_hint(&puzzle, step.as_ref()).to_json_line(),
        (HintFormat::Svg | HintFormat::Png, _) => String::new(),
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
    if unique {
        return Ok(exit::SOLVED);
    }
    // The step holds in every solution; the exit status still says the
    // puzzle is not unique, as `solve` would.
    if !json {
        eprintln!("z3doku: the puzzle has more than one solution; this step holds in every one");
    }
    Ok(Status::Multiple.exit_code())
}

/// The path, a step per line as each is found; past the budget, the steps
/// found and one line on standard error (exit status 4).
pub fn steps(args: &StepsArgs) -> Result<u8, Failure> {
    let picture = match args.output {
        StepsFormat::Svg => Some(PictureFormat::Svg),
        StepsFormat::Png => Some(PictureFormat::Png),
        _ => None,
    };
    let out = args.picture.target(picture, false)?;
    let folder = match picture {
        Some(_) => Some(render::folder(out, "steps draws a picture per step")?),
        None => None,
    };
    let puzzle = read_puzzle(&args.input)?;
    let json = args.output == StepsFormat::Json;
    let mut printed = Ok(());
    // The grid before each step, for its picture.
    let mut pencil = Pencil::new(&puzzle);
    // Each step with the grid before it, drawn once the walk is over, so
    // that drawing (a PNG takes tens of milliseconds) does not spend the
    // walk's time budget.
    let mut to_draw: Vec<(Pencil, Step)> = Vec::new();
    let mut each = |step: &Step| {
        if json || printed.is_err() {
            return;
        }
        if let (Some(_), Some(before)) = (picture, pencil.as_mut()) {
            to_draw.push((before.clone(), step.clone()));
            before.apply(&step.placements, &step.eliminations);
            return;
        }
        let mut text = String::new();
        if step.technique == Technique::Search {
            let open = step.placements.len();
            text += &format!("no technique applies: {open} cells remain; search finishes\n");
        }
        text += &format!("{} {step}\n", rating_text(step));
        printed = print(&text);
    };
    let walked = args
        .logic
        .tutor("steps")?
        .walk(&puzzle, &args.logic.budget(), &mut each);
    printed?;
    let drawn = to_draw.len();
    if let (Some(format), Some(dir)) = (picture, &folder) {
        for (number, (before, step)) in to_draw.iter().enumerate() {
            let svg = step_picture(&puzzle, before, step, true);
            let path = render::numbered(dir, "step", number + 1, format);
            render::emit(&svg, format, Some(&path))?;
        }
    }
    let walk = match walked {
        Ok(walk) => walk,
        Err(e) => return unanswered(&puzzle, &e, json),
    };
    if let Some(dir) = &folder {
        let word = if drawn == 1 { "picture" } else { "pictures" };
        eprintln!("{drawn} {word} in {}", dir.display());
    }
    let spent = walk
        .gave_up
        .as_ref()
        .map(|reason| args.logic.spent_line(reason, Some(walk.path.steps.len())));
    // On a puzzle with more than one solution the steps hold in every
    // one, and the path says where they stop.
    let open_end = (!walk.unique && spent.is_none()).then(|| {
        let found = walk.path.steps.len();
        let open = walk.path.stuck_at.unwrap_or(0);
        format!(
            "stopped after {found} step{} with {open} cells open: the puzzle has more than one \
             solution, and these steps hold in every one",
            if found == 1 { "" } else { "s" }
        )
    });
    if json {
        let mut report = Report::of_path(&walk.path);
        if let (Some(reason), Some(line)) = (&walk.gave_up, &spent) {
            report.status = Status::GaveUp.name();
            report.reason = Some(reason.word());
            report.summary = Some(line.clone());
        }
        if let Some(line) = &open_end {
            report.status = Status::Multiple.name();
            report.summary = Some(line.clone());
        }
        print(&report.to_json_line())?;
    }
    if let Some(line) = open_end {
        if !json {
            eprintln!("z3doku: {line}");
        }
        return Ok(Status::Multiple.exit_code());
    }
    match spent {
        // JSON says it in its `summary`; text, in one line on standard error.
        Some(line) => {
            if !json {
                eprintln!("z3doku: {line}");
            }
            Ok(exit::GAVE_UP)
        }
        None => Ok(Status::Unique.exit_code()),
    }
}

pub fn rate(args: &RateArgs) -> Result<u8, Failure> {
    let puzzle = read_puzzle(&args.input)?;
    let json = args.output == ReportFormat::Json;
    let (rating, path) = match args
        .logic
        .tutor("rate")?
        .rate_within(&puzzle, &args.logic.budget())
    {
        Ok(rated) => rated,
        Err(PathError::GaveUp(reason)) if !json => {
            eprintln!("z3doku: {}", args.logic.spent_line(&reason, None));
            return Ok(exit::GAVE_UP);
        }
        Err(e) => return unanswered(&puzzle, &e, json),
    };
    print(&if json {
        Report::of_rating(&path, &rating).to_json_line()
    } else {
        format!("{rating}\n")
    })?;
    Ok(exit::SOLVED)
}
