//! One vocabulary for results: the status of a puzzle (or a line of a
//! batch) and the process exit status that reports it.

/// The process exit statuses z3doku uses, one table for every command (the
/// README's "Exit status and errors" lists the same).
pub mod exit {
    /// Solved (and unique, when asked).
    pub const SOLVED: u8 = 0;
    /// No solution.
    pub const NO_SOLUTION: u8 = 1;
    /// A usage or input error.
    pub const INPUT: u8 = 2;
    /// More than one solution, when uniqueness was asked.
    pub const NOT_UNIQUE: u8 = 3;
    /// Gave up (timeout, memory, the solver answered unknown).
    pub const GAVE_UP: u8 = 4;
    /// An internal error: a bug in z3doku.
    pub const INTERNAL: u8 = 5;
    /// Interrupted by Ctrl-C, as shells report a process ended by SIGINT.
    pub const INTERRUPTED: u8 = 130;
}

/// What z3doku concluded about a puzzle, or a line of a batch that holds
/// none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    /// A solution, uniqueness not asked.
    Solved,
    /// Exactly one solution, proven.
    Unique,
    /// More than one solution.
    Multiple,
    /// No solution.
    None,
    /// No answer within the limits.
    GaveUp,
    /// Not a readable puzzle, or the engine failed on it (in a batch, where
    /// the run goes on past it).
    Error,
}

impl Status {
    /// Every status, in the order summaries list them.
    pub const ALL: [Status; 6] = [
        Status::Solved,
        Status::Unique,
        Status::Multiple,
        Status::None,
        Status::GaveUp,
        Status::Error,
    ];

    /// The stable word for it in output and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unique => "unique",
            Status::Multiple => "multiple",
            Status::None => "none",
            Status::GaveUp => "gave-up",
            Status::Error => "error",
        }
    }

    /// The process exit status that reports it. An error reports as an
    /// input error; an internal error carries its own status (see
    /// [`exit::INTERNAL`]).
    pub fn exit_code(self) -> u8 {
        match self {
            Status::Solved | Status::Unique => exit::SOLVED,
            Status::None => exit::NO_SOLUTION,
            Status::Multiple => exit::NOT_UNIQUE,
            Status::GaveUp => exit::GAVE_UP,
            Status::Error => exit::INPUT,
        }
    }
}
