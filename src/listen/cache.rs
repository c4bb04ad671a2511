//! The answers a connection has had, kept so that the same question is
//! not worked out twice.
//!
//! A setter presses the buttons again and again, and the userscript asks
//! for true candidates after every change to the page, drawing included:
//! a change of title, colour, line or text sends the whole puzzle again.
//! A question is the command, the puzzle as the engines see it (its
//! givens and rules: [`Puzzle`]'s equality leaves its drawing out) and the
//! options its answer depends on, so such a change finds its answer here.
//! The cache is bounded: at most [`CACHED_ANSWERS`] answers, and at most
//! [`CACHED_WEIGHT`] cells, rule items and answer entries among them; the
//! answer used longest ago goes first.

use super::protocol::{ListenCommand, Reply};
use crate::logic::select::Selection;
use crate::puzzle::Puzzle;
use std::collections::VecDeque;

/// The most answers kept per connection.
pub const CACHED_ANSWERS: usize = 64;

/// The most cells, rule items (constraints and the primitives they are
/// lowered to) and answer entries (true candidates' counts, a solution's
/// digits, a logical answer's candidates) kept per connection, all answers
/// together: a few tens of MB at the most. An answer heavier than this is
/// not kept.
pub const CACHED_WEIGHT: usize = 2_000_000;

/// What a request asks, as far as its answer depends on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question {
    /// The command.
    pub command: ListenCommand,
    /// The puzzle, without its drawing.
    pub puzzle: Puzzle,
    /// The cap on true candidates' counts (0 for the other commands).
    pub cap: usize,
    /// The logic the answer reasons with (a step, a path, true candidates
    /// with `logical`), as `disabledlogic` leaves it; `None` when the
    /// answer does not reason.
    pub logic: Option<Selection>,
}

impl Question {
    /// The question of `command` about `puzzle`, the drawing left out.
    pub fn new(
        command: ListenCommand,
        puzzle: &Puzzle,
        cap: usize,
        logic: Option<Selection>,
    ) -> Question {
        Question {
            command,
            puzzle: puzzle.clone().with_cosmetics(None),
            cap,
            logic,
        }
    }

    fn weight(&self) -> usize {
        let rules = self.puzzle.rules();
        self.puzzle.size().cells() + rules.constraints().len() + rules.primitives().count()
    }
}

/// The size of an answer, in entries.
fn reply_weight(reply: &Reply) -> usize {
    match reply {
        Reply::TrueCandidates {
            solutions_per_candidate,
        } => solutions_per_candidate.len(),
        Reply::Solved { solution } => solution.len(),
        Reply::Logical { cells, message, .. } => {
            cells.iter().map(|c| 1 + c.candidates.len()).sum::<usize>() + message.len()
        }
        Reply::Invalid { message } => message.len(),
        Reply::Count { .. } | Reply::Estimate { .. } | Reply::Canceled => 1,
    }
}

/// One connection's answers, the one used last in front.
#[derive(Debug, Default)]
pub struct Cache {
    entries: VecDeque<(Question, Reply, usize)>,
    weight: usize,
    hits: u64,
}

impl Cache {
    /// An empty cache.
    pub fn new() -> Cache {
        Cache::default()
    }

    /// The answer to `question`, if it is kept (it moves to the front).
    pub fn get(&mut self, question: &Question) -> Option<Reply> {
        let at = self.entries.iter().position(|(q, _, _)| q == question)?;
        let entry = self.entries.remove(at)?;
        let reply = entry.1.clone();
        self.entries.push_front(entry);
        self.hits += 1;
        Some(reply)
    }

    /// Keeps `reply` as the answer to `question`, dropping the answers
    /// used longest ago while the cache is over its bounds.
    pub fn put(&mut self, question: Question, reply: Reply) {
        let weight = question.weight() + reply_weight(&reply);
        if weight > CACHED_WEIGHT {
            return;
        }
        if let Some(at) = self.entries.iter().position(|(q, _, _)| *q == question)
            && let Some((_, _, old)) = self.entries.remove(at)
        {
            self.weight -= old;
        }
        self.entries.push_front((question, reply, weight));
        self.weight += weight;
        while self.entries.len() > CACHED_ANSWERS || self.weight > CACHED_WEIGHT {
            match self.entries.pop_back() {
                Some((_, _, dropped)) => self.weight -= dropped,
                None => break,
            }
        }
    }

    /// How many answers are kept.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// How many questions were answered from the cache.
    pub fn hits(&self) -> u64 {
        self.hits
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::grid::{Grid, Size};

    fn question(n: u8) -> Question {
        let mut givens = Grid::empty(Size::from_side(9).unwrap_or_default());
        givens.set(usize::from(n), 1 + n % 9);
        Question::new(ListenCommand::Check, &Puzzle::classic(givens), 0, None)
    }

    fn count(n: u64) -> Reply {
        Reply::Count {
            count: n,
            in_progress: false,
        }
    }

    #[test]
    fn the_answer_used_longest_ago_goes_first() {
        let mut cache = Cache::new();
        for n in 0..CACHED_ANSWERS as u8 {
            cache.put(question(n), count(n.into()));
        }
        assert_eq!(cache.len(), CACHED_ANSWERS);
        // The first one used again: the second is now the oldest.
        assert_eq!(cache.get(&question(0)), Some(count(0)));
        cache.put(question(70), count(70));
        assert_eq!(cache.len(), CACHED_ANSWERS);
        assert_eq!(cache.get(&question(1)), None);
        assert_eq!(cache.get(&question(0)), Some(count(0)));
        assert_eq!(cache.get(&question(70)), Some(count(70)));
        assert_eq!(cache.hits(), 3);
    }

    #[test]
    fn the_weight_is_bounded() {
        let mut cache = Cache::new();
        let heavy = Reply::TrueCandidates {
            solutions_per_candidate: vec![1; CACHED_WEIGHT / 3],
        };
        for n in 0..4 {
            cache.put(question(n), heavy.clone());
        }
        // Three fit only with their puzzles' weight left out: two are kept.
        assert_eq!(cache.len(), 2);
        assert!(cache.weight <= CACHED_WEIGHT);
        assert_eq!(cache.get(&question(0)), None);
        assert!(cache.get(&question(3)).is_some());
        // An answer heavier than the whole cache is not kept at all.
        let huge = Reply::TrueCandidates {
            solutions_per_candidate: vec![1; CACHED_WEIGHT + 1],
        };
        cache.put(question(9), huge);
        assert_eq!(cache.get(&question(9)), None);
        assert_eq!(cache.len(), 2);
    }
}
