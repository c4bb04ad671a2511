//! `z3doku listen`'s protocol: the local solver that f-puzzles' buttons
//! (true candidates, solve, check, count, a logical step and the logical path) reach through a browser
//! userscript over a WebSocket.
//!
//! The library holds everything but the socket: [`protocol`] reads the
//! requests and writes the responses, and [`session`] answers one client's
//! requests in a worker thread of its own that keeps its engine (and its
//! answers, in [`cache`]) between requests, under a cancel token that a new request, a `cancel` or a
//! disconnect cancels in the middle of a search. The binary only accepts
//! connections and moves text between the socket and a
//! [`session::Session`].

pub mod cache;
pub mod protocol;
pub mod session;

pub use protocol::{ListenCommand, LogicalCell, Reply, Request, Response, parse_request};
pub use session::{Answering, Progress, Responder, Session};

/// The largest message read: a request with f-puzzles JSON of up to
/// [`MAX_PAYLOAD_CHARS`](crate::puzzle::fpuzzles::MAX_PAYLOAD_CHARS)
/// (16 MiB, the most a payload may decompress to) in its `data`, and room
/// for the request around it. f-puzzles' requests are a few KiB; a puzzle
/// with thousands of drawn lines, some hundreds.
pub const MAX_MESSAGE_BYTES: usize = crate::puzzle::fpuzzles::MAX_PAYLOAD_CHARS + 64 * 1024;

/// The port the userscript connects to.
pub const DEFAULT_PORT: u16 = 4545;
