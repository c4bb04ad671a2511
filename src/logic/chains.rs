//! Chains: X-chains (one digit, strong links in houses and weak links
//! between cells that see each other) and XY-chains (two-candidate cells).
//! Of all chains that eliminate something, the shortest is the step, and
//! its length adds to its rating as Sudoku Explainer's does.

use super::pencil::{Pencil, bit, digits};
use super::seen::{ByDigit, Seen};
use super::step::{Step, eliminations_text};
use super::technique::{Difficulty, Technique, length_bonus};
use crate::puzzle::grid::{Clue, digit_char};
use std::collections::VecDeque;

/// A set of cells as bits over cell numbers.
fn cell_set(cells: impl Iterator<Item = usize>) -> [u64; 10] {
    cells.fold([0u64; 10], |mut set, c| {
        set[c / 64] |= 1 << (c % 64);
        set
    })
}

/// The cells holding `digit`.
fn holding(p: &Pencil, digit: u8) -> [u64; 10] {
    cell_set((0..p.size().cells()).filter(|&c| p.has(c, digit)))
}

/// The words of a cell set that a board of `p`'s size uses: a 9x9 board
/// needs two of the ten, and chains read sets at every link.
fn words(p: &Pencil) -> usize {
    p.size().cells().div_ceil(64)
}

/// The cells in both sets (of `words` words), in order.
fn both(a: &[u64; 10], b: &[u64; 10], words: usize) -> impl Iterator<Item = usize> {
    (0..words).flat_map(move |w| {
        let mut set = a[w] & b[w];
        std::iter::from_fn(move || {
            (set != 0).then(|| {
                let c = w * 64 + set.trailing_zeros() as usize;
                set &= set - 1;
                c
            })
        })
    })
}

/// The cells seeing both `a` and `b` that hold `digit` (whose cells are
/// `holding`). Chains ask this at every link and the answer is mostly no,
/// so the bit sets say so before any list is made.
fn seeing_both(p: &Pencil, a: usize, b: usize, digit: u8, holding: &[u64; 10]) -> Vec<Clue> {
    let g = p.geometry();
    let (pa, pb) = (g.peer_bits(a), g.peer_bits(b));
    if (0..words(p)).all(|w| pa[w] & pb[w] & holding[w] == 0) {
        return Vec::new();
    }
    g.peers(a)
        .iter()
        .copied()
        .filter(|&c| c != b && p.has(c, digit) && g.sees(c, b))
        .map(|c| Clue {
            cell: p.cell(c),
            digit,
        })
        .collect()
}

/// The best chain so far: its number of links and its step.
type Best = Option<(usize, Step)>;

/// Keeps the chain of `links` links when it is shorter than the best so
/// far; its step is built only then.
fn keep(best: &mut Best, links: usize, step: impl FnOnce() -> Step) {
    if best.as_ref().is_none_or(|(l, _)| links < *l) {
        *best = Some((links, step()));
    }
}

/// The shortest X-chain that eliminates something, among the digits `seen`
/// says have changed.
pub(crate) fn x_chain(p: &Pencil, seen: &mut Seen) -> Option<Step> {
    let g = p.geometry();
    let cells = p.size().cells();
    let mut best: Best = None;
    // The searches from every start reuse one set of buffers.
    let mut parent = vec![[usize::MAX; 2]; cells];
    let mut queue = VecDeque::new();
    let mut next: Vec<usize> = Vec::new();
    let mut strong: Vec<Vec<usize>> = vec![Vec::new(); cells];
    for digit in digits(seen.digits_to_scan(p, ByDigit::XChain)) {
        let cells_of = holding(p, digit);
        // Strong links: the two places of the digit in a house.
        strong.iter_mut().for_each(Vec::clear);
        for (h, house) in g.houses().iter().enumerate() {
            let m = p.positions(h, digit);
            if m.count_ones() == 2 {
                let a = house[m.trailing_zeros() as usize];
                let b = house[(31 - m.leading_zeros()) as usize];
                if !strong[a].contains(&b) {
                    strong[a].push(b);
                    strong[b].push(a);
                }
            }
        }
        for start in 0..cells {
            if strong[start].is_empty() {
                continue;
            }
            // States: (cell, on). The start is off; a strong link turns a
            // cell on, a weak link from an on cell turns the next off.
            parent.fill([usize::MAX; 2]);
            queue.clear();
            parent[start][0] = start;
            queue.push_back((start, 0usize, 0usize));
            while let Some((cell, on, depth)) = queue.pop_front() {
                if best.as_ref().is_some_and(|(l, _)| depth + 1 >= *l) {
                    break;
                }
                next.clear();
                if on == 0 {
                    next.extend_from_slice(&strong[cell]);
                } else {
                    next.extend(both(g.peer_bits(cell), &cells_of, words(p)));
                }
                for &n in &next {
                    let n_on = 1 - on;
                    if parent[n][n_on] != usize::MAX || n == start {
                        continue;
                    }
                    parent[n][n_on] = cell;
                    if n_on == 1 {
                        let eliminations = seeing_both(p, start, n, digit, &cells_of);
                        if !eliminations.is_empty() {
                            keep(&mut best, depth + 1, || {
                                let path = trace(&parent, start, n, 1);
                                x_step(p, digit, &path, eliminations, seen)
                            });
                            continue;
                        }
                    }
                    queue.push_back((n, n_on, depth + 1));
                }
            }
        }
        // A search cut short by a shorter chain of another digit proves
        // nothing about this one.
        if best.is_none() {
            seen.nothing_for(ByDigit::XChain, digit);
        }
    }
    best.map(|(_, s)| s)
}

/// The chain's cells from `start` to `end`, from the parents of the
/// breadth-first search (`on` is the end's state).
fn trace(parent: &[[usize; 2]], start: usize, end: usize, mut on: usize) -> Vec<usize> {
    let mut path = vec![end];
    let mut cell = end;
    while cell != start || on != 0 {
        cell = parent[cell][on];
        on = 1 - on;
        path.push(cell);
        if path.len() > parent.len() * 2 {
            break;
        }
    }
    path.reverse();
    path
}

fn x_step(p: &Pencil, digit: u8, path: &[usize], eliminations: Vec<Clue>, seen: &Seen) -> Step {
    let links = path.len() - 1;
    let mut step = Step::new(Technique::XChain)
        .pattern(p, path, &[digit])
        .say(seen, || {
            let mut chain = p.cell(path[0]).to_string();
            for (i, &c) in path.iter().enumerate().skip(1) {
                chain += if i % 2 == 1 { " = " } else { " - " };
                chain += &p.cell(c).to_string();
            }
            let (first, last) = (p.cell(path[0]), p.cell(path[links]));
            format!(
                "{} is in {first} or {last} (chain {chain}), so {}",
                digit_char(digit),
                eliminations_text(&eliminations)
            )
        });
    step.difficulty = step
        .difficulty
        .map(|d| Difficulty(d.0 + length_bonus(links)));
    step.eliminations = eliminations;
    step
}

/// The shortest XY-chain that eliminates something.
pub fn xy_chain(p: &Pencil, seen: &Seen) -> Option<Step> {
    let g = p.geometry();
    let cells = p.size().cells();
    let bivalue: Vec<bool> = (0..cells)
        .map(|c| p.candidates(c).count_ones() == 2)
        .collect();
    let side = p.size().side();
    let mut best: Best = None;
    let cells_of: Vec<[u64; 10]> = (1..=side as u8).map(|d| holding(p, d)).collect();
    // The two-candidate cells holding each digit: the links out of a cell.
    let two = cell_set((0..cells).filter(|&c| bivalue[c]));
    let bivalue_of: Vec<[u64; 10]> = cells_of
        .iter()
        .map(|set| std::array::from_fn(|w| set[w] & two[w]))
        .collect();
    // State: (cell, the digit that is true in it if z is not true in the
    // start). Parent pointers by state index; each search sets few of them,
    // so it clears just those (`touched`) for the next.
    let idx = |c: usize, d: u8| c * side + usize::from(d - 1);
    let mut parent = vec![usize::MAX; cells * side];
    let mut touched: Vec<usize> = Vec::new();
    let mut queue = VecDeque::new();
    for start in (0..cells).filter(|&c| bivalue[c]) {
        for z in digits(p.candidates(start)) {
            for s in touched.drain(..) {
                parent[s] = usize::MAX;
            }
            queue.clear();
            let first_on = (p.candidates(start) & !bit(z)).trailing_zeros() as u8 + 1;
            parent[idx(start, first_on)] = idx(start, first_on);
            touched.push(idx(start, first_on));
            queue.push_back((start, first_on, 1usize));
            while let Some((cell, on, count)) = queue.pop_front() {
                let links = 2 * (count + 1) - 1;
                if best.as_ref().is_some_and(|(l, _)| links >= *l) {
                    break;
                }
                for t in both(
                    g.peer_bits(cell),
                    &bivalue_of[usize::from(on - 1)],
                    words(p),
                ) {
                    if t == start {
                        continue;
                    }
                    let t_on = (p.candidates(t) & !bit(on)).trailing_zeros() as u8 + 1;
                    if parent[idx(t, t_on)] != usize::MAX {
                        continue;
                    }
                    parent[idx(t, t_on)] = idx(cell, on);
                    touched.push(idx(t, t_on));
                    if t_on == z {
                        let eliminations =
                            seeing_both(p, start, t, z, &cells_of[usize::from(z - 1)]);
                        if !eliminations.is_empty() {
                            keep(&mut best, links, || {
                                let mut path = vec![(t, t_on)];
                                let mut s = idx(cell, on);
                                while path.len() <= cells {
                                    let (c, d) = (s / side, (s % side) as u8 + 1);
                                    path.push((c, d));
                                    if parent[s] == s {
                                        break;
                                    }
                                    s = parent[s];
                                }
                                path.reverse();
                                xy_step(p, z, &path, eliminations, links, seen)
                            });
                            continue;
                        }
                    }
                    queue.push_back((t, t_on, count + 1));
                }
            }
        }
    }
    best.map(|(_, s)| s)
}

fn xy_step(
    p: &Pencil,
    z: u8,
    path: &[(usize, u8)],
    eliminations: Vec<Clue>,
    links: usize,
    seen: &Seen,
) -> Step {
    let cells: Vec<usize> = path.iter().map(|&(c, _)| c).collect();
    let mut step = Step::new(Technique::XyChain)
        .pattern(p, &cells, &[z])
        .say(seen, || {
            let chain: Vec<String> = path
                .iter()
                .map(|&(c, on)| {
                    let off = (p.candidates(c) & !bit(on)).trailing_zeros() as u8 + 1;
                    format!("{} ({}={})", p.cell(c), digit_char(off), digit_char(on))
                })
                .collect();
            let (first, last) = (p.cell(cells[0]), p.cell(cells[cells.len() - 1]));
            format!(
                "{} is in {first} or {last} (chain {}), so {}",
                digit_char(z),
                chain.join(" - "),
                eliminations_text(&eliminations)
            )
        });
    step.difficulty = step
        .difficulty
        .map(|d| Difficulty(d.0 + length_bonus(links)));
    step.eliminations = eliminations;
    step
}
