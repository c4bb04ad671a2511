//! An automaton over a line's digits ([`Primitive::Automaton`]) as one
//! formula, the same in every encoding but for how "a cell's digit is one
//! of these" is said: the states a run can be in after each cell, unrolled
//! along the line (a state after cell `i + 1` is reached from a state
//! after cell `i` by a move on that cell's digit), and some accepting
//! state reached after the last. Z3 shares the repeated subterms.
//!
//! An automaton made of copies of one part that differ only in where they
//! start and accept (a sum line's loop: one copy per running total at its
//! first cell, `sum²` states in all) is stated as a run instead: a choice
//! of copy, and one Boolean per place and state of the part, tied by
//! clauses along the line. The reachability formula over all the copies
//! was most of Z3's cost on such a loop (see `Copies`).
//!
//! [`Primitive::Automaton`]: crate::puzzle::primitive::Primitive::Automaton

use crate::puzzle::automaton::Automaton;
use z3::ast::Bool;

/// The formula "the digits of `cells`, in order, are a word `automaton`
/// accepts", where `holds(cell, digits)` says the cell holds one of the
/// digits (bit `d - 1` for digit `d`).
pub fn state(automaton: &Automaton, cells: &[usize], holds: &dyn Fn(usize, u32) -> Bool) -> Bool {
    if let Some(copies) = Copies::of(automaton) {
        return copies.run(cells, holds);
    }
    // `None`: the state cannot be reached there.
    let mut reach: Vec<Option<Bool>> = vec![None; automaton.states];
    for &s in &automaton.start {
        reach[s] = Some(Bool::from_bool(true));
    }
    for &cell in cells {
        let mut ways: Vec<Vec<Bool>> = vec![Vec::new(); automaton.states];
        for &(from, to, digits) in &automaton.edges {
            if let Some(before) = &reach[from] {
                ways[to].push(Bool::and(&[before.clone(), holds(cell, digits)]));
            }
        }
        reach = ways
            .into_iter()
            .map(|w| (!w.is_empty()).then(|| Bool::or(&w)))
            .collect();
    }
    let accepted: Vec<Bool> = automaton
        .accept
        .iter()
        .filter_map(|&s| reach[s].clone())
        .collect();
    Bool::or(&accepted)
}

/// An automaton as copies of one deterministic part: the copies' states
/// in order, and the part's moves by its own state numbers.
struct Copies {
    /// Each copy's states, ascending; a part state's number is its place
    /// in the list.
    copies: Vec<Vec<usize>>,
    /// For each part state, its moves `(to, digits)`, no digit in two.
    moves: Vec<Vec<(usize, u32)>>,
    /// Every digit some move reads.
    digits: u32,
    /// For each copy, its start and accepting part states.
    start: Vec<Vec<usize>>,
    accept: Vec<Vec<usize>>,
}

impl Copies {
    /// The copies `automaton` is made of, when it has two or more that
    /// are the same part (its states split into pieces no move joins,
    /// each with the same moves by its own numbering) and that part reads
    /// each digit by at most one move from each state; else `None`.
    fn of(automaton: &Automaton) -> Option<Copies> {
        let n = automaton.states;
        // The pieces: union-find over the moves.
        let mut parent: Vec<usize> = (0..n).collect();
        fn root(parent: &mut [usize], mut x: usize) -> usize {
            while parent[x] != x {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            x
        }
        for &(from, to, _) in &automaton.edges {
            let (a, b) = (root(&mut parent, from), root(&mut parent, to));
            parent[a.max(b)] = a.min(b);
        }
        let mut copies: Vec<Vec<usize>> = Vec::new();
        let mut copy_of = vec![usize::MAX; n];
        let mut place = vec![0; n];
        for state in 0..n {
            let r = root(&mut parent, state);
            if copy_of[r] == usize::MAX {
                copy_of[r] = copies.len();
                copies.push(Vec::new());
            }
            let c = copy_of[r];
            copy_of[state] = c;
            place[state] = copies[c].len();
            copies[c].push(state);
        }
        if copies.len() < 2 || copies.iter().any(|c| c.len() != copies[0].len()) {
            return None;
        }
        // Each copy's moves by part numbers, sorted, must be the first's.
        let mut per_copy: Vec<Vec<(usize, usize, u32)>> = vec![Vec::new(); copies.len()];
        for &(from, to, digits) in &automaton.edges {
            per_copy[copy_of[from]].push((place[from], place[to], digits));
        }
        for moves in &mut per_copy {
            moves.sort_unstable();
        }
        if per_copy.iter().any(|m| *m != per_copy[0]) {
            return None;
        }
        let mut moves = vec![Vec::new(); copies[0].len()];
        let mut digits = 0;
        for &(from, to, read) in &per_copy[0] {
            let taken: u32 = moves[from].iter().map(|&(_, d)| d).fold(0, |a, d| a | d);
            if taken & read != 0 {
                return None;
            }
            moves[from].push((to, read));
            digits |= read;
        }
        let by_copy = |states: &[usize]| {
            let mut out = vec![Vec::new(); copies.len()];
            for &s in states {
                out[copy_of[s]].push(place[s]);
            }
            out
        };
        Some(Copies {
            start: by_copy(&automaton.start),
            accept: by_copy(&automaton.accept),
            copies,
            moves,
            digits,
        })
    }

    /// The run over `cells`: one copy chosen, exactly one part state per
    /// place, the chosen copy's start before the first cell and one of its
    /// accepting states after the last, and each cell's digit the move
    /// from one place's state to the next's (a digit no move of that state
    /// reads is ruled out there), which propagates both ways along the line.
    fn run(&self, cells: &[usize], holds: &dyn Fn(usize, u32) -> Bool) -> Bool {
        let part = self.moves.len();
        let mut parts = Vec::new();
        let exactly_one = |literals: &[Bool], parts: &mut Vec<Bool>| {
            parts.push(Bool::or(literals));
            for (k, a) in literals.iter().enumerate() {
                for b in &literals[k + 1..] {
                    parts.push(Bool::or(&[a.not(), b.not()]));
                }
            }
        };
        let chosen: Vec<Bool> = self
            .copies
            .iter()
            .map(|_| Bool::fresh_const("copy"))
            .collect();
        exactly_one(&chosen, &mut parts);
        let places: Vec<Vec<Bool>> = (0..=cells.len())
            .map(|_| (0..part).map(|_| Bool::fresh_const("run")).collect())
            .collect();
        for states in &places {
            exactly_one(states, &mut parts);
        }
        let ends = [
            (&self.start, &places[0]),
            (&self.accept, &places[cells.len()]),
        ];
        for (copy, choice) in chosen.iter().enumerate() {
            for (allowed, states) in ends {
                for (state, literal) in states.iter().enumerate() {
                    if !allowed[copy].contains(&state) {
                        parts.push(Bool::or(&[choice.not(), literal.not()]));
                    }
                }
            }
        }
        let unread = !self.digits;
        for (k, &cell) in cells.iter().enumerate() {
            if unread != 0 {
                parts.push(holds(cell, unread).not());
            }
            for (state, now) in places[k].iter().enumerate() {
                let mut read = 0;
                for &(to, digits) in &self.moves[state] {
                    read |= digits;
                    for d in bits(digits) {
                        parts.push(Bool::or(&[
                            now.not(),
                            holds(cell, 1 << d).not(),
                            places[k + 1][to].clone(),
                        ]));
                    }
                }
                for d in bits(self.digits & !read) {
                    parts.push(Bool::or(&[now.not(), holds(cell, 1 << d).not()]));
                }
            }
        }
        Bool::and(&parts)
    }
}

/// The bits set in `digits`, lowest first (bit `d - 1` for digit `d`).
fn bits(digits: u32) -> impl Iterator<Item = u32> {
    (0..32).filter(move |b| digits >> b & 1 == 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::{SatResult, Solver};

    /// A sum line's automaton over digits 1 to 4, as the rule builds it.
    fn sum_line(sum: u32, looped: bool) -> Automaton {
        let size = crate::puzzle::grid::Size::from_side(4).expect("a 4x4 board");
        let line = crate::puzzle::kinds::sum_line::SumLine {
            sum,
            looped,
            cells: Vec::new(),
        };
        line.automaton(size)
    }

    #[test]
    fn a_loop_is_copies_and_a_line_is_not() {
        let copies = Copies::of(&sum_line(5, true)).map(|c| (c.copies.len(), c.moves.len()));
        assert_eq!(copies, Some((5, 5)));
        assert!(Copies::of(&sum_line(5, false)).is_none());
    }

    #[test]
    fn each_assignment_is_accepted_as_the_automaton_reads_it() {
        // Four cells of digits 1 to 4, one Boolean per cell and digit.
        let vars: Vec<Vec<Bool>> = (0..4)
            .map(|c| {
                (1..=4)
                    .map(|d| Bool::new_const(format!("x_{c}_{d}")))
                    .collect()
            })
            .collect();
        let holds = |c: usize, digits: u32| {
            let options: Vec<Bool> = (0..4)
                .filter(|d| digits >> d & 1 == 1)
                .map(|d| vars[c][d].clone())
                .collect();
            Bool::or(&options)
        };
        let solver = Solver::new();
        for (sum, looped) in [(5, true), (6, true), (7, false), (3, true)] {
            let automaton = sum_line(sum, looped);
            let stated = state(&automaton, &[0, 1, 2, 3], &holds);
            for code in 0..256usize {
                let digits: Vec<u8> = (0..4).map(|k| (code >> (2 * k) & 3) as u8 + 1).collect();
                solver.push();
                solver.assert(&stated);
                for (c, &d) in digits.iter().enumerate() {
                    for e in 1..=4u8 {
                        let v = &vars[c][usize::from(e - 1)];
                        solver.assert(if e == d { v.clone() } else { v.not() });
                    }
                }
                let sat = solver.check() == SatResult::Sat;
                solver.pop(1);
                assert_eq!(
                    sat,
                    automaton.accepts(&digits),
                    "sum {sum}, loop {looped}, {digits:?}"
                );
            }
        }
    }
}
