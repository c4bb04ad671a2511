//! The symmetries a clue pattern can keep, and the orbits they cut the
//! board into: clues are removed an orbit at a time, so the pattern keeps
//! its symmetry whatever is removed.

use crate::puzzle::grid::Size;
use rand::{Rng, RngExt};

/// A symmetry of the square board that the clue pattern keeps: a cell
/// holds a clue exactly when its images do.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// No symmetry: every cell is an orbit of its own.
    #[default]
    None,
    /// Half a turn about the centre: r1c1 goes with the opposite corner.
    Rotate180,
    /// A quarter turn about the centre: the four cells a quarter turn
    /// apart go together.
    Rotate90,
    /// Reflection in the vertical middle line: left and right swap.
    Mirror,
    /// Reflection in the horizontal middle line: top and bottom swap.
    Flip,
    /// Reflection in the falling diagonal (r1c1 to the bottom right
    /// corner): rows and columns swap.
    Diagonal,
}

impl Symmetry {
    /// Every symmetry, in the order the command line lists them.
    pub const ALL: [Symmetry; 6] = [
        Symmetry::None,
        Symmetry::Rotate180,
        Symmetry::Rotate90,
        Symmetry::Mirror,
        Symmetry::Flip,
        Symmetry::Diagonal,
    ];

    /// The symmetries a random choice picks from: every one but `None`.
    pub const SYMMETRIC: [Symmetry; 5] = [
        Symmetry::Rotate180,
        Symmetry::Rotate90,
        Symmetry::Mirror,
        Symmetry::Flip,
        Symmetry::Diagonal,
    ];

    /// The word for it on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rotate180 => "rotate180",
            Symmetry::Rotate90 => "rotate90",
            Symmetry::Mirror => "mirror",
            Symmetry::Flip => "flip",
            Symmetry::Diagonal => "diagonal",
        }
    }

    /// The image of cell `index` (row-major) on a board of `size`.
    pub fn image(self, size: Size, index: usize) -> usize {
        let side = size.side();
        let last = side - 1;
        let (r, c) = (index / side, index % side);
        let (r, c) = match self {
            Symmetry::None => (r, c),
            Symmetry::Rotate180 => (last - r, last - c),
            Symmetry::Rotate90 => (c, last - r),
            Symmetry::Mirror => (r, last - c),
            Symmetry::Flip => (last - r, c),
            Symmetry::Diagonal => (c, r),
        };
        r * side + c
    }

    /// The orbits of the board's cells: each cell with its images, in
    /// row-major order of their first cells, each orbit's cells ascending.
    pub fn orbits(self, size: Size) -> Vec<Vec<usize>> {
        let mut seen = vec![false; size.cells()];
        let mut orbits = Vec::new();
        for start in 0..size.cells() {
            if seen[start] {
                continue;
            }
            let mut orbit = Vec::new();
            let mut cell = start;
            // Every map is a permutation of finite order, so the walk comes
            // back to its start.
            while !seen[cell] {
                seen[cell] = true;
                orbit.push(cell);
                cell = self.image(size, cell);
            }
            orbit.sort_unstable();
            orbits.push(orbit);
        }
        orbits
    }

    /// Whether the clue pattern of `cells` (row-major, 0 for a blank) keeps
    /// this symmetry.
    pub fn holds(self, size: Size, cells: &[u8]) -> bool {
        (0..size.cells()).all(|i| (cells[i] == 0) == (cells[self.image(size, i)] == 0))
    }
}

/// The symmetry asked for: one, or a random one per puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SymmetryChoice {
    /// Every puzzle keeps this one.
    Fixed(Symmetry),
    /// Each puzzle keeps one of [`Symmetry::SYMMETRIC`], drawn at random.
    Random,
}

impl Default for SymmetryChoice {
    /// No symmetry.
    fn default() -> Self {
        SymmetryChoice::Fixed(Symmetry::None)
    }
}

impl SymmetryChoice {
    /// Every choice, in the order the command line lists them.
    pub const ALL: [SymmetryChoice; 7] = [
        SymmetryChoice::Fixed(Symmetry::None),
        SymmetryChoice::Fixed(Symmetry::Rotate180),
        SymmetryChoice::Fixed(Symmetry::Rotate90),
        SymmetryChoice::Fixed(Symmetry::Mirror),
        SymmetryChoice::Fixed(Symmetry::Flip),
        SymmetryChoice::Fixed(Symmetry::Diagonal),
        SymmetryChoice::Random,
    ];

    /// The word for it on the command line.
    pub fn name(self) -> &'static str {
        match self {
            SymmetryChoice::Fixed(symmetry) => symmetry.name(),
            SymmetryChoice::Random => "random",
        }
    }
}

impl SymmetryChoice {
    /// The symmetry for one puzzle.
    pub fn pick(self, rng: &mut impl Rng) -> Symmetry {
        match self {
            SymmetryChoice::Fixed(symmetry) => symmetry,
            SymmetryChoice::Random => {
                Symmetry::SYMMETRIC[rng.random_range(0..Symmetry::SYMMETRIC.len())]
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orbits_cover_the_board_once_and_are_closed() {
        for size in Size::all() {
            for symmetry in Symmetry::ALL {
                let orbits = symmetry.orbits(size);
                let mut seen = vec![0; size.cells()];
                for orbit in &orbits {
                    for &cell in orbit {
                        seen[cell] += 1;
                        assert!(orbit.contains(&symmetry.image(size, cell)));
                    }
                }
                assert!(seen.iter().all(|&n| n == 1), "{size} {symmetry:?}");
            }
        }
    }

    #[test]
    fn orbit_sizes_on_the_nine_board() {
        let count = |s: Symmetry| s.orbits(Size::NINE).len();
        assert_eq!(count(Symmetry::None), 81);
        // The centre is its own image under both turns.
        assert_eq!(count(Symmetry::Rotate180), 41);
        assert_eq!(count(Symmetry::Rotate90), 21);
        // The middle column, row or diagonal stays put.
        assert_eq!(count(Symmetry::Mirror), 45);
        assert_eq!(count(Symmetry::Flip), 45);
        assert_eq!(count(Symmetry::Diagonal), 45);
        let corner = Symmetry::Rotate90.orbits(Size::NINE)[0].clone();
        assert_eq!(corner, vec![0, 8, 72, 80]);
    }
}
