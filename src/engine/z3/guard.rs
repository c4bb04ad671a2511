//! The boundary with the `z3` crate, where Z3 running out of memory becomes
//! a verdict instead of a panic.
//!
//! Once a context passes Z3's `memory_max_size`, Z3 returns null terms and
//! the `z3` crate unwraps them, so building an encoding panics inside the
//! crate. [`guarded`] turns that into [`GiveUp::Memory`] (and any other
//! panic into an internal error), and [`quiet_guarded_panics`] keeps the
//! panics caught there off standard error.

use crate::engine::contract::{EngineError, GiveUp};
use std::cell::Cell;
use std::panic::{self, AssertUnwindSafe, PanicHookInfo};
use std::sync::Once;

thread_local! {
    /// Whether this thread is inside [`guarded`], whose caller reports any
    /// panic as an [`EngineError`].
    static GUARDED: Cell<bool> = const { Cell::new(false) };
    /// What the hook saw of the last panic caught by [`guarded`]: its
    /// message and where it was raised.
    static CAUGHT: Cell<Option<Caught>> = const { Cell::new(None) };
}

/// A panic raised inside [`guarded`].
struct Caught {
    message: String,
    /// Raised by the `z3` crate itself, as when Z3 hands it a null term.
    in_z3_crate: bool,
}

/// Installs (once per process) a panic hook that stays quiet for panics
/// that [`guarded`] catches, and otherwise defers to the hook that was in
/// place. The binary calls it at start-up: without it a caught panic still
/// prints "thread panicked" (and a backtrace) before becoming a verdict.
pub fn quiet_guarded_panics() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if GUARDED.with(Cell::get) {
                CAUGHT.with(|c| c.set(Some(caught(info))));
            } else {
                previous(info);
            }
        }));
    });
}

fn caught(info: &PanicHookInfo<'_>) -> Caught {
    let payload = info.payload();
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_string());
    let (message, in_z3_crate) = match info.location() {
        Some(at) => (format!("{message} at {at}"), is_z3_crate(at.file())),
        None => (message, false),
    };
    Caught {
        message,
        in_z3_crate,
    }
}

/// Whether a source path is in the `z3` crate (`…/z3-0.22.0/src/…`), and
/// not in z3doku or another crate.
fn is_z3_crate(file: &str) -> bool {
    std::path::Path::new(file).components().any(|c| {
        c.as_os_str().to_str().is_some_and(|name| {
            name.strip_prefix("z3-")
                .is_some_and(|version| version.starts_with(|c: char| c.is_ascii_digit()))
        })
    })
}

/// Runs `work`, which calls into Z3, and turns a panic inside it into an
/// error: under a memory limit a panic raised by the `z3` crate is Z3 out
/// of memory (the crate's only way to fail on a null term); any other
/// panic is a bug, reported with its message. Whatever `work` was
/// building may be half made: the caller must drop it.
pub(crate) fn guarded<T>(work: impl FnOnce() -> Result<T, EngineError>) -> Result<T, EngineError> {
    let outer = GUARDED.with(|g| g.replace(true));
    let result = panic::catch_unwind(AssertUnwindSafe(work));
    GUARDED.with(|g| g.set(outer));
    result.unwrap_or_else(|_| {
        let caught = CAUGHT.with(Cell::take);
        Err(panic_error(caught, memory_limit_mib().is_some()))
    })
}

fn panic_error(caught: Option<Caught>, memory_limited: bool) -> EngineError {
    match caught {
        Some(c) if memory_limited && c.in_z3_crate => EngineError::GaveUp(GiveUp::Memory),
        Some(c) => EngineError::Internal(format!("panic in the Z3 engine: {}", c.message)),
        // No hook saw it (the binary's start-up did not install one): the
        // limit is the likelier cause.
        None if memory_limited => EngineError::GaveUp(GiveUp::Memory),
        None => EngineError::Internal("panic in the Z3 engine".into()),
    }
}

/// Z3's process-wide memory limit in MiB, when one is set (see
/// [`super::limit_memory`]).
pub(crate) fn memory_limit_mib() -> Option<f64> {
    z3::get_global_param("memory_max_size")
        .and_then(|value| value.trim().parse::<f64>().ok())
        .filter(|&mib| mib > 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_z3_crate_is_the_z3_crate() {
        assert!(is_z3_crate(
            "/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/z3-0.22.0/src/ast/bool.rs"
        ));
        assert!(!is_z3_crate("src/engine/z3/mod.rs"));
        assert!(!is_z3_crate(
            "/root/.cargo/registry/src/x/z3-sys-0.14.1/src/lib.rs"
        ));
    }

    #[test]
    fn a_panic_outside_the_z3_crate_is_a_bug_even_under_a_limit() {
        let ours = Caught {
            message: "boom".into(),
            in_z3_crate: false,
        };
        assert!(
            matches!(panic_error(Some(ours), true), EngineError::Internal(m) if m.contains("boom"))
        );
        let z3s = Caught {
            message: "unwrap on None".into(),
            in_z3_crate: true,
        };
        assert_eq!(
            panic_error(Some(z3s), true),
            EngineError::GaveUp(GiveUp::Memory)
        );
    }

    #[test]
    fn guarded_turns_a_panic_into_an_error() {
        quiet_guarded_panics();
        let result: Result<(), EngineError> = guarded(|| panic!("boom"));
        assert!(matches!(result, Err(EngineError::Internal(m)) if m.contains("boom")));
        assert!(!GUARDED.with(Cell::get));
    }
}
