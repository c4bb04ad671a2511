//! New puzzles: a random full grid, then clues removed an orbit of the
//! chosen symmetry at a time for as long as the puzzle keeps exactly one
//! solution.
//!
//! - [`fill`] draws the full grid by a randomised search, so that every
//!   solution grid can come out;
//! - [`symmetry`] cuts the board into orbits, so that the clue pattern keeps
//!   its symmetry;
//! - [`removal`] takes clues away, proving the puzzle unique with the
//!   native engine after each step, and proves a puzzle minimal;
//! - `run` makes many puzzles on worker threads and hands them back in
//!   order;
//! - [`difficulty`] rates each puzzle and turns down those not of the
//!   difficulty asked for.
//!
//! [`Generator::under`] makes puzzles under variant rules given as a
//! puzzle (anti-knight and both diagonals, say): the full grid is a random
//! solution under those rules, drawn by the native engine's randomised
//! search ([`NativeEngine::random_solution`]), and the clues are removed
//! as on classic boards, each step proven unique under the rules.
//!
//! Puzzle number `i` of a seed draws all its randomness from its own
//! stream (ChaCha8 seeded with the seed, stream `i`), and no search has a
//! deadline (each runs to its end, or on 25x25 to a budget of nodes), so
//! the same seed and spec give the same puzzles whatever the number of
//! threads or the machine's load.
//!
//! A spec that can never be met is refused before anything runs
//! ([`GenerateError::Impossible`]); one that only rarely is gives up on a
//! puzzle after [`Spec::tries`] full grids ([`GenerateError::NotFound`]).
//!
//! ```
//! use z3doku::generate::{Generator, Spec};
//! use z3doku::puzzle::check::verify_solution;
//!
//! let generator = Generator::new(Spec::default(), 42)?;
//! let made = generator.puzzle(0)?;
//! assert_eq!(verify_solution(&made.puzzle, &made.solution), Ok(()));
//! // The same seed and number give the same puzzle.
//! assert_eq!(generator.puzzle(0)?.puzzle, made.puzzle);
//! # Ok::<(), z3doku::generate::GenerateError>(())
//! ```

pub mod difficulty;
pub mod fill;
pub mod killer;
pub mod removal;
mod run;
pub mod symmetry;

pub use difficulty::RatingRange;
pub use symmetry::{Symmetry, SymmetryChoice};

use crate::engine::native::NativeEngine;
use crate::engine::{EngineKind, Settings};
use crate::logic::tutor::Tutor;
use crate::logic::{QqwingLevel, Rating};
use crate::puzzle::Puzzle;
use crate::puzzle::check::verify_solution;
use crate::puzzle::grid::{Grid, Size};
use crate::puzzle::kinds::drawing::Cosmetics;
use crate::puzzle::rules::Rules;
use crate::solve::{Pipeline, Request};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::fmt;
use std::num::NonZeroUsize;
use std::sync::Arc;
use thiserror::Error;

/// Full grids drawn for one puzzle before giving up, unless the spec says:
/// up to 9x9, where a try takes well under a millisecond, enough for the
/// rarest symmetric minimal puzzles (a quarter turn's take a few thousand
/// tries); above, where a try takes up to seconds, fewer.
pub fn default_tries(size: Size) -> NonZeroUsize {
    let tries = if size.side() <= 9 { 100_000 } else { 1000 };
    NonZeroUsize::new(tries).unwrap_or(NonZeroUsize::MIN)
}

/// What puzzles to make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The board; the rules are [`Rules::classic`] of it.
    pub size: Size,
    /// The symmetry the clue pattern keeps.
    pub symmetry: SymmetryChoice,
    /// Only puzzles in which every clue is needed. Without symmetry every
    /// puzzle is minimal anyway (see [`removal`]); with it, a puzzle whose
    /// orbits leave a clue it can do without is drawn again.
    pub minimal: bool,
    /// Only puzzles with at most this many clues.
    pub max_clues: Option<usize>,
    /// Full grids drawn for one puzzle before giving up on it.
    pub tries: NonZeroUsize,
    /// Killer puzzles: cages over the solution, and givens only where the
    /// cages need them (see [`killer`]).
    pub killer: bool,
    /// Only puzzles of this qqwing level (see [`difficulty`]).
    pub difficulty: Option<QqwingLevel>,
    /// Only puzzles whose SE ER lies in this range (see [`difficulty`]).
    pub rating: Option<RatingRange>,
    /// Rate every puzzle kept in full ([`Generated::rating`]), for a
    /// report; the filters above need no more than they ask for.
    pub rated: bool,
}

impl Default for Spec {
    /// 9x9, no symmetry, [`default_tries`].
    fn default() -> Spec {
        Spec {
            size: Size::NINE,
            symmetry: SymmetryChoice::Fixed(Symmetry::None),
            minimal: false,
            max_clues: None,
            tries: default_tries(Size::NINE),
            killer: false,
            difficulty: None,
            rating: None,
            rated: false,
        }
    }
}

/// A puzzle made, with what is known about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// Its number in the run, from 0: with the seed, it decides the puzzle.
    pub index: u64,
    /// The puzzle, proven to have exactly one solution: classic rules, or
    /// a killer puzzle's cages.
    pub puzzle: Puzzle,
    /// Its solution.
    pub solution: Grid,
    /// The symmetry its clue pattern keeps.
    pub symmetry: Symmetry,
    /// `Some(true)` when every clue is proven needed: always without
    /// symmetry or with [`Spec::minimal`], and with symmetry when every
    /// orbit kept is a single cell; `None` when not looked at.
    pub minimal: Option<bool>,
    /// Full grids drawn, this one included.
    pub tries: usize,
    /// Uniqueness searches the engine ran, over every try.
    pub checks: usize,
    /// Its ratings, when the spec asked for ER or [`Spec::rated`].
    pub rating: Option<Rating>,
}

/// Decides whether a made puzzle is kept: a puzzle it turns down counts as
/// a try and the next grid is drawn. A rating of difficulty plugs in here.
pub type Filter = Arc<dyn Fn(&Generated) -> bool + Send + Sync>;

/// Why puzzles could not be made.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GenerateError {
    /// The spec can never be met.
    #[error("{0}")]
    Impossible(String),
    /// No grid of the tries gave a puzzle that fits.
    #[error(
        "puzzle {number}: none of {tries} full grids gave a puzzle that fits; allow more tries or ask for less"
    )]
    NotFound {
        /// The puzzle's number, from 1.
        number: u64,
        /// The grids drawn.
        tries: usize,
    },
    /// The engine failed, or a made puzzle failed the checker: a bug in
    /// z3doku.
    #[error("internal error: {0}")]
    Internal(String),
}

/// The solve pipeline's failure as a generator's: a bug in z3doku.
fn internal(e: crate::solve::InternalError) -> GenerateError {
    GenerateError::Internal(format!("the engine failed: {}", e.0))
}

/// What a generator proves its puzzles with, kept from puzzle to puzzle
/// (a worker thread has its own): the solve pipeline, as every front end
/// uses it, for uniqueness (so every solution it finds passes the
/// independent checker), and the tutor for ratings, made when a spec
/// first rates.
pub struct Provers {
    pipeline: Pipeline,
    tutor: Option<Tutor>,
}

impl Provers {
    /// Provers on the native engine, by far the fastest at the many small
    /// proofs clue removal asks for (any engine gives the same puzzles).
    pub fn new() -> Provers {
        Provers {
            pipeline: Pipeline::new(Request {
                settings: Settings {
                    engine: EngineKind::Native,
                    ..Settings::default()
                },
                unique: true,
                ..Request::default()
            }),
            tutor: None,
        }
    }

    /// The tutor that rates made puzzles, without a time limit: a rating
    /// cut short would rate nothing true.
    fn tutor(&mut self) -> &mut Tutor {
        self.tutor
            .get_or_insert_with(|| Tutor::new(EngineKind::Native, None))
    }
}

impl Default for Provers {
    fn default() -> Provers {
        Provers::new()
    }
}

/// Makes puzzles to a [`Spec`] from a seed.
#[derive(Clone)]
pub struct Generator {
    spec: Spec,
    seed: u64,
    rules: Arc<Rules>,
    /// The orbits of each symmetry, in [`Symmetry::ALL`]'s order.
    orbits: Vec<Vec<Vec<usize>>>,
    filter: Option<Filter>,
    /// Under variant rules ([`Generator::under`]), the givens every puzzle
    /// keeps (often none); `None` for classic rules.
    base: Option<Grid>,
    /// What the rules' puzzle draws (title, lines, text), which every
    /// puzzle made under them keeps.
    cosmetics: Option<Arc<Cosmetics>>,
}

impl fmt::Debug for Generator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Generator")
            .field("spec", &self.spec)
            .field("seed", &self.seed)
            .field("filter", &self.filter.is_some())
            .finish_non_exhaustive()
    }
}

/// The fewest clues a puzzle of `size` with one solution can have, as far
/// as is proven: 17 on 9x9 (McGuire, Tugemann and Civario, 2012), 4 on 4x4;
/// on any board, all digits but one must appear (two missing digits could
/// swap places), so at least `side - 1`.
pub fn fewest_clues(size: Size) -> usize {
    match size.side() {
        9 => 17,
        4 => 4,
        side => side - 1,
    }
}

impl Generator {
    /// A generator of puzzles to `spec` from `seed`; refuses a spec no
    /// puzzle can meet.
    pub fn new(spec: Spec, seed: u64) -> Result<Generator, GenerateError> {
        let least = fewest_clues(spec.size);
        if let Some(most) = spec.max_clues
            && most < least
        {
            return Err(GenerateError::Impossible(format!(
                "no {} puzzle with at most {most} clues has one solution: it takes at least {least}",
                spec.size
            )));
        }
        if spec.killer && !killer::supported(spec.size) {
            return Err(GenerateError::Impossible(format!(
                "killer puzzles are made on boards from 4x4 to 9x9, not {}",
                spec.size
            )));
        }
        if spec.killer && spec.symmetry != SymmetryChoice::Fixed(Symmetry::None) {
            return Err(GenerateError::Impossible(
                "a killer puzzle's givens keep no symmetry: they are as few as the cages allow"
                    .into(),
            ));
        }
        if let Some(high) = spec.rating.and_then(|range| range.high)
            && high < difficulty::LOWEST_ER
        {
            return Err(GenerateError::Impossible(format!(
                "no puzzle rates below {}: the easiest step, a full house, rates that",
                difficulty::LOWEST_ER
            )));
        }
        if spec.killer && difficulty::rates(&spec) {
            return Err(GenerateError::Impossible(
                "killer puzzles are not rated: the ratings' techniques see the houses, not the cages"
                    .into(),
            ));
        }
        if spec.minimal && removal::budgeted(spec.size.side()) {
            return Err(GenerateError::Impossible(format!(
                "minimal {} puzzles are out of reach: proving every clue needed takes the search \
                 too long on boards this large",
                spec.size
            )));
        }
        Ok(Generator {
            spec,
            seed,
            rules: Rules::classic(spec.size),
            orbits: Symmetry::ALL.map(|s| s.orbits(spec.size)).to_vec(),
            filter: None,
            base: None,
            cosmetics: None,
        })
    }

    /// A generator of puzzles under the rules of `rules`, keeping its
    /// givens (normally none); `spec.size` must be its size. Refuses what
    /// cannot be asked under rules: killer cages (they are rules of their
    /// own), ratings (their techniques see only the houses), and symmetry
    /// when there are givens to keep (they would break it).
    pub fn under(spec: Spec, seed: u64, rules: &Puzzle) -> Result<Generator, GenerateError> {
        if rules.size() != spec.size {
            return Err(GenerateError::Impossible(format!(
                "the rules are for a {} board, not {}",
                rules.size(),
                spec.size
            )));
        }
        if spec.killer {
            return Err(GenerateError::Impossible(
                "killer puzzles draw cages of their own: they cannot be made under given rules"
                    .into(),
            ));
        }
        if difficulty::rates(&spec) {
            return Err(GenerateError::Impossible(
                "puzzles under given rules are not rated: the ratings' techniques see only the \
                 houses"
                    .into(),
            ));
        }
        let givens = rules.givens();
        if spec.symmetry != SymmetryChoice::Fixed(Symmetry::None) && givens.clue_count() > 0 {
            return Err(GenerateError::Impossible(
                "the rules come with givens, which keep no symmetry: give rules without givens"
                    .into(),
            ));
        }
        if let Some(most) = spec.max_clues
            && most < givens.clue_count()
        {
            return Err(GenerateError::Impossible(format!(
                "the rules come with {} givens, more than the {most} clues asked for",
                givens.clue_count()
            )));
        }
        // Variant rules allow fewer clues than classic ones: the classic
        // bound on clues applies only when the rules are classic.
        let classic_spec = Spec {
            max_clues: spec.max_clues.filter(|_| rules.rules().is_classic()),
            ..spec
        };
        let mut generator = Generator::new(classic_spec, seed)?;
        generator.spec = spec;
        generator.rules = Arc::clone(rules.rules());
        for orbits in &mut generator.orbits {
            orbits.retain(|orbit| orbit.iter().all(|&cell| givens.get(cell) == 0));
        }
        generator.base = Some(givens.clone());
        generator.cosmetics = rules.cosmetics().cloned();
        Ok(generator)
    }

    /// The same generator, keeping only the puzzles `filter` accepts.
    pub fn with_filter(mut self, filter: Filter) -> Generator {
        self.filter = Some(filter);
        self
    }

    /// The spec.
    pub fn spec(&self) -> &Spec {
        &self.spec
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Puzzle number `index` (from 0), with provers of its own.
    pub fn puzzle(&self, index: u64) -> Result<Generated, GenerateError> {
        self.puzzle_with(index, &mut Provers::new())
    }

    /// Puzzle number `index` (from 0), proven unique and rated with
    /// `provers`.
    pub fn puzzle_with(
        &self,
        index: u64,
        provers: &mut Provers,
    ) -> Result<Generated, GenerateError> {
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        rng.set_stream(index);
        let mut checks = 0;
        // Under variant rules the full grids come from the native engine's
        // randomised search, which sees every rule; fill sees only houses.
        // Drawing a random grid is no question a request asks, so it goes
        // to the engine itself rather than through the pipeline.
        let mut under = self
            .base
            .as_ref()
            .map(|base| (base, NativeEngine::new(&Settings::default())));
        for tries in 1..=self.spec.tries.get() {
            let solution = match &mut under {
                None => fill::random_solution(&self.rules, &mut rng),
                Some((base, native)) => {
                    let rules = Puzzle::new((*base).clone(), Arc::clone(&self.rules));
                    native.random_solution(&rules, &mut rng).ok_or_else(|| {
                        GenerateError::Impossible(
                            "the rules and their givens have no solution".into(),
                        )
                    })?
                }
            };
            if self.spec.killer {
                let (puzzle, searches) =
                    killer::puzzle(&mut provers.pipeline, &solution, &mut rng)?;
                checks += searches;
                if self
                    .spec
                    .max_clues
                    .is_some_and(|most| puzzle.givens().clue_count() > most)
                {
                    continue;
                }
                let made = Generated {
                    index,
                    puzzle,
                    solution,
                    symmetry: Symmetry::None,
                    // Every given the search kept is needed.
                    minimal: Some(true),
                    tries,
                    checks,
                    rating: None,
                };
                if let Some(made) = self.keep(made, provers)? {
                    return Ok(made);
                }
                continue;
            }
            let symmetry = self.spec.symmetry.pick(&mut rng);
            let orbits = &self.orbits[symmetry as usize];
            let mut checker = removal::Checker::new(&mut provers.pipeline, &self.rules);
            let (givens, mut unproven) = checker.remove(&solution, orbits, &mut rng)?;
            if let Some(base) = &self.base {
                // The rules' own givens were never looked at.
                unproven.extend(base.clues().map(|(cell, _)| cell));
            }
            let mut minimal = unproven.is_empty().then_some(true);
            let too_many = self
                .spec
                .max_clues
                .is_some_and(|most| givens.clue_count() > most);
            if !too_many && self.spec.minimal && minimal.is_none() {
                minimal = Some(checker.all_needed(&givens, &unproven)?);
            }
            checks += checker.checks;
            if too_many || (self.spec.minimal && minimal != Some(true)) {
                continue;
            }
            let puzzle =
                Puzzle::new(givens, Arc::clone(&self.rules)).with_cosmetics(self.cosmetics.clone());
            let made = Generated {
                index,
                puzzle,
                solution,
                symmetry,
                minimal,
                tries,
                checks,
                rating: None,
            };
            if let Some(made) = self.keep(made, provers)? {
                return Ok(made);
            }
        }
        Err(GenerateError::NotFound {
            number: index + 1,
            tries: self.spec.tries.get(),
        })
    }
}

impl Generator {
    /// A made puzzle, once the checker accepts its solution, if it is of
    /// the difficulty asked for (rated by `provers`' tutor) and the filter
    /// keeps it.
    fn keep(
        &self,
        mut made: Generated,
        provers: &mut Provers,
    ) -> Result<Option<Generated>, GenerateError> {
        verify_solution(&made.puzzle, &made.solution).map_err(|e| {
            GenerateError::Internal(format!("a made puzzle fails the checker: {e}"))
        })?;
        let Some(rating) = difficulty::judge(&self.spec, &made, provers)? else {
            return Ok(None);
        };
        made.rating = rating;
        Ok(self
            .filter
            .as_ref()
            .is_none_or(|keep| keep(&made))
            .then_some(made))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(side: usize, symmetry: Symmetry) -> Spec {
        Spec {
            size: Size::from_side(side).unwrap_or_default(),
            symmetry: SymmetryChoice::Fixed(symmetry),
            ..Spec::default()
        }
    }

    #[test]
    fn impossible_clue_counts_are_refused() {
        let too_few = Spec {
            max_clues: Some(16),
            ..Spec::default()
        };
        let error = Generator::new(too_few, 1).err();
        assert_eq!(
            error.map(|e| e.to_string()),
            Some(
                "no 9x9 puzzle with at most 16 clues has one solution: it takes at least 17".into()
            )
        );
        let enough = Spec {
            max_clues: Some(17),
            ..Spec::default()
        };
        assert!(Generator::new(enough, 1).is_ok());
    }

    #[test]
    fn a_rare_ask_gives_up_after_its_tries() {
        let rare = Spec {
            max_clues: Some(17),
            tries: NonZeroUsize::MIN.saturating_add(2),
            ..Spec::default()
        };
        let generator = Generator::new(rare, 5).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            generator.puzzle(3),
            Err(GenerateError::NotFound {
                number: 4,
                tries: 3
            })
        );
    }

    #[test]
    fn puzzles_are_unique_symmetric_and_repeatable() {
        for symmetry in Symmetry::ALL {
            let generator = Generator::new(spec(9, symmetry), 11).unwrap_or_else(|e| panic!("{e}"));
            let made = generator.puzzle(2).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(made.symmetry, symmetry);
            assert!(symmetry.holds(Size::NINE, made.puzzle.givens().cells()));
            assert_eq!(verify_solution(&made.puzzle, &made.solution), Ok(()));
            assert_eq!(generator.puzzle(2), Ok(made));
        }
    }

    #[test]
    fn a_filter_turns_puzzles_down() {
        let generator = Generator::new(Spec::default(), 3)
            .unwrap_or_else(|e| panic!("{e}"))
            .with_filter(Arc::new(|made: &Generated| made.tries >= 3));
        assert_eq!(generator.puzzle(0).map(|m| m.tries), Ok(3));
    }
}
