//! How long `z3doku listen` takes to answer, measured from a local client:
//! `check` on the notebook's classic puzzle, and `truecandidates` on the
//! killer example. Start the server first (`z3doku listen`), then
//! `cargo run --release --example listen_latency [ADDRESS]`.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)] // a measuring tool: a failure ends it

use serde_json::json;
use std::net::TcpStream;
use std::time::Instant;
use tungstenite::Message;

const NOTEBOOK: &str =
    "....94.3....51...7.89....4.......2.8.6.2.1.5.1.2.......7....52.9...65....4.97....";

fn main() {
    let address = std::env::args().nth(1).unwrap_or("127.0.0.1:4545".into());
    let stream = TcpStream::connect(&address).unwrap();
    stream.set_nodelay(true).unwrap();
    let (mut socket, _) = tungstenite::client(format!("ws://{address}/"), stream).unwrap();
    let rows: Vec<serde_json::Value> = NOTEBOOK
        .as_bytes()
        .chunks(9)
        .map(|row| {
            row.iter()
                .map(|&c| match c {
                    b'1'..=b'9' => json!({"value": c - b'0', "given": true}),
                    _ => json!({}),
                })
                .collect()
        })
        .collect();
    let notebook = json!({"size": 9, "grid": rows}).to_string();
    let killer = std::fs::read_to_string("examples/puzzles/killer.json").unwrap();
    for (command, puzzle, runs) in [("check", &notebook, 200), ("truecandidates", &killer, 20)] {
        let data = lz_str::compress_to_base64(puzzle);
        let mut times = Vec::new();
        for nonce in 0..runs {
            let request =
                json!({"nonce": nonce, "command": command, "dataType": "fpuzzles", "data": data});
            let start = Instant::now();
            socket.send(Message::text(request.to_string())).unwrap();
            let answer = socket.read().unwrap();
            times.push(start.elapsed().as_secs_f64() * 1000.0);
            assert!(
                answer
                    .to_text()
                    .unwrap()
                    .contains(&format!("\"nonce\":{nonce}"))
            );
        }
        times.sort_by(f64::total_cmp);
        println!(
            "{command}: median {:.2} ms, p90 {:.2} ms over {runs} requests",
            times[runs / 2],
            times[runs * 9 / 10]
        );
    }
}
