//! Boundaries as walls: what one part of z3doku may name of another, read
//! from the source itself. Each wall here was once crossed.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `.rs` files under `dir`, recursively.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return files;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files.sort();
    files
}

/// The file's code without its comments (line comments and doc comments),
/// so that prose naming a module is not taken for a use of it.
fn code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The identifiers named right after each `prefix` in `code`: `a` in
/// `prefix a::b`, and `a`, `b` in `prefix {a, b::c}`.
fn named_after(code: &str, prefix: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let word = |s: &str| -> String {
        s.trim()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    for (at, _) in code.match_indices(prefix) {
        let rest = &code[at + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let inside = group.split('}').next().unwrap_or_default();
            names.extend(inside.split(',').map(word).filter(|w| !w.is_empty()));
        } else {
            let w = word(rest);
            if !w.is_empty() {
                names.insert(w);
            }
        }
    }
    names
}

#[test]
fn nothing_outside_the_z3_engine_reaches_its_crate_private_items() {
    let z3_dir = root().join("src/engine/z3");
    let mut private = BTreeSet::new();
    for file in sources(&z3_dir) {
        let code = code(&file);
        for kind in [
            "fn ", "struct ", "enum ", "const ", "static ", "type ", "trait ",
        ] {
            private.extend(named_after(&code, &format!("pub(crate) {kind}")));
        }
    }
    let mut crossings = Vec::new();
    for file in sources(&root().join("src")) {
        if file.starts_with(&z3_dir) {
            continue;
        }
        let code = code(&file);
        for prefix in ["engine::z3::", "z3::encoding::"] {
            for name in named_after(&code, prefix) {
                if private.contains(&name) {
                    crossings.push(format!("{} names {name}", file.display()));
                }
            }
        }
    }
    assert!(crossings.is_empty(), "{crossings:#?}");
}

#[test]
fn the_logic_modules_depend_on_each_other_without_a_circle() {
    let dir = root().join("src/logic");
    // A module is a file `x.rs` or a folder `x/` (whose files are read
    // together: their `super::` is the folder's own module).
    let modules: BTreeSet<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir() || p.extension().is_some_and(|e| e == "rs"))
        .filter_map(|f| f.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .filter(|m| m != "mod")
        .collect();
    let mut uses: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for module in &modules {
        let folder = dir.join(module);
        let code = if folder.is_dir() {
            sources(&folder)
                .iter()
                .map(|f| code(f))
                .collect::<Vec<_>>()
                .join("\n")
        } else {
            code(&dir.join(format!("{module}.rs")))
        };
        let mut named = named_after(&code, "super::");
        named.extend(named_after(&code, "crate::logic::"));
        named.retain(|n| modules.contains(n) && n != module);
        uses.insert(module.clone(), named);
    }
    // A depth-first walk: a module met again while still on the walk
    // closes a circle.
    fn walk(
        module: &str,
        uses: &BTreeMap<String, BTreeSet<String>>,
        on_walk: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = on_walk.iter().position(|m| m == module) {
            let mut circle = on_walk[at..].to_vec();
            circle.push(module.to_string());
            return Some(circle);
        }
        if !done.insert(module.to_string()) {
            return None;
        }
        on_walk.push(module.to_string());
        for next in uses.get(module).into_iter().flatten() {
            if let Some(circle) = walk(next, uses, on_walk, done) {
                return Some(circle);
            }
        }
        on_walk.pop();
        None
    }
    let mut done = BTreeSet::new();
    for module in &modules {
        if let Some(circle) = walk(module, &uses, &mut Vec::new(), &mut done) {
            panic!("a circle: {}", circle.join(" -> "));
        }
    }
}

#[test]
fn reasoned_steps_ask_for_engines_through_the_contract() {
    let code = code(&root().join("src/logic/reason.rs"));
    for concrete in ["engine::native", "NativeEngine", "engine::z3", "Z3Engine"] {
        assert!(
            !code.contains(concrete),
            "src/logic/reason.rs names {concrete}"
        );
    }
}
