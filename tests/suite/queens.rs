//! `z3doku queens`: placements valid, counts against an independent
//! backtracking counter, and the edges of N.

use crate::common;

use common::{output_of, z3doku};
use z3doku::queens::{Placement, Queens};

/// Independent count: place row by row, no Z3.
fn backtracking(n: usize) -> usize {
    fn go(n: usize, row: usize, cols: &mut Vec<usize>) -> usize {
        if row == n {
            return 1;
        }
        let mut total = 0;
        for c in 0..n {
            if cols
                .iter()
                .enumerate()
                .all(|(r, &c2)| c2 != c && row - r != c.abs_diff(c2))
            {
                cols.push(c);
                total += go(n, row + 1, cols);
                cols.pop();
            }
        }
        total
    }
    go(n, 0, &mut Vec::new())
}

#[test]
fn counts_agree_with_backtracking() {
    for n in 1..=9 {
        let mut queens = Queens::new(n, false);
        let mut seen: Vec<Placement> = Vec::new();
        while let Some(p) = queens
            .next_placement(&z3doku::engine::Budget::unbounded())
            .unwrap_or_else(|e| panic!("{e}"))
        {
            assert!(p.is_valid());
            assert!(!seen.contains(&p));
            seen.push(p);
        }
        assert_eq!(seen.len(), backtracking(n), "n = {n}");
    }
}

#[test]
fn count_command_prints_92_and_724() {
    z3doku()
        .args(["queens", "8", "--count"])
        .assert()
        .code(0)
        .stdout("92 placements\n");
    z3doku()
        .args(["queens", "10", "--count"])
        .assert()
        .code(0)
        .stdout("724 placements\n");
    z3doku()
        .args(["queens", "8", "--count", "--limit", "10"])
        .assert()
        .code(0)
        .stdout("10 placements (limit reached)\n");
}

#[test]
fn thirty_queens_board() {
    let out = output_of(["queens", "30"], 0);
    let board = String::from_utf8_lossy(&out);
    let rows: Vec<&str> = board.lines().collect();
    assert_eq!(rows.len(), 30);
    let columns: Vec<usize> = rows
        .iter()
        .map(|row| {
            assert_eq!(row.len(), 30);
            assert!(row.chars().all(|c| c == 'X' || c == '*'));
            assert_eq!(row.matches('X').count(), 1, "{row}");
            row.find('X').unwrap_or(usize::MAX)
        })
        .collect();
    assert!(is_valid(columns));
}

#[test]
fn json_and_model() {
    let out = output_of(["queens", "6", "-o", "json"], 0);
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap_or_else(|e| panic!("{e}"));
    let columns: Vec<usize> = json["queens"]
        .as_array()
        .unwrap_or_else(|| panic!("{json}"))
        .iter()
        .enumerate()
        .map(|(r, pos)| {
            assert_eq!(pos[0], r + 1);
            pos[1].as_u64().unwrap_or(0) as usize - 1
        })
        .collect();
    assert!(is_valid(columns));
    let out = output_of(["queens", "4", "--model"], 0);
    let text = String::from_utf8_lossy(&out);
    assert_eq!(text.lines().filter(|l| l.ends_with("-> true")).count(), 4);
    assert_eq!(text.lines().filter(|l| l.contains(" -> ")).count(), 16);
}

#[test]
fn edges_of_n() {
    for n in ["2", "3"] {
        z3doku()
            .args(["queens", n])
            .assert()
            .code(1)
            .stdout("")
            .stderr(format!(
                "no solution: {n} queens cannot be placed on a {n}x{n} board\n"
            ));
    }
    z3doku()
        .args(["queens", "1"])
        .assert()
        .code(0)
        .stdout("X\n");
    for bad in ["0", "101", "-3", "eight"] {
        let out = z3doku()
            .args(["queens", bad])
            .assert()
            .code(2)
            .get_output()
            .stderr
            .clone();
        assert!(!String::from_utf8_lossy(&out).contains("panicked"));
    }
}

/// Whether queens in these columns, one per row, leave each other alone.
fn is_valid(columns: Vec<usize>) -> bool {
    Placement {
        columns,
        model: None,
    }
    .is_valid()
}
