//! Any bytes as the formula of a `formula` or `smt` rule line (the first
//! byte picks which, and a 4x4 or 9x9 board). None may panic; an error
//! must point at a column of the line; a formula read must print and read
//! back as the same formula; and on full grids its value must be the same
//! to the checker (evaluating it as written) and to the native engine's
//! reading over intervals with every cell filled, while with one cell open
//! the native reading keeps exactly the digits that make it true.
#![no_main]

use libfuzzer_sys::fuzz_target;
use z3doku::puzzle::constraint::Context;
use z3doku::puzzle::grid::Size;
use z3doku::puzzle::kinds::Rule;
use z3doku::puzzle::kinds::formula::{feasible, read_line};
use z3doku::puzzle::primitive::Primitive;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let word = if first & 1 == 0 { "formula" } else { "smt" };
    let size = if first & 2 == 0 { Size::NINE } else { Size::from_side(4).unwrap_or(Size::NINE) };
    let line = format!("{word} {text}");
    let formula = match read_line(&line, size) {
        None => panic!("{line:?} is not read as a formula line"),
        Some(Err(e)) => {
            assert!(e.column >= 1 && e.column <= line.chars().count() + 1, "{e:?}");
            return;
        }
        Some(Ok(formula)) => formula,
    };
    let printed = formula.to_string();
    match read_line(&printed, size) {
        Some(Ok(again)) => assert_eq!(again, formula, "{printed}"),
        other => panic!("{printed:?} does not read back: {other:?}"),
    }
    if formula.validate(size).is_err() {
        return;
    }
    let side = size.side();
    let regions: Vec<Vec<usize>> = Vec::new();
    let region_of = vec![None; size.cells()];
    let context = Context {
        size,
        regions: &regions,
        region_of: &region_of,
        all: &[],
    };
    let lowered = formula.lower(&context);
    let [Primitive::Formula(test)] = &lowered[..] else {
        panic!("{printed} lowers to {lowered:?}");
    };
    let all = u32::MAX >> (32 - side);
    // A few full grids from the data: digit of cell c from a running hash.
    for round in 0..4u64 {
        let digit = |c: usize| -> u8 {
            let mut h = (c as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ round;
            for &b in rest.iter().take(8) {
                h = h.rotate_left(7) ^ u64::from(b);
            }
            (h % side as u64) as u8 + 1
        };
        let holds = test.holds(&|&c| i128::from(digit(c)));
        assert_eq!(feasible(test, &|c| digit(c), &|_| all), holds, "{printed}");
        // One cell open: the digits kept are those that make it true.
        if let Some(&open) = test.cells().first() {
            for d in 1..=side as u8 {
                let value = |c: usize| if c == open { d } else { digit(c) };
                let kept = feasible(test, &|c| if c == open { d } else { digit(c) }, &|_| all);
                assert_eq!(kept, test.holds(&|&c| i128::from(value(c))), "{printed}");
            }
            let none_fits = (1..=side as u8).all(|d| {
                !test.holds(&|&c| i128::from(if c == open { d } else { digit(c) }))
            });
            if !none_fits {
                let open_value = |c: usize| if c == open { 0 } else { digit(c) };
                assert!(feasible(test, &open_value, &|_| all), "{printed}: pruned a solution");
            }
        }
    }
});
