//! Choosing techniques by name: `--techniques` and `--without` on the
//! command line, and `disabledlogic` from f-puzzles' solver buttons.

use super::rules::order;
use super::technique::Technique;

/// The names of groups of techniques, with what they hold.
const GROUPS: [(&str, &[Technique]); 4] = [
    (
        "singles",
        &[
            Technique::FullHouse,
            Technique::HiddenSingleBox,
            Technique::HiddenSingleLine,
            Technique::NakedSingle,
        ],
    ),
    ("rules", &Technique::RULES),
    (
        "rule-forcing",
        &[
            Technique::RuleForcingChain,
            Technique::RuleDynamicForcingChain,
        ],
    ),
    (
        "rule-chains",
        &[
            Technique::RuleXChain,
            Technique::RuleXyChain,
            Technique::RuleAic,
        ],
    ),
];

/// What a list of names chooses: the techniques, and whether the engine
/// may reason a step out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selection {
    /// The techniques, in the path's order.
    pub techniques: Vec<Technique>,
    /// Whether reasoned steps are allowed.
    pub reasoned: bool,
}

/// Techniques that another technique's finder gives, with that one: a
/// finder takes the easiest of what it finds, as SE does, so choosing
/// either chooses the finder, and leaving one out means leaving out both.
const FOUND_WITH: [(Technique, Technique); 15] = [
    (Technique::XyForcingChain, Technique::ForcingXChain),
    (Technique::BidirectionalXCycle, Technique::ForcingXChain),
    (Technique::BidirectionalYCycle, Technique::ForcingXChain),
    (Technique::BidirectionalCycle, Technique::ForcingXChain),
    (Technique::UniqueRectangle2, Technique::UniqueRectangle),
    (Technique::UniqueRectangle3, Technique::UniqueRectangle),
    (Technique::UniqueRectangle4, Technique::UniqueRectangle),
    (Technique::Bug3, Technique::Bug2),
    (Technique::Bug4, Technique::Bug2),
    (Technique::NishioForcingChain, Technique::ForcingChain),
    (Technique::MultipleForcingChain, Technique::ForcingChain),
    (
        Technique::DynamicForcingChainPlus,
        Technique::DynamicForcingChain,
    ),
    (
        Technique::NestedForcingChain,
        Technique::DynamicForcingChain,
    ),
    // The rule chains' finder: the shortest chain is the step, named by
    // its shape (rule X-chain, rule XY-chain, rule AIC).
    (Technique::RuleXyChain, Technique::RuleXChain),
    (Technique::RuleAic, Technique::RuleXChain),
];

/// Every technique a name can choose: the path's, `reasoned`, and those
/// another's finder gives.
fn known() -> impl Iterator<Item = Technique> {
    let others = [Technique::Reasoned, Technique::XChain, Technique::XyChain];
    order().iter().copied().chain(others).chain(
        FOUND_WITH
            .iter()
            .map(|&(t, _)| t)
            .filter(|t| !order().contains(t)),
    )
}

/// The techniques one name stands for: a technique's word
/// (`hidden-single-box`), its name with dashes (`hidden-single`, both
/// hidden singles), a group (`singles`, `rules`, `all`), or `reasoned`.
fn named(word: &str) -> Option<Vec<Technique>> {
    let word = word.trim().to_lowercase().replace([' ', '_'], "-");
    if word == "all" {
        let mut all = order().to_vec();
        all.push(Technique::Reasoned);
        return Some(all);
    }
    if let Some((_, group)) = GROUPS.iter().find(|(name, _)| *name == word) {
        return Some(group.to_vec());
    }
    let found: Vec<Technique> = known()
        .filter(|t| t.word() == word || t.name().replace(' ', "-").to_lowercase() == word)
        .collect();
    (!found.is_empty()).then_some(found)
}

/// The selection `only` (every technique when empty) less `without`, or
/// the first name that is none.
pub fn select(only: &[String], without: &[String]) -> Result<Selection, String> {
    let mut chosen: Vec<Technique> = Vec::new();
    let all = [String::from("all")];
    let only = if only.is_empty() { &all[..] } else { only };
    for word in only {
        chosen.extend(named(word).ok_or_else(|| unknown(word))?);
    }
    for word in without {
        let gone = named(word).ok_or_else(|| unknown(word))?;
        chosen.retain(|t| !gone.contains(t));
    }
    for &(rider, finder) in &FOUND_WITH {
        if chosen.contains(&rider) && !chosen.contains(&finder) {
            chosen.push(finder);
        }
    }
    // A technique left out whose finder stays would still be found.
    for word in without {
        for gone in named(word).unwrap_or_default() {
            if let Some(&(_, finder)) = FOUND_WITH.iter().find(|&&(rider, _)| rider == gone)
                && chosen.contains(&finder)
            {
                return Err(format!(
                    "{} is found by the finder of {}, with it: leave out {} to leave out both",
                    gone.word(),
                    finder.word(),
                    finder.word()
                ));
            }
        }
    }
    Ok(Selection {
        reasoned: chosen.contains(&Technique::Reasoned),
        techniques: order()
            .iter()
            .copied()
            .filter(|t| chosen.contains(t))
            .collect(),
    })
}

fn unknown(word: &str) -> String {
    // The same names `named` takes, so the list cannot leave one out.
    let mut words: Vec<&str> = known().map(Technique::word).collect();
    words.extend(GROUPS.iter().map(|(name, _)| *name));
    words.push("all");
    format!(
        "no technique is called {word:?}; the names are {}",
        words.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(list: &str) -> Vec<String> {
        list.split(',').map(String::from).collect()
    }

    #[test]
    fn singles_and_cage_combinations_only() {
        let s = select(&words("singles,cage-combination"), &[]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            s.techniques,
            [
                Technique::FullHouse,
                Technique::HiddenSingleBox,
                Technique::HiddenSingleLine,
                Technique::NakedSingle,
                Technique::CageCombination
            ]
        );
        assert!(!s.reasoned);
    }

    #[test]
    fn without_takes_away_from_everything() {
        let s =
            select(&[], &words("reasoned,45 rule,hidden-single")).unwrap_or_else(|e| panic!("{e}"));
        assert!(!s.reasoned);
        assert!(!s.techniques.contains(&Technique::InniesOuties));
        assert!(!s.techniques.contains(&Technique::HiddenSingleLine));
        assert!(s.techniques.contains(&Technique::CageCombination));
    }

    #[test]
    fn an_unknown_name_is_refused_by_name() {
        let e = select(&words("singles,wingz"), &[])
            .err()
            .unwrap_or_default();
        assert!(e.starts_with("no technique is called \"wingz\""), "{e}");
        // Every name the message offers is one `select` takes.
        let (_, names) = e.split_once("the names are ").unwrap_or_default();
        for name in names.split(", ") {
            assert!(
                select(&words(name), &[]).is_ok(),
                "{name} is offered but refused"
            );
        }
        assert!(
            names.contains("bug-3")
                && names.contains("rule-forcing")
                && names.contains("nishio-forcing-chain")
                && names.contains("nested-forcing-chain"),
            "{names}"
        );
    }

    /// A technique `steps` names that another's finder gives chooses that
    /// finder, and leaving it out alone is refused, as the finder would
    /// still give it.
    #[test]
    fn a_technique_found_with_another_chooses_its_finder() {
        let s = select(&words("multiple-forcing-chain"), &[]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.techniques, [Technique::ForcingChain]);
        let s = select(&words("bidirectional-y-cycle"), &[]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.techniques, [Technique::ForcingXChain]);
        let e = select(&[], &words("nested-forcing-chain"))
            .err()
            .unwrap_or_default();
        assert!(e.contains("leave out dynamic-forcing-chain"), "{e}");
        let s = select(&[], &words("dynamic-forcing-chain")).unwrap_or_else(|e| panic!("{e}"));
        assert!(!s.techniques.contains(&Technique::DynamicForcingChain));
        // Leaving out the finder and what it gives together is fine.
        assert!(select(&[], &words("forcing-chain,nishio-forcing-chain")).is_ok());
    }
}

/// What f-puzzles' `disabledlogic` (the userscript's list of the logic a
/// setter switched off, in SudokuSolver's words: `tuples`, `pointing`,
/// `fishes`, `wings`, `aic`, `contradictions`, `cellforcing`,
/// `digitforcing`) leaves on; a word it does not know is refused by name
/// rather than ignored, so a setter never gets logic they switched off.
pub fn without_disabled(disabled: &[String]) -> Result<Selection, String> {
    let mut without: Vec<String> = Vec::new();
    for word in disabled {
        let words: &[&str] = match word.to_lowercase().as_str() {
            "tuples" => &[
                "naked-pair",
                "naked-triple",
                "naked-quad",
                "hidden-pair",
                "hidden-triple",
                "hidden-quad",
                "direct-hidden-pair",
                "direct-hidden-triple",
            ],
            "pointing" => &[
                "pointing",
                "claiming",
                "direct-pointing",
                "direct-claiming",
                "rule-pointing",
            ],
            "fishes" => &["x-wing", "swordfish", "jellyfish"],
            "wings" => &["xy-wing", "xyz-wing"],
            "aic" => &[
                "x-chain",
                "xy-chain",
                "forcing-x-chain",
                "xy-forcing-chain",
                "rule-chains",
            ],
            // Aligned exclusions try every combination of a few cells'
            // digits, as cell forcing tries every digit of one.
            "contradictions" | "cellforcing" | "digitforcing" => &[
                "aligned-pair-exclusion",
                "aligned-triplet-exclusion",
                "forcing-chain",
                "dynamic-forcing-chain",
                "rule-forcing-chain",
                "rule-dynamic-forcing-chain",
                "reasoned",
            ],
            _ => return Err(format!("disabledlogic: no logic is called {word:?}")),
        };
        without.extend(words.iter().map(|w| w.to_string()));
    }
    select(&[], &without)
}

/// The `disabledlogic` list of f-puzzles JSON, as words (none when the key
/// is missing).
pub fn disabled_in(puzzle: &serde_json::Value) -> Result<Vec<String>, String> {
    match puzzle.get("disabledlogic") {
        None | Some(serde_json::Value::Null) => Ok(Vec::new()),
        Some(serde_json::Value::Array(items)) => items
            .iter()
            .map(|v| {
                v.as_str()
                    .map(String::from)
                    .ok_or_else(|| format!("disabledlogic: {v} is not a name"))
            })
            .collect(),
        Some(other) => Err(format!("disabledlogic: {other} is not a list of names")),
    }
}

#[cfg(test)]
mod disabled_tests {
    use super::*;

    #[test]
    fn disabled_logic_switches_families_off() {
        let s = without_disabled(&["Tuples".into(), "contradictions".into()])
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(!s.techniques.contains(&Technique::NakedPair));
        assert!(!s.techniques.contains(&Technique::ForcingChain));
        assert!(!s.reasoned);
        assert!(s.techniques.contains(&Technique::XWing));
        let json: serde_json::Value =
            serde_json::from_str(r#"{"disabledlogic":["fishes"]}"#).unwrap_or_default();
        assert_eq!(disabled_in(&json), Ok(vec!["fishes".to_string()]));
        assert!(without_disabled(&["telepathy".into()]).is_err());
    }
}

/// [`without_disabled`] of a request's data: lz-string base64 of the
/// f-puzzles JSON, or the JSON itself (as `z3doku listen` reads it).
pub fn disabled_from_data(data: &str) -> Result<Selection, String> {
    let data = data.trim();
    let json = if data.starts_with('{') {
        data.to_string()
    } else {
        crate::puzzle::fpuzzles::decompress(data).map_err(|e| format!("the puzzle: {e}"))?
    };
    let value: serde_json::Value =
        serde_json::from_str(&json).map_err(|e| format!("the puzzle: {e}"))?;
    without_disabled(&disabled_in(&value)?)
}
