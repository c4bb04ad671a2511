//! Files come back whole: reading an f-puzzles puzzle and writing it
//! again keeps every key it had (title, author, ruleset, drawn shapes and
//! text, items only drawn, rule items' colours, each cell's notes and
//! colours), through the library's writer and through `-o fpuzzles`,
//! `minimize` and `generate --rules`.

use crate::common;

use common::{lost_keys, z3doku};
use serde_json::Value;
use std::path::{Path, PathBuf};
use z3doku::puzzle::fpuzzles;

fn decorated() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/decorated.json")
}

/// Every f-puzzles file the tests and the shared data sets hold.
fn files() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![decorated(), root.join("examples/puzzles/killer.json")];
    match std::fs::read_dir(root.join("../shared/data/variants")) {
        Ok(dir) => {
            let mut shared: Vec<PathBuf> = dir
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "json"))
                .collect();
            shared.sort();
            assert!(shared.len() >= 35, "{shared:?}");
            files.extend(shared);
        }
        Err(_) => eprintln!("SKIPPED: ../shared/data/variants is missing"),
    }
    files
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

#[test]
fn every_key_of_every_file_comes_back() {
    for path in files() {
        let text = read(&path);
        let name = path.display();
        let puzzle = fpuzzles::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let written = fpuzzles::write::to_json(&puzzle, None);
        let lost = lost_keys(&json(&text), &json(&written));
        assert!(lost.is_empty(), "{name} lost {lost:?}\n{written}");
        // The same puzzle, drawn the same: writing it again changes nothing.
        let again = fpuzzles::parse(&written).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(again, puzzle, "{name}");
        assert_eq!(again.cosmetics(), puzzle.cosmetics(), "{name}");
        assert_eq!(fpuzzles::write::to_json(&again, None), written, "{name}");
        // Through a link too.
        let link = fpuzzles::write::to_link(&puzzle, None);
        let unpacked = fpuzzles::decompress(&link).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(unpacked, written, "{name}");
    }
}

#[test]
fn drawing_is_not_a_rule() {
    let text = read(&decorated());
    let puzzle = fpuzzles::parse(&text).unwrap();
    // What only draws leaves the same rules and givens as the file without
    // it, so the two are the same puzzle.
    let mut bare = json(&text);
    let object = bare.as_object_mut().unwrap();
    for key in [
        "title",
        "author",
        "ruleset",
        "line",
        "rectangle",
        "circle",
        "text",
        "cage",
        "xv",
        "littlekillersum",
        "highlightConflicts",
        "highlightSeenCells",
        "truecandidatesoptions",
        "disabledlogic",
    ] {
        assert!(object.remove(key).is_some(), "{key}");
    }
    let bare = fpuzzles::parse(&bare.to_string()).unwrap();
    assert_eq!(bare, puzzle);
    assert!(
        bare.cosmetics().is_some(),
        "the cells' colours are still there"
    );
    assert_eq!(puzzle.rules().constraints(), bare.rules().constraints());
    // A pencil mark on a given says nothing; written back, it stays on the
    // given, and the empty cell's marks stay a rule.
    let written = json(&fpuzzles::write::to_json(&puzzle, None));
    assert_eq!(
        written["grid"][0][0]["centerPencilMarks"],
        serde_json::json!([1, 2])
    );
    assert_eq!(
        written["grid"][3][3]["centerPencilMarks"],
        serde_json::json!([3, 4])
    );
    // Rule items keep their colours, drawn items come after the rules.
    assert_eq!(written["killercage"][0]["outlineC"], "#C060C0");
    assert_eq!(written["thermometer"][0]["outlineC"], "#BBBBBB");
}

#[test]
fn a_cleared_given_drops_the_marks_it_carried() {
    // r1c1 holds 1 and carries centre marks 1 2, which say nothing while
    // it holds a digit. Without the digit they would restrict the cell:
    // they are not written back.
    let puzzle = fpuzzles::parse(&read(&decorated())).unwrap();
    let mut givens = puzzle.givens().clone();
    givens.set(0, 0);
    let cleared = puzzle.with_givens(givens);
    let written = fpuzzles::write::to_json(&cleared, None);
    let value = json(&written);
    assert_eq!(
        value["grid"][0][0].get("centerPencilMarks"),
        None,
        "{written}"
    );
    assert_eq!(value["grid"][0][0]["c"], "#FF0000");
    let again = fpuzzles::parse(&written).unwrap();
    assert_eq!(again, cleared);
}

/// The JSON inside the first f-puzzles link of `out`.
fn link_json(out: &[u8]) -> Value {
    let text = String::from_utf8_lossy(out);
    let link = text
        .split_whitespace()
        .find(|w| w.starts_with("https://f-puzzles.com/?load="))
        .unwrap_or_else(|| panic!("no link in {text}"));
    json(&fpuzzles::decompress(link).unwrap())
}

/// A unique 9x9 thermometer puzzle with the decorated file's drawing.
fn decorated_unique(dir: &Path) -> (PathBuf, Value) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut puzzle = json(&read(&root.join("examples/puzzles/killer.json")));
    let object = puzzle.as_object_mut().unwrap();
    object.insert("author".into(), "A. Setter".into());
    object.insert("ruleset".into(), "Killer rules.".into());
    object.insert(
        "line".into(),
        serde_json::json!([{"lines":[["R1C1","R9C9"]],"outlineC":"#FFA500","width":0.5}]),
    );
    object.insert(
        "text".into(),
        serde_json::json!([{"cells":["R5C5"],"value":"Hi","fontC":"#000000","size":0.5}]),
    );
    object["grid"][0][0] = serde_json::json!({"cArray": ["#00FF00"], "highlight": "#CCCCCC"});
    let path = dir.join("decorated-killer.json");
    std::fs::write(&path, puzzle.to_string()).unwrap();
    (path, puzzle)
}

#[test]
fn solve_minimize_and_generate_keep_the_drawing() {
    let dir = std::env::temp_dir().join(format!("z3doku-round-trip-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (path, source) = decorated_unique(&dir);
    let path = path.to_str().unwrap();
    // A unique puzzle: the link holds its solution, and every key.
    let out = z3doku()
        .args([
            "solve", path, "--unique", "-o", "fpuzzles", "--engine", "native",
        ])
        .assert()
        .code(0)
        .get_output()
        .clone();
    let solved = link_json(&out.stdout);
    assert!(solved["solution"].is_array());
    assert_eq!(lost_keys(&source, &solved), Vec::<String>::new());
    // minimize keeps the drawing (and the rules).
    let out = z3doku()
        .args(["minimize", path, "--engine", "native"])
        .assert()
        .code(0)
        .get_output()
        .clone();
    let minimal = link_json(&out.stdout);
    for key in ["title", "author", "ruleset", "line", "text", "killercage"] {
        assert_eq!(minimal[key], source[key], "{key}");
    }
    assert_eq!(
        minimal["grid"][0][0]["cArray"],
        source["grid"][0][0]["cArray"]
    );
    // generate --rules: each made puzzle keeps it too.
    let out = z3doku()
        .args(["generate", "--rules", path, "--count", "1", "--seed", "3"])
        .assert()
        .code(0)
        .get_output()
        .clone();
    let made = link_json(&out.stdout);
    for key in ["title", "author", "ruleset", "line", "text", "killercage"] {
        assert_eq!(made[key], source[key], "{key}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_puzzle_with_many_solutions_links_no_solution_and_says_why() {
    let out = z3doku()
        .args([
            "solve",
            decorated().to_str().unwrap(),
            "-o",
            "fpuzzles",
            "--engine",
            "native",
        ])
        .assert()
        .get_output()
        .clone();
    let linked = link_json(&out.stdout);
    assert!(linked.get("solution").is_none(), "{linked}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("the link holds no solution"), "{stderr}");
    assert_eq!(
        lost_keys(&json(&read(&decorated())), &linked),
        Vec::<String>::new()
    );
}
