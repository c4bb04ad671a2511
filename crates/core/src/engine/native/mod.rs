//! The native engine: a depth-first search over bit vectors, written for
//! speed and as an independent referee for Z3.
//!
//! Each house of the rules keeps the digits still to place as bits of an
//! integer; the search fills the most constrained cell first and forces
//! naked and hidden singles before it branches. Classic 9x9 Sudoku has its
//! own path, which branches on how a digit is arranged over a band or a
//! stack: on a processor with AVX2 ([`nine_avx2`]), each box and each band's
//! arrangements in one vector; elsewhere ([`nine`]), for each digit and band
//! of three rows, the cells it may still take as one 27-bit word. Rules made
//! of houses alone ([`houses`]) and killers ([`killer`]) have searches that
//! store candidates and reason more before they branch; every other set of
//! rules goes through the generic path ([`generic`]). None allocates while
//! it searches: all state lives in fixed arrays, in the engine or on the
//! stack (the AVX2 path keeps its stack of states in the engine, grown only
//! when a search goes deeper than any before).

mod chaos;
mod generic;
mod houses;
mod killer;
mod nine;
#[cfg(target_arch = "x86_64")]
mod nine_avx2;

use super::contract::{Cancel, Engine, EngineError, Found, GiveUp, Limits, Settings};
use crate::puzzle::Puzzle;
use crate::puzzle::grid::{Grid, MAX_SIDE, Size};
use rand::Rng;
use rand::seq::SliceRandom;
use std::ops::ControlFlow;
use std::time::Instant;

/// How often (in search nodes) the clock and the cancel token are read:
/// often enough to stop within a millisecond or so of the deadline or the
/// cancelling, rarely enough to cost nothing.
const CLOCK_EVERY: u64 = 4096;

/// Solves with the native search, in the calling thread.
pub struct NativeEngine {
    generic: Box<generic::Generic>,
    houses: Box<houses::Houses>,
    killer: Box<killer::Killer>,
    /// The 9x9 search in AVX2 vectors, when the processor has them.
    #[cfg(target_arch = "x86_64")]
    avx2: Option<nine_avx2::Avx2>,
    nodes: u64,
    /// Which search took the last puzzle, for the statistics.
    last: Option<Route>,
    /// A second token that calls the search off (a race's rival having
    /// answered), beside the request's own.
    rival: Option<Cancel>,
}

impl NativeEngine {
    /// An engine for `settings` (none of which concern it: it has no
    /// encodings, models or statistics beyond its node count).
    pub fn new(_settings: &Settings) -> NativeEngine {
        NativeEngine {
            generic: Box::new(generic::Generic::new()),
            houses: Box::new(houses::Houses::new()),
            killer: Box::new(killer::Killer::new()),
            #[cfg(target_arch = "x86_64")]
            avx2: nine_avx2::Avx2::detect(),
            nodes: 0,
            last: None,
            rival: None,
        }
    }
}

/// Nodes per cell the first attempt of [`NativeEngine::random_solution`]
/// may visit; each attempt after it may visit twice as many as the one
/// before.
const RANDOM_NODES_PER_CELL: u64 = 16;

/// Each digit of a side-`side` board as a bit, smallest first: the order
/// the search tries them in unless told otherwise.
fn ascending(side: usize) -> [u32; MAX_SIDE] {
    std::array::from_fn(|k| if k < side { 1 << k } else { 0 })
}

impl NativeEngine {
    /// [`Engine::solutions_excluding`], also called off (as
    /// [`GiveUp::Cancelled`]) once `rival` is cancelled: for a race, where
    /// the other engine's answer makes this search's moot while the
    /// request's own token stays as it was.
    pub fn solutions_racing(
        &mut self,
        puzzle: &Puzzle,
        excluded: &[Grid],
        limits: Limits,
        rival: &Cancel,
        visit: &mut dyn FnMut(Found<'_>) -> ControlFlow<()>,
    ) -> Result<(), EngineError> {
        self.rival = Some(rival.clone());
        let result = self.solutions_excluding(puzzle, excluded, limits, visit);
        self.rival = None;
        result
    }

    /// A random solution of `puzzle` under its rules, or `None` when it has
    /// none. The search tries each cell's digits in an order drawn from
    /// `rng`, so that any solution can come out. An attempt that wanders
    /// too long (puzzles with many rules sometimes paint themselves into a
    /// corner deep down) starts again with new orders and twice the budget;
    /// the budget counts nodes, not time, so the same stream gives the same
    /// grid on any machine, and the last attempt, unbounded in effect,
    /// decides when there is no solution.
    pub fn random_solution(&mut self, puzzle: &Puzzle, rng: &mut impl Rng) -> Option<Grid> {
        let size = puzzle.size();
        let side = size.values();
        let mut budget = RANDOM_NODES_PER_CELL.saturating_mul(size.cells() as u64);
        self.last = Some(Route::Generic);
        loop {
            let orders = (0..size.cells())
                .map(|_| {
                    let mut order = ascending(side);
                    order[..side].shuffle(rng);
                    order
                })
                .collect();
            self.generic.set_orders(Some(orders));
            let mut found = None;
            let mut visit = |f: Found<'_>| {
                // Digits alone, the regions of a chaos construction too.
                found = Some(f.grid.digits_only());
                ControlFlow::Break(())
            };
            let mut search = Search {
                visit: &mut visit,
                deadline: None,
                cancel: None,
                rival: None,
                left: 1,
                nodes: 0,
                budget,
            };
            let flow = self.generic.solve(puzzle, &mut search);
            self.nodes = search.nodes;
            self.generic.set_orders(None);
            if flow != ControlFlow::Break(Halt::Budget) {
                return found;
            }
            budget = budget.saturating_mul(2);
        }
    }

    /// The solutions of `puzzle` as the search finds them: digit grids, or
    /// digits with regions from the generic search on a chaos construction.
    fn digit_solutions(
        &mut self,
        puzzle: &Puzzle,
        limits: Limits,
        visit: &mut dyn FnMut(Found<'_>) -> ControlFlow<()>,
    ) -> Result<(), EngineError> {
        if limits.solutions == 0 {
            return Ok(());
        }
        let rival = self.rival.clone();
        let mut search = Search {
            visit,
            deadline: limits.budget.deadline,
            cancel: limits.budget.cancel.as_ref(),
            rival: rival.as_ref(),
            left: limits.solutions,
            nodes: 0,
            budget: u64::MAX,
        };
        let route = self.route(puzzle);
        self.last = Some(route);
        let flow = match route {
            Route::Nine => self.nine(puzzle.givens(), &mut search),
            Route::Killer => self.killer.solve(puzzle, &mut search),
            Route::Houses => self.houses.solve(puzzle, &mut search),
            Route::Generic => self.generic.solve(puzzle, &mut search),
        };
        self.nodes = search.nodes;
        match flow {
            ControlFlow::Break(Halt::Timeout | Halt::Budget | Halt::Restart) => {
                Err(EngineError::GaveUp(GiveUp::Timeout))
            }
            ControlFlow::Break(Halt::Cancelled) => Err(EngineError::GaveUp(GiveUp::Cancelled)),
            ControlFlow::Continue(()) | ControlFlow::Break(Halt::Visitor) => Ok(()),
        }
    }
}

impl Engine for NativeEngine {
    fn solutions(
        &mut self,
        puzzle: &Puzzle,
        limits: Limits,
        visit: &mut dyn FnMut(Found<'_>) -> ControlFlow<()>,
    ) -> Result<(), EngineError> {
        // The generic search finds a chaos construction's regions with its
        // digits; the others search digits, and each grid found is parted
        // afterwards.
        if puzzle.rules().has_chaos() && self.route(puzzle) == Route::Generic {
            return self.digit_solutions(puzzle, limits, visit);
        }
        super::contract::by_partings(puzzle, limits, visit, |limits, visit| {
            self.digit_solutions(puzzle, limits, visit)
        })
    }

    fn solutions_excluding(
        &mut self,
        puzzle: &Puzzle,
        excluded: &[Grid],
        limits: Limits,
        visit: &mut dyn FnMut(Found<'_>) -> ControlFlow<()>,
    ) -> Result<(), EngineError> {
        // Another solution usually differs from a known one in a few cells
        // (a dropped clue lets a small pattern swap): trying the known
        // digit first in each cell searches its neighbourhood first. Only
        // the generic search and the one for houses take orders; the
        // others are fast enough, and a classic 9x9 check is too quick to
        // pay for building them.
        let route = self.route(puzzle);
        if let (Route::Houses | Route::Generic, Some(known)) = (route, excluded.first()) {
            let orders = known_first(known);
            if route == Route::Houses {
                self.houses.set_orders(Some(orders));
                self.houses.set_excluded(excluded);
            } else {
                self.generic.set_orders(Some(orders));
            }
        }
        let result = super::contract::past_excluded(
            |limits, visit| self.solutions(puzzle, limits, visit),
            excluded,
            limits,
            visit,
        );
        self.generic.set_orders(None);
        self.houses.set_orders(None);
        self.houses.set_excluded(&[]);
        result
    }

    fn statistics(&self) -> Vec<(String, String)> {
        vec![
            ("nodes".into(), self.nodes.to_string()),
            ("search".into(), self.last_search().into()),
        ]
    }
}

/// Each cell's digits with `known`'s digit first, then the others from
/// the smallest up.
fn known_first(known: &Grid) -> Vec<[u32; MAX_SIDE]> {
    let side = known.size().values();
    (0..known.size().cells())
        .map(|cell| {
            let mut order = ascending(side);
            let k = usize::from(known.get(cell).max(1) - 1);
            order[..=k].rotate_right(1);
            order
        })
        .collect()
}

/// Up to `cap` solutions that `solve` visits, sorted, and whether the cap
/// stopped it: the searches' tests compare them.
#[cfg(test)]
fn visited(cap: usize, solve: &mut dyn FnMut(&mut Search<'_>) -> Flow) -> (Vec<String>, bool) {
    let mut seen = Vec::new();
    let mut visit = |found: Found<'_>| {
        seen.push(found.grid.to_line());
        ControlFlow::Continue(())
    };
    let mut search = Search {
        visit: &mut visit,
        deadline: None,
        cancel: None,
        rival: None,
        left: cap,
        nodes: 0,
        budget: u64::MAX,
    };
    let capped = solve(&mut search) == ControlFlow::Break(Halt::Visitor);
    seen.sort();
    (seen, capped)
}

/// The search that takes a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Route {
    /// Classic 9x9 ([`nine`]).
    Nine,
    /// Cages and pencil marks on houses ([`killer`]).
    Killer,
    /// Houses alone on any other board ([`houses`]).
    Houses,
    /// Everything else ([`generic`]).
    Generic,
}

impl NativeEngine {
    /// The 9x9 search: in AVX2 vectors where the processor has them, else
    /// in scalar words. Both find the same solutions (on a puzzle with
    /// several, not always in the same order) in about as many nodes.
    fn nine(&mut self, puzzle: &Grid, search: &mut Search<'_>) -> Flow {
        #[cfg(target_arch = "x86_64")]
        if let Some(avx2) = &mut self.avx2 {
            return avx2.solve(puzzle, search);
        }
        nine::solve(puzzle, search)
    }

    /// Whether classic 9x9 puzzles go to the AVX2 search.
    fn has_avx2(&self) -> bool {
        #[cfg(target_arch = "x86_64")]
        return self.avx2.is_some();
        #[cfg(not(target_arch = "x86_64"))]
        false
    }

    /// The name of the search that took the last puzzle.
    fn last_search(&self) -> &'static str {
        match self.last {
            None => "none yet",
            Some(Route::Nine) if self.has_avx2() => "9x9, AVX2",
            Some(Route::Nine) => "9x9",
            Some(Route::Killer) => "killer",
            Some(Route::Houses) => "houses",
            Some(Route::Generic) => "generic",
        }
    }

    /// Which search takes `puzzle` (the killer search builds its tables
    /// for new rules on the way).
    fn route(&mut self, puzzle: &Puzzle) -> Route {
        if puzzle.size() == Size::NINE && puzzle.rules().is_classic() {
            Route::Nine
        } else if !puzzle.size().lines_full() || puzzle.size().extra() > 0 {
            // The killer and house searches count on every house holding
            // every digit; with more digits than a row has cells, none
            // does. They search the grid's cells, and no others.
            Route::Generic
        } else if self.killer.takes(puzzle.rules()) {
            Route::Killer
        } else if houses::Houses::takes(puzzle.rules()) {
            Route::Houses
        } else {
            Route::Generic
        }
    }
}

/// Why a search stopped before it had seen every solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Halt {
    /// The visitor wanted no more solutions, or the limit was reached.
    Visitor,
    /// The deadline passed.
    Timeout,
    /// The search was cancelled.
    Cancelled,
    /// The budget of nodes ran out.
    Budget,
    /// An attempt of a search that starts again with other orders ran out
    /// of nodes; never leaves that search.
    Restart,
}

/// What a search step says: go on, or stop everything.
type Flow = ControlFlow<Halt>;

/// What every search path shares: where solutions go, the clock and the
/// cancel token.
struct Search<'a> {
    visit: &'a mut dyn FnMut(Found<'_>) -> ControlFlow<()>,
    deadline: Option<Instant>,
    cancel: Option<&'a Cancel>,
    /// A race's other token ([`NativeEngine::solutions_racing`]).
    rival: Option<&'a Cancel>,
    /// Solutions still to visit.
    left: usize,
    nodes: u64,
    /// Stop after this many nodes.
    budget: u64,
}

impl Search<'_> {
    /// Counts a search node, and stops the search when the time is up or
    /// it is cancelled.
    #[inline]
    fn node(&mut self) -> Flow {
        self.nodes += 1;
        if self.nodes > self.budget {
            return ControlFlow::Break(Halt::Budget);
        }
        if self.nodes.is_multiple_of(CLOCK_EVERY) {
            return self.look_up();
        }
        ControlFlow::Continue(())
    }

    /// Reads the cancel token and the clock.
    #[cold]
    fn look_up(&self) -> Flow {
        if self.cancel.is_some_and(Cancel::is_cancelled)
            || self.rival.is_some_and(Cancel::is_cancelled)
        {
            return ControlFlow::Break(Halt::Cancelled);
        }
        if let Some(deadline) = self.deadline
            && Instant::now() >= deadline
        {
            return ControlFlow::Break(Halt::Timeout);
        }
        ControlFlow::Continue(())
    }

    /// Hands a solved board to the visitor.
    fn found(&mut self, grid: &Grid) -> Flow {
        self.left -= 1;
        match (self.visit)(Found { grid, model: None }) {
            ControlFlow::Continue(()) if self.left > 0 => ControlFlow::Continue(()),
            _ => ControlFlow::Break(Halt::Visitor),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::contract::Budget;
    use crate::puzzle::parse::parse_puzzle;
    use std::time::Duration;

    fn puzzle(line: &str) -> Puzzle {
        Puzzle::classic(parse_puzzle(line, None).unwrap_or_else(|e| panic!("{e}")))
    }

    /// The number of solutions, up to `limit`, with an engine's stop.
    fn count(puzzle: &str, limit: usize) -> Result<usize, EngineError> {
        let grid = self::puzzle(puzzle);
        let mut engine = NativeEngine::new(&Settings::default());
        let mut seen = Vec::new();
        engine.solutions(&grid, Limits::solutions(usize::MAX), &mut |found| {
            assert_eq!(
                crate::puzzle::check::verify_solution(&grid, found.grid),
                Ok(())
            );
            assert!(!seen.contains(found.grid), "a solution came twice");
            seen.push(found.grid.clone());
            if seen.len() >= limit {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })?;
        Ok(seen.len())
    }

    /// The statistics name the search that ran last.
    #[test]
    fn the_statistics_name_the_search() {
        let mut engine = NativeEngine::new(&Settings::default());
        let searched = |engine: &mut NativeEngine, text: &str| {
            let puzzle = crate::puzzle::input::Source::Text(text.into())
                .read_puzzle(None)
                .unwrap_or_else(|e| panic!("{e}"));
            engine
                .solutions(&puzzle, Limits::solutions(1), &mut |_| {
                    ControlFlow::Break(())
                })
                .unwrap_or_else(|e| panic!("{e}"));
            let statistics = engine.statistics();
            let search = statistics.iter().find(|(name, _)| name == "search");
            search.map(|(_, value)| value.clone())
        };
        let nine = if engine.has_avx2() {
            "9x9, AVX2"
        } else {
            "9x9"
        };
        let empty = ".".repeat(81);
        assert_eq!(searched(&mut engine, &empty).as_deref(), Some(nine));
        let killer = format!("{empty}\ncage 3 (r1c1 r1c2)\n");
        assert_eq!(searched(&mut engine, &killer).as_deref(), Some("killer"));
        let antiking = format!("{empty}\nantiking\n");
        assert_eq!(searched(&mut engine, &antiking).as_deref(), Some("generic"));
        assert_eq!(
            searched(&mut engine, &".".repeat(16)).as_deref(),
            Some("houses")
        );
    }

    #[test]
    fn the_empty_4x4_board_has_288_solutions() {
        assert_eq!(count(&".".repeat(16), 1000), Ok(288));
    }

    #[test]
    fn empty_latin_squares_count_right() {
        // Latin squares of order 1, 2, 3 and 4 (no regions below 4x4).
        assert_eq!(count("1", 10), Ok(1));
        assert_eq!(count(".", 10), Ok(1));
        assert_eq!(count("....", 10), Ok(2));
        assert_eq!(count(&".".repeat(9), 100), Ok(12));
    }

    #[test]
    fn counts_stop_at_the_limit() {
        assert_eq!(count(&".".repeat(81), 50), Ok(50));
        assert_eq!(count(&".".repeat(256), 3), Ok(3));
        assert_eq!(count(&".".repeat(625), 2), Ok(2));
    }

    #[test]
    fn random_solutions_keep_the_rules_and_vary() {
        use rand::SeedableRng;
        let text = format!("{}\nantiking\ndiagonal+\n", ".".repeat(81));
        let rules = crate::puzzle::input::Source::Text(text)
            .read_puzzle(None)
            .unwrap_or_else(|e| panic!("{e}"));
        let mut engine = NativeEngine::new(&Settings::default());
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
        let mut seen = Vec::new();
        for _ in 0..5 {
            let grid = engine.random_solution(&rules, &mut rng);
            let grid = grid.unwrap_or_else(|| panic!("no solution drawn"));
            assert_eq!(crate::puzzle::check::verify_solution(&rules, &grid), Ok(()));
            assert!(!seen.contains(&grid), "the same grid came twice");
            seen.push(grid);
        }
        let mut line = ".".repeat(81);
        line.replace_range(0..2, "55");
        assert_eq!(engine.random_solution(&puzzle(&line), &mut rng), None);
    }

    #[test]
    fn clashing_clues_have_no_solution() {
        let mut line = ".".repeat(81);
        line.replace_range(0..2, "55");
        assert_eq!(count(&line, 10), Ok(0));
        let mut line = ".".repeat(16);
        line.replace_range(0..1, "1");
        line.replace_range(5..6, "1");
        assert_eq!(count(&line, 10), Ok(0));
    }

    /// A chaos construction's count, digits with regions found together,
    /// equals the partings (`kinds::chaos::partings`, the checker's own
    /// search) of every Latin square the rules leave, summed: on an empty
    /// 4x4 board without boxes, and with clues over the regions.
    #[test]
    fn chaos_counts_are_the_partings_of_every_latin_square() {
        use crate::puzzle::input::Source;
        use crate::puzzle::kinds::chaos::{clue_of, partings};
        let read = |rules: &str| {
            Source::Text(format!(
                "....\n....\n..1.\n....\nregions {}\n{rules}",
                ".".repeat(16)
            ))
            .read_puzzle(None)
            .unwrap_or_else(|e| panic!("{e}"))
        };
        for clues in [
            "",
            "chaos count (r1c1) r2c2 r2c3 r1c2",
            "chaos arrow (r4c4) (r3c2 r3c3 r3c4) (r3c2 r2c2 r1c2)\nchaos count exclude first (r1c4)",
        ] {
            let chaos = read(&format!("chaos construction\n{clues}"));
            let mut engine = NativeEngine::new(&Settings::default());
            let mut ours = Vec::new();
            let result = engine.solutions(&chaos, Limits::solutions(usize::MAX), &mut |f| {
                assert_eq!(
                    crate::puzzle::check::verify_solution(&chaos, f.grid),
                    Ok(())
                );
                ours.push(f.grid.clone());
                ControlFlow::Continue(())
            });
            assert_eq!(result, Ok(()));
            let size = chaos.size();
            let read_clues: Vec<_> = chaos
                .rules()
                .constraints()
                .iter()
                .filter_map(|c| clue_of(c, size))
                .collect();
            let mut theirs = Vec::new();
            let latin = read("");
            let result = engine.solutions(&latin, Limits::solutions(usize::MAX), &mut |f| {
                for regions in partings(f.grid, size.side(), &read_clues, usize::MAX) {
                    theirs.push(f.grid.digits_only().with_regions(regions));
                }
                ControlFlow::Continue(())
            });
            assert_eq!(result, Ok(()));
            ours.sort_by_key(|g| (g.to_line(), g.regions_line()));
            theirs.sort_by_key(|g| (g.to_line(), g.regions_line()));
            assert!(!theirs.is_empty(), "{clues}");
            assert_eq!(ours, theirs, "{clues}");
        }
    }

    /// A count whose first cell's neighbours are all counted is one more
    /// than the cells fixed in its region until one of them joins it: on
    /// the bottom edge of a 6x9 board without boxes, a count of 1 over a
    /// cell and its three neighbours is refused before any search (without
    /// the rule, 177 nodes here, and over 20 s when the count's digit is
    /// left open, the labels deciding it last).
    #[test]
    fn an_enclosed_first_cell_takes_a_neighbour() {
        let puzzle = crate::puzzle::sigh::parse(
            ".Shape~6x9.~R6C3_1.NoBoxes.ChaosConstruction.ChaosCount~R6C3~0~CC48~CC39~CC47~CC49",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let mut engine = NativeEngine::new(&Settings::default());
        let result = engine.solutions(&puzzle, Limits::solutions(1), &mut |_| {
            ControlFlow::Break(())
        });
        assert_eq!(result, Ok(()));
        assert!(engine.nodes <= 1, "{} nodes", engine.nodes);
    }

    /// A chaos construction's search starts again when an attempt runs
    /// long before its first solution: this 6x9 board without boxes, whose
    /// one count keeps its top row from being a region, was not solved in
    /// minutes of search (millions of nodes) and now takes some thousands.
    #[test]
    fn a_chaos_search_starts_again_on_a_heavy_tail() {
        let puzzle = crate::puzzle::sigh::parse(
            ".Shape~6x9.~R1C3_2.NoBoxes.ChaosConstruction.ChaosCount~R1C3~0~CC4~CC13~CC3~CC5",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let mut engine = NativeEngine::new(&Settings::default());
        let mut found = 0;
        let limits = Budget::within(Some(Duration::from_secs(20))).limits(2);
        let result = engine.solutions(&puzzle, limits, &mut |f| {
            assert_eq!(
                crate::puzzle::check::verify_solution(&puzzle, f.grid),
                Ok(())
            );
            found += 1;
            ControlFlow::Continue(())
        });
        assert_eq!((result, found), (Ok(()), 2));
        assert!(engine.nodes < 50_000, "{} nodes", engine.nodes);
    }

    #[test]
    fn a_timeout_gives_up() {
        // Nearly empty 25x25 boards have more solutions than any search can
        // list: counting them all must run into the deadline.
        let grid = puzzle(&".".repeat(625));
        let limits = || Budget::within(Some(Duration::from_millis(50))).limits(usize::MAX);
        let mut engine = NativeEngine::new(&Settings::default());
        let start = Instant::now();
        let result = engine.solutions(&grid, limits(), &mut |_| ControlFlow::Continue(()));
        assert_eq!(result, Err(EngineError::GaveUp(GiveUp::Timeout)));
        assert!(start.elapsed() < Duration::from_secs(5));
        let empty = puzzle(&".".repeat(81));
        let result = engine.solutions(&empty, limits(), &mut |_| ControlFlow::Continue(()));
        assert_eq!(result, Err(EngineError::GaveUp(GiveUp::Timeout)));
    }

    #[test]
    fn a_cancelled_search_gives_up_mid_search() {
        // The empty 25x25 board: one solution comes at once, and the search
        // for all of them never ends.
        let grid = puzzle(&".".repeat(625));
        let cancel = Cancel::new();
        let limits = Budget::unbounded()
            .cancelled_by(cancel.clone())
            .limits(usize::MAX);
        let mut engine = NativeEngine::new(&Settings::default());
        let start = Instant::now();
        let result = std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(Duration::from_millis(50));
                cancel.cancel();
            });
            engine.solutions(&grid, limits, &mut |_| ControlFlow::Continue(()))
        });
        assert_eq!(result, Err(EngineError::GaveUp(GiveUp::Cancelled)));
        assert!(start.elapsed() < Duration::from_secs(2));
        // A token cancelled before the search stops it at once.
        let limits = Budget::unbounded().cancelled_by(cancel).limits(usize::MAX);
        let empty = puzzle(&".".repeat(81));
        let result = engine.solutions(&empty, limits, &mut |_| ControlFlow::Continue(()));
        assert_eq!(result, Err(EngineError::GaveUp(GiveUp::Cancelled)));
    }
}
