//! The board: its size, its cells and its clues. Which groups of cells
//! must hold different digits is the [rules](super::rules)' business.

use std::fmt;

/// The largest side length (25).
pub const MAX_SIDE: usize = 25;
/// The largest number of cells on a board (625).
pub const MAX_CELLS: usize = MAX_SIDE * MAX_SIDE;

/// The size of a board: its rows and columns, and how many digits it has.
/// Most boards are square, `N` x `N` with digits from 1 to `N`; sigh also
/// has rectangles (`Shape~6x9`: 6 rows of 9 cells, digits 1 to 9, the
/// longer side) and more digits than the longer side (`Shape~9x9~10`): a
/// row, column or box with fewer cells than digits then only keeps its
/// digits apart.
///
/// Every square side from 1 to 16 exists, and 25: the constructors refuse
/// others, so every `Size` is valid. (Sides 17 to 24 would need digits past
/// `G` that no common tool writes, and 25 is kept as the largest classic
/// board.) Rectangles run to 16 on either side ([`Size::rectangle`]), and
/// more digits than the longer side go up to 16 ([`Size::with_values`]).
///
/// sigh's `Raw` grid ([`Size::raw`]) is a board of cells and nothing else:
/// no row, column or box keeps its digits apart, and it may have fewer
/// digits than a row has cells (`Shape~9x9~1-2~Raw`: a 9x9 board of 1s and
/// 2s), so that its rules alone say what the cells hold.
///
/// A board may also have cells outside the grid (sigh's `Var`,
/// [`Size::with_extra`]): unknowns with the board's digits that no house
/// holds and only rules name. They come after the grid's cells, so that
/// [`Size::cells`] (the grid, what every rule of geometry reads) stays
/// rows times columns and [`Size::all_cells`] counts them too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Size {
    rows: u8,
    cols: u8,
    values: u8,
    /// A `Raw` grid: the board's rows, columns and boxes are no houses.
    raw: bool,
    /// The cells outside the grid.
    extra: u16,
}

/// The most digits a board with more digits than its side may have, as
/// sigh allows.
pub const MAX_VALUES: usize = 16;

/// The longest side a rectangle may have, as sigh allows.
pub const MAX_RECTANGLE_SIDE: usize = 16;

/// The most cells outside the grid a board may have (a [`Cell`] keeps
/// their number in a byte).
pub const MAX_EXTRA: usize = 256;

/// The row a [`Cell`] outside the grid has, far below any grid's.
const EXTRA_ROW: u8 = u8::MAX;

impl Size {
    /// The classic 9x9 board.
    pub const NINE: Size = Size {
        rows: 9,
        cols: 9,
        values: 9,
        raw: false,
        extra: 0,
    };

    /// Every square size there is, smallest first: sides 1 to 16, and 25,
    /// each with as many digits as its side.
    pub fn all() -> impl Iterator<Item = Size> {
        (1..=16).chain([25]).map(|side| Size {
            rows: side,
            cols: side,
            values: side,
            raw: false,
            extra: 0,
        })
    }

    /// The board of `rows` rows of `cols` cells (each 1 to 16, or a square
    /// of 25), with as many digits as its longer side, as sigh's `Shape~6x9`.
    pub fn rectangle(rows: usize, cols: usize) -> Option<Size> {
        if rows == cols {
            return Size::from_side(rows);
        }
        let fits = |n: usize| (1..=MAX_RECTANGLE_SIDE).contains(&n);
        (fits(rows) && fits(cols)).then(|| Size {
            rows: rows as u8,
            cols: cols as u8,
            values: rows.max(cols) as u8,
            raw: false,
            extra: 0,
        })
    }

    /// sigh's `Raw` grid of `rows` rows of `cols` cells (each 1 to 16)
    /// with `values` digits (1 to [`MAX_VALUES`], however many cells a
    /// row has): no row, column or box is a house, so only the puzzle's
    /// rules relate its cells.
    pub fn raw(rows: usize, cols: usize, values: usize) -> Option<Size> {
        let fits = |n: usize| (1..=MAX_RECTANGLE_SIDE).contains(&n);
        (fits(rows) && fits(cols) && (1..=MAX_VALUES).contains(&values)).then_some(Size {
            rows: rows as u8,
            cols: cols as u8,
            values: values as u8,
            raw: true,
            extra: 0,
        })
    }

    /// Whether it is a `Raw` grid ([`Size::raw`]), whose rows, columns and
    /// boxes are no houses.
    pub fn is_raw(self) -> bool {
        self.raw
    }

    /// The same board with `values` digits, from its longer side to
    /// [`MAX_VALUES`] (or just its side, on a 25x25); on a `Raw` grid,
    /// any count from 1 to [`MAX_VALUES`].
    pub fn with_values(self, values: usize) -> Option<Size> {
        if self.raw {
            return Size::raw(self.rows(), self.cols(), values).map(|size| Size {
                extra: self.extra,
                ..size
            });
        }
        let longer = self.side();
        let fits = values == longer || (longer..=MAX_VALUES).contains(&values);
        fits.then_some(Size {
            values: values as u8,
            ..self
        })
    }

    /// How many digits there are: the side, or more ([`Size::with_values`]).
    pub fn values(self) -> usize {
        usize::from(self.values)
    }

    /// Whether every row and every column holds every digit: a square
    /// board with as many digits as a row has cells, not a `Raw` grid.
    /// When not, a row, column or box with fewer cells than digits only
    /// keeps its digits apart (or on a `Raw` grid, nothing at all).
    pub fn lines_full(self) -> bool {
        self.rows == self.cols && self.values == self.rows && !self.raw
    }

    /// Whether it has the rows and columns of `other`, whatever the
    /// values and grid type: what `--size N` (a side) asks of a puzzle
    /// that states its own shape (`Shape~9x9~10` and `Shape~9x9~~Raw` are
    /// 9x9).
    pub fn same_dimensions(self, other: Size) -> bool {
        (self.rows, self.cols) == (other.rows, other.cols)
    }

    /// Whether it has as many rows as columns.
    pub fn is_square(self) -> bool {
        self.rows == self.cols
    }

    /// The square size whose side is `side` (1 to 16, or 25).
    pub fn from_side(side: usize) -> Option<Size> {
        Size::all().find(|s| s.side() == side)
    }

    /// The square size whose board has `count` cells (a valid side squared).
    pub fn from_cells(count: usize) -> Option<Size> {
        Size::all().find(|s| s.cells() == count)
    }

    /// The number of rows.
    pub fn rows(self) -> usize {
        usize::from(self.rows)
    }

    /// The number of columns: the cells of a row.
    pub fn cols(self) -> usize {
        usize::from(self.cols)
    }

    /// The side of a square board: its rows, its columns, the cells of a
    /// box and (unless [`Size::values`] says more) its digits. On a
    /// rectangle, the longer side, which is what a box holds and the
    /// digits it has; everything that reads rows and columns apart reads
    /// [`Size::rows`] and [`Size::cols`]. Code made for square boards
    /// only (the commands a rectangle is refused by) reads this.
    pub fn side(self) -> usize {
        usize::from(self.rows.max(self.cols))
    }

    /// The number of the grid's cells: rows times columns.
    pub fn cells(self) -> usize {
        self.rows() * self.cols()
    }

    /// The same board with `extra` cells outside the grid (sigh's `Var`)
    /// in place of any it had: `None` when there would be more than
    /// [`MAX_EXTRA`] of them or more than [`MAX_CELLS`] cells in all.
    pub fn with_extra(self, extra: usize) -> Option<Size> {
        (extra <= MAX_EXTRA && self.cells() + extra <= MAX_CELLS).then_some(Size {
            extra: extra as u16,
            ..self
        })
    }

    /// The number of cells outside the grid ([`Size::with_extra`]).
    pub fn extra(self) -> usize {
        usize::from(self.extra)
    }

    /// The number of unknowns: the grid's cells, then the cells outside
    /// it. Whatever holds a digit per cell (a solution, an engine's
    /// domains) has this many; whatever reads the grid's shape reads
    /// [`Size::cells`].
    pub fn all_cells(self) -> usize {
        self.cells() + self.extra()
    }

    /// The `n`th cell outside the grid, from 0.
    pub fn extra_cell(self, n: usize) -> Cell {
        debug_assert!(n < self.extra());
        Cell::extra_at(n)
    }

    /// The default regions' shape, `(height, width)`, as f-puzzles and sigh
    /// draw them: boxes of as many cells as the longer side `N`, whose
    /// height is the largest divisor of `N` that is at most `√N` (and width
    /// `N / height`), or on a rectangle that shape turned on its side when
    /// only that tiles the board (sigh's `boxDimsForSize`). `None` when no
    /// such box with a height above 1 tiles it (sides 1, 2, 3, 5, 7, 11,
    /// 13): such a board has no regions and is a Latin square. A `Raw`
    /// grid has none either.
    pub fn region_shape(self) -> Option<(usize, usize)> {
        if self.raw {
            return None;
        }
        let (rows, cols, side) = (self.rows(), self.cols(), self.side());
        (2..=side)
            .take_while(|small| small * small <= side)
            .filter(|small| side.is_multiple_of(*small))
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .find_map(|small| {
                let large = side / small;
                if rows.is_multiple_of(small) && cols.is_multiple_of(large) {
                    Some((small, large))
                } else if rows.is_multiple_of(large) && cols.is_multiple_of(small) {
                    Some((large, small))
                } else {
                    None
                }
            })
    }

    /// The cell at `row`, `col` (0-based).
    pub fn cell(self, row: usize, col: usize) -> Cell {
        Cell {
            row: row as u8,
            col: col as u8,
        }
    }

    /// Whether the 0-based `row`, `col` is on the board.
    pub fn contains(self, row: usize, col: usize) -> bool {
        row < self.rows() && col < self.cols()
    }

    /// The cell outside the grid that `v{n}` names, `n` as written (from
    /// 1): `None` when `n` is not a number; `Err` saying how many there are
    /// when the board has no such cell.
    pub fn extra_numbered(self, n: &str) -> Option<Result<Cell, String>> {
        if n.is_empty() || n.starts_with('0') || !n.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        Some(
            n.parse::<usize>()
                .ok()
                .filter(|n| (1..=self.extra()).contains(n))
                .map(|n| self.extra_cell(n - 1))
                .ok_or_else(|| format!("the board has {} cells outside the grid", self.extra())),
        )
    }

    /// Whether `cell` is one of the board's: on the grid, or one of the
    /// cells outside it.
    pub fn holds(self, cell: Cell) -> bool {
        match cell.extra() {
            Some(n) => n < self.extra(),
            None => self.contains(cell.row(), cell.col()),
        }
    }

    /// The cell with row-major index `index`; past the grid, the cells
    /// outside it.
    pub fn cell_at(self, index: usize) -> Cell {
        match index.checked_sub(self.cells()) {
            Some(n) => self.extra_cell(n),
            None => self.cell(index / self.cols(), index % self.cols()),
        }
    }

    /// The orthogonal neighbours of the cell at row-major `index`: above,
    /// below, left and right, those on the board.
    pub fn orthogonal(self, index: usize) -> Vec<usize> {
        let (rows, cols) = (self.rows(), self.cols());
        let (row, col) = (index / cols, index % cols);
        let mut out = Vec::with_capacity(4);
        if row > 0 {
            out.push(index - cols);
        }
        if row + 1 < rows {
            out.push(index + cols);
        }
        if col > 0 {
            out.push(index - 1);
        }
        if col + 1 < cols {
            out.push(index + 1);
        }
        out
    }

    /// The row-major index of `cell`; the cells outside the grid follow it.
    pub fn index(self, cell: Cell) -> usize {
        match cell.extra() {
            Some(n) => self.cells() + n,
            None => cell.row() * self.cols() + cell.col(),
        }
    }

    /// The text for a board of `R` rows and `C` columns, e.g. `9x9`, `6x9`.
    pub fn name(self) -> String {
        self.to_string()
    }
}

impl Default for Size {
    fn default() -> Self {
        Size::NINE
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows(), self.cols())
    }
}

/// A cell's position: row and column, both 0-based. It prints 1-based, as
/// `r1c3`, the usual Sudoku notation. A cell outside the grid
/// ([`Size::extra_cell`]) prints as `v1`, `v2`, ... in the order the
/// board numbers them; its row is past every grid's, so that no rule of
/// geometry finds it beside a grid cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    row: u8,
    col: u8,
}

impl Cell {
    /// The `n`th cell outside the grid (from 0) of any board that has so
    /// many: see [`Size::extra_cell`]. Past [`MAX_EXTRA`], which no board
    /// has, the last there can be.
    pub fn extra_at(n: usize) -> Cell {
        Cell {
            row: EXTRA_ROW,
            col: u8::try_from(n).unwrap_or(u8::MAX),
        }
    }

    /// Whether the two cells are orthogonal neighbours on the grid. A cell
    /// outside it is beside no cell: such cells have no place (sigh lays
    /// a group out in rows for the eye; z3doku's rules do not read that).
    pub fn beside(self, other: Cell) -> bool {
        self.extra().is_none()
            && other.extra().is_none()
            && self.row.abs_diff(other.row) + self.col.abs_diff(other.col) == 1
    }

    /// The name an SMT model gives its unknown: `c_R_C` (1-based), or
    /// `v_N` outside the grid.
    pub fn model_name(self) -> String {
        match self.extra() {
            Some(n) => format!("v_{}", n + 1),
            None => format!("c_{}_{}", self.row() + 1, self.col() + 1),
        }
    }

    /// For a cell outside the grid, its number among them (from 0).
    pub fn extra(self) -> Option<usize> {
        (self.row == EXTRA_ROW).then_some(usize::from(self.col))
    }

    /// The 0-based row.
    pub fn row(self) -> usize {
        usize::from(self.row)
    }

    /// The 0-based column.
    pub fn col(self) -> usize {
        usize::from(self.col)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Every step of a solving path names its cells, thousands of times
        // a puzzle: numbers below 100 are written by hand, which costs a
        // fraction of integer formatting.
        if let Some(n) = self.extra() {
            return f.pad(&format!("v{}", n + 1));
        }
        let mut text = [0u8; 6];
        let mut len = 0;
        for (letter, number) in [(b'r', self.row + 1), (b'c', self.col + 1)] {
            text[len] = letter;
            len += 1;
            if number >= 10 {
                text[len] = b'0' + number / 10;
                len += 1;
            }
            text[len] = b'0' + number % 10;
            len += 1;
        }
        f.pad(std::str::from_utf8(&text[..len]).map_err(|_| fmt::Error)?)
    }
}

/// A clue: a digit given in a cell. Prints as `r1c1=5`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Clue {
    /// Where.
    pub cell: Cell,
    /// Which digit.
    pub digit: u8,
}

impl fmt::Display for Clue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.cell, digit_char(self.digit))
    }
}

/// A board: a size and a digit (or 0 for a blank) in each cell.
///
/// Cells live in a fixed array large enough for the largest board, so a grid
/// never allocates: solvers can copy grids freely in their hot loops.
///
/// A solution of a chaos construction also carries its regions, found with
/// the digits: two solutions with the same digits and different regions
/// are two solutions (as sigh counts them; see build.md, "Chaos
/// construction"). Every other grid has none.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    size: Size,
    cells: [u8; MAX_CELLS],
    /// The region (from 0) of each cell, row-major, when the solution has
    /// regions of its own.
    regions: Option<std::sync::Arc<[u8]>>,
}

impl Grid {
    /// A board of `size` with every cell blank.
    pub fn empty(size: Size) -> Grid {
        Grid {
            size,
            cells: [0; MAX_CELLS],
            regions: None,
        }
    }

    /// A board of `size` from its cells in row-major order (0 for a blank),
    /// the grid's and then, if given, those outside it. `None` when the
    /// count is neither `size.cells()` nor `size.all_cells()` or a value is
    /// above the largest digit.
    pub fn from_cells(size: Size, cells: &[u8]) -> Option<Grid> {
        if (cells.len() != size.cells() && cells.len() != size.all_cells())
            || cells.iter().any(|&d| usize::from(d) > size.values())
        {
            return None;
        }
        let mut grid = Grid::empty(size);
        grid.cells[..cells.len()].copy_from_slice(cells);
        Some(grid)
    }

    /// The board's size.
    pub fn size(&self) -> Size {
        self.size
    }

    /// The regions a chaos construction's solution found (each cell's
    /// region, from 0, row-major); `None` for any other grid.
    pub fn regions(&self) -> Option<&[u8]> {
        self.regions.as_deref()
    }

    /// Its regions as one line, a character per cell in reading order:
    /// region 1 is `1`, region 10 `A`, as digits are written; `None` for a
    /// grid without regions.
    pub fn regions_line(&self) -> Option<String> {
        self.regions().map(|regions| {
            regions
                .iter()
                .map(|&r| digit_char(r.saturating_add(1)))
                .collect()
        })
    }

    /// The grid with `regions` (each cell's region, row-major) as its own.
    pub fn with_regions(mut self, regions: Vec<u8>) -> Grid {
        self.regions = Some(regions.into());
        self
    }

    /// The same digits with no regions.
    pub fn digits_only(&self) -> Grid {
        Grid {
            regions: None,
            ..self.clone()
        }
    }

    /// The grid's cells in row-major order, 0 for a blank.
    pub fn cells(&self) -> &[u8] {
        &self.cells[..self.size.cells()]
    }

    /// The grid's cells and then those outside it ([`Size::all_cells`]).
    pub fn all_cells(&self) -> &[u8] {
        &self.cells[..self.size.all_cells()]
    }

    /// The cells outside the grid, in their order.
    pub fn extra_cells(&self) -> &[u8] {
        &self.all_cells()[self.size.cells()..]
    }

    /// The digit at row-major `index` (0 for a blank); past the grid, the
    /// cells outside it.
    ///
    /// # Panics
    /// When `index` is not below `size().all_cells()`.
    pub fn get(&self, index: usize) -> u8 {
        self.all_cells()[index]
    }

    /// Puts `digit` (0 to blank it) at row-major `index`.
    ///
    /// # Panics
    /// When `index` is off the board or `digit` above the largest digit.
    pub fn set(&mut self, index: usize, digit: u8) {
        assert!(
            usize::from(digit) <= self.size.values(),
            "digit {digit} off the board"
        );
        let count = self.size.all_cells();
        self.cells[..count][index] = digit;
        // Regions found for other digits say nothing of these.
        self.regions = None;
    }

    /// The clues: `(index, digit)` for every filled cell, outside the grid
    /// too.
    pub fn clues(&self) -> impl Iterator<Item = (usize, u8)> + '_ {
        self.all_cells()
            .iter()
            .enumerate()
            .filter(|&(_, &d)| d != 0)
            .map(|(i, &d)| (i, d))
    }

    /// The clues as [`Clue`]s, row-major.
    pub fn clue_list(&self) -> Vec<Clue> {
        self.clues()
            .map(|(i, digit)| Clue {
                cell: self.size.cell_at(i),
                digit,
            })
            .collect()
    }

    /// A board of the same size holding only `clues`.
    pub fn with_clues(&self, clues: &[Clue]) -> Grid {
        let mut grid = Grid::empty(self.size);
        for clue in clues {
            grid.set(self.size.index(clue.cell), clue.digit);
        }
        grid
    }

    /// The number of filled cells.
    pub fn clue_count(&self) -> usize {
        self.all_cells().iter().filter(|&&d| d != 0).count()
    }

    /// Whether every cell holds a digit, outside the grid too.
    pub fn is_full(&self) -> bool {
        self.all_cells().iter().all(|&d| d != 0)
    }

    /// The cells where `self` and `other` differ, row-major.
    pub fn differing(&self, other: &Grid) -> Vec<Cell> {
        self.all_cells()
            .iter()
            .zip(other.all_cells())
            .enumerate()
            .filter(|(_, (a, b))| a != b)
            .map(|(i, _)| self.size.cell_at(i))
            .collect()
    }

    /// The grid as one line: a character per cell, `.` for a blank. The
    /// cells outside the grid are not in it.
    pub fn to_line(&self) -> String {
        let mut line = String::with_capacity(self.cells().len() + 1);
        line.extend(self.cells().iter().map(|&d| digit_char(d)));
        line
    }

    /// The rows, each as a slice of digits.
    pub fn rows(&self) -> impl Iterator<Item = &[u8]> {
        self.cells().chunks(self.size.cols())
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({}", self.to_line())?;
        if !self.extra_cells().is_empty() {
            write!(f, " extra {:?}", self.extra_cells())?;
        }
        if let Some(regions) = &self.regions {
            write!(f, " regions {regions:?}")?;
        }
        f.write_str(")")
    }
}

impl fmt::Display for Grid {
    /// The one-line form, as [`Grid::to_line`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}

/// The character for `digit` in the one-line form: `1`-`9`, then `A`-`P` for
/// 10 to 25, and `.` for a blank (0).
pub fn digit_char(digit: u8) -> char {
    match digit {
        0 => '.',
        1..=9 => char::from(b'0' + digit),
        _ => char::from(b'A' + digit - 10),
    }
}

/// The character for `digit` (1 to N, 0 for a blank) on a board whose
/// digit 1 stands for the value `lowest` (1, or 0 when the digits run from
/// 0, as in sigh's `Shape~9x9~0-8`): the value's digit `0`-`9`, then `A`-`P`
/// for 10 to 25, and `.` for a blank. With `lowest` 1 it is [`digit_char`].
pub fn value_char(digit: u8, lowest: u8) -> char {
    if digit == 0 {
        return '.';
    }
    match digit - 1 + lowest {
        value @ 0..=9 => char::from(b'0' + value),
        value => char::from(b'A' + value - 10),
    }
}

/// The digit a one-line character stands for: `Some(0)` for a blank
/// (`.` `0` `*` `_`), 1-9 for digits, 10 and up for letters (either case);
/// `None` for anything else. Whether the digit fits the board is the
/// caller's business.
pub const fn char_digit(c: char) -> Option<u8> {
    match c {
        '.' | '0' | '*' | '_' => Some(0),
        '1'..='9' => Some(c as u8 - b'0'),
        'A'..='P' => Some(c as u8 - b'A' + 10),
        'a'..='p' => Some(c as u8 - b'a' + 10),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_outside_the_grid_follow_it() {
        let size = Size::NINE.with_extra(3).unwrap_or_default();
        assert_eq!((size.cells(), size.extra(), size.all_cells()), (81, 3, 84));
        let v2 = size.extra_cell(1);
        assert_eq!(v2.to_string(), "v2");
        assert_eq!(v2.model_name(), "v_2");
        assert_eq!(size.index(v2), 82);
        assert_eq!(size.cell_at(82), v2);
        assert_eq!(size.cell_at(80).to_string(), "r9c9");
        assert!(size.holds(v2) && !size.holds(size.extra_cell(3)));
        assert!(!Size::NINE.holds(v2));
        // Beside no cell, not even the next one.
        assert!(!v2.beside(size.extra_cell(2)) && !v2.beside(size.cell(8, 8)));
        assert!(size.cell(0, 0).beside(size.cell(0, 1)));
        assert_eq!(Size::NINE.with_extra(MAX_EXTRA + 1), None);
        let mut grid = Grid::empty(size);
        grid.set(83, 7);
        assert_eq!(
            (grid.cells().len(), grid.extra_cells()),
            (81, &[0, 0, 7][..])
        );
        assert_eq!(
            grid.clue_list(),
            [Clue {
                cell: size.extra_cell(2),
                digit: 7
            }]
        );
        assert!(!grid.is_full());
        assert_eq!(grid.to_line(), ".".repeat(81));
    }

    #[test]
    fn sizes() {
        assert_eq!(Size::from_cells(81), Some(Size::NINE));
        assert_eq!(Size::from_cells(36).map(Size::side), Some(6));
        assert_eq!(Size::from_side(17), None);
        assert_eq!(Size::from_side(0), None);
        assert_eq!(Size::from_cells(80), None);
        assert_eq!(Size::all().count(), 17);
        assert_eq!(Size::NINE.to_string(), "9x9");
    }

    #[test]
    fn regions_follow_f_puzzles() {
        let shape = |side| Size::from_side(side).and_then(Size::region_shape);
        assert_eq!(shape(4), Some((2, 2)));
        assert_eq!(shape(6), Some((2, 3)));
        assert_eq!(shape(8), Some((2, 4)));
        assert_eq!(shape(9), Some((3, 3)));
        assert_eq!(shape(10), Some((2, 5)));
        assert_eq!(shape(12), Some((3, 4)));
        assert_eq!(shape(16), Some((4, 4)));
        assert_eq!(shape(25), Some((5, 5)));
        for latin in [1, 2, 3, 5, 7, 11, 13] {
            assert_eq!(shape(latin), None, "side {latin}");
        }
    }

    #[test]
    fn rectangles_have_sighs_boxes() {
        let shape = |rows, cols| Size::rectangle(rows, cols).and_then(Size::region_shape);
        // sigh's boxDimsForSize: a box of the longer side's cells that
        // tiles the board, turned on its side when only that fits.
        assert_eq!(shape(6, 9), Some((3, 3)));
        assert_eq!(shape(4, 6), Some((2, 3)));
        assert_eq!(shape(6, 4), Some((3, 2)));
        assert_eq!(shape(9, 6), Some((3, 3)));
        assert_eq!(shape(8, 6), Some((4, 2)));
        assert_eq!(shape(3, 7), None);
        let size = Size::rectangle(6, 9).unwrap_or_default();
        assert_eq!((size.rows(), size.cols(), size.values()), (6, 9, 9));
        assert_eq!(size.cells(), 54);
        assert_eq!(size.to_string(), "6x9");
        assert_eq!(size.cell_at(10).to_string(), "r2c2");
        assert_eq!(size.index(size.cell(5, 8)), 53);
        assert_eq!(size.orthogonal(53), vec![44, 52]);
        assert!(!size.lines_full() && !size.is_square());
        assert_eq!(Size::rectangle(9, 9), Some(Size::NINE));
        assert_eq!(Size::rectangle(17, 9), None);
        assert_eq!(Size::rectangle(0, 4), None);
        assert_eq!(size.with_values(8), None);
        assert_eq!(size.with_values(10).map(Size::values), Some(10));
    }

    #[test]
    fn raw_grids_have_no_houses_and_any_count_of_values() {
        let raw = Size::raw(9, 9, 2).unwrap_or_default();
        assert!(raw.is_raw() && raw.is_square() && !raw.lines_full());
        assert_eq!(
            (raw.rows(), raw.cols(), raw.values(), raw.side()),
            (9, 9, 2, 9)
        );
        assert_eq!(raw.region_shape(), None);
        assert_eq!(raw.with_values(1).map(Size::values), Some(1));
        assert_eq!(raw.with_values(16).map(Size::values), Some(16));
        assert_eq!(raw.with_values(17), None);
        assert_ne!(Size::raw(9, 9, 9), Some(Size::NINE));
        assert_eq!(Size::raw(4, 6, 0), None);
        assert_eq!(Size::raw(17, 6, 3), None);
        assert!(!Size::NINE.is_raw());
        assert!(
            raw.same_dimensions(Size::NINE)
                && !raw.same_dimensions(Size::from_side(8).unwrap_or_default())
        );
    }

    #[test]
    fn digit_chars_round_trip() {
        for d in 0..=25u8 {
            assert_eq!(char_digit(digit_char(d)), Some(d));
        }
        assert_eq!(char_digit('x'), None);
        assert_eq!(char_digit('p'), Some(25));
        assert_eq!(char_digit('#'), None);
    }

    #[test]
    fn values_from_zero_print_one_less() {
        assert_eq!(value_char(0, 0), '.');
        assert_eq!(value_char(1, 0), '0');
        assert_eq!(value_char(9, 0), '8');
        assert_eq!(value_char(16, 0), 'F');
        for d in 0..=25u8 {
            assert_eq!(value_char(d, 1), digit_char(d));
        }
    }

    #[test]
    fn cells_print_one_based() {
        assert_eq!(Size::NINE.cell_at(2).to_string(), "r1c3");
        assert_eq!(Size::NINE.cell_at(80).to_string(), "r9c9");
    }
}
