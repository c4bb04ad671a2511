//! The f-puzzles keys that only draw, describe or configure the page, and
//! change no rule: read and set aside, so that a puzzle saved from
//! f-puzzles reads, while a key z3doku does not know stays an error.

use super::{Added, Read};
use crate::puzzle::fpuzzles::FpuzzlesError;
use crate::puzzle::grid::Size;
use serde_json::Value;

/// What only draws or describes.
pub struct Drawing;

impl Read for Drawing {
    const KEYS: &'static [&'static str] = &[
        "title",
        "author",
        "ruleset",
        "solution",
        // Options for the page and a solver's buttons, not rules.
        "highlightConflicts",
        "highlightSeenCells",
        "truecandidatesoptions",
        "disabledlogic",
        // Cosmetic shapes and text (a `cage` without a value is read, and
        // set aside, by the digital-root cage).
        "line",
        "rectangle",
        "circle",
        "text",
    ];
    /// A rule line always means a rule.
    const NAMES: &'static [&'static str] = &[];

    fn from_fpuzzles(_: &str, _: &Value, _: Size) -> Result<Vec<Added>, FpuzzlesError> {
        Ok(Vec::new())
    }

    fn from_text(name: &str, _: &[String], _: Size) -> Result<Vec<Added>, String> {
        Err(format!("{name:?} only draws"))
    }
}
