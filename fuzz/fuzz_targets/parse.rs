//! Any bytes through the puzzle readers: the text forms (line and grid,
//! every size), f-puzzles (JSON, compressed payloads, links), and rules
//! written by hand after a grid. None may panic; a grid the text reader
//! accepts must read back from its line form as the same grid, an
//! f-puzzles puzzle's givens must fit its board, every rule read must
//! read back from the words z3doku prints for it, and a sigh string that
//! reads must write back as a string that reads as the same puzzle.
#![no_main]

use libfuzzer_sys::fuzz_target;
use z3doku::puzzle::fpuzzles;
use z3doku::puzzle::grid::Size;
use z3doku::puzzle::parse::{parse_line, parse_puzzle};
use z3doku::puzzle::rule_text::read_rules;
use z3doku::puzzle::rules::Rules;
use z3doku::puzzle::sigh;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = parse_line(text, 1, None);
    if let Ok(grid) = parse_puzzle(text, None) {
        let again = parse_line(&grid.to_line(), 1, Some(grid.size()));
        assert_eq!(again.as_ref(), Ok(&grid), "{}", grid.to_line());
    }
    if let Ok(puzzle) = fpuzzles::parse(text) {
        let side = puzzle.size().side();
        assert!(
            puzzle
                .givens()
                .cells()
                .iter()
                .all(|&d| usize::from(d) <= side)
        );
    }
    if let Ok(puzzle) = sigh::parse(text) {
        // What reads writes back, unless it holds a rule sigh states
        // otherwise (which writing names); what is written reads as the
        // same puzzle, rules in any order.
        if let Ok(string) = sigh::to_sigh(&puzzle) {
            let again = sigh::parse(&string);
            let names = |p: &z3doku::puzzle::Puzzle| {
                let mut names: Vec<String> =
                    p.rules().constraints().iter().map(|c| c.to_string()).collect();
                names.sort();
                (names, p.givens().clone())
            };
            match again {
                Ok(again) => assert_eq!(names(&again), names(&puzzle), "{string}"),
                Err(e) => panic!("{string}: {e}"),
            }
        }
    }
    let lines: Vec<(usize, &str)> = text.lines().enumerate().map(|(k, l)| (k + 1, l)).collect();
    let mut builder = Rules::builder(Size::NINE);
    if read_rules(&lines, Size::NINE, &mut builder).is_ok() {
        if let Ok(rules) = builder.build() {
            let printed: Vec<String> = rules.constraints().iter().map(|c| c.to_string()).collect();
            let again: Vec<(usize, &str)> = printed
                .iter()
                .enumerate()
                .map(|(k, l)| (k + 1, l.as_str()))
                .collect();
            let mut builder = Rules::builder(Size::NINE);
            assert!(
                read_rules(&again, Size::NINE, &mut builder).is_ok(),
                "{printed:?}"
            );
        }
    }
});
