//! The named techniques, their names and their Sudoku Explainer (SE)
//! ratings, and the difficulty scale those ratings live on.

use std::fmt;

/// A rating on Sudoku Explainer's scale, in tenths (23 is 2.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Difficulty(pub u16);

impl Difficulty {
    /// The rating as a number (2.3).
    pub fn value(self) -> f64 {
        f64::from(self.0) / 10.0
    }
}

impl fmt::Display for Difficulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.0 / 10, self.0 % 10)
    }
}

/// A way to make progress on a candidate grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Technique {
    /// The last empty cell of a house.
    FullHouse,
    /// The only place for a digit in a box.
    HiddenSingleBox,
    /// The only place for a digit in a row, column or diagonal.
    HiddenSingleLine,
    /// A pointing whose eliminations leave the digit one place in a house,
    /// taken for that single (Sudoku Explainer's "direct pointing").
    DirectPointing,
    /// A claiming whose eliminations leave the digit one place in a house,
    /// taken for that single.
    DirectClaiming,
    /// A hidden pair whose eliminations leave another digit one place in
    /// its house, taken for that single.
    DirectHiddenPair,
    /// A cell with one candidate left.
    NakedSingle,
    /// A hidden triple whose eliminations leave another digit one place in
    /// its house, taken for that single.
    DirectHiddenTriple,
    /// A box's candidates for a digit all in one line: the rest of the line
    /// loses the digit.
    Pointing,
    /// A line's candidates for a digit all in one box (or another house):
    /// the rest of that house loses the digit.
    Claiming,
    /// Two cells of a house with the same two candidates.
    NakedPair,
    /// A digit in two rows confined to two columns, or the other way.
    XWing,
    /// Two digits confined to the same two cells of a house.
    HiddenPair,
    /// Three cells of a house with three candidates between them.
    NakedTriple,
    /// A digit in three rows confined to three columns, or the other way.
    Swordfish,
    /// Three digits confined to three cells of a house.
    HiddenTriple,
    /// A pivot `xy` seeing pincers `xz` and `yz`: cells seeing both
    /// pincers are not `z`.
    XyWing,
    /// A pivot `xyz` seeing pincers `xz` and `yz`: cells seeing all three
    /// are not `z`.
    XyzWing,
    /// Unique rectangle, type 1: four cells on two rows, two columns and
    /// two boxes, three of them holding only `ab`; the fourth is not `a`
    /// nor `b`, or the puzzle would have two solutions.
    UniqueRectangle,
    /// Unique rectangle (or SE's longer unique loop), type 2: the cells
    /// beyond `ab` share one extra digit `c`; cells seeing all of them are
    /// not `c`.
    UniqueRectangle2,
    /// Unique rectangle or loop, type 3: its two cells beyond `ab`, taken
    /// as one cell holding their extras, make a naked set with other cells
    /// of a house (or with `ab` a hidden set): the rest of the house loses
    /// the set's digits (or the set's cells the other digits).
    UniqueRectangle3,
    /// Unique rectangle or loop, type 4: its two cells beyond `ab` hold
    /// `a` between them (a house has no other place for it), so neither
    /// is `b`.
    UniqueRectangle4,
    /// Four cells of a house with four candidates between them.
    NakedQuad,
    /// A digit in four rows confined to four columns, or the other way.
    Jellyfish,
    /// Four digits confined to four cells of a house.
    HiddenQuad,
    /// SE's bivalue universal grave, type 1: every open cell but one has
    /// two candidates; the one with three holds the digit that would
    /// otherwise leave two solutions.
    BugOne,
    /// SE's BUG type 2: the cells with extra digits share one extra digit;
    /// cells seeing them all are not it.
    Bug2,
    /// SE's BUG type 3: the cells with extra digits, in one house and taken
    /// as one cell holding them, make a naked set with other cells of the
    /// house; the house's other cells lose the set's digits.
    Bug3,
    /// SE's BUG type 4: two cells with extra digits in one house share one
    /// other digit, so neither holds its third.
    Bug4,
    /// SE's aligned pair exclusion: of the combinations of two cells'
    /// candidates, those that leave a cell seeing both (with two
    /// candidates) none are out; a candidate in none left is false.
    AlignedPairExclusion,
    /// SE's aligned triplet exclusion: the same over three cells, with
    /// cells of two or three candidates seeing all three.
    AlignedTripletExclusion,
    /// One digit's chain of alternating strong and weak links (simple
    /// colouring, two-string kite, turbot fish and kin): cells that see
    /// both ends are not the digit.
    XChain,
    /// A chain of two-candidate cells: cells seeing both ends are not the
    /// digit the chain starts and ends with.
    XyChain,
    /// Sudoku Explainer's forcing X-chain: a digit assumed in a cell rules
    /// itself out through that digit's links alone (6.6 + length).
    ForcingXChain,
    /// Sudoku Explainer's XY forcing chain: as [`Technique::ForcingXChain`],
    /// with links through two-candidate cells too (7.0 + length).
    XyForcingChain,
    /// Assuming a candidate, placing singles leads to a contradiction; or
    /// every candidate of a cell leads to the same conclusion.
    ForcingChain,
    /// As [`Technique::ForcingChain`], with pointing, claiming and pairs
    /// also applied along the way.
    DynamicForcingChain,
    /// Sudoku Explainer's dynamic forcing chains (+): dynamic chains that,
    /// where their links run out, go on from the eliminations of pointing,
    /// claiming, hidden and naked pairs and X-wings on the grid the chain
    /// has made (9.0 + length).
    DynamicForcingChainPlus,
    /// Sudoku Explainer's nested forcing chains: dynamic chains that also
    /// go on from forcing chains found on the grid the chain has made;
    /// levels 2 to 5 rate 9.5, 10.0, 10.5 and 11.0 + length.
    NestedForcingChain,
    /// A deduction the engine proved from a small set of facts and rules
    /// (variant puzzles): see [`crate::logic::reason`].
    Reasoned,
    /// No technique applies: the rest comes from search (a guess).
    Search,
    /// A rule instance alone (a line, a dot, a clue, a whole-board rule,
    /// with the houses among its own cells) leaves some of its cells only
    /// some digits: see [`crate::logic::rules`].
    RuleCandidates,
    /// A killer cage's combinations: the digit sets that add up to its sum
    /// over its cells leave some cells only some digits.
    CageCombination,
    /// A rule instance must hold a digit in some of its cells: cells that
    /// see all of them cannot hold it (a cage or line used as a house).
    RuleContains,
    /// The 45 rule: a house, or a run of rows or columns, against the
    /// cages in it gives the sum of the cells left in it (innies) less
    /// the cells of its cages left outside (outies).
    InniesOuties,
    /// Every place of a digit in a house (or every candidate of a cell)
    /// rules out the same candidate elsewhere, through the houses and the
    /// rules that tie two cells (anti-king, dots, nonconsecutive, ...).
    RulePointing,
    /// Assuming a candidate, the houses' singles and every rule instance's
    /// candidates (as [`Technique::RuleCandidates`] finds them), applied
    /// until nothing changes, contradict the grid; or every candidate of a
    /// cell, or every place of a digit in a house, leads to the same
    /// elimination or placement.
    RuleForcingChain,
    /// As [`Technique::RuleForcingChain`], with pointing, claiming and
    /// rule pointing also applied along the way (9.0, SE's dynamic
    /// forcing chain's).
    RuleDynamicForcingChain,
    /// An X-chain through the rules: one digit's chain of alternating
    /// strong and weak links, some of them from the rules (a cage or line
    /// that must hold the digit, a rule that ties two cells); cells weakly
    /// linked to both ends are not the digit (6.6 + length).
    RuleXChain,
    /// An XY-chain through the rules: every strong link inside a
    /// two-candidate cell, some weak link from a rule that ties two cells
    /// (7.0 + length).
    RuleXyChain,
    /// An alternating inference chain through the rules: strong and weak
    /// links of any kind, the houses', the cells' and the rules'; a
    /// candidate weakly linked to both ends is false (7.0 + length).
    RuleAic,
    /// Sudoku Explainer's Nishio forcing chain: a candidate assumed true
    /// leads, through its digit's links in the grid the chain makes, to a
    /// contradiction (7.5 + length).
    NishioForcingChain,
    /// Sudoku Explainer's multiple forcing chains: every candidate of a
    /// cell, or every place of a digit in a house, implies the same
    /// through static links (8.0 + length).
    MultipleForcingChain,
    /// Sudoku Explainer's bidirectional X-cycle: one digit's chain that
    /// comes back to its start and holds either way round (6.5 + length).
    BidirectionalXCycle,
    /// Sudoku Explainer's bidirectional Y-cycle: the same through
    /// two-candidate cells (6.5 + length).
    BidirectionalYCycle,
    /// Sudoku Explainer's bidirectional cycle, through both kinds of link
    /// (7.0 + length).
    BidirectionalCycle,
}

impl Technique {
    /// Every technique with a finder, easiest first: the order the path
    /// tries them in.
    pub const NAMED: [Technique; 29] = [
        Technique::FullHouse,
        Technique::HiddenSingleBox,
        Technique::HiddenSingleLine,
        Technique::DirectPointing,
        Technique::DirectClaiming,
        Technique::DirectHiddenPair,
        Technique::NakedSingle,
        Technique::DirectHiddenTriple,
        Technique::Pointing,
        Technique::Claiming,
        Technique::NakedPair,
        Technique::XWing,
        Technique::HiddenPair,
        Technique::NakedTriple,
        Technique::Swordfish,
        Technique::HiddenTriple,
        Technique::XyWing,
        Technique::XyzWing,
        // SE's unique rectangles and loops, every type: one finder takes
        // the easiest, as SE does, so choosing any type chooses it.
        Technique::UniqueRectangle,
        Technique::NakedQuad,
        Technique::Jellyfish,
        Technique::HiddenQuad,
        Technique::BugOne,
        // SE's BUG finder gives types 2 to 4 (and type 1 with more than
        // one extra digit): choosing any type chooses it.
        Technique::Bug2,
        Technique::AlignedPairExclusion,
        // SE takes the easiest of its forcing X-chains and XY forcing
        // chains, whichever kind: one finder gives both. They make every
        // elimination of an X-chain or an XY-chain, which SE lacks and
        // which would rate otherwise.
        Technique::ForcingXChain,
        // SE tries its aligned triplets after its single chains and
        // before its Nishio chains, whatever the ratings found.
        Technique::AlignedTripletExclusion,
        Technique::ForcingChain,
        // On classic 9x9 grids its finder gives SE's dynamic forcing
        // chains (+) and nested forcing chains; elsewhere z3doku's own.
        Technique::DynamicForcingChain,
    ];

    /// The techniques qqwing knows, in the order its solver tries them:
    /// singles before hidden singles before the rest.
    pub const QQWING: [Technique; 8] = [
        Technique::FullHouse,
        Technique::NakedSingle,
        Technique::HiddenSingleBox,
        Technique::HiddenSingleLine,
        Technique::NakedPair,
        Technique::Pointing,
        Technique::Claiming,
        Technique::HiddenPair,
    ];

    /// The name people use, lower case: `hidden single`.
    pub fn name(self) -> &'static str {
        match self {
            Technique::FullHouse => "full house",
            Technique::HiddenSingleBox | Technique::HiddenSingleLine => "hidden single",
            Technique::NakedSingle => "naked single",
            Technique::DirectPointing => "direct pointing",
            Technique::DirectClaiming => "direct claiming",
            Technique::DirectHiddenPair => "direct hidden pair",
            Technique::DirectHiddenTriple => "direct hidden triple",
            Technique::Pointing => "pointing",
            Technique::Claiming => "claiming",
            Technique::NakedPair => "naked pair",
            Technique::XWing => "X-wing",
            Technique::HiddenPair => "hidden pair",
            Technique::NakedTriple => "naked triple",
            Technique::Swordfish => "swordfish",
            Technique::HiddenTriple => "hidden triple",
            Technique::XyWing => "XY-wing",
            Technique::XyzWing => "XYZ-wing",
            Technique::UniqueRectangle => "unique rectangle",
            Technique::UniqueRectangle2 => "unique rectangle type 2",
            Technique::UniqueRectangle3 => "unique rectangle type 3",
            Technique::UniqueRectangle4 => "unique rectangle type 4",
            Technique::BugOne => "BUG type 1",
            Technique::Bug2 => "BUG type 2",
            Technique::Bug3 => "BUG type 3",
            Technique::Bug4 => "BUG type 4",
            Technique::AlignedPairExclusion => "aligned pair exclusion",
            Technique::AlignedTripletExclusion => "aligned triplet exclusion",
            Technique::NakedQuad => "naked quad",
            Technique::Jellyfish => "jellyfish",
            Technique::HiddenQuad => "hidden quad",
            Technique::XChain => "X-chain",
            Technique::XyChain => "XY-chain",
            Technique::ForcingXChain => "forcing X-chain",
            Technique::XyForcingChain => "XY forcing chain",
            Technique::ForcingChain => "forcing chain",
            Technique::DynamicForcingChain => "dynamic forcing chain",
            Technique::DynamicForcingChainPlus => "dynamic forcing chain (+)",
            Technique::NestedForcingChain => "nested forcing chain",
            Technique::Reasoned => "reasoned",
            Technique::Search => "search",
            Technique::RuleCandidates => "rule candidates",
            Technique::CageCombination => "cage combination",
            Technique::RuleContains => "rule must contain",
            Technique::InniesOuties => "45 rule",
            Technique::RulePointing => "rule pointing",
            Technique::RuleForcingChain => "rule forcing chain",
            Technique::RuleDynamicForcingChain => "rule dynamic forcing chain",
            Technique::RuleXChain => "rule X-chain",
            Technique::RuleXyChain => "rule XY-chain",
            Technique::RuleAic => "rule AIC",
            Technique::NishioForcingChain => "Nishio forcing chain",
            Technique::MultipleForcingChain => "multiple forcing chain",
            Technique::BidirectionalXCycle => "bidirectional X-cycle",
            Technique::BidirectionalYCycle => "bidirectional Y-cycle",
            Technique::BidirectionalCycle => "bidirectional cycle",
        }
    }

    /// A stable word for JSON: `hidden-single-box`.
    pub fn word(self) -> &'static str {
        match self {
            Technique::FullHouse => "full-house",
            Technique::HiddenSingleBox => "hidden-single-box",
            Technique::HiddenSingleLine => "hidden-single-line",
            Technique::NakedSingle => "naked-single",
            Technique::DirectPointing => "direct-pointing",
            Technique::DirectClaiming => "direct-claiming",
            Technique::DirectHiddenPair => "direct-hidden-pair",
            Technique::DirectHiddenTriple => "direct-hidden-triple",
            Technique::Pointing => "pointing",
            Technique::Claiming => "claiming",
            Technique::NakedPair => "naked-pair",
            Technique::XWing => "x-wing",
            Technique::HiddenPair => "hidden-pair",
            Technique::NakedTriple => "naked-triple",
            Technique::Swordfish => "swordfish",
            Technique::HiddenTriple => "hidden-triple",
            Technique::XyWing => "xy-wing",
            Technique::XyzWing => "xyz-wing",
            Technique::UniqueRectangle => "unique-rectangle-1",
            Technique::UniqueRectangle2 => "unique-rectangle-2",
            Technique::UniqueRectangle3 => "unique-rectangle-3",
            Technique::UniqueRectangle4 => "unique-rectangle-4",
            Technique::BugOne => "bug-1",
            Technique::Bug2 => "bug-2",
            Technique::Bug3 => "bug-3",
            Technique::Bug4 => "bug-4",
            Technique::AlignedPairExclusion => "aligned-pair-exclusion",
            Technique::AlignedTripletExclusion => "aligned-triplet-exclusion",
            Technique::NakedQuad => "naked-quad",
            Technique::Jellyfish => "jellyfish",
            Technique::HiddenQuad => "hidden-quad",
            Technique::XChain => "x-chain",
            Technique::XyChain => "xy-chain",
            Technique::ForcingXChain => "forcing-x-chain",
            Technique::XyForcingChain => "xy-forcing-chain",
            Technique::ForcingChain => "forcing-chain",
            Technique::DynamicForcingChain => "dynamic-forcing-chain",
            Technique::DynamicForcingChainPlus => "dynamic-forcing-chain-plus",
            Technique::NestedForcingChain => "nested-forcing-chain",
            Technique::Reasoned => "reasoned",
            Technique::Search => "search",
            Technique::RuleCandidates => "rule-candidates",
            Technique::CageCombination => "cage-combination",
            Technique::RuleContains => "rule-contains",
            Technique::InniesOuties => "innies-outies",
            Technique::RulePointing => "rule-pointing",
            Technique::RuleForcingChain => "rule-forcing-chain",
            Technique::RuleDynamicForcingChain => "rule-dynamic-forcing-chain",
            Technique::RuleXChain => "rule-x-chain",
            Technique::RuleXyChain => "rule-xy-chain",
            Technique::RuleAic => "rule-aic",
            Technique::NishioForcingChain => "nishio-forcing-chain",
            Technique::MultipleForcingChain => "multiple-forcing-chain",
            Technique::BidirectionalXCycle => "bidirectional-x-cycle",
            Technique::BidirectionalYCycle => "bidirectional-y-cycle",
            Technique::BidirectionalCycle => "bidirectional-cycle",
        }
    }

    /// Sudoku Explainer's base rating. Chains add to it by their length
    /// ([`length_bonus`]). A reasoned step and search have none.
    pub fn base_rating(self) -> Option<Difficulty> {
        let tenths = match self {
            Technique::FullHouse => 10,
            Technique::HiddenSingleBox => 12,
            Technique::HiddenSingleLine => 15,
            Technique::DirectPointing => 17,
            Technique::DirectClaiming => 19,
            Technique::DirectHiddenPair => 20,
            Technique::NakedSingle => 23,
            Technique::DirectHiddenTriple => 25,
            Technique::Pointing => 26,
            Technique::Claiming => 28,
            Technique::NakedPair => 30,
            Technique::XWing => 32,
            Technique::HiddenPair => 34,
            Technique::NakedTriple => 36,
            Technique::Swordfish => 38,
            Technique::HiddenTriple => 40,
            Technique::XyWing => 42,
            Technique::XyzWing => 44,
            // SE 1.2.1.3 rates every type of rectangle 4.5 (its type 3
            // adds to it by the set's size, loops by their length).
            Technique::UniqueRectangle
            | Technique::UniqueRectangle2
            | Technique::UniqueRectangle3
            | Technique::UniqueRectangle4 => 45,
            Technique::BugOne => 56,
            // Type 3 adds a tenth per digit of its set past the first.
            Technique::Bug2 | Technique::Bug3 | Technique::Bug4 => 57,
            Technique::AlignedPairExclusion => 62,
            Technique::AlignedTripletExclusion => 75,
            Technique::NakedQuad => 50,
            Technique::Jellyfish => 52,
            Technique::HiddenQuad => 54,
            Technique::XChain => 66,
            Technique::XyChain => 70,
            Technique::ForcingXChain => 66,
            Technique::XyForcingChain => 70,
            Technique::ForcingChain => 85,
            Technique::DynamicForcingChain => 90,
            // Level 1; the nested levels add 0.5 each (the step says).
            Technique::DynamicForcingChainPlus => 90,
            Technique::NestedForcingChain => 95,
            Technique::Reasoned | Technique::Search => return None,
            // The rule steps' scale (docs/variants.md): a rule step over
            // one open cell rates as a full house, and each further open
            // cell adds 0.2 (see `crate::logic::rules`); these are the
            // bases.
            Technique::RuleCandidates | Technique::CageCombination => 10,
            Technique::RuleContains => 26,
            Technique::InniesOuties => 28,
            Technique::RulePointing => 28,
            // As SE's forcing chain, which it extends through the rules.
            Technique::RuleForcingChain => 85,
            // As SE's chains of the same links: one digit's, and through
            // cells (SE's XY forcing chain follows both kinds of link, as
            // an AIC does).
            Technique::RuleDynamicForcingChain => 90,
            Technique::RuleXChain => 66,
            Technique::RuleXyChain | Technique::RuleAic => 70,
            Technique::NishioForcingChain => 75,
            Technique::MultipleForcingChain => 80,
            Technique::BidirectionalXCycle | Technique::BidirectionalYCycle => 65,
            Technique::BidirectionalCycle => 70,
        };
        Some(Difficulty(tenths))
    }

    /// Whether the technique assumes the puzzle has one solution (unique
    /// rectangles): sound only on a unique classic puzzle, whose digits
    /// can be swapped in a rectangle without breaking a rule.
    pub fn needs_uniqueness(self) -> bool {
        matches!(
            self,
            Technique::UniqueRectangle
                | Technique::UniqueRectangle2
                | Technique::UniqueRectangle3
                | Technique::UniqueRectangle4
                | Technique::BugOne
                | Technique::Bug2
                | Technique::Bug3
                | Technique::Bug4
        )
    }
}

impl Technique {
    /// The techniques that read the variant rules, in the order the path
    /// tries them: after SE's singles and direct techniques, before
    /// pointing (see [`crate::logic::rules`]).
    pub const RULES: [Technique; 5] = [
        Technique::RuleCandidates,
        Technique::CageCombination,
        Technique::RuleContains,
        Technique::InniesOuties,
        Technique::RulePointing,
    ];

    /// Whether the technique's finder reads the variant rules
    /// ([`crate::logic::rules::RuleSteps`]).
    pub fn reads_rules(self) -> bool {
        Technique::RULES.contains(&self)
            || matches!(
                self,
                Technique::RuleForcingChain
                    | Technique::RuleDynamicForcingChain
                    | Technique::RuleXChain
                    | Technique::RuleXyChain
                    | Technique::RuleAic
            )
    }
}

/// Sudoku Explainer's extra difficulty for a chain of `links` links: a
/// tenth each time the length passes 4, 6, 8, 12, 16, 24, 32, ... (the
/// bounds grow by 3/2 and 4/3 in turn).
pub fn length_bonus(links: usize) -> u16 {
    let (mut ceiling, mut odd, mut added) = (4usize, false, 0u16);
    while links > ceiling {
        added += 1;
        ceiling = if odd {
            ceiling * 4 / 3
        } else {
            ceiling * 3 / 2
        };
        odd = !odd;
    }
    added
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratings_rise_along_the_order() {
        let ratings: Vec<_> = Technique::NAMED
            .iter()
            .filter_map(|t| t.base_rating())
            .collect();
        assert!(ratings.windows(2).all(|w| w[0] <= w[1]), "{ratings:?}");
        assert_eq!(Difficulty(23).to_string(), "2.3");
    }

    #[test]
    fn chains_grow_harder_with_length() {
        let bonus: Vec<u16> = [4, 5, 6, 7, 8, 9, 12, 13, 16, 17, 24, 25]
            .iter()
            .map(|&n| length_bonus(n))
            .collect();
        assert_eq!(bonus, [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6]);
    }
}
