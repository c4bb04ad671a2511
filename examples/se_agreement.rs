//! How often z3doku's ratings are Sudoku Explainer's: rates every puzzle
//! of a file of serate's ratings (lines `PUZZLE [WORDS...] ER/EP/ED`, `#`
//! comments skipped, as in `../shared/data/ratings/`) as `z3doku rate` does,
//! and prints the shares with ER, EP, ED and all three equal to serate's,
//! then the most common disagreements (serate's numbers against z3doku's,
//! with the technique of z3doku's hardest step).
//!
//! `cargo run --release --example se_agreement -- RATINGS [LIMIT] [--list]`;
//! `--list` prints every puzzle whose three numbers differ.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)] // a broken expectation stops the run loudly

use std::collections::BTreeMap;
use std::time::Instant;
use z3doku::engine::{Budget, EngineKind, Settings, new_engine};
use z3doku::logic::{Logic, Rating, unique_solution};
use z3doku::puzzle::Puzzle;
use z3doku::puzzle::parse::parse_line;

/// serate's `ER/EP/ED` in tenths.
fn tenths(word: &str) -> Option<[u16; 3]> {
    let mut out = [0u16; 3];
    let mut parts = word.split('/');
    for slot in &mut out {
        let (whole, tenth) = parts.next()?.split_once('.')?;
        *slot = whole.parse::<u16>().ok()? * 10 + tenth.parse::<u16>().ok()?;
    }
    parts.next().is_none().then_some(out)
}

fn show(t: u16) -> String {
    format!("{}.{}", t / 10, t % 10)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let list = args.iter().any(|a| a == "--list");
    let rest: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let file = rest
        .first()
        .ok_or("usage: se_agreement RATINGS [LIMIT] [--list]")?;
    let limit: usize = rest.get(1).map_or(Ok(usize::MAX), |n| n.parse())?;
    let text = std::fs::read_to_string(file)?;
    let mut engine = new_engine(&Settings {
        engine: EngineKind::Native,
        ..Settings::default()
    });
    let (mut n, mut er_ok, mut ep_ok, mut ed_ok, mut all_ok) = (0usize, 0, 0, 0, 0);
    let mut classes: BTreeMap<String, usize> = BTreeMap::new();
    let mut ms: Vec<f64> = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if n >= limit {
            break;
        }
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let (Some(grid), Some(se)) = (words.first(), words.last().and_then(|w| tenths(w))) else {
            return Err(format!("line {}: not PUZZLE ... ER/EP/ED", number + 1).into());
        };
        let puzzle = Puzzle::classic(parse_line(grid, number + 1, None)?);
        let start = Instant::now();
        let solution = unique_solution(engine.as_mut(), &puzzle, &Budget::unbounded())?;
        let logic = Logic {
            words: false,
            ..Logic::default()
        };
        let (rating, path) = Rating::rate(&puzzle, &solution, logic, engine.as_mut())?;
        ms.push(start.elapsed().as_secs_f64() * 1e3);
        // serate's 20.0 is "beyond its techniques": z3doku's search.
        let ours = if rating.searched {
            [200, rating.ep.0, rating.ed.0]
        } else {
            [rating.er.0, rating.ep.0, rating.ed.0]
        };
        n += 1;
        er_ok += usize::from(ours[0] == se[0]);
        ep_ok += usize::from(ours[1] == se[1]);
        ed_ok += usize::from(ours[2] == se[2]);
        if ours == se {
            all_ok += 1;
            continue;
        }
        let hardest = path
            .steps
            .iter()
            .filter(|s| s.difficulty.is_some())
            .max_by_key(|s| s.difficulty)
            .map_or("-", |s| s.technique.name());
        let key = if ours[0] == se[0] {
            format!(
                "ER equal; EP/ED {}/{} vs {}/{}",
                show(se[1]),
                show(se[2]),
                show(ours[1]),
                show(ours[2])
            )
        } else {
            format!(
                "ER {} vs {} ({}{})",
                show(se[0]),
                show(ours[0]),
                hardest,
                if rating.searched { ", search" } else { "" }
            )
        };
        if list {
            println!(
                "{grid} se {} z3doku {} {key}",
                words[words.len() - 1],
                rating
            );
        }
        *classes.entry(key).or_default() += 1;
    }
    let share = |k: usize| 100.0 * k as f64 / n.max(1) as f64;
    ms.sort_by(f64::total_cmp);
    println!(
        "{n} puzzles: all three equal {:.1}% ({all_ok}); ER {:.1}%, EP {:.1}%, ED {:.1}%; median {:.3} ms",
        share(all_ok),
        share(er_ok),
        share(ep_ok),
        share(ed_ok),
        ms.get(ms.len() / 2).copied().unwrap_or(0.0)
    );
    let mut top: Vec<(String, usize)> = classes.into_iter().collect();
    top.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    println!("\n| serate vs z3doku | puzzles |\n|---|---:|");
    for (key, count) in top.iter().take(25) {
        println!("| {key} | {count} |");
    }
    Ok(())
}
