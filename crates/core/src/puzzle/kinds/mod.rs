//! The rule kinds and their registry.
//!
//! Each kind of rule lives in one file (or one file per small family):
//! its f-puzzles keys and text names, how it is read from f-puzzles JSON
//! and from a rule line, how it is written back to f-puzzles (its text
//! line is its `Display`, which reads back as the same rule), how people
//! name it, its validation against a board, its lowering to
//! [primitives](super::primitive), and its test on a full grid, stated as
//! the rule says and never through the primitives.
//!
//! Every kind answers the [`Read`] and [`Rule`] traits, which have no
//! default methods, and the `registry!` below lists each kind once: it
//! makes the [`Constraint`] enum, the dispatch from a constraint to its
//! kind, and the [`READERS`] table the f-puzzles and text readers consult.
//! So a new kind is one new file and one line here, and a kind that
//! forgets a piece does not compile.

pub mod board;
pub mod cages;
pub mod cells;
pub mod chaos;
pub mod connected_values;
pub mod count_distinct;
pub mod counting;
pub mod doppelganger;
pub mod dots;
pub mod drawing;
pub mod either;
pub mod equal_sum;
pub mod equality;
pub mod extra_cells;
pub mod formula;
pub mod full_rank;
pub mod global;
pub mod lines;
pub mod lockout;
pub mod look_and_say;
pub mod lunchbox;
pub mod nabner;
pub mod outside;
pub mod pairs;
pub mod parity;
pub mod regex;
pub mod region_same_values;
pub mod rellik;
pub mod rooms;
pub mod same_values;
pub mod shifted;
pub mod state_machine;
pub mod sum_line;
pub mod sums;
pub mod value_indexing;

use super::check::Board;
use super::constraint::Context;
use super::fpuzzles::FpuzzlesError;
use super::fpuzzles::write::Item;
use super::grid::{Cell, Size};
use super::primitive::Primitive;
use super::rules::Diagonal;
use super::sigh::{SighBoard, SighError, SighItem, ToSigh};
use super::sketch::Mark;
use serde_json::Value;
use std::fmt;

/// What reading one rule adds to a puzzle's rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Added {
    /// A constraint beyond the houses.
    Constraint(Constraint),
    /// A diagonal as a house.
    Diagonal(Diagonal),
    /// The disjoint groups as houses.
    DisjointGroups,
    /// The board's regions, cell by cell (`None`: in no region).
    Regions(Vec<Option<usize>>),
}

/// One constraint as what reading adds.
pub fn one(constraint: impl Into<Constraint>) -> Vec<Added> {
    vec![Added::Constraint(constraint.into())]
}

/// The f-puzzles reader of a kind that f-puzzles has no key for: its
/// `KEYS` are empty, so it is never asked.
pub fn no_key(key: &str) -> Result<Vec<Added>, FpuzzlesError> {
    Err(super::fpuzzles::invalid(
        format!("`{key}`"),
        "this rule has no f-puzzles key",
    ))
}

/// The most clauses one rule whose statement grows with its combinations
/// (a rellik cage, a set of counting circles) is lowered to: past it the
/// rule is refused by name rather than left to swamp the search.
const MOST_COMBINATION_CLAUSES: usize = 100_000;

/// `Err` naming the bound when stating a rule takes more than
/// [`MOST_COMBINATION_CLAUSES`] clauses.
pub(super) fn within_clause_bound(clauses: usize) -> Result<(), String> {
    if clauses > MOST_COMBINATION_CLAUSES {
        return Err(format!(
            "stating it takes {clauses} clauses, more than the {MOST_COMBINATION_CLAUSES} z3doku allows"
        ));
    }
    Ok(())
}

/// How a kind is read. Every reader is listed in [`READERS`].
pub trait Read {
    /// The top-level f-puzzles keys it reads. Several kinds may read one
    /// key (each takes the items that are its own).
    const KEYS: &'static [&'static str];
    /// The names that start its rule line, in lower case; a name of
    /// several words is written with single spaces. Names are unique
    /// across kinds.
    const NAMES: &'static [&'static str];
    /// What the f-puzzles `key` (one of [`Read::KEYS`]) with `value` adds
    /// on a board of `size`.
    fn from_fpuzzles(key: &str, value: &Value, size: Size) -> Result<Vec<Added>, FpuzzlesError>;
    /// What a rule line adds: `name` is the one of [`Read::NAMES`] the line
    /// starts with, `words` the lower-case words after it (see
    /// [`rule_text`](super::rule_text)).
    fn from_text(name: &str, words: &[String], size: Size) -> Result<Vec<Added>, String>;
    /// The sigh constraint types it reads. Several kinds may read `Pair`
    /// and `PairX` (each takes the relations that are its own).
    const SIGH: &'static [&'static str];
    /// What one sigh item of a type in [`Read::SIGH`] adds (nothing: a
    /// `Pair` group that is not its own).
    fn from_sigh(item: &SighItem<'_>) -> Result<Vec<Added>, SighError>;
}

/// What a kind of constraint answers. Its `Display` is how messages name
/// it, and reads back as a rule line. (Each kind answers [`Read`] too: the
/// registry lists its reader, so a kind without one does not compile.)
pub trait Rule: fmt::Display {
    /// The cells it names (none for whole-board rules).
    fn cells(&self) -> Vec<Cell>;
    /// Says why it cannot hold on a board of `size` beyond its cells being
    /// off the board (which [`Constraint::validate`] says for every
    /// kind): cells listed twice, a sum its cells cannot reach, a line
    /// longer than its rule allows, a dot between cells that are not
    /// neighbours.
    fn validate(&self, size: Size) -> Result<(), String>;
    /// It as primitives on the board `context` describes.
    fn lower(&self, context: &Context<'_>) -> Vec<Primitive>;
    /// It as primitives that formulas say, for a branch of an
    /// [`either`](either::Either): those of [`Rule::lower`], unless these
    /// read it along a line by an automaton where formulas could say it.
    fn lower_as_formulas(&self, context: &Context<'_>) -> Vec<Primitive> {
        self.lower(context)
    }
    /// How the full grid of `board` breaks it, if it does: read as the rule
    /// is stated, not through its primitives, so that a slip in lowering
    /// shows here.
    fn broken(&self, board: &Board<'_>) -> Option<String>;
    /// How it looks on a board of `size`, in [marks](Mark) that name
    /// shapes and colours; none for a rule the legend names by its line.
    fn sketch(&self, size: Size) -> Vec<Mark>;
    /// Its f-puzzles key and item; `None` for what is written elsewhere
    /// (pencil marks in the grid, regions cell by cell) or cannot be.
    fn to_fpuzzles(&self, size: Size) -> Option<(&'static str, Item)>;
    /// Its sigh item in the puzzle `board` describes, or why sigh cannot
    /// say it.
    fn to_sigh(&self, board: &SighBoard<'_>) -> ToSigh;
    /// What it is on a board whose values run from 0 (sigh's
    /// `Shape~9x9~0-8`), which z3doku solves on the digits 1 to N, each
    /// standing for the value one less: see [`FromZero`].
    fn on_values_from_zero(&self) -> FromZero;
}

/// What a rule stated on values from 0 is on the digits 1 to N that
/// z3doku solves such a board on (each digit the value plus one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FromZero {
    /// It means the same with every value one more: it reads only how
    /// digits compare, differ or repeat (a thermometer, a white dot, a
    /// whisper).
    Same,
    /// It reads what the values are, and means this on the digits (a cage
    /// of 2 cells adding up to 10 is one adding up to 12): the puzzle
    /// keeps it as stated ([`shifted::Shifted`]) and is solved on this.
    As(Constraint),
    /// It reads what the values are and no rule of z3doku says it on the
    /// digits (a ratio, a parity, a digit named): refused by name.
    Cannot,
}

/// Reads an f-puzzles key's value on a board.
pub type FromFpuzzles = fn(&str, &Value, Size) -> Result<Vec<Added>, FpuzzlesError>;

/// Reads the words of a rule line after its name.
pub type FromText = fn(&str, &[String], Size) -> Result<Vec<Added>, String>;

/// Reads one sigh item.
pub type FromSigh = fn(&SighItem<'_>) -> Result<Vec<Added>, SighError>;

/// One reader: a kind's keys and names, and its readers.
#[derive(Clone, Copy)]
pub struct Reader {
    /// f-puzzles keys.
    pub keys: &'static [&'static str],
    /// Rule line names.
    pub names: &'static [&'static str],
    /// Reads f-puzzles JSON.
    pub from_fpuzzles: FromFpuzzles,
    /// Reads a rule line.
    pub from_text: FromText,
    /// sigh types.
    pub sigh: &'static [&'static str],
    /// Reads a sigh item.
    pub from_sigh: FromSigh,
}

impl Reader {
    const fn of<T: Read>() -> Reader {
        Reader {
            keys: T::KEYS,
            names: T::NAMES,
            from_fpuzzles: T::from_fpuzzles,
            from_text: T::from_text,
            sigh: T::SIGH,
            from_sigh: T::from_sigh,
        }
    }
}

/// Lists every kind once: `Variant => module::Type` for each kind of
/// constraint, then the readers of rules that are houses rather than
/// constraints, then the keys that only draw or configure.
macro_rules! registry {
    (
        constraints { $($variant:ident => $module:ident :: $kind:ident,)* }
        houses { $($hmodule:ident :: $hkind:ident,)* }
    ) => {
        /// A rule instance beyond the houses, as the puzzle states it:
        /// one per cage, line, dot or clue, or per rule over the whole
        /// board, with the meaning f-puzzles gives it. Cells are listed as
        /// the puzzle gave them; [`Constraint::validate`] says whether
        /// they fit a board.
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum Constraint {
            $(
                #[doc = concat!("See [`", stringify!($module), "::", stringify!($kind), "`].")]
                $variant($module::$kind),
            )*
        }

        $(
            impl From<$module::$kind> for Constraint {
                fn from(kind: $module::$kind) -> Constraint {
                    Constraint::$variant(kind)
                }
            }
        )*

        impl Constraint {
            /// The kind's answers, whatever the kind.
            fn rule(&self) -> &dyn Rule {
                match self {
                    $(Constraint::$variant(kind) => kind,)*
                }
            }
        }

        /// Every kind's reader, in the order the registry lists them.
        pub const READERS: &[Reader] = &[
            $(Reader::of::<$module::$kind>(),)*
            $(Reader::of::<$hmodule::$hkind>(),)*
        ];
    };
}

registry! {
    constraints {
        Cage => cages::Cage,
        DigitalRoot => cages::DigitalRoot,
        ExtraRegion => cages::ExtraRegion,
        PartialRegion => cages::PartialRegion,
        Thermo => lines::Thermo,
        SlowThermo => lines::SlowThermo,
        Arrow => lines::Arrow,
        Palindrome => lines::Palindrome,
        Renban => lines::Renban,
        Whispers => lines::Whispers,
        RegionSumLine => lines::RegionSumLine,
        BetweenLine => lines::BetweenLine,
        EntropicLine => lines::EntropicLine,
        ModularLine => lines::ModularLine,
        ZipperLine => lines::ZipperLine,
        DoubleArrow => lines::DoubleArrow,
        Nabner => nabner::Nabner,
        Lockout => lockout::Lockout,
        ParityLine => parity::ParityLine,
        ValueIndexing => value_indexing::ValueIndexing,
        CountDistinct => count_distinct::CountDistinct,
        LookAndSay => look_and_say::LookAndSay,
        Regex => regex::Regex,
        StateMachine => state_machine::StateMachine,
        SumLine => sum_line::SumLine,
        ConnectedValues => connected_values::ConnectedValues,
        ChaosConstruction => chaos::ChaosConstruction,
        ChaosCount => chaos::ChaosCount,
        ChaosArrow => chaos::ChaosArrow,
        Either => either::Either,
        AntiKnight => board::AntiKnight,
        AntiKing => board::AntiKing,
        NonConsecutive => board::NonConsecutive,
        NegativeRatio => board::NegativeRatio,
        NegativeXv => board::NegativeXv,
        AntiTaxicab => global::AntiTaxicab,
        Leaper => global::Leaper,
        DiagonalNonConsecutive => global::DiagonalNonConsecutive,
        Knightmare => global::Knightmare,
        Windoku => global::Windoku,
        DutchFlatmates => global::DutchFlatmates,
        GlobalEntropy => global::GlobalEntropy,
        GlobalMod => global::GlobalMod,
        GreaterThan => pairs::GreaterThan,
        Pairwise => pairs::Pairwise,
        Contains => pairs::Contains,
        Allowed => cells::Allowed,
        Odd => cells::Odd,
        Even => cells::Even,
        Minimum => cells::Minimum,
        Maximum => cells::Maximum,
        Clone => cells::Clones,
        SameValues => same_values::SameValues,
        Quadruple => cells::Quadruple,
        Indexer => cells::Indexer,
        LittleKiller => outside::LittleKiller,
        Sandwich => outside::Sandwich,
        XSum => outside::XSum,
        Skyscraper => outside::Skyscraper,
        HiddenSkyscraper => rooms::HiddenSkyscraper,
        NumberedRoom => rooms::NumberedRoom,
        FullRank => full_rank::FullRank,
        FullRankNoTies => full_rank::NoTies,
        Difference => dots::Difference,
        Ratio => dots::Ratio,
        Xv => dots::Xv,
        WeightedSum => sums::WeightedSum,
        Formula => formula::Formula,
        RellikCage => rellik::RellikCage,
        EqualityCage => equality::EqualityCage,
        Lunchbox => lunchbox::Lunchbox,
        EqualSum => equal_sum::EqualSum,
        CountingCircles => counting::CountingCircles,
        Doppelganger => doppelganger::Doppelganger,
        RegionSameValues => region_same_values::RegionSameValues,
        Shifted => shifted::Shifted,
        ExtraCells => extra_cells::ExtraCells,
    }
    houses {
        board::Houses,
        drawing::Drawing,
    }
}

impl fmt::Display for Constraint {
    /// As messages name it: `cage 15 (r1c1 r1c2 r2c1)`, `anti-knight`,
    /// `r2c2 is one of 1 3 5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.rule(), f)
    }
}

impl Constraint {
    /// The constraint as the engines solve it: on a board whose values run
    /// from 0, the rule a restated one becomes on the digits; else itself.
    pub fn solved(&self) -> &Constraint {
        match self {
            Constraint::Shifted(shifted) => &shifted.solved,
            other => other,
        }
    }

    /// The cells the constraint names (none for whole-board rules).
    pub fn cells(&self) -> Vec<Cell> {
        self.rule().cells()
    }

    /// Says why the constraint cannot hold on a board of `size`, if it
    /// cannot: cells off the board, then what its kind says (see
    /// [`Rule::validate`]).
    pub fn validate(&self, size: Size) -> Result<(), String> {
        if let Some(off) = self.cells().iter().find(|&&c| !size.holds(c)) {
            return Err(format!("{off} is not on the {size} board"));
        }
        self.rule().validate(size)
    }

    /// The constraint as [primitives](Primitive) on the board `context`
    /// describes. Pairs that a house keeps apart anyway may be left in;
    /// [`Rules`](super::rules::Rules) drops them.
    pub fn lower(&self, context: &Context<'_>) -> Vec<Primitive> {
        self.rule().lower(context)
    }

    /// The constraint as primitives that formulas say (see
    /// [`Rule::lower_as_formulas`]).
    pub fn lower_as_formulas(&self, context: &Context<'_>) -> Vec<Primitive> {
        self.rule().lower_as_formulas(context)
    }

    /// How the full grid of `board` breaks the constraint, if it does.
    pub fn broken(&self, board: &Board<'_>) -> Option<String> {
        self.rule().broken(board)
    }

    /// How the constraint looks on a board of `size` (see
    /// [`Rule::sketch`]).
    pub fn sketch(&self, size: Size) -> Vec<Mark> {
        self.rule().sketch(size)
    }

    /// The f-puzzles key and item the constraint is written as.
    pub fn to_fpuzzles(&self, size: Size) -> Option<(&'static str, Item)> {
        self.rule().to_fpuzzles(size)
    }

    /// The sigh item the constraint is written as.
    pub fn to_sigh(&self, board: &SighBoard<'_>) -> ToSigh {
        self.rule().to_sigh(board)
    }

    /// What the constraint is on a board whose values run from 0 (see
    /// [`Rule::on_values_from_zero`]).
    pub fn on_values_from_zero(&self) -> FromZero {
        self.rule().on_values_from_zero()
    }
}

/// The readers of an f-puzzles key: every kind that lists it.
pub fn readers_of_key(key: &str) -> impl Iterator<Item = &'static Reader> + '_ {
    READERS.iter().filter(move |r| r.keys.contains(&key))
}

/// The readers of a sigh type: every kind that lists it.
pub fn readers_of_sigh(kind: &str) -> impl Iterator<Item = &'static Reader> + '_ {
    READERS.iter().filter(move |r| r.sigh.contains(&kind))
}

/// The reader and name a rule line's words start with: the longest name
/// that matches, in words.
pub fn reader_of_words(words: &[String]) -> Option<(&'static Reader, &'static str)> {
    READERS
        .iter()
        .flat_map(|r| r.names.iter().map(move |n| (r, *n)))
        .filter(|(_, name)| {
            let name: Vec<&str> = name.split(' ').collect();
            words.len() >= name.len() && words.iter().zip(&name).all(|(w, n)| w == n)
        })
        .max_by_key(|(_, name)| name.split(' ').count())
}

/// For the kinds' tests: whether the independent checker takes the Z3
/// notebook's solution on an empty board under the rule `line`, written as
/// a rule line; or why not, or why the line does not read.
#[cfg(test)]
pub(crate) fn notebook_solution_under(line: &str) -> Result<(), String> {
    use crate::puzzle::parse::parse_puzzle;
    const SOLUTION: &str =
        "715894632234516897689723145493657218867231954152489763376148529928365471541972386";
    let grid = parse_puzzle(&".".repeat(81), None).map_err(|e| e.to_string())?;
    let mut builder = super::rules::Rules::builder(grid.size());
    super::rule_text::read_rules(&[(1, line)], grid.size(), &mut builder)
        .map_err(|e| e.to_string())?;
    let rules = builder.build().map_err(|e| e.to_string())?;
    let solution = parse_puzzle(SOLUTION, None).map_err(|e| e.to_string())?;
    super::check::verify_solution(&super::Puzzle::new(grid, rules), &solution)
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::rule_text::read_rules;
    use crate::puzzle::rules::Rules;
    use std::collections::HashSet;

    #[test]
    fn names_are_unique_and_lower_case() {
        let mut seen = HashSet::new();
        for reader in READERS {
            for name in reader.names {
                assert!(seen.insert(*name), "{name} is listed twice");
                assert_eq!(name.to_lowercase(), *name);
                assert!(!name.contains("  "));
            }
        }
    }

    fn read(text: &str) -> Result<Vec<String>, String> {
        let mut builder = Rules::builder(Size::NINE);
        let lines: Vec<(usize, &str)> = text.lines().enumerate().map(|(k, l)| (k + 1, l)).collect();
        read_rules(&lines, Size::NINE, &mut builder).map_err(|e| e.to_string())?;
        let rules = builder.build().map_err(|e| e.to_string())?;
        Ok(rules.constraints().iter().map(|c| c.to_string()).collect())
    }

    #[test]
    fn what_z3doku_prints_reads_back() {
        let printed = [
            "cage 15 (r1c1 r1c2 r2c1)",
            "cage (r4c4 r4c5)",
            "cage DR5 (r6c6 r6c7)",
            "thermo r3c1→r3c2→r3c3",
            "slow thermo r5c1→r5c2",
            "anti-knight",
            "nonconsecutive",
            "negative ratio",
            "r2c2 is one of 1 3 5",
            "r7c7 is odd",
            "r8c8 is a maximum",
            "little killer 14 (r3c1→r1c3)",
            "sandwich 13 (row 1)",
            "x-sum 5 (row 1 from the right)",
            "skyscraper 3 (column 1 from the top)",
            "arrow (r1c2 r1c3) r1c1→r1c4",
            "whispers 5 r9c1→r9c2",
            "between line r2c5→r2c6→r2c7",
            "white dot 1 (r4c1 r4c2)",
            "black dot 2 (r5c8 r5c9)",
            "X (r6c1 r6c2)",
            "clone (r1c1 r1c2) = (r2c9 r2c5)",
            "quadruple 17 (r1c1 r1c2 r2c1 r2c2)",
            "row indexer r1c2",
            "extra region (r1c1 r5c5 r9c9)",
            "nabner r7c1→r7c2→r8c1",
            "anti-taxicab",
            "leaper 1 3",
            "diagonal nonconsecutive",
            "knightmare",
            "knightmare 7 11",
            "windoku",
            "dutch flatmates",
            "global entropy",
            "global mod",
            "greater than (r1c1 r1c2)",
            "pairwise 12 21 23 (r4c1→r4c2→r5c2)",
            "contains at least 1 1 2 (r7c4 r7c5 r8c4 r8c5)",
            "contains exactly 3 (r9c7 r9c8)",
            "hidden skyscraper 4 (row 2 from the right)",
            "numbered room 7 (column 3 from the top)",
            "full rank 5 (row 1 from the left)",
            "full rank 30 with ties (column 2 from the bottom)",
            "sum 10 (r1c1, 2 r1c2, -1 r1c3)",
            "rellik cage 10 (r2c1 r2c2 r3c1)",
            "equality cage (r4c5 r4c6 r5c5 r5c6)",
            "lunchbox 12 (r6c1→r6c2→r6c3→r6c4)",
            "equal sum (r7c1 r7c2) (r8c8) (r9c1 r9c2 r9c3)",
            "counting circles (r1c5 r2c7 r3c9 r4c2)",
            "modular line r2c1→r2c2→r2c3",
            "modular line 5 r3c1→r3c2→r3c3→r3c4→r3c5→r3c6",
            "lockout 4 r4c1→r4c2→r4c3",
            "parity line r5c1→r5c2→r5c3",
            "value indexing r6c1→r6c2→r6c3→r6c4",
            "count distinct (r7c1) r7c2 r7c3 r7c4",
            "look and say 1223 (r8c1 r8c2 r8c3 r8c4)",
            "regex 1[2-4]*9 r9c1→r9c2→r9c3",
            "state machine RJVmykA r9c4→r9c5→r9c6",
            "sum line 10 r5c5→r5c6→r5c7",
            "sum line 15 loop r6c5→r6c6→r7c6→r7c5",
            "connected values 1 2 3",
            "connected values 4 5 size 18",
            "either thermo r1c1→r1c2 || X (r1c1 r1c2) && cage 10 (r2c1 r2c2)",
        ];
        let read = read(&printed.join("\n")).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read, printed);
    }

    #[test]
    fn hand_forms_read_as_expected() {
        let read = read(
            "killer 15 r1c1 r1c2 r2c1\nthermo r3c1 r3c2 r3c3\nlittlekiller 14 r4c0 ur\n\
             sandwich 13 r1c0\nxv v r2c1 r2c2\narrow r1c5 r1c2 r1c3\nodd r1c1 r1c3\n# note\n",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            read,
            [
                "cage 15 (r1c1 r1c2 r2c1)",
                "thermo r3c1→r3c2→r3c3",
                "little killer 14 (r3c1→r1c3)",
                "sandwich 13 (row 1)",
                "V (r2c1 r2c2)",
                "arrow (r1c5) r1c2→r1c3",
                "r1c1 is odd",
                "r1c3 is odd",
            ]
        );
    }

    #[test]
    fn errors_name_the_line() {
        let error = read("antiknight\nthermo r1c1 r1c12").err();
        assert_eq!(
            error.as_deref(),
            Some("line 2: \"r1c12\" is not a cell r<row>c<column> on the 9x9 board")
        );
    }
}
