//! What the techniques have looked at and found nothing in, so that the
//! next step's scan looks again only where the grid has changed.
//!
//! Along a path candidates are only ever taken away. A technique whose
//! patterns come from one digit's places (pointing, claiming, fish,
//! X-chains) or from one house's candidates (naked and hidden subsets)
//! and that found nothing there finds nothing there again while those
//! places or candidates stay as they were: the patterns are the same, and
//! what they could eliminate elsewhere has only shrunk. A path makes most
//! of its hard steps one after another, each changing a digit or two, so
//! most of each scan is skipped, and the steps found are the same.

use super::pencil::{Pencil, digits};

/// A technique that looks at one digit at a time.
#[derive(Clone, Copy, Debug)]
pub(crate) enum ByDigit {
    Pointing,
    Claiming,
    Fish(usize),
    XChain,
    /// SE's direct pointing (`true`) or claiming: its patterns and the
    /// singles they leave are all the digit's places.
    Direct(bool),
}

impl ByDigit {
    const COUNT: usize = 8;

    fn slot(self) -> usize {
        match self {
            ByDigit::Pointing => 0,
            ByDigit::Claiming => 1,
            ByDigit::Fish(k) => k.clamp(2, 4),
            ByDigit::XChain => 5,
            ByDigit::Direct(pointing) => 6 + usize::from(pointing),
        }
    }
}

/// A technique that looks at one house at a time: naked (`false`) or
/// hidden subsets of `k` cells; `direct`, SE's direct hidden pairs and
/// triples, which read only the house too.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ByHouse {
    pub hidden: bool,
    pub k: usize,
    pub direct: bool,
}

impl ByHouse {
    const COUNT: usize = 8;

    fn slot(self) -> usize {
        if self.direct {
            return 6 + usize::from(self.k >= 3);
        }
        usize::from(self.hidden) * 3 + self.k.clamp(2, 4) - 2
    }
}

/// What one path's scans carry from step to step: the memory of where
/// each technique found nothing (none, for a scan made once), and whether
/// the steps need their sentences.
#[derive(Clone, Debug, Default)]
pub struct Seen {
    /// Whether to remember at all.
    on: bool,
    /// Whether the steps go without sentences.
    silent: bool,
    /// Each digit's cells in the grid being scanned, as `words` 64-bit
    /// words of bits over cell numbers, worked out when first asked for
    /// (empty until then).
    now: Vec<u64>,
    /// The words of a set of cells.
    words: usize,
    /// By technique, then digit: the digit's cells when the technique last
    /// found nothing for it (as `now`).
    digits: Vec<u64>,
    /// Whether `digits` holds anything for that technique and digit.
    digit_known: Vec<bool>,
    /// By technique, then house, then place in the house: the candidates
    /// when the technique last found nothing in the house.
    houses: Vec<u32>,
    /// Whether `houses` holds anything for that technique and house.
    house_known: Vec<bool>,
}

impl Seen {
    /// A memory for the steps of one path, taken one after another on one
    /// grid.
    pub fn new() -> Seen {
        Seen {
            on: true,
            ..Seen::default()
        }
    }

    /// No memory: every scan looks everywhere (for a scan made once).
    pub fn none() -> Seen {
        Seen::default()
    }

    /// The same, for a path whose steps need no sentences: a rating reads
    /// only their techniques and what they change.
    pub fn silent(self) -> Seen {
        Seen {
            silent: true,
            ..self
        }
    }

    /// Whether the steps need their sentences.
    pub(crate) fn words(&self) -> bool {
        !self.silent
    }

    /// A new grid to scan: the one before it plus a step.
    pub(crate) fn next_grid(&mut self) {
        self.now.clear();
    }

    /// The digits `t` must look at in `p`: those whose places changed since
    /// it last found nothing for them.
    pub(crate) fn digits_to_scan(&mut self, p: &Pencil, t: ByDigit) -> u32 {
        let side = p.size().side();
        let all = u32::MAX >> (32 - side);
        if !self.on {
            return all;
        }
        let words = p.size().cells().div_ceil(64);
        if self.now.is_empty() {
            self.words = words;
            self.now.resize(side * words, 0);
            // The grid's planes, when it has them, are kept from step to
            // step ([`Pencil::apply`]).
            if let Some(planes) = p.planes() {
                for (d, &plane) in planes.iter().enumerate() {
                    for (w, word) in self.now[d * words..][..words].iter_mut().enumerate() {
                        *word = (plane >> (64 * w)) as u64;
                    }
                }
            } else {
                for c in 0..p.size().cells() {
                    for d in digits(p.candidates(c)) {
                        self.now[usize::from(d - 1) * words + c / 64] |= 1 << (c % 64);
                    }
                }
            }
        }
        if self.digit_known.len() != ByDigit::COUNT * side {
            self.digit_known = vec![false; ByDigit::COUNT * side];
            self.digits = vec![0; ByDigit::COUNT * side * words];
        }
        let at = t.slot() * side;
        let (known, then) = (
            &self.digit_known[at..][..side],
            &self.digits[at * words..][..side * words],
        );
        (0..side)
            .filter(|&d| !known[d] || then[d * words..][..words] != self.now[d * words..][..words])
            .fold(0, |set, d| set | 1 << d)
    }

    /// `t` looked at `digit` in the grid [`Seen::digits_to_scan`] last
    /// looked at, and found nothing.
    pub(crate) fn nothing_for(&mut self, t: ByDigit, digit: u8) {
        if self.now.is_empty() {
            return;
        }
        let d = usize::from(digit - 1);
        let words = self.words;
        if let Some(now) = self.now.get(d * words..(d + 1) * words) {
            let side = self.now.len() / words;
            let at = t.slot() * side + d;
            self.digits[at * words..][..words].copy_from_slice(now);
            self.digit_known[at] = true;
        }
    }

    /// Whether `t` must look at house `h` of `p`: its candidates changed
    /// since `t` last found nothing there.
    pub(crate) fn house_to_scan(&mut self, p: &Pencil, t: ByHouse, h: usize) -> bool {
        if !self.on {
            return true;
        }
        let (side, houses) = (p.size().side(), p.geometry().houses().len());
        if self.house_known.len() != ByHouse::COUNT * houses {
            self.house_known = vec![false; ByHouse::COUNT * houses];
            self.houses = vec![0; ByHouse::COUNT * houses * side];
        }
        let at = t.slot() * houses + h;
        let then = &self.houses[at * side..][..side];
        !self.house_known[at]
            || p.geometry().houses()[h]
                .iter()
                .zip(then)
                .any(|(&c, &was)| p.candidates(c) != was)
    }

    /// `t` looked at house `h` of `p` and found nothing.
    pub(crate) fn nothing_in(&mut self, p: &Pencil, t: ByHouse, h: usize) {
        if !self.on {
            return;
        }
        let (side, houses) = (p.size().side(), p.geometry().houses().len());
        let at = t.slot() * houses + h;
        for (was, &c) in self.houses[at * side..][..side]
            .iter_mut()
            .zip(&p.geometry().houses()[h])
        {
            *was = p.candidates(c);
        }
        self.house_known[at] = true;
    }
}
