//! Any bytes as a batch input, through the whole batch pipeline (reader,
//! workers on the native engine, in-order writer): it must never panic or
//! fail, must give one record per puzzle line (blank and `#` lines aside)
//! in input order, and never an internal error.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::num::NonZeroUsize;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use z3doku::batch::{Batch, LineError};
use z3doku::engine::{EngineKind, Settings};
use z3doku::solve::Request;

fuzz_target!(|data: &[u8]| {
    let batch = Batch {
        request: Request {
            settings: Settings {
                engine: EngineKind::Native,
                ..Settings::default()
            },
            unique: true,
            timeout: Some(Duration::from_millis(100)),
            ..Request::default()
        },
        size: None,
        jobs: NonZeroUsize::new(2).unwrap_or(NonZeroUsize::MIN),
        rate: false,
    };
    let mut lines = Vec::new();
    let summary = batch.run(
        Box::new(std::io::Cursor::new(data.to_vec())),
        Arc::new(AtomicBool::new(false)),
        |record| {
            assert!(
                !matches!(record.result, Err(LineError::Internal { .. })),
                "line {}",
                record.line
            );
            lines.push(record.line);
            ControlFlow::Continue(())
        },
    );
    assert!(summary.is_ok());
    assert!(
        lines.windows(2).all(|w| w[0] < w[1]),
        "out of order: {lines:?}"
    );
    // Lines that hold only blanks or a comment give no record; every other
    // line gives one (the count of lines is at most the newlines plus one).
    let newlines = data.iter().filter(|&&b| b == b'\n').count();
    assert!(lines.len() <= newlines + 1);
});
