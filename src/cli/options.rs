//! Raw flags become the library's requests here, and flags that do not fit
//! together are refused before anything runs: what the library sees is
//! always a valid request.

use super::Failure;
use super::args::{ColorChoice, EngineArgs, OutputArgs};
use std::io::IsTerminal;
use std::time::Duration;
use z3doku::engine::{EngineKind, Settings};
use z3doku::solve::Request;

impl EngineArgs {
    /// The request these flags ask for, with the given question (`unique`,
    /// `explain`) and output needs (`keep_models`, `stats`); or why the
    /// flags do not fit together.
    pub fn request(
        &self,
        unique: bool,
        explain: bool,
        keep_models: bool,
        stats: bool,
    ) -> Result<Request, Failure> {
        if self.engine == EngineKind::Native && keep_models {
            return Err(Failure::usage(
                "--model prints Z3's model; the native engine has none",
            ));
        }
        if self.engine == EngineKind::Race && keep_models {
            return Err(Failure::usage(
                "--model prints Z3's model; a race's answer may come from the native engine, which has none",
            ));
        }
        if self.engine == EngineKind::Race && self.encoding.is_some() {
            return Err(Failure::usage(
                "--encoding does not apply to --engine race: its Z3 side always uses bool",
            ));
        }
        if self.engine == EngineKind::Native && self.encoding.is_some() {
            return Err(Failure::usage(
                "--encoding chooses how Z3 sees the puzzle; it does not apply to --engine native",
            ));
        }
        // With --verify, Z3 is the referee and the cap applies to it.
        if self.engine == EngineKind::Native && self.memory.is_some() && !self.verify {
            return Err(Failure::usage(
                "--memory caps Z3's memory; it does not apply to --engine native (without --verify)",
            ));
        }
        if let Some(mib) = self.memory {
            // No Z3 context exists yet: nothing has touched Z3 before this.
            z3doku::engine::z3::limit_memory(mib);
        }
        Ok(Request {
            settings: Settings {
                engine: self.engine,
                encoding: self.encoding.unwrap_or_default(),
                keep_models,
                keep_statistics: stats,
                many_puzzles: false,
            },
            unique,
            explain,
            verify: self.verify,
            timeout: self.timeout.map(Duration::from_millis),
        })
    }
}

impl EngineArgs {
    /// The engine settings and timeout of a command that proves nothing
    /// twice (`listen`, `hint`, `steps`, `rate`): checked as every other
    /// command's are, and `--verify`, which would need a second verdict to
    /// compare, refused.
    pub fn unverified(&self, command: &str) -> Result<Request, Failure> {
        if self.verify {
            return Err(Failure::input(format!(
                "--verify confirms a verdict with the other engine; `{command}` gives none to confirm"
            )));
        }
        self.request(false, false, false, false)
    }
}

impl OutputArgs {
    /// Whether to colour the pretty table.
    pub fn color(&self) -> bool {
        self.color.enabled()
    }
}

impl ColorChoice {
    /// Whether to colour what goes to standard output.
    pub fn enabled(self) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::io::stdout().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
        }
    }
}
