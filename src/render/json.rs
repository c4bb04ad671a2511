//! JSON: one object per puzzle, for programs.

use super::{Render, Show};
use crate::grid::Grid;
use crate::verdict::Outcome;
use serde_json::json;

/// A JSON object.
pub struct Json;

impl Render for Json {
    fn grid(&self, grid: &Grid, _clues: &Grid, _highlight: &[usize], _color: bool) -> String {
        json!(grid.to_line()).to_string() + "\n"
    }

    fn outcome(&self, outcome: &Outcome, show: Show) -> String {
        let solutions: Vec<String> = outcome.solutions.iter().map(|s| s.grid.to_line()).collect();
        let differing: Vec<String> = outcome
            .differing_cells()
            .iter()
            .map(|c| c.to_string())
            .collect();
        let conflicting: Vec<String> = outcome.conflicting.iter().map(|c| c.to_string()).collect();
        let mut value = json!({
            "status": outcome.status.name(),
            "puzzle": outcome.puzzle.to_line(),
            "solutions": solutions,
            "differing_cells": differing,
            "conflicting_clues": conflicting,
            "conflict_is_minimal": outcome.conflict_is_minimal,
            "time_ms": outcome.elapsed.as_secs_f64() * 1000.0,
        });
        if let Some(referee) = outcome.verified_by {
            value["verified_by"] = json!(referee.name());
        }
        if let Some(reason) = &outcome.gave_up {
            value["reason"] = json!(reason);
        }
        if show.models {
            let models: Vec<&str> = outcome
                .solutions
                .iter()
                .filter_map(|s| s.model.as_deref())
                .collect();
            value["models"] = json!(models);
        }
        value.to_string() + "\n"
    }
}
