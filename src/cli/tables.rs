//! The tables z3doku draws: a search's statistics, a batch's summary, and a
//! bench's rows. One style for all: `tabled`'s rounded lines, numbers to the
//! right; the bench table is Markdown so that it pastes into a README.

use std::time::Duration;
use tabled::builder::Builder;
use tabled::settings::object::Columns;
use tabled::settings::{Alignment, Modify, Style};
use z3doku::batch::Summary;
use z3doku::bench::Row;
use z3doku::engine::EncodingKind;
use z3doku::solve::Status;

/// An engine's statistics as a two-column table.
pub fn statistics(rows: &[(String, String)]) -> String {
    let mut builder = Builder::new();
    builder.push_record(["statistic", "value"]);
    for (name, value) in rows {
        builder.push_record([name, value]);
    }
    let mut table = builder.build();
    table
        .with(Style::rounded())
        .with(Modify::new(Columns::new(1..)).with(Alignment::right()));
    format!("{table}\n")
}

/// A batch's summary as a table, for standard error.
pub fn summary(summary: &Summary) -> String {
    let mut builder = Builder::default();
    builder.push_record(["status", "puzzles"]);
    for status in Status::ALL {
        builder.push_record([status.name().to_string(), summary.count(status).to_string()]);
    }
    if summary.not_verified > 0 {
        builder.push_record(["not verified".to_string(), summary.not_verified.to_string()]);
    }
    let rows = [
        ("total", summary.total().to_string()),
        ("total time", human(summary.wall)),
        ("puzzles/s", format!("{:.1}", summary.rate())),
        ("median", human(summary.median())),
        ("p99", human(summary.p99())),
        ("solver time", human(summary.solve_time())),
    ];
    for (name, value) in rows {
        builder.push_record([name.to_string(), value]);
    }
    let mut table = builder.build();
    table
        .with(Style::rounded())
        .with(Modify::new(Columns::new(1..)).with(Alignment::right()));
    let note = if summary.interrupted {
        "stopped early: the summary covers the lines written\n"
    } else {
        ""
    };
    format!("{note}{table}\n")
}

/// The rows as a table: puzzles, solved (and unique), seconds, puzzles per
/// second, median and p99 milliseconds per puzzle, and how many times the
/// fastest row's time each row takes (1.00x for the fastest).
pub fn bench(rows: &[Row], unique: bool) -> String {
    let fastest = rows
        .iter()
        .filter(|row| row.solved > 0)
        .map(Row::rate)
        .fold(0.0, f64::max);
    let mut builder = Builder::new();
    let mut header = vec!["engine", "encoding", "puzzles", "solved"];
    if unique {
        header.push("unique");
    }
    header.extend([
        "gave up",
        "seconds",
        "puzzles/s",
        "median ms",
        "p99 ms",
        "time vs fastest",
    ]);
    builder.push_record(header);
    for row in rows {
        let ms = |d: Duration| format!("{:.3}", d.as_secs_f64() * 1e3);
        let mut record = vec![
            row.config.engine.name().to_string(),
            row.config
                .encoding
                .map_or("-", EncodingKind::name)
                .to_string(),
            row.timings.count().to_string(),
            row.solved.to_string(),
        ];
        if unique {
            record.push(row.unique.to_string());
        }
        // A row that measured nothing (every puzzle gave up, in no time)
        // has no ratio to show.
        let relative = match row.rate() {
            rate if rate > 0.0 && row.solved > 0 => match fastest / rate {
                s if s >= 100.0 => format!("{s:.0}x"),
                s if s >= 10.0 => format!("{s:.1}x"),
                s => format!("{s:.2}x"),
            },
            _ => "-".to_string(),
        };
        record.extend([
            row.gave_up.to_string(),
            format!("{:.3}", row.wall.as_secs_f64()),
            format!("{:.1}", row.rate()),
            ms(row.timings.median()),
            ms(row.timings.p99()),
            relative,
        ]);
        builder.push_record(record);
    }
    let mut table = builder.build();
    table
        .with(Style::markdown())
        .modify(Columns::new(2..), Alignment::right());
    format!("{table}\n")
}

/// A duration to three significant figures, in a unit that suits it.
fn human(d: Duration) -> String {
    let micros = d.as_secs_f64() * 1e6;
    match micros {
        m if m < 1e3 => format!("{m:.0} µs"),
        m if m < 1e6 => format!("{:.3} ms", m / 1e3),
        m if m < 60e6 => format!("{:.3} s", m / 1e6),
        m => {
            let secs = (m / 1e6).round() as u64;
            format!("{}m {:02}s", secs / 60, secs % 60)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_well() {
        assert_eq!(human(Duration::from_micros(17)), "17 µs");
        assert_eq!(human(Duration::from_micros(41_234)), "41.234 ms");
        assert_eq!(human(Duration::from_millis(12_345)), "12.345 s");
        assert_eq!(human(Duration::from_secs(725)), "12m 05s");
    }
}
