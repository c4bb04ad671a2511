//! Puzzles of a chosen difficulty: a made puzzle is rated by
//! [`crate::logic`] (the same ratings `z3doku rate` gives) and turned
//! down when it is not the qqwing level, or its SE ER not in the range,
//! that the spec asks for; the generator then draws the next grid.
//!
//! qqwing's level comes from a path with qqwing's few techniques alone,
//! which is quick; ER needs the whole path with every technique (forcing
//! chains included), so it is found only when a range or the report asks
//! for it, and only for puzzles the level kept.
//!
//! A puzzle the techniques cannot finish needs search, and its ER (the
//! hardest step before the search) is only a lower bound: it counts as
//! harder than any number, so only a range without a high end (`8.0..`)
//! keeps it.

use super::{GenerateError, Generated, Provers, Spec};
use crate::logic::path::PathError;
use crate::logic::rating::{QqwingLevel, Rating};
use crate::logic::technique::Difficulty;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// The lowest ER a puzzle with an open cell can have: a full house's.
pub const LOWEST_ER: Difficulty = Difficulty(10);

/// A range of SE ratings (ER), both ends included; without a high end,
/// puzzles that need search are in it too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RatingRange {
    /// The lowest ER kept.
    pub low: Difficulty,
    /// The highest ER kept; `None` for no bound.
    pub high: Option<Difficulty>,
}

/// Why a rating range could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RatingRangeError {
    /// An end is not a rating.
    #[error("`{0}` is not a rating: ratings are numbers in tenths from 0.0, like 7.2")]
    NotARating(String),
    /// Neither end is given.
    #[error("`{0}` names no rating: write A..B, A.., ..B or one number")]
    Empty(String),
    /// The low end is above the high end.
    #[error("`{0}` is empty: its low end is above its high end")]
    Reversed(String),
}

impl RatingRange {
    /// Whether `rating` lies in the range (a rating that needed search
    /// only when the range has no high end).
    pub fn admits(&self, rating: &Rating) -> bool {
        if rating.searched {
            return self.high.is_none();
        }
        rating.er >= self.low && self.high.is_none_or(|high| rating.er <= high)
    }
}

/// A rating in tenths: `7`, `7.2`.
fn tenths(text: &str) -> Result<Difficulty, RatingRangeError> {
    let bad = || RatingRangeError::NotARating(text.to_string());
    let (whole, tenth) = match text.split_once('.') {
        Some((whole, tenth)) => (whole, tenth),
        None => (text, "0"),
    };
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !all_digits(whole) || !all_digits(tenth) || tenth.len() > 1 {
        return Err(bad());
    }
    let whole: u16 = whole.parse().map_err(|_| bad())?;
    let tenth: u16 = tenth.parse().map_err(|_| bad())?;
    whole
        .checked_mul(10)
        .and_then(|t| t.checked_add(tenth))
        .map(Difficulty)
        .ok_or_else(bad)
}

impl FromStr for RatingRange {
    type Err = RatingRangeError;

    /// `A..B`, `A..` (no high end), `..B` (from the lowest rating), or one
    /// number `A` (exactly `A`, that is `A..A`).
    fn from_str(text: &str) -> Result<RatingRange, RatingRangeError> {
        let trimmed = text.trim();
        let end = |s: &str| match s.trim() {
            "" => Ok(None),
            s => tenths(s).map(Some),
        };
        let (low, high) = match trimmed.split_once("..") {
            Some((low, high)) => (end(low)?, end(high)?),
            None => {
                let one = end(trimmed)?;
                (one, one)
            }
        };
        if low.is_none() && high.is_none() {
            return Err(RatingRangeError::Empty(text.to_string()));
        }
        let low = low.unwrap_or(Difficulty(0));
        if high.is_some_and(|high| high < low) {
            return Err(RatingRangeError::Reversed(text.to_string()));
        }
        Ok(RatingRange { low, high })
    }
}

impl fmt::Display for RatingRange {
    /// `7.0..9.0`, or `8.0..` without a high end.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..", self.low)?;
        match self.high {
            Some(high) => write!(f, "{high}"),
            None => Ok(()),
        }
    }
}

/// Whether the spec rates puzzles at all.
pub(super) fn rates(spec: &Spec) -> bool {
    spec.difficulty.is_some() || spec.rating.is_some() || spec.rated
}

/// Rates `made` as far as `spec` needs: `None` when it is turned down;
/// otherwise its full rating (by `provers`' tutor) when the spec asks for
/// ER or a report.
pub(super) fn judge(
    spec: &Spec,
    made: &Generated,
    provers: &mut Provers,
) -> Result<Option<Option<Rating>>, GenerateError> {
    if !rates(spec) {
        return Ok(Some(None));
    }
    let internal = |e: PathError| GenerateError::Internal(format!("rating a made puzzle: {e}"));
    let qqwing = QqwingLevel::of_puzzle(&made.puzzle, &made.solution).map_err(internal)?;
    if spec.difficulty.is_some_and(|level| qqwing != level) {
        return Ok(None);
    }
    if spec.rating.is_none() && !spec.rated {
        return Ok(Some(None));
    }
    let (rating, _) = provers
        .tutor()
        .rate_unique(&made.puzzle, &made.solution)
        .map_err(internal)?;
    if spec.rating.is_some_and(|range| !range.admits(&rating)) {
        return Ok(None);
    }
    Ok(Some(Some(rating)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(text: &str) -> Result<RatingRange, RatingRangeError> {
        text.parse()
    }

    #[test]
    fn ranges_read_in_every_form() {
        let exact = |low, high| {
            Ok(RatingRange {
                low: Difficulty(low),
                high,
            })
        };
        assert_eq!(range("7.0..9.0"), exact(70, Some(Difficulty(90))));
        assert_eq!(range("7..9"), exact(70, Some(Difficulty(90))));
        assert_eq!(range("8.5.."), exact(85, None));
        assert_eq!(range("..2.3"), exact(0, Some(Difficulty(23))));
        assert_eq!(range("8.3"), exact(83, Some(Difficulty(83))));
        assert_eq!(
            range("7.0..9.0").map(|r| r.to_string()),
            Ok("7.0..9.0".into())
        );
        assert_eq!(range("8..").map(|r| r.to_string()), Ok("8.0..".into()));
    }

    #[test]
    fn bad_ranges_say_why() {
        assert_eq!(
            range("9..7"),
            Err(RatingRangeError::Reversed("9..7".into()))
        );
        assert_eq!(range(".."), Err(RatingRangeError::Empty("..".into())));
        for bad in ["hard", "7.25", "-1", "7,2", "1e3", "7..x", "99999"] {
            assert!(
                matches!(range(bad), Err(RatingRangeError::NotARating(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn searched_puzzles_count_as_harder_than_any_number() {
        let rating = |er, searched| Rating {
            er: Difficulty(er),
            ep: Difficulty(12),
            ed: Difficulty(12),
            searched,
            reasoned: 0,
            qqwing: QqwingLevel::Expert,
            variant: false,
        };
        let bounded = range("7.0..9.0").unwrap_or_else(|e| panic!("{e}"));
        let open = range("7.0..").unwrap_or_else(|e| panic!("{e}"));
        assert!(bounded.admits(&rating(70, false)));
        assert!(bounded.admits(&rating(90, false)));
        assert!(!bounded.admits(&rating(91, false)));
        assert!(!bounded.admits(&rating(69, false)));
        assert!(!bounded.admits(&rating(85, true)));
        assert!(open.admits(&rating(50, true)));
        assert!(open.admits(&rating(120, false)));
    }
}
