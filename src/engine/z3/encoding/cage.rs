//! What a killer cage's size and sum say about its digits before any is
//! placed: the sets of different digits it may hold. Both kinds of
//! encoding state facts that follow from them beside the cage itself
//! (see build.md, "Killer cages in the Z3 encodings"), since Z3 on its own
//! learns them only through many conflicts.

/// Beyond this many sets a cage's are not looked at: a cage with that many
/// (only on boards above 9x9) gains little from them, and the walk would
/// cost more.
const MOST_SETS: usize = 64;

/// The digit sets a cage of `cells` cells summing to `sum` may hold on a
/// board of side `side`, each a bit mask (bit `d - 1` for digit `d`).
pub struct CageSets {
    /// Each possible set, when there are at most [`MOST_SETS`] of them.
    pub sets: Option<Vec<u32>>,
    /// The digits in some set: no cell of the cage holds another. Every
    /// digit when the sets are not listed.
    pub union: u32,
    /// The digits in every set: some cell of the cage holds each. None
    /// when the sets are not listed.
    pub common: u32,
}

impl CageSets {
    /// The sets of `cells` different digits from `1..=side` adding up to
    /// `sum`.
    pub fn new(side: u8, cells: usize, sum: u32) -> CageSets {
        let mut sets = Vec::new();
        let (mut union, mut common) = (0u32, u32::MAX);
        // Digit by digit, whether each is in: only while the rest can still
        // make up the sum, so the walk visits few dead ends.
        let mut stack: Vec<(u8, usize, u32, u32)> = vec![(1, cells, sum, 0)];
        while let Some((digit, left, rest, set)) = stack.pop() {
            if left == 0 {
                if rest == 0 {
                    if sets.len() == MOST_SETS {
                        return CageSets {
                            sets: None,
                            union: u32::MAX >> (32 - u32::from(side)),
                            common: 0,
                        };
                    }
                    union |= set;
                    common &= set;
                    sets.push(set);
                }
                continue;
            }
            if digit > side || !reachable(digit, side, left, rest) {
                continue;
            }
            stack.push((digit + 1, left, rest, set));
            if let Some(rest) = rest.checked_sub(u32::from(digit)) {
                stack.push((digit + 1, left - 1, rest, set | 1 << (digit - 1)));
            }
        }
        if union == 0 {
            common = 0;
        }
        CageSets {
            sets: Some(sets),
            union,
            common,
        }
    }
}

/// Whether `left` different digits from `from..=side` can add up to
/// `rest`: it lies between the smallest and the largest such sums.
fn reachable(from: u8, side: u8, left: usize, rest: u32) -> bool {
    let (from, side, left) = (u32::from(from), u32::from(side), left as u32);
    if from + left > side + 1 {
        return false;
    }
    let low = left * from + left * left.saturating_sub(1) / 2;
    let high = left * side - left * left.saturating_sub(1) / 2;
    (low..=high).contains(&rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn digits(set: u32) -> Vec<u8> {
        (1..=25).filter(|d| set >> (d - 1) & 1 == 1).collect()
    }

    #[test]
    fn the_killer_tables() {
        // 2 cells of 3: only 1 and 2. 3 cells of 23: only 6, 8, 9.
        let pair = CageSets::new(9, 2, 3);
        assert_eq!(pair.sets, Some(vec![0b11]));
        assert_eq!((pair.union, pair.common), (0b11, 0b11));
        let triple = CageSets::new(9, 3, 23);
        assert_eq!(digits(triple.union), vec![6, 8, 9]);
        // 2 cells of 10: 1+9, 2+8, 3+7, 4+6; never 5, none in common.
        let ten = CageSets::new(9, 2, 10);
        assert_eq!(ten.sets.as_ref().map(Vec::len), Some(4));
        assert_eq!(digits(ten.union), vec![1, 2, 3, 4, 6, 7, 8, 9]);
        assert_eq!(ten.common, 0);
        // 4 cells of 20 on 9x9: 12 sets, every digit possible.
        let four = CageSets::new(9, 4, 20);
        assert_eq!(four.sets.as_ref().map(Vec::len), Some(12));
        assert_eq!(four.union, 0x1ff);
    }

    #[test]
    fn every_listed_set_is_a_set_of_the_cage() {
        for side in [4u8, 6, 9] {
            let top = u32::from(side) * (u32::from(side) + 1) / 2;
            for cells in 1..=usize::from(side) {
                for sum in 0..=top + 1 {
                    let found = CageSets::new(side, cells, sum);
                    let mut all: Vec<u32> = (0u32..1 << side)
                        .filter(|&s| {
                            s.count_ones() as usize == cells
                                && digits(s).iter().map(|&d| u32::from(d)).sum::<u32>() == sum
                        })
                        .collect();
                    let mut listed = found.sets.clone().unwrap_or_default();
                    listed.sort_unstable();
                    all.sort_unstable();
                    assert_eq!(listed, all, "{side} {cells} {sum}");
                    let union = all.iter().fold(0, |u, s| u | s);
                    assert_eq!(found.union, union);
                }
            }
        }
    }

    #[test]
    fn big_cages_on_big_boards_give_bounds_only() {
        let wide = CageSets::new(25, 12, 150);
        assert!(wide.sets.is_none());
        assert_eq!(wide.union, (1 << 25) - 1);
        let impossible = CageSets::new(9, 2, 18);
        assert_eq!((impossible.union, impossible.common), (0, 0));
        assert_eq!(impossible.sets, Some(Vec::new()));
    }
}
