//! An automaton over a line's digits: states, the digits that move from
//! one state to another, where a run may start and where it must end. A
//! line keeps it when some run reads its digits in order from a start
//! state to an accepting one (sigh's regular-expression lines, and its
//! state machines, come down to this).
//!
//! What the back ends ask of it lives here, once: the run on a full line
//! ([`Automaton::accepts`]), and over candidates the states a run can be
//! in before each cell coming from the start and going to an accepting
//! state ([`Automaton::support`]), which gives each cell exactly the
//! digits some accepting run uses there.

/// A nondeterministic automaton without empty moves.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Automaton {
    /// How many states, numbered from 0.
    pub states: usize,
    /// The states a run may start in.
    pub start: Vec<usize>,
    /// The states a run may end in.
    pub accept: Vec<usize>,
    /// `(from, to, digits)`: bit `d - 1` of `digits` for each digit `d`
    /// that moves from `from` to `to`; one edge per pair of states.
    pub edges: Vec<(usize, usize, u32)>,
}

impl Automaton {
    /// Whether some run reads `digits` from a start state to an accepting
    /// one.
    pub fn accepts(&self, digits: &[u8]) -> bool {
        let mut now = vec![false; self.states];
        for &s in &self.start {
            now[s] = true;
        }
        for &d in digits {
            let bit = if d == 0 { 0 } else { 1u32 << (d - 1) };
            let mut next = vec![false; self.states];
            for &(from, to, mask) in &self.edges {
                if now[from] && mask & bit != 0 {
                    next[to] = true;
                }
            }
            now = next;
        }
        self.accept.iter().any(|&s| now[s])
    }

    /// Each cell's digits that some accepting run uses there, given each
    /// cell's candidates `doms` (bit `d - 1` for digit `d`) in line order;
    /// `None` when no run accepts.
    pub fn support(&self, doms: &[u32]) -> Option<Vec<u32>> {
        let n = doms.len();
        // forward[i]: states a run from a start state can be in before
        // cell i; backward[i]: states from which the rest of the line can
        // reach an accepting state.
        let mut forward = vec![vec![false; self.states]; n + 1];
        for &s in &self.start {
            forward[0][s] = true;
        }
        for i in 0..n {
            for &(from, to, mask) in &self.edges {
                if forward[i][from] && mask & doms[i] != 0 {
                    forward[i + 1][to] = true;
                }
            }
        }
        let mut backward = vec![vec![false; self.states]; n + 1];
        for &s in &self.accept {
            backward[n][s] = true;
        }
        for i in (0..n).rev() {
            for &(from, to, mask) in &self.edges {
                if backward[i + 1][to] && mask & doms[i] != 0 {
                    backward[i][from] = true;
                }
            }
        }
        if !(0..self.states).any(|s| forward[0][s] && backward[0][s]) {
            return None;
        }
        let mut kept = vec![0u32; n];
        for i in 0..n {
            for &(from, to, mask) in &self.edges {
                if forward[i][from] && backward[i + 1][to] {
                    kept[i] |= mask & doms[i];
                }
            }
        }
        Some(kept)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Digits that alternate odd, even, odd, … from an odd one.
    fn alternating() -> Automaton {
        Automaton {
            states: 2,
            start: vec![0],
            accept: vec![0, 1],
            edges: vec![(0, 1, 0b1_0101_0101), (1, 0, 0b0_1010_1010)],
        }
    }

    #[test]
    fn runs_and_supports_agree() {
        let a = alternating();
        assert!(a.accepts(&[1, 2, 3]) && a.accepts(&[]));
        assert!(!a.accepts(&[2]) && !a.accepts(&[1, 3]));
        let all = 0b1_1111_1111;
        // The middle cell of three, with the first an even digit only: none.
        assert_eq!(a.support(&[0b10, all, all]), None);
        let kept = a.support(&[all, all, 0b100]).unwrap_or_default();
        assert_eq!(kept, [0b1_0101_0101, 0b0_1010_1010, 0b100]);
    }
}
