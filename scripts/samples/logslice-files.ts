// Contents of the fictional "logslice" project (a small Rust CLI that cuts log files by time
// range) as the tools of the English sample show them. Written for Contextscope's samples.
import { seededRandom } from "./builder";

export const CWD = "/home/maya/code/logslice";

export const CARGO_TOML = `[package]
name = "logslice"
version = "0.3.1"
edition = "2021"
description = "Cut log files down to a time range, fast"
license = "MIT"
repository = "https://example.com/maya/logslice"

[dependencies]
clap = { version = "4.5", features = ["derive"] }
chrono = { version = "0.4", default-features = false, features = ["std", "clock"] }
memchr = "2.7"
anyhow = "1.0"

[dev-dependencies]
assert_cmd = "2.0"
predicates = "3.1"
tempfile = "3.10"

[profile.release]
lto = "thin"
codegen-units = 1
`;

export const LS_OUTPUT = `total 64
drwxr-xr-x  7 maya maya  4096 Mar 14 09:10 .
drwxr-xr-x 23 maya maya  4096 Mar  2 18:44 ..
drwxr-xr-x  8 maya maya  4096 Mar 14 09:11 .git
-rw-r--r--  1 maya maya    21 Feb 11 20:03 .gitignore
-rw-r--r--  1 maya maya 14870 Feb 27 22:16 Cargo.lock
-rw-r--r--  1 maya maya   463 Feb 27 22:16 Cargo.toml
-rw-r--r--  1 maya maya  1068 Feb 11 20:03 LICENSE
-rw-r--r--  1 maya maya  2716 Feb 27 22:16 README.md
drwxr-xr-x  2 maya maya  4096 Feb 27 22:16 benches
drwxr-xr-x  2 maya maya  4096 Feb 27 22:16 src
drwxr-xr-x  4 maya maya  4096 Feb 27 22:16 target
drwxr-xr-x  3 maya maya  4096 Feb 27 22:16 tests
`;

export const README = `# logslice

\`logslice\` prints the lines of a log file that fall inside a time range. It is meant for the
moment when an incident report says "between 10:02 and 10:09" and the log is four gigabytes.

\`\`\`
logslice --from 2024-03-01T10:02:00 --to 2024-03-01T10:09:00 app.log
logslice --last 15m /var/log/nginx/access.log
logslice --from 10:02 --to 10:09 --date 2024-03-01 app.log.1 app.log
\`\`\`

## How it finds the range

Every line is expected to start with a timestamp. \`logslice\` understands RFC 3339
(\`2024-03-01T10:02:07.114Z\`), the space-separated form (\`2024-03-01 10:02:07,114\`) and the
common log format used by nginx and Apache (\`[01/Mar/2024:10:02:07 +0000]\`). Lines that do not
start with a timestamp (stack traces, wrapped JSON) belong to the line above them and are printed
or skipped together with it.

Range bounds are inclusive at the start and exclusive at the end, so two consecutive slices never
print the same line twice.

## Options

| option | meaning |
|---|---|
| \`--from <time>\` | first instant to print (inclusive) |
| \`--to <time>\` | first instant not to print (exclusive) |
| \`--last <duration>\` | shorthand for \`--from now-duration\` |
| \`--date <day>\` | date to use when \`--from\`/\`--to\` give only a time of day |
| \`--utc\` | read timestamps without an offset as UTC instead of local time |
| \`--count\` | print the number of matching lines instead of the lines |

Durations accept \`s\`, \`m\`, \`h\` and \`d\` suffixes and can be combined: \`1h30m\`.

## Exit status

\`0\` when at least one line matched, \`1\` when none did, \`2\` on a usage error or an unreadable
file. This makes \`logslice ... && page-oncall\` style scripts straightforward.

## Building

\`cargo build --release\`. The binary has no runtime dependencies. The test suite runs with
\`cargo test\`; the benchmarks in \`benches/\` need a large log, which \`cargo run --example
mklog -- 200MB > /tmp/big.log\` generates.
`;

export const RANGE_RS = `//! Parsing of the time bounds given on the command line.

use anyhow::{bail, Context, Result};
use chrono::{DateTime, Duration, FixedOffset, Local, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Utc};

/// A half-open interval [start, end) of instants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeRange {
    pub start: Option<DateTime<FixedOffset>>,
    pub end: Option<DateTime<FixedOffset>>,
}

impl TimeRange {
    pub fn contains(&self, t: DateTime<FixedOffset>) -> bool {
        self.start.map_or(true, |s| t >= s) && self.end.map_or(true, |e| t < e)
    }
}

/// How to read a bound that carries no offset.
#[derive(Debug, Clone, Copy)]
pub enum Zone {
    Local,
    Utc,
}

const FULL_FORMATS: &[&str] = &[
    "%Y-%m-%dT%H:%M:%S%.f",
    "%Y-%m-%d %H:%M:%S%.f",
    "%Y-%m-%dT%H:%M:%S",
    "%Y-%m-%d %H:%M:%S",
];

const TIME_FORMATS: &[&str] = &["%H:%M:%S%.f", "%H:%M:%S", "%H:%M"];

/// Parses one bound: an RFC 3339 instant, a naive date-time, or a time of day on \`date\`.
pub fn parse_bound(text: &str, date: Option<NaiveDate>, zone: Zone) -> Result<DateTime<FixedOffset>> {
    let text = text.trim();
    if let Ok(t) = DateTime::parse_from_rfc3339(text) {
        return Ok(t);
    }
    for format in FULL_FORMATS {
        if let Ok(naive) = NaiveDateTime::parse_from_str(text, format) {
            return attach_zone(naive, zone);
        }
    }
    for format in TIME_FORMATS {
        if let Ok(time) = NaiveTime::parse_from_str(text, format) {
            let day = date.unwrap_or_else(|| Local::now().date_naive());
            return attach_zone(day.and_time(time), zone);
        }
    }
    bail!("cannot read {text:?} as a time; expected e.g. 2024-03-01T10:02:00 or 10:02")
}

fn attach_zone(naive: NaiveDateTime, zone: Zone) -> Result<DateTime<FixedOffset>> {
    match zone {
        Zone::Utc => Ok(Utc.from_utc_datetime(&naive).fixed_offset()),
        Zone::Local => Local
            .from_local_datetime(&naive)
            .earliest()
            .map(|t| t.fixed_offset())
            .context("that local time does not exist (daylight saving gap)"),
    }
}

/// Parses \`90s\`, \`15m\`, \`1h30m\`, \`2d\`.
pub fn parse_duration(text: &str) -> Result<Duration> {
    let mut total = Duration::zero();
    let mut number = String::new();
    for c in text.chars() {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        let n: i64 = number.parse().with_context(|| format!("missing number before {c:?} in {text:?}"))?;
        number.clear();
        total = total
            + match c {
                's' => Duration::seconds(n),
                'm' => Duration::minutes(n),
                'h' => Duration::hours(n),
                'd' => Duration::days(n),
                _ => bail!("unknown duration unit {c:?} in {text:?}"),
            };
    }
    if !number.is_empty() {
        bail!("duration {text:?} ends without a unit");
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn parses_rfc3339() {
        let t = parse_bound("2024-03-01T10:02:07Z", None, Zone::Local).unwrap();
        assert_eq!(t.to_rfc3339(), "2024-03-01T10:02:07+00:00");
    }

    #[test]
    fn parses_time_of_day_with_date() {
        let t = parse_bound("10:02", Some(d("2024-03-01")), Zone::Utc).unwrap();
        assert_eq!(t.to_rfc3339(), "2024-03-01T10:02:00+00:00");
    }

    #[test]
    fn parses_minute_precision() {
        let t = parse_bound("2024-03-01T10:00", None, Zone::Utc).unwrap();
        assert_eq!(t.to_rfc3339(), "2024-03-01T10:00:00+00:00");
    }

    #[test]
    fn durations_combine() {
        assert_eq!(parse_duration("1h30m").unwrap(), Duration::minutes(90));
        assert!(parse_duration("15").is_err());
        assert!(parse_duration("3w").is_err());
    }
}
`;

export const SCAN_RS = `//! Reading a log and printing the lines inside a range.

use std::io::{BufRead, BufReader, Read, Write};

use anyhow::Result;

use crate::range::TimeRange;
use crate::stamp::leading_timestamp;

pub struct Stats {
    pub printed: u64,
    pub scanned: u64,
}

/// Prints every record whose leading timestamp is inside \`range\`. A record is a line with a
/// timestamp plus the following lines without one (stack traces, wrapped JSON).
pub fn scan<R: Read, W: Write>(input: R, range: &TimeRange, out: &mut W, count_only: bool) -> Result<Stats> {
    let mut reader = BufReader::with_capacity(1 << 16, input);
    let mut line = Vec::with_capacity(512);
    let mut inside = false;
    let mut stats = Stats { printed: 0, scanned: 0 };
    loop {
        line.clear();
        if reader.read_until(b'\\n', &mut line)? == 0 {
            break;
        }
        stats.scanned += 1;
        if let Some(t) = leading_timestamp(&line) {
            if range.end.map_or(false, |e| t >= e) {
                // Logs are written in order: nothing after this can match.
                break;
            }
            inside = range.contains(t);
        }
        if inside {
            stats.printed += 1;
            if !count_only {
                out.write_all(&line)?;
            }
        }
    }
    Ok(stats)
}
`;

export const MAIN_RS = `mod cli;
mod range;
mod scan;
mod stamp;

use std::fs::File;
use std::io::{self, BufWriter};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Parser;

fn run() -> Result<bool> {
    let args = cli::Args::parse();
    let range = args.range()?;
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut matched = 0;
    for path in &args.files {
        let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        let stats = scan::scan(file, &range, &mut out, args.count)?;
        if args.count {
            println!("{}\\t{}", stats.printed, path.display());
        }
        matched += stats.printed;
    }
    Ok(matched > 0)
}

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(error) => {
            eprintln!("logslice: {error:#}");
            ExitCode::from(2)
        }
    }
}
`;

export const CLI_RS = `use std::path::PathBuf;

use anyhow::{bail, Result};
use chrono::{Local, NaiveDate};
use clap::Parser;

use crate::range::{parse_bound, parse_duration, TimeRange, Zone};

/// Cut log files down to a time range.
#[derive(Parser, Debug)]
#[command(version, about)]
pub struct Args {
    /// First instant to print (inclusive).
    #[arg(long)]
    pub from: Option<String>,
    /// First instant not to print (exclusive).
    #[arg(long)]
    pub to: Option<String>,
    /// Print the last DURATION (e.g. 15m, 1h30m).
    #[arg(long, conflicts_with_all = ["from", "to"])]
    pub last: Option<String>,
    /// Day for bounds that give only a time of day.
    #[arg(long)]
    pub date: Option<NaiveDate>,
    /// Read timestamps without an offset as UTC.
    #[arg(long)]
    pub utc: bool,
    /// Print the number of matching lines per file instead of the lines.
    #[arg(long)]
    pub count: bool,
    /// Log files, in chronological order.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

impl Args {
    pub fn range(&self) -> Result<TimeRange> {
        let zone = if self.utc { Zone::Utc } else { Zone::Local };
        if let Some(last) = &self.last {
            let now = Local::now().fixed_offset();
            return Ok(TimeRange { start: Some(now - parse_duration(last)?), end: None });
        }
        let start = self.from.as_deref().map(|s| parse_bound(s, self.date, zone)).transpose()?;
        let end = self.to.as_deref().map(|s| parse_bound(s, self.date, zone)).transpose()?;
        if let (Some(s), Some(e)) = (start, end) {
            if e <= s {
                bail!("--to ({e}) must be after --from ({s})");
            }
        }
        Ok(TimeRange { start, end })
    }
}
`;

/** Deterministic application log lines, as in tests/fixtures/app.log. */
export function appLogLines(count: number, seed: number, startIso = "2024-03-01T10:00:00.000Z"): string[] {
  const random = seededRandom(seed);
  const paths = ["/api/orders", "/api/orders/{id}", "/api/customers/{id}", "/api/cart", "/health", "/api/search", "/api/invoices/{id}/pdf"];
  const methods = ["GET", "GET", "GET", "POST", "PUT", "DELETE"];
  let t = Date.parse(startIso);
  const lines: string[] = [];
  while (lines.length < count) {
    t += Math.floor(random() * 2400);
    const stamp = new Date(t).toISOString();
    const roll = random();
    const id = 1000 + Math.floor(random() * 9000);
    const path = paths[Math.floor(random() * paths.length)]!.replace("{id}", String(id));
    const method = methods[Math.floor(random() * methods.length)]!;
    if (roll < 0.07) {
      lines.push(`${stamp} WARN  pool{name=pg} connection wait exceeded threshold wait_ms=${200 + Math.floor(random() * 900)} in_use=20 max=20`);
    } else if (roll < 0.1) {
      lines.push(`${stamp} ERROR http{method=${method} path=${path} status=500 latency_ms=${900 + Math.floor(random() * 4000)}} handler failed: timed out waiting for connection from pool`);
      lines.push(`    at orders::repo::fetch (src/repo.rs:88)`);
      lines.push(`    at orders::handlers::show (src/handlers.rs:41)`);
    } else if (roll < 0.16) {
      lines.push(`${stamp} DEBUG cache{key=cart:${id}} ${random() < 0.5 ? "hit" : "miss"} ttl_s=${Math.floor(random() * 600)}`);
    } else {
      const status = random() < 0.9 ? 200 : random() < 0.5 ? 404 : 201;
      lines.push(`${stamp} INFO  http{method=${method} path=${path} status=${status} latency_ms=${4 + Math.floor(random() * 180)}} request completed`);
    }
  }
  return lines.slice(0, count);
}

export function cargoTestOutput(failing: string | null, extraTests: string[] = []): string {
  const unit = [
    "cli::tests::last_conflicts_with_from",
    "cli::tests::to_must_follow_from",
    "range::tests::durations_combine",
    "range::tests::parses_minute_precision",
    "range::tests::parses_rfc3339",
    "range::tests::parses_time_of_day_with_date",
    "stamp::tests::common_log_format",
    "stamp::tests::comma_milliseconds",
    "stamp::tests::continuation_lines_have_no_stamp",
    "stamp::tests::rfc3339_with_offset",
    ...extraTests,
  ].sort();
  const lines = [
    "   Compiling logslice v0.3.1 (/home/maya/code/logslice)",
    `    Finished \`test\` profile [unoptimized + debuginfo] target(s) in ${failing ? "3.41" : "2.87"}s`,
    "     Running unittests src/main.rs (target/debug/deps/logslice-5f0c2a9e41d7b3c8)",
    "",
    `running ${unit.length} tests`,
    ...unit.map((t) => `test ${t} ... ${t.endsWith(failing ?? "\u0000") ? "FAILED" : "ok"}`),
    "",
  ];
  if (failing) {
    lines.push(
      "failures:",
      "",
      `---- range::tests::${failing} stdout ----`,
      "",
      "thread 'range::tests::parses_minute_precision' panicked at src/range.rs:121:60:",
      'called `Result::unwrap()` on an `Err` value: cannot read "2024-03-01T10:00" as a time; expected e.g. 2024-03-01T10:02:00 or 10:02',
      "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
      "",
      "",
      "failures:",
      `    range::tests::${failing}`,
      "",
      `test result: FAILED. ${unit.length - 1} passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s`,
      "",
      "error: test failed, to rerun pass `--bin logslice`",
    );
  } else {
    lines.push(
      `test result: ok. ${unit.length} passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s`,
      "",
      "     Running tests/cli.rs (target/debug/deps/cli-9a3e71c0d25b4f16)",
      "",
      "running 6 tests",
      "test count_prints_per_file_totals ... ok",
      "test exit_status_is_one_without_matches ... ok",
      "test continuation_lines_follow_their_record ... ok",
      "test slices_nginx_access_log ... ok",
      "test to_is_exclusive ... ok",
      "test two_files_in_order ... ok",
      "",
      "test result: ok. 6 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.09s",
      "",
      "   Doc-tests logslice",
      "",
      "running 0 tests",
      "",
      "test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s",
    );
  }
  return lines.join("\n") + "\n";
}

export const STAMP_RS = `//! Recognising the timestamp at the start of a log line.

use chrono::{DateTime, FixedOffset, NaiveDateTime, TimeZone, Utc};

/// The timestamp a line starts with, or None for continuation lines (stack traces, wrapped
/// JSON) and lines in a format we do not know. Never allocates: this runs once per line.
pub fn leading_timestamp(line: &[u8]) -> Option<DateTime<FixedOffset>> {
    let first = *line.first()?;
    if first == b'[' {
        return common_log(line);
    }
    if !first.is_ascii_digit() || line.len() < 19 {
        return None;
    }
    let head = std::str::from_utf8(&line[..line.len().min(35)]).ok()?;
    let end = head.find(|c: char| c == ' ' && head.as_bytes().get(10) != Some(&b' ')).unwrap_or(head.len());
    let candidate = &head[..end];
    if let Ok(t) = DateTime::parse_from_rfc3339(candidate) {
        return Some(t);
    }
    // "2024-03-01 10:02:07,114" (log4j, Python logging): date, space, time, comma millis.
    let spaced = head.get(..23)?.replacen(',', ".", 1);
    NaiveDateTime::parse_from_str(&spaced, "%Y-%m-%d %H:%M:%S%.3f")
        .ok()
        .map(|naive| Utc.from_utc_datetime(&naive).fixed_offset())
}

/// nginx / Apache: \`203.0.113.9 - - [01/Mar/2024:10:02:07 +0000] "GET / HTTP/1.1" ...\`
/// The bracket is usually not the first byte, so callers strip the client address first.
fn common_log(line: &[u8]) -> Option<DateTime<FixedOffset>> {
    let close = memchr::memchr(b']', line)?;
    let inner = std::str::from_utf8(&line[1..close]).ok()?;
    DateTime::parse_from_str(inner, "%d/%b/%Y:%H:%M:%S %z").ok()
}

/// Skips the client address and identity fields of a common-log line so that it starts at "[".
pub fn strip_clf_prefix(line: &[u8]) -> &[u8] {
    match memchr::memchr(b'[', line) {
        Some(i) if i < 64 => &line[i..],
        _ => line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_with_offset() {
        let t = leading_timestamp(b"2024-03-01T10:02:07.114+01:00 INFO started").unwrap();
        assert_eq!(t.to_rfc3339(), "2024-03-01T10:02:07.114+01:00");
    }

    #[test]
    fn comma_milliseconds() {
        let t = leading_timestamp(b"2024-03-01 10:02:07,114 WARN slow").unwrap();
        assert_eq!(t.timestamp_subsec_millis(), 114);
    }

    #[test]
    fn common_log_format() {
        let line = b"203.0.113.9 - - [01/Mar/2024:10:02:07 +0000] \\"GET / HTTP/1.1\\" 200 512";
        assert!(leading_timestamp(strip_clf_prefix(line)).is_some());
    }

    #[test]
    fn continuation_lines_have_no_stamp() {
        assert!(leading_timestamp(b"    at orders::repo::fetch (src/repo.rs:88)").is_none());
        assert!(leading_timestamp(b"").is_none());
    }
}
`;

export const CLI_TESTS_RS = `use assert_cmd::Command;
use predicates::prelude::*;
use std::io::Write;
use tempfile::NamedTempFile;

fn log(lines: &[&str]) -> NamedTempFile {
    let mut file = NamedTempFile::new().unwrap();
    for line in lines {
        writeln!(file, "{line}").unwrap();
    }
    file
}

fn logslice() -> Command {
    Command::cargo_bin("logslice").unwrap()
}

#[test]
fn to_is_exclusive() {
    let file = log(&[
        "2024-03-01T10:00:00Z a",
        "2024-03-01T10:01:00Z b",
        "2024-03-01T10:02:00Z c",
    ]);
    logslice()
        .args(["--from", "2024-03-01T10:01:00Z", "--to", "2024-03-01T10:02:00Z"])
        .arg(file.path())
        .assert()
        .success()
        .stdout("2024-03-01T10:01:00Z b\\n");
}

#[test]
fn continuation_lines_follow_their_record() {
    let file = log(&[
        "2024-03-01T10:00:00Z ERROR boom",
        "    at a (a.rs:1)",
        "    at b (b.rs:2)",
        "2024-03-01T10:05:00Z INFO fine",
    ]);
    logslice()
        .args(["--to", "2024-03-01T10:01:00Z"])
        .arg(file.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("at b (b.rs:2)"))
        .stdout(predicate::str::contains("fine").not());
}

#[test]
fn exit_status_is_one_without_matches() {
    let file = log(&["2024-03-01T10:00:00Z a"]);
    logslice().args(["--from", "2025-01-01T00:00:00Z"]).arg(file.path()).assert().code(1);
}

#[test]
fn count_prints_per_file_totals() {
    let file = log(&["2024-03-01T10:00:00Z a", "2024-03-01T10:00:01Z b"]);
    logslice()
        .args(["--count", "--from", "2024-03-01T10:00:00Z"])
        .arg(file.path())
        .assert()
        .success()
        .stdout(predicate::str::starts_with("2\\t"));
}

#[test]
fn two_files_in_order() {
    let first = log(&["2024-03-01T09:59:00Z old", "2024-03-01T10:00:30Z x"]);
    let second = log(&["2024-03-01T10:00:40Z y", "2024-03-01T10:03:00Z late"]);
    logslice()
        .args(["--from", "2024-03-01T10:00:00Z", "--to", "2024-03-01T10:01:00Z"])
        .arg(first.path())
        .arg(second.path())
        .assert()
        .success()
        .stdout("2024-03-01T10:00:30Z x\\n2024-03-01T10:00:40Z y\\n");
}

#[test]
fn slices_nginx_access_log() {
    let file = log(&[
        r#"203.0.113.9 - - [01/Mar/2024:10:00:07 +0000] "GET / HTTP/1.1" 200 512 "-" "curl/8.5.0""#,
        r#"203.0.113.9 - - [01/Mar/2024:10:04:07 +0000] "GET /a HTTP/1.1" 404 0 "-" "curl/8.5.0""#,
    ]);
    logslice()
        .args(["--from", "2024-03-01T10:03:00Z"])
        .arg(file.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("GET /a"));
}
`;

/** Deterministic nginx access log lines (combined format). */
export function accessLogLines(count: number, seed: number): string[] {
  const random = seededRandom(seed);
  const clients = ["203.0.113.9", "198.51.100.23", "192.0.2.140", "203.0.113.77", "198.51.100.4"];
  const agents = [
    "Mozilla/5.0 (X11; Linux x86_64; rv:124.0) Gecko/20100101 Firefox/124.0",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_3) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.3 Safari/605.1.15",
    "curl/8.5.0",
    "kube-probe/1.29",
  ];
  const targets = ["/", "/static/app.3f9c1e.js", "/static/app.71b2d0.css", "/api/orders?page=2", "/api/cart", "/healthz", "/favicon.ico", "/api/search?q=lamp"];
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  let t = Date.parse("2024-03-01T10:00:00Z");
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    t += Math.floor(random() * 3000);
    const d = new Date(t);
    const stamp = `${String(d.getUTCDate()).padStart(2, "0")}/${months[d.getUTCMonth()]}/${d.getUTCFullYear()}:${d.toISOString().slice(11, 19)} +0000`;
    const target = targets[Math.floor(random() * targets.length)]!;
    const status = target === "/favicon.ico" ? 404 : random() < 0.94 ? 200 : 502;
    const bytes = status === 200 ? 200 + Math.floor(random() * 48000) : 166;
    const agent = target === "/healthz" ? agents[3]! : agents[Math.floor(random() * 3)]!;
    const client = clients[Math.floor(random() * clients.length)]!;
    lines.push(`${client} - - [${stamp}] "GET ${target} HTTP/1.1" ${status} ${bytes} "-" "${agent}" rt=${(random() * 0.4).toFixed(3)}`);
  }
  return lines;
}

export const CARGO_TREE = `logslice v0.3.1 (/home/maya/code/logslice)
├── anyhow v1.0.81
├── chrono v0.4.35
│   ├── iana-time-zone v0.1.60
│   └── num-traits v0.2.18
│       [build-dependencies]
│       └── autocfg v1.1.0
├── clap v4.5.4
│   ├── clap_builder v4.5.2
│   │   ├── anstream v0.6.13
│   │   │   ├── anstyle v1.0.6
│   │   │   ├── anstyle-parse v0.2.3
│   │   │   │   └── utf8parse v0.2.1
│   │   │   ├── anstyle-query v1.0.2
│   │   │   ├── colorchoice v1.0.0
│   │   │   └── utf8parse v0.2.1
│   │   ├── anstyle v1.0.6
│   │   ├── clap_lex v0.7.0
│   │   └── strsim v0.11.1
│   └── clap_derive v4.5.4 (proc-macro)
│       ├── heck v0.5.0
│       ├── proc-macro2 v1.0.79
│       │   └── unicode-ident v1.0.12
│       ├── quote v1.0.35
│       │   └── proc-macro2 v1.0.79 (*)
│       └── syn v2.0.55
│           ├── proc-macro2 v1.0.79 (*)
│           ├── quote v1.0.35 (*)
│           └── unicode-ident v1.0.12
└── memchr v2.7.2
[dev-dependencies]
├── assert_cmd v2.0.14
│   ├── anstyle v1.0.6
│   ├── bstr v1.9.1
│   │   ├── memchr v2.7.2
│   │   └── regex-automata v0.4.6
│   ├── doc-comment v0.3.3
│   ├── predicates v3.1.0
│   │   ├── anstyle v1.0.6
│   │   ├── difflib v0.4.0
│   │   └── predicates-core v1.0.6
│   ├── predicates-core v1.0.6
│   ├── predicates-tree v1.0.9
│   │   ├── predicates-core v1.0.6
│   │   └── termtree v0.4.1
│   └── wait-timeout v0.2.0
│       └── libc v0.2.153
├── predicates v3.1.0 (*)
└── tempfile v3.10.1
    ├── cfg-if v1.0.0
    ├── fastrand v2.0.2
    └── rustix v0.38.32
        ├── bitflags v2.5.0
        ├── linux-raw-sys v0.4.13
        └── libc v0.2.153
`;
