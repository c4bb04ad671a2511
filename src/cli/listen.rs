//! `z3doku listen`: the socket side of the f-puzzles solver protocol. It
//! accepts WebSocket connections, one thread per client, and moves text
//! between each socket and the client's [`Session`], which holds all the
//! protocol's logic.

use super::Failure;
use super::args::ListenArgs;
use std::io::ErrorKind;
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tungstenite::protocol::frame::CloseFrame;
use tungstenite::protocol::frame::coding::CloseCode;
use tungstenite::protocol::{WebSocket, WebSocketConfig};
use tungstenite::{Error, Message};
use z3doku::listen::session::Answering;
use z3doku::listen::{MAX_MESSAGE_BYTES, Response, Session};
use z3doku::solve::exit;

/// How long accepting sleeps when nobody is connecting, between looks at
/// whether Ctrl-C was pressed.
const ACCEPT_PAUSE: Duration = Duration::from_millis(10);

/// How long a client's thread waits for a message while nothing is being
/// worked out, between looks at whether the server is stopping.
const IDLE_WAIT: Duration = Duration::from_millis(100);

/// While a job runs, its thread waits this long for the answer, then this
/// long for the client's next message, in turn.
const ANSWER_WAIT: Duration = Duration::from_millis(20);
const MESSAGE_WAIT: Duration = Duration::from_millis(2);

/// How long a stop waits for the clients' threads to close their sockets.
const GOODBYE_WAIT: Duration = Duration::from_secs(1);

/// Serves until Ctrl-C.
pub fn run(args: &ListenArgs) -> Result<u8, Failure> {
    // The engine options are checked before anything listens.
    let request = args.engine.unverified("listen")?;
    let answering = Answering {
        settings: request.settings,
        timeout: request.timeout,
        jobs: args
            .jobs
            .or_else(|| std::thread::available_parallelism().ok())
            .map_or(1, std::num::NonZeroUsize::get),
    };
    let address = format!("{}:{}", args.host, args.port);
    let listener = TcpListener::bind(&address)
        .and_then(|l| l.set_nonblocking(true).map(|()| l))
        .map_err(|e| Failure::input(format!("cannot listen on {address}: {e}")))?;
    let bound = listener.local_addr().map_or(address, |a| a.to_string());

    let stopping = Arc::new(AtomicBool::new(false));
    let on_ctrl_c = Arc::clone(&stopping);
    ctrlc::set_handler(move || on_ctrl_c.store(true, Ordering::SeqCst))
        .map_err(|e| Failure::internal(format!("cannot catch Ctrl-C: {e}")))?;
    eprintln!(
        "z3doku: listening on ws://{bound} with the {} engine; press Connect in f-puzzles, \
         Ctrl-C to stop",
        answering.settings.engine.name()
    );
    let clients = Arc::new(AtomicUsize::new(0));
    while !stopping.load(Ordering::SeqCst) {
        match listener.accept() {
            Ok((stream, _)) => {
                let (answering, stopping) = (answering.clone(), Arc::clone(&stopping));
                let clients = Arc::clone(&clients);
                clients.fetch_add(1, Ordering::SeqCst);
                std::thread::spawn(move || {
                    serve(stream, answering, &stopping);
                    clients.fetch_sub(1, Ordering::SeqCst);
                });
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock => std::thread::sleep(ACCEPT_PAUSE),
            // A connection that failed before it was accepted concerns
            // nobody else.
            Err(_) => std::thread::sleep(ACCEPT_PAUSE),
        }
    }
    let start = Instant::now();
    while clients.load(Ordering::SeqCst) > 0 && start.elapsed() < GOODBYE_WAIT {
        std::thread::sleep(ACCEPT_PAUSE);
    }
    eprintln!("z3doku: stopped listening");
    Ok(exit::SOLVED)
}

/// One client, until it leaves or the server stops; its work in hand is
/// cancelled either way.
fn serve(stream: TcpStream, answering: Answering, stopping: &AtomicBool) {
    let config = WebSocketConfig::default()
        .max_message_size(Some(MAX_MESSAGE_BYTES))
        .max_frame_size(Some(MAX_MESSAGE_BYTES));
    // A client that never completes the handshake is given up on.
    if stream.set_nonblocking(false).is_err()
        || stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .is_err()
    {
        return;
    }
    let Ok(mut socket) = tungstenite::accept_with_config(stream, Some(config)) else {
        return;
    };
    let mut session = Session::new(answering);
    loop {
        if stopping.load(Ordering::SeqCst) {
            let _ = socket.close(Some(CloseFrame {
                code: CloseCode::Away,
                reason: "z3doku stopped".into(),
            }));
            let _ = socket.flush();
            break;
        }
        if session.is_busy()
            && let Some(response) = session.poll(ANSWER_WAIT)
        {
            if send(&mut socket, &response).is_err() {
                break;
            }
            continue;
        }
        let wait = if session.is_busy() {
            MESSAGE_WAIT
        } else {
            IDLE_WAIT
        };
        if socket.get_ref().set_read_timeout(Some(wait)).is_err() {
            break;
        }
        match socket.read() {
            Ok(Message::Text(text)) => {
                if let Some(response) = session.receive(text.as_str())
                    && send(&mut socket, &response).is_err()
                {
                    break;
                }
            }
            Ok(Message::Binary(_)) => {
                let refusal = Response::invalid(
                    serde_json::Value::Null,
                    "a binary message: requests are JSON text",
                );
                if send(&mut socket, &refusal).is_err() {
                    break;
                }
            }
            // Pings are answered by the socket itself; a close is
            // answered on the next read, which then ends the connection.
            Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_) | Message::Close(_)) => {}
            Err(Error::Io(e))
                if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(Error::Capacity(e)) => {
                // The rest of the oversized frame is still unread: the
                // connection cannot go on.
                let refusal = Response::invalid(
                    serde_json::Value::Null,
                    format!(
                        "the message is refused: over {} MiB ({e})",
                        MAX_MESSAGE_BYTES / (1024 * 1024)
                    ),
                );
                let _ = send(&mut socket, &refusal);
                let _ = socket.close(Some(CloseFrame {
                    code: CloseCode::Size,
                    reason: "message too big".into(),
                }));
                let _ = socket.flush();
                break;
            }
            Err(_) => break,
        }
    }
    session.cancel();
}

fn send(socket: &mut WebSocket<TcpStream>, response: &Response) -> Result<(), Error> {
    socket.send(Message::text(response.to_json()))
}
