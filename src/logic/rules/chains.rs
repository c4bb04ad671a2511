//! Chains through the rules: X-chains, XY-chains and alternating
//! inference chains (AIC) whose links come from the rules as well as the
//! houses.
//!
//! A chain's nodes are candidates (a digit in a cell). A *strong* link
//! says at least one of its two ends is true, a *weak* one that at most
//! one is. The houses and the cells give the classic ones: a cell with two
//! candidates, a digit with two places in a house (strong); two digits of
//! one cell, one digit in two cells that see each other (weak). The rules
//! add theirs, each read from what the rule was lowered to:
//!
//! - every rule that ties two cells (a `Pair` primitive: dots, XV,
//!   nonconsecutive, thermometer order, anti-king and anti-knight, a
//!   difference line; or a cage's or line's distinct cells that share no
//!   house) gives a weak link between every two candidates its pair table
//!   forbids together, digits of different cells included
//!   ([`super::pointing::Links`]); and a strong one where a cell's other
//!   candidates all leave its partner one digit;
//! - a rule instance that must hold a digit (a cage or a renban whose
//!   digits are fixed, any unit without which the digit cannot be placed:
//!   [`super::RuleSteps::must_hold`]) works as a house: with two places
//!   for the digit, they are a strong link.
//!
//! A chain starts and ends with a strong link and alternates: if its
//! first candidate is false, its last is true, so one of them is; a
//! candidate weakly linked to both is false. Only chains that use a link
//! from a rule are taken here (the houses' own chains are SE's finders'),
//! the shortest first. The step is named by its shape: a *rule X-chain*
//! keeps to one digit, a *rule XY-chain* makes every strong link inside a
//! cell, and any other chain is a *rule AIC*; the ratings are SE's for the
//! chains of the same links (6.6 for one digit, 7.0 through cells), plus
//! SE's length bonus ([`length_bonus`]).

use super::RuleSteps;
use crate::logic::pencil::{Pencil, bit, digits};
use crate::logic::seen::Seen;
use crate::logic::step::{Step, eliminations_text};
use crate::logic::technique::{Difficulty, Technique, length_bonus};
use crate::puzzle::grid::{Clue, digit_char};
use std::collections::VecDeque;

/// Where a link comes from, for the chain's words and for whether it
/// reads a rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Why {
    /// Two candidates of one cell.
    Cell,
    /// One digit in a house (by number).
    House(usize),
    /// A rule that ties two cells.
    Tie,
    /// A rule instance (a unit, by number) that must hold the digit.
    Unit(usize),
}

impl Why {
    fn ruled(self) -> bool {
        matches!(self, Why::Tie | Why::Unit(_))
    }
}

/// The links of one candidate grid, by node (`cell * side + digit - 1`).
struct Graph {
    side: usize,
    strong: Vec<Vec<(u32, Why)>>,
    weak: Vec<Vec<(u32, Why)>>,
}

impl Graph {
    fn cell_of(&self, node: u32) -> usize {
        node as usize / self.side
    }

    fn digit_of(&self, node: u32) -> u8 {
        (node as usize % self.side) as u8 + 1
    }
}

/// The shortest chain so far: its links, its nodes and links, what it
/// eliminates.
struct Found {
    links: usize,
    nodes: Vec<u32>,
    whys: Vec<Why>,
    eliminations: Vec<Clue>,
}

impl RuleSteps {
    /// The links of `p`: the houses', the cells' and the rules'.
    fn graph(&mut self, p: &Pencil) -> Graph {
        let side = p.size().side();
        let cells = p.size().cells();
        let g = p.geometry();
        let mut strong: Vec<Vec<(u32, Why)>> = vec![Vec::new(); cells * side];
        let mut weak: Vec<Vec<(u32, Why)>> = vec![Vec::new(); cells * side];
        let node = |c: usize, d: u8| (c * side + usize::from(d - 1)) as u32;
        let add = |list: &mut Vec<(u32, Why)>, to: u32, why: Why| {
            if !list.iter().any(|&(n, _)| n == to) {
                list.push((to, why));
            }
        };
        for c in (0..cells).filter(|&c| p.value(c) == 0) {
            let m = p.candidates(c);
            for d in digits(m) {
                let n = node(c, d) as usize;
                for o in digits(m & !bit(d)) {
                    add(&mut weak[n], node(c, o), Why::Cell);
                }
                if m.count_ones() == 2 {
                    add(
                        &mut strong[n],
                        node(c, (m & !bit(d)).trailing_zeros() as u8 + 1),
                        Why::Cell,
                    );
                }
            }
        }
        // One digit in a house: every two places are weakly linked (the
        // houses of the first place, so the link names one), and the two
        // places of a digit with only two are strongly linked.
        for (h, house) in g.houses().iter().enumerate() {
            for d in 1..=side as u8 {
                if p.placed_in(h, d) {
                    continue;
                }
                let at = p.positions(h, d);
                let places: Vec<usize> = digits(at).map(|k| house[usize::from(k - 1)]).collect();
                for &a in &places {
                    for &b in &places {
                        if a != b {
                            add(&mut weak[node(a, d) as usize], node(b, d), Why::House(h));
                        }
                    }
                }
                if let [a, b] = places[..] {
                    add(&mut strong[node(a, d) as usize], node(b, d), Why::House(h));
                    add(&mut strong[node(b, d) as usize], node(a, d), Why::House(h));
                }
            }
        }
        // The rules that tie two cells.
        for c in (0..cells).filter(|&c| p.value(c) == 0) {
            let m = p.candidates(c);
            for (o, table, _) in self.links.ties(c) {
                let o = *o;
                if p.value(o) != 0 {
                    continue;
                }
                let there = p.candidates(o);
                for d in digits(m) {
                    for y in digits(there & !table[usize::from(d - 1)]) {
                        add(&mut weak[node(c, d) as usize], node(o, y), Why::Tie);
                    }
                    // With `d` false here, the partner can only be what the
                    // other candidates allow opposite them.
                    let left = digits(m & !bit(d)).fold(0, |a, x| a | table[usize::from(x - 1)]);
                    let left = left & there;
                    if left.is_power_of_two() {
                        let y = left.trailing_zeros() as u8 + 1;
                        add(&mut strong[node(c, d) as usize], node(o, y), Why::Tie);
                        add(&mut strong[node(o, y) as usize], node(c, d), Why::Tie);
                    }
                }
            }
        }
        // Rule instances that must hold a digit, with two places for it.
        for u in 0..self.units.len() {
            let holds = self.must_hold(u, p);
            for d in digits(holds) {
                let places: Vec<usize> = self.units[u]
                    .cells
                    .iter()
                    .copied()
                    .filter(|&c| p.has(c, d))
                    .collect();
                if let [a, b] = places[..] {
                    add(&mut strong[node(a, d) as usize], node(b, d), Why::Unit(u));
                    add(&mut strong[node(b, d) as usize], node(a, d), Why::Unit(u));
                }
            }
        }
        Graph { side, strong, weak }
    }

    /// The shortest chain through the rules that eliminates something.
    pub(super) fn chain(&mut self, p: &Pencil, seen: &Seen) -> Option<Step> {
        if self.units.is_empty() && self.links.is_empty() {
            return None;
        }
        let graph = self.graph(p);
        let found = shortest(&graph, p)?;
        Some(self.chain_step(p, &graph, found, seen))
    }

    fn chain_step(&self, p: &Pencil, graph: &Graph, found: Found, seen: &Seen) -> Step {
        let Found {
            links,
            nodes,
            whys,
            eliminations,
        } = found;
        let first_digit = graph.digit_of(nodes[0]);
        let one_digit = nodes.iter().all(|&n| graph.digit_of(n) == first_digit);
        let in_cells = whys.iter().step_by(2).all(|&w| w == Why::Cell);
        let technique = if one_digit {
            Technique::RuleXChain
        } else if in_cells {
            Technique::RuleXyChain
        } else {
            Technique::RuleAic
        };
        let mut cells: Vec<usize> = nodes.iter().map(|&n| graph.cell_of(n)).collect();
        cells.dedup();
        let mut ds: Vec<u8> = nodes.iter().map(|&n| graph.digit_of(n)).collect();
        ds.sort_unstable();
        ds.dedup();
        let mut step = Step::new(technique).pattern(p, &cells, &ds).say(seen, || {
            let name = |n: u32| {
                format!(
                    "{}={}",
                    p.cell(graph.cell_of(n)),
                    digit_char(graph.digit_of(n))
                )
            };
            // A chain of the houses' links alone reads its rule where its
            // ends rule a candidate out: that rule is named.
            let through = if whys.iter().any(|w| w.ruled()) {
                String::new()
            } else {
                let ends = [
                    graph.cell_of(nodes[0]),
                    graph.cell_of(nodes[nodes.len() - 1]),
                ];
                let to: Vec<usize> = eliminations
                    .iter()
                    .map(|e| p.size().index(e.cell))
                    .collect();
                format!(", through {},", self.links.rule_names(&ends, &to))
            };
            let mut chain = name(nodes[0]);
            for (k, &n) in nodes.iter().enumerate().skip(1) {
                let why = whys[k - 1];
                chain += if k % 2 == 1 { " = " } else { " - " };
                chain += &name(n);
                match why {
                    Why::Tie => {
                        let (a, b) = (graph.cell_of(nodes[k - 1]), graph.cell_of(n));
                        chain += &format!(" ({})", self.links.rule_names(&[a], &[b]));
                    }
                    Why::Unit(u) => chain += &format!(" ({})", self.units[u].name),
                    Why::Cell | Why::House(_) => {}
                }
            }
            format!(
                "{} or {} (chain {chain}), so{} {}",
                name(nodes[0]),
                name(nodes[nodes.len() - 1]),
                through,
                eliminations_text(&eliminations)
            )
        });
        step.difficulty = step
            .difficulty
            .map(|d| Difficulty(d.0 + length_bonus(links)));
        step.eliminations = eliminations;
        step
    }
}

/// The shortest chain of `graph` that reads a rule and eliminates
/// something: from every candidate with a strong link, a breadth-first
/// search over (candidate, true or false, a rule read yet), false
/// candidates going on by strong links and true ones by weak links.
fn shortest(graph: &Graph, p: &Pencil) -> Option<Found> {
    let nodes = graph.strong.len();
    let none = u32::MAX;
    // By state (`(node * 2 + on) * 2 + ruled`), the state before it and
    // the link between.
    let mut parent = vec![none; nodes * 4];
    let mut link = vec![Why::Cell; nodes * 4];
    let mut touched: Vec<usize> = Vec::new();
    // The weak links of the start, stamped with its number: a candidate
    // weakly linked to both ends is eliminated.
    let mut mark = vec![(none, false); nodes];
    let mut queue: VecDeque<(u32, usize)> = VecDeque::new();
    let mut best: Option<Found> = None;
    for start in 0..nodes as u32 {
        if graph.strong[start as usize].is_empty() {
            continue;
        }
        for &(x, why) in &graph.weak[start as usize] {
            mark[x as usize] = (start, why.ruled());
        }
        for s in touched.drain(..) {
            parent[s] = none;
        }
        queue.clear();
        let root = (start as usize * 2) * 2;
        parent[root] = root as u32;
        touched.push(root);
        queue.push_back((root as u32, 0));
        while let Some((state, depth)) = queue.pop_front() {
            if best.as_ref().is_some_and(|b| depth + 1 >= b.links) {
                break;
            }
            let s = state as usize;
            let (n, on, ruled) = (s / 4, s / 2 % 2 == 1, s % 2 == 1);
            let next = if on { &graph.weak[n] } else { &graph.strong[n] };
            for &(m, why) in next {
                let r = ruled || why.ruled();
                let t = (m as usize * 2 + usize::from(!on)) * 2 + usize::from(r);
                if parent[t] != none {
                    continue;
                }
                parent[t] = state;
                link[t] = why;
                touched.push(t);
                if !on {
                    // `m` is true whenever the start is false.
                    let mut gone: Vec<Clue> = Vec::new();
                    for &(x, wx) in &graph.weak[m as usize] {
                        let (stamp, w0) = mark[x as usize];
                        if stamp == start && x != start && x != m && (r || wx.ruled() || w0) {
                            gone.push(Clue {
                                cell: p.cell(graph.cell_of(x)),
                                digit: graph.digit_of(x),
                            });
                        }
                    }
                    if !gone.is_empty() {
                        let (path, whys) = trace(&parent, &link, t);
                        best = Some(Found {
                            links: depth + 1,
                            nodes: path,
                            whys,
                            eliminations: gone,
                        });
                        continue;
                    }
                }
                queue.push_back((t as u32, depth + 1));
            }
        }
    }
    best
}

/// The nodes from the start to state `end`, and the links between.
fn trace(parent: &[u32], link: &[Why], end: usize) -> (Vec<u32>, Vec<Why>) {
    let mut nodes = vec![(end / 4) as u32];
    let mut whys = Vec::new();
    let mut s = end;
    while parent[s] as usize != s && nodes.len() <= parent.len() {
        whys.push(link[s]);
        s = parent[s] as usize;
        nodes.push((s / 4) as u32);
    }
    nodes.reverse();
    whys.reverse();
    (nodes, whys)
}
