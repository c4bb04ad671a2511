//! Pictures: `-o svg` and `-o png`. The renderer writes the SVG that
//! `z3doku::draw` makes; [`emit`] turns it into PNG when asked and writes it
//! where `--out` says. PNG is binary: it goes to a file, or to standard
//! output only when that is not a terminal.

use super::{Render, Show};
use crate::cli::Failure;
use crate::cli::args::PictureFormat;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use z3doku::draw::{Picture, png};
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::grid::{Grid, digit_char};
use z3doku::solve::{Outcome, Status};

/// The SVG picture of a grid or an outcome.
pub struct Svg;

impl Render for Svg {
    fn grid(&self, grid: &Grid, puzzle: &Puzzle, highlight: &[usize], _color: bool) -> String {
        let size = puzzle.size();
        let marked: Vec<_> = highlight.iter().map(|&i| size.cell_at(i)).collect();
        Picture::new(puzzle).digits(grid).marked(&marked).draw().svg
    }

    /// One picture, whatever the number of solutions: the first solution
    /// with the cells where the second differs shaded, or the puzzle as
    /// given when none was found (or grids were not asked for).
    fn outcome(&self, outcome: &Outcome, show: Show) -> String {
        let mut caption = Vec::new();
        if show.verdict {
            match outcome.status {
                Status::Unique => caption.push("unique".to_string()),
                Status::Multiple => caption.push("not unique".to_string()),
                _ => {}
            }
        }
        outcome_picture(outcome, show.grids, caption)
    }
}

/// The picture of `outcome` with `caption` under it: its first solution
/// (when `grids`) with the cells a second one changes shaded and listed.
pub fn outcome_picture(outcome: &Outcome, grids: bool, mut caption: Vec<String>) -> String {
    let puzzle = &outcome.puzzle;
    let mut picture = Picture::new(puzzle);
    let differing = outcome.differing_cells();
    if let (true, Some(first)) = (grids, outcome.solutions.first()) {
        picture = picture.digits(&first.grid).marked(&differing);
        if let Some(second) = outcome.solutions.get(1) {
            let size = puzzle.size();
            let pairs: Vec<String> = differing
                .iter()
                .map(|&c| {
                    let i = size.index(c);
                    format!(
                        "{c}: {}/{}",
                        digit_char(first.grid.get(i)),
                        digit_char(second.grid.get(i))
                    )
                })
                .collect();
            caption.push(format!("another solution differs at {}", pairs.join(" ")));
        }
    }
    for line in caption {
        picture = picture.caption(line);
    }
    picture.draw().svg
}

impl PictureFormat {
    /// The file name extension.
    pub fn extension(self) -> &'static str {
        match self {
            PictureFormat::Svg => "svg",
            PictureFormat::Png => "png",
        }
    }

    /// The bytes of `svg` in this format.
    fn bytes(self, svg: &str) -> Result<Vec<u8>, Failure> {
        match self {
            PictureFormat::Svg => Ok(svg.as_bytes().to_vec()),
            PictureFormat::Png => {
                png(svg).map_err(|e| Failure::internal(format!("cannot draw the PNG: {e}")))
            }
        }
    }
}

/// Writes the picture `svg` as `format`: to the file `out`, or to standard
/// output (refused for PNG on a terminal, which would fill it with bytes).
pub fn emit(svg: &str, format: PictureFormat, out: Option<&Path>) -> Result<(), Failure> {
    refuse_terminal(format, out)?;
    let bytes = format.bytes(svg)?;
    match out {
        Some(path) => std::fs::write(path, &bytes)
            .map_err(|e| Failure::input(format!("cannot write {}: {e}", path.display()))),
        None => {
            let mut stdout = std::io::stdout().lock();
            match stdout.write_all(&bytes).and_then(|()| stdout.flush()) {
                Ok(()) => Ok(()),
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
                Err(e) => Err(Failure::input(format!("cannot write the output: {e}"))),
            }
        }
    }
}

/// Refuses a PNG bound for a terminal (with no `--out`), before any work.
pub fn refuse_terminal(format: PictureFormat, out: Option<&Path>) -> Result<(), Failure> {
    if out.is_none() && format == PictureFormat::Png && std::io::stdout().is_terminal() {
        return Err(Failure::usage(
            "a PNG is binary and standard output is a terminal: name a file with --out FILE, or \
             redirect the output",
        ));
    }
    Ok(())
}

/// A folder for one picture each (`steps`, `generate -n`): `--out DIR`,
/// made if missing; `what` names the pictures for the message when it is
/// not given.
pub fn folder(out: Option<&Path>, what: &str) -> Result<PathBuf, Failure> {
    let Some(dir) = out else {
        return Err(Failure::usage(&format!(
            "{what}: name a folder for them with --out DIR"
        )));
    };
    if dir.is_file() {
        return Err(Failure::input(format!(
            "--out {}: is a file; {what} go into a folder",
            dir.display()
        )));
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| Failure::input(format!("cannot make the folder {}: {e}", dir.display())))?;
    Ok(dir.to_path_buf())
}

/// The path of picture `number` (from 1) named `stem` in `dir`:
/// `dir/step-007.png`, numbered to at least three digits so the files sort.
pub fn numbered(dir: &Path, stem: &str, number: usize, format: PictureFormat) -> PathBuf {
    dir.join(format!("{stem}-{number:03}.{}", format.extension()))
}
