//! How long `z3doku listen` takes to answer, measured from a local client:
//! `check` on the notebook's classic puzzle, and `truecandidates` on the
//! killer example. Start the server first (`z3doku listen`), then
//! `cargo run --release --example listen_latency [ADDRESS [Z3DOKU]]`.
//!
//! Given the path of a `z3doku` binary, each `truecandidates` request is
//! followed by a run of `z3doku candidates examples/puzzles/killer.json
//! --engine native -o json`, timed as a whole process and by its own
//! `time_ms` (the search in-process): interleaved, so that a loaded
//! machine weighs on both alike.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)] // a measuring tool: a failure ends it

use serde_json::{Value, json};
use std::net::TcpStream;
use std::process::Command;
use std::time::Instant;
use tungstenite::Message;

const NOTEBOOK: &str =
    "....94.3....51...7.89....4.......2.8.6.2.1.5.1.2.......7....52.9...65....4.97....";

const KILLER: &str = "examples/puzzles/killer.json";

fn median_and_p90(times: &mut [f64]) -> (f64, f64) {
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], times[times.len() * 9 / 10])
}

fn main() {
    let address = std::env::args().nth(1).unwrap_or("127.0.0.1:4545".into());
    let compare = std::env::args().nth(2);
    let stream = TcpStream::connect(&address).unwrap();
    stream.set_nodelay(true).unwrap();
    let (mut socket, _) = tungstenite::client(format!("ws://{address}/"), stream).unwrap();
    let rows: Vec<Value> = NOTEBOOK
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
    let killer = std::fs::read_to_string(KILLER).unwrap();
    let (mut process, mut in_process) = (Vec::new(), Vec::new());
    // Each `truecandidates` answer's time less the in-process time of the
    // `candidates` run right after it: pairs feel the same load.
    let mut over = Vec::new();
    for (command, puzzle, runs) in [("check", &notebook, 200), ("truecandidates", &killer, 40)] {
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
            if let Some(z3doku) = compare.as_ref().filter(|_| command == "truecandidates") {
                let start = Instant::now();
                let out = Command::new(z3doku)
                    .args(["candidates", KILLER, "--engine", "native", "-o", "json"])
                    .output()
                    .unwrap();
                process.push(start.elapsed().as_secs_f64() * 1000.0);
                let report: Value = serde_json::from_slice(&out.stdout).unwrap();
                in_process.push(report["time_ms"].as_f64().unwrap());
                over.push(times[times.len() - 1] - in_process[in_process.len() - 1]);
            }
        }
        let (median, p90) = median_and_p90(&mut times);
        println!("{command}: median {median:.2} ms, p90 {p90:.2} ms over {runs} requests");
    }
    if !process.is_empty() {
        let runs = process.len();
        let (median, p90) = median_and_p90(&mut process);
        println!(
            "candidates, whole process: median {median:.2} ms, p90 {p90:.2} ms over {runs} runs"
        );
        let (median, p90) = median_and_p90(&mut in_process);
        println!(
            "candidates, its time_ms: median {median:.2} ms, p90 {p90:.2} ms over {runs} runs"
        );
        let (median, _) = median_and_p90(&mut over);
        println!("truecandidates less the next candidates' time_ms: median {median:+.2} ms");
    }
}
