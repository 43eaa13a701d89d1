// Sample 1: an English session on the fictional "logslice" Rust CLI with an Anthropic model:
// tool calls, a user bash command, an abandoned branch and one manual compaction.
import { SessionBuilder } from "./builder";
import {
  appLogLines,
  accessLogLines,
  CARGO_TOML,
  CARGO_TREE,
  CLI_RS,
  CLI_TESTS_RS,
  STAMP_RS,
  CWD,
  LS_OUTPUT,
  MAIN_RS,
  README,
  RANGE_RS,
  SCAN_RS,
  cargoTestOutput,
} from "./logslice-files";

const P = (file: string) => `${CWD}/${file}`;

const RANGE_FIX_OLD = `const FULL_FORMATS: &[&str] = &[
    "%Y-%m-%dT%H:%M:%S%.f",
    "%Y-%m-%d %H:%M:%S%.f",
    "%Y-%m-%dT%H:%M:%S",
    "%Y-%m-%d %H:%M:%S",
];`;
const RANGE_FIX_NEW = `const FULL_FORMATS: &[&str] = &[
    "%Y-%m-%dT%H:%M:%S%.f",
    "%Y-%m-%d %H:%M:%S%.f",
    "%Y-%m-%dT%H:%M:%S",
    "%Y-%m-%d %H:%M:%S",
    // Minute precision: what people type when they copy a time from an incident report.
    "%Y-%m-%dT%H:%M",
    "%Y-%m-%d %H:%M",
];`;

const SEEK_RS = `/// Finds the byte offset of the first record at or after \`start\` by bisecting the file on
/// line boundaries. Falls back to offset 0 when the file is too small to be worth it.
pub fn seek_start<F: Read + Seek>(file: &mut F, len: u64, start: DateTime<FixedOffset>) -> Result<u64> {
    const MIN_BISECT_LEN: u64 = 1 << 20;
    if len < MIN_BISECT_LEN {
        return Ok(0);
    }
    let (mut lo, mut hi) = (0u64, len);
    let mut buf = vec![0u8; 8192];
    while hi - lo > 8192 {
        let mid = lo + (hi - lo) / 2;
        match stamp_at_or_after(file, mid, &mut buf)? {
            Some((offset, t)) if t < start => lo = offset + 1,
            Some(_) | None => hi = mid,
        }
    }
    Ok(lo)
}

/// The first timestamped line that starts at or after \`offset\`: its offset and time.
fn stamp_at_or_after<F: Read + Seek>(file: &mut F, offset: u64, buf: &mut [u8]) -> Result<Option<(u64, DateTime<FixedOffset>)>> {
    file.seek(SeekFrom::Start(offset))?;
    let n = file.read(buf)?;
    let mut pos = if offset == 0 { 0 } else {
        match memchr::memchr(b'\\n', &buf[..n]) {
            Some(i) => i + 1,
            None => return Ok(None),
        }
    };
    while pos < n {
        let end = memchr::memchr(b'\\n', &buf[pos..n]).map_or(n, |i| pos + i);
        if let Some(t) = leading_timestamp(&buf[pos..end]) {
            return Ok(Some((offset + pos as u64, t)));
        }
        pos = end + 1;
    }
    Ok(None)
}`;

export function buildEnglishSample(): string {
  const b = new SessionBuilder({
    seed: 0x10651ce,
    start: "2026-03-14T09:12:05.118Z",
    cwd: CWD,
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    api: "anthropic-messages",
    thinkingLevel: "off",
    pricing: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    promptOverheadTokens: 2630,
  });
  const log = appLogLines(900, 7);
  const access = accessLogLines(220, 11);

  // 1. Orientation.
  b.user("I'm picking this project back up after a few weeks away. Look around and tell me how the time-range parsing works and where it lives.");
  b.tools(null, [{ name: "bash", args: { command: `ls -la ${CWD} && cat Cargo.toml && cargo tree` }, result: LS_OUTPUT + CARGO_TOML + CARGO_TREE }]);
  b.tools(null, [
    { name: "read", args: { path: P("README.md") }, result: README },
    { name: "read", args: { path: P("src/range.rs") }, result: RANGE_RS },
    { name: "read", args: { path: P("src/stamp.rs") }, result: STAMP_RS },
  ]);
  b.reply(
    "Time-range parsing lives in `src/range.rs`:\n\n" +
      "- `TimeRange` is a half-open interval `[start, end)`; either bound may be missing.\n" +
      "- `parse_bound()` tries RFC 3339 first, then four naive date-time formats (`FULL_FORMATS`), then time-of-day formats (`TIME_FORMATS`) combined with `--date` or today's date.\n" +
      "- `attach_zone()` reads naive times as local time unless `--utc` is set; a local time that falls into a DST gap is an error.\n" +
      "- `parse_duration()` handles `--last` values like `1h30m`.\n\n" +
      "`src/stamp.rs` recognises the timestamp at the start of each line (RFC 3339, `2024-03-01 10:02:07,114`, and nginx/Apache common log format after `strip_clf_prefix`). `src/cli.rs` turns the clap arguments into a `TimeRange`, and `src/scan.rs` streams the file. One thing stands out: there is a test `parses_minute_precision` for `2024-03-01T10:00`, but none of the formats in `FULL_FORMATS` accepts a date-time without seconds, so I expect that test to fail.",
  );

  // 2. Tests.
  b.user("Run the test suite and tell me what's failing.");
  b.tools(null, [{ name: "bash", args: { command: "cargo test 2>&1 | tail -n 45" }, result: cargoTestOutput("parses_minute_precision") }]);
  b.reply(
    "One failure, the one I suspected: `range::tests::parses_minute_precision`. `parse_bound(\"2024-03-01T10:00\", …)` returns the \"cannot read … as a time\" error because every entry in `FULL_FORMATS` requires seconds. The other 9 unit tests pass; the integration tests in `tests/cli.rs` did not run because the unit test binary failed first.",
  );

  // 3. Fix.
  b.user("Fix it so date-times without seconds are accepted, like 2024-03-01T10:00, in both the T and the space form.");
  b.tools("Adding the two minute-precision formats after the existing ones, so inputs with seconds keep matching first.", [
    { name: "edit", args: { path: P("src/range.rs"), oldText: RANGE_FIX_OLD, newText: RANGE_FIX_NEW }, result: `Successfully replaced text in ${P("src/range.rs")}.` },
  ]);
  b.tools(null, [{ name: "bash", args: { command: "cargo test 2>&1 | tail -n 30" }, result: cargoTestOutput(null) }]);
  b.reply("Fixed. `FULL_FORMATS` now also accepts `%Y-%m-%dT%H:%M` and `%Y-%m-%d %H:%M`. All 10 unit tests and the 6 integration tests pass.");


  // 3b. Lints.
  b.user("While we're here, run clippy and fix whatever is cheap to fix.");
  b.tools(null, [
    {
      name: "bash",
      args: { command: "cargo clippy --all-targets 2>&1 | tail -n 60" },
      result:
        "    Checking logslice v0.3.1 (/home/maya/code/logslice)\n" +
        "warning: this `map_or` can be simplified\n" +
        "  --> src/range.rs:14:9\n" +
        "   |\n" +
        "14 |         self.start.map_or(true, |s| t >= s) && self.end.map_or(true, |e| t < e)\n" +
        "   |         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n" +
        "   |\n" +
        "   = help: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#unnecessary_map_or\n" +
        "   = note: `#[warn(clippy::unnecessary_map_or)]` on by default\n" +
        "help: use is_none_or instead\n" +
        "   |\n" +
        "14 -         self.start.map_or(true, |s| t >= s) && self.end.map_or(true, |e| t < e)\n" +
        "14 +         self.start.is_none_or(|s| t >= s) && self.end.map_or(true, |e| t < e)\n" +
        "   |\n" +
        "\n" +
        "warning: this `map_or` can be simplified\n" +
        "  --> src/range.rs:14:48\n" +
        "   |\n" +
        "14 |         self.start.map_or(true, |s| t >= s) && self.end.map_or(true, |e| t < e)\n" +
        "   |                                                ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n" +
        "   |\n" +
        "   = help: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#unnecessary_map_or\n" +
        "\n" +
        "warning: this `map_or` can be simplified\n" +
        "  --> src/scan.rs:52:16\n" +
        "   |\n" +
        "52 |             if range.end.map_or(false, |e| t >= e) {\n" +
        "   |                ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ help: use is_some_and instead: `range.end.is_some_and(|e| t >= e)`\n" +
        "   |\n" +
        "   = help: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#unnecessary_map_or\n" +
        "\n" +
        "warning: the borrowed expression implements the required traits\n" +
        "  --> src/main.rs:17:38\n" +
        "   |\n" +
        "17 |         let stats = scan::scan(file, &range, &mut out, args.count)?;\n" +
        "   |                                      ^^^^^^ help: change this to: `range`\n" +
        "   |\n" +
        "   = help: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#needless_borrows_for_generic_args\n" +
        "\n" +
        "warning: `logslice` (bin \"logslice\") generated 4 warnings (run `cargo clippy --fix --bin \"logslice\"` to apply 4 suggestions)\n" +
        "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 1.12s\n",
    },
  ]);
  b.tools("The three `map_or` warnings are mechanical; the borrow warning is a false friend (`scan` takes `&TimeRange`), so I'll leave that one.", [
    {
      name: "edit",
      args: {
        path: P("src/range.rs"),
        oldText: "        self.start.map_or(true, |s| t >= s) && self.end.map_or(true, |e| t < e)",
        newText: "        self.start.is_none_or(|s| t >= s) && self.end.is_none_or(|e| t < e)",
      },
      result: `Successfully replaced text in ${P("src/range.rs")}.`,
    },
    {
      name: "edit",
      args: { path: P("src/scan.rs"), oldText: "            if range.end.map_or(false, |e| t >= e) {", newText: "            if range.end.is_some_and(|e| t >= e) {" },
      result: `Successfully replaced text in ${P("src/scan.rs")}.`,
    },
  ]);
  b.tools(null, [{ name: "bash", args: { command: "cargo clippy --all-targets 2>&1 | tail -n 3" }, result: "    Checking logslice v0.3.1 (/home/maya/code/logslice)\nwarning: `logslice` (bin \"logslice\") generated 1 warning\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.94s\n" }]);
  b.reply("Fixed the three `unnecessary_map_or` warnings (`is_none_or` in `TimeRange::contains`, `is_some_and` in `scan`). The remaining `needless_borrows_for_generic_args` warning is wrong for this call: `scan::scan` takes `&TimeRange`, so I left it. Note that `Option::is_none_or` needs Rust 1.82 or newer.");

  b.bash("git diff --stat", " src/range.rs | 5 ++++-\n src/scan.rs  | 2 +-\n 2 files changed, 6 insertions(+), 2 deletions(-)\n");

  // 4. Scanning.
  b.user("Now look at how scanning works on big files. Is it reading the whole file from the start every time? Show me what the test log looks like too.");
  b.tools(null, [
    { name: "read", args: { path: P("src/scan.rs") }, result: SCAN_RS },
    { name: "read", args: { path: P("src/main.rs") }, result: MAIN_RS },
  ]);
  b.tools(null, [{ name: "bash", args: { command: "wc -l tests/fixtures/app.log && head -n 320 tests/fixtures/app.log" }, result: `  42180 tests/fixtures/app.log\n${log.slice(0, 320).join("\n")}\n` }]);
  b.reply(
    "Yes. `scan()` reads from byte 0 with a 64 KiB `BufReader` and checks the leading timestamp of every line until it passes `--to`. It stops early at the end of the range, but it always pays for everything before the start: slicing the last ten minutes of a 4 GB log reads almost 4 GB.\n\n" +
      "The test log is a typical structured log: one record per line, `INFO`/`DEBUG`/`WARN`/`ERROR`, RFC 3339 timestamps with milliseconds, and stack-trace continuation lines (`    at orders::repo::fetch …`) that carry no timestamp. Because lines are in time order, the start offset can be found by bisection instead of a scan, as long as we resynchronise on line boundaries and skip continuation lines.",
  );

  // 4b. The other fixture.
  b.user("Does the stamp parser cope with the nginx fixture as well? Show me a chunk of it and the integration tests that cover it.");
  b.tools(null, [
    { name: "bash", args: { command: "head -n 220 tests/fixtures/access.log" }, result: access.join("\n") + "\n" },
    { name: "read", args: { path: P("tests/cli.rs") }, result: CLI_TESTS_RS },
  ]);
  b.reply(
    "It does. `access.log` is nginx's combined format with an extra `rt=` field; every line starts with the client address, so `strip_clf_prefix()` moves to the `[` before `leading_timestamp()` parses `01/Mar/2024:10:00:02 +0000`. `tests/cli.rs` covers it with `slices_nginx_access_log`, plus exclusivity of `--to`, continuation lines, exit status 1, `--count` and two files in order. There is no test for a range that starts inside a run of continuation lines; the seek work should add one.",
  );

  // 5. Seek.
  b.user("Do that: binary search for the start offset when the file is seekable, keep the old linear scan behind a --no-seek flag.");
  b.tools(null, [{ name: "read", args: { path: P("src/cli.rs") }, result: CLI_RS }]);
  b.tools("Adding `seek_start()` to scan.rs and the flag to cli.rs.", [
    {
      name: "edit",
      args: { path: P("src/scan.rs"), oldText: "pub struct Stats {", newText: `${SEEK_RS}\n\npub struct Stats {` },
      result: `Successfully replaced text in ${P("src/scan.rs")}.`,
    },
    {
      name: "edit",
      args: {
        path: P("src/cli.rs"),
        oldText: "    /// Log files, in chronological order.",
        newText: "    /// Read every file from the start instead of bisecting for --from.\n    #[arg(long)]\n    pub no_seek: bool,\n    /// Log files, in chronological order.",
      },
      result: `Successfully replaced text in ${P("src/cli.rs")}.`,
    },
  ]);
  b.tools(null, [
    {
      name: "bash",
      args: { command: "cargo build 2>&1 | tail -n 25" },
      result:
        "   Compiling logslice v0.3.1 (/home/maya/code/logslice)\n" +
        "error[E0432]: unresolved imports `std::io::Seek`, `std::io::SeekFrom`\n" +
        "  --> src/scan.rs:3:15\n" +
        "   |\n" +
        "3  | use std::io::{BufRead, BufReader, Read, Write};\n" +
        "   |               ^^^^^^^ help: a similar name exists in the module: `BufRead`\n" +
        "\n" +
        "error[E0412]: cannot find type `DateTime` in this scope\n" +
        "  --> src/scan.rs:14:75\n" +
        "   |\n" +
        "14 | pub fn seek_start<F: Read + Seek>(file: &mut F, len: u64, start: DateTime<FixedOffset>) -> Result<u64> {\n" +
        "   |                                                                   ^^^^^^^^ not found in this scope\n" +
        "   |\n" +
        "help: consider importing this struct\n" +
        "   |\n" +
        "3  + use chrono::DateTime;\n" +
        "   |\n" +
        "\n" +
        "Some errors have detailed explanations: E0412, E0432.\n" +
        "For more information about an error, try `rustc --explain E0412`.\n" +
        "error: could not compile `logslice` (bin \"logslice\") due to 3 previous errors\n",
    },
  ]);
  b.tools("Missing imports; fixing the `use` lines.", [
    {
      name: "edit",
      args: {
        path: P("src/scan.rs"),
        oldText: "use std::io::{BufRead, BufReader, Read, Write};\n\nuse anyhow::Result;",
        newText: "use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};\n\nuse anyhow::Result;\nuse chrono::{DateTime, FixedOffset};",
      },
      result: `Successfully replaced text in ${P("src/scan.rs")}.`,
    },
  ]);
  b.tools(null, [{ name: "bash", args: { command: "cargo test 2>&1 | tail -n 30" }, result: cargoTestOutput(null, ["scan::tests::seek_lands_on_record_start", "scan::tests::seek_skips_continuation_lines"]) }]);
  b.reply(
    "Done:\n\n- `scan::seek_start()` bisects the file on line boundaries (8 KiB probes, `memchr` to find newlines) and returns the offset of the first record at or after `--from`. Continuation lines are skipped while probing, so a probe inside a stack trace moves forward to the next timestamped line.\n- Files under 1 MiB are scanned from the start; bisection is not worth it there.\n- `--no-seek` keeps the old behaviour.\n\nThe build failed once on missing imports (`Seek`, `SeekFrom`, `DateTime`, `FixedOffset`); with those added, all 12 unit tests (two new ones for the seek) and the 6 integration tests pass. I have not wired `seek_start()` into `main.rs` yet: it needs the file length, so `main` has to call `metadata()` first.",
  );
  const beforeBranch = b.leafId!;

  // 6a. A direction the user abandons (stays in the file as a side branch).
  b.user("Before wiring it in, add a --format json option that prints each record as a JSON object.");
  b.tools(null, [{ name: "bash", args: { command: "grep -rn \"count_only\" src/" }, result: "src/scan.rs:43:pub fn scan<R: Read, W: Write>(input: R, range: &TimeRange, out: &mut W, count_only: bool) -> Result<Stats> {\nsrc/scan.rs:61:            if !count_only {\nsrc/main.rs:19:        let stats = scan::scan(file, &range, &mut out, args.count)?;\n" }]);
  b.reply("`scan()` currently takes a `count_only` flag and writes raw bytes. For `--format json` I would replace that flag with an output mode enum (`Lines`, `Count`, `Json`) and add a small record encoder. Shall I go ahead?");

  // 6b. Back to before that prompt: wire the seek in first.
  b.checkout(beforeBranch);
  b.user("Actually, let's not add features yet. Wire seek_start into main.rs and show me a timing on the big log before and after.");
  b.tools(null, [
    {
      name: "edit",
      args: {
        path: P("src/main.rs"),
        oldText: "        let file = File::open(path).with_context(|| format!(\"cannot open {}\", path.display()))?;\n        let stats = scan::scan(file, &range, &mut out, args.count)?;",
        newText:
          "        let mut file = File::open(path).with_context(|| format!(\"cannot open {}\", path.display()))?;\n" +
          "        if let (Some(start), false) = (range.start, args.no_seek) {\n" +
          "            let len = file.metadata()?.len();\n" +
          "            let offset = scan::seek_start(&mut file, len, start)?;\n" +
          "            file.seek(SeekFrom::Start(offset))?;\n" +
          "        }\n" +
          "        let stats = scan::scan(file, &range, &mut out, args.count)?;",
      },
      result: `Successfully replaced text in ${P("src/main.rs")}.`,
    },
    {
      name: "edit",
      args: { path: P("src/main.rs"), oldText: "use std::io::{self, BufWriter};", newText: "use std::io::{self, BufWriter, Seek, SeekFrom};" },
      result: `Successfully replaced text in ${P("src/main.rs")}.`,
    },
  ]);
  b.tools(null, [
    {
      name: "bash",
      args: { command: "cargo build --release 2>&1 | tail -n 3 && hyperfine --warmup 2 'target/release/logslice --no-seek --from 2024-03-01T16:40 --to 2024-03-01T16:50 /tmp/big.log' 'target/release/logslice --from 2024-03-01T16:40 --to 2024-03-01T16:50 /tmp/big.log'" },
      result:
        "   Compiling logslice v0.3.1 (/home/maya/code/logslice)\n    Finished `release` profile [optimized] target(s) in 18.62s\n" +
        "Benchmark 1: target/release/logslice --no-seek --from 2024-03-01T16:40 --to 2024-03-01T16:50 /tmp/big.log\n" +
        "  Time (mean ± σ):     412.7 ms ±   6.3 ms    [User: 318.4 ms, System: 93.9 ms]\n" +
        "  Range (min … max):   404.9 ms … 423.1 ms    10 runs\n\n" +
        "Benchmark 2: target/release/logslice --from 2024-03-01T16:40 --to 2024-03-01T16:50 /tmp/big.log\n" +
        "  Time (mean ± σ):       2.9 ms ±   0.4 ms    [User: 0.8 ms, System: 1.9 ms]\n" +
        "  Range (min … max):     2.3 ms …   4.4 ms    612 runs\n\n" +
        "Summary\n  target/release/logslice --from 2024-03-01T16:40 --to 2024-03-01T16:50 /tmp/big.log ran\n  142.31 ± 19.72 times faster than target/release/logslice --no-seek --from 2024-03-01T16:40 --to 2024-03-01T16:50 /tmp/big.log\n",
    },
  ]);
  b.reply("Wired in: when `--from` is given and `--no-seek` is not, `main` bisects to the start offset before scanning. On the 200 MB log, a ten-minute slice near the end takes 2.9 ms instead of 413 ms (about 140× faster). The end of the range was already handled by the early `break` in `scan()`.");

  // 7. Error lines.
  b.user("Use it on the fixture: show me every ERROR record with its stack trace between 10:05 and 10:12.");
  b.tools(null, [
    {
      name: "bash",
      args: { command: "cargo run -q -- --utc --from 2024-03-01T10:05 --to 2024-03-01T10:12 tests/fixtures/app.log | grep -A2 ' ERROR '" },
      result: log.slice(320, 900).filter((line, i, all) => line.includes(" ERROR ") || all[i - 1]?.includes(" ERROR ") || all[i - 2]?.includes(" ERROR ")).join("\n") + "\n",
    },
  ]);
  b.reply("Those are all the `ERROR` records in that window. Every one is the same failure: a request timed out waiting for a connection from the `pg` pool, and each comes right after `WARN pool{name=pg} connection wait exceeded threshold … in_use=20 max=20` lines. The pool is saturated at its maximum of 20 connections; the handlers themselves are fine.");

  b.user("Show me the WARN lines from the same window too, and count them per minute.");
  b.tools(null, [
    {
      name: "bash",
      args: { command: "cargo run -q -- --utc --from 2024-03-01T10:05 --to 2024-03-01T10:12 tests/fixtures/app.log | grep ' WARN ' | tee /tmp/warn.txt && cut -c1-16 /tmp/warn.txt | uniq -c" },
      result: (() => {
        const warns = log.filter((l) => l.includes(" WARN "));
        const perMinute = new Map<string, number>();
        for (const w of warns) perMinute.set(w.slice(0, 16), (perMinute.get(w.slice(0, 16)) ?? 0) + 1);
        return warns.join("\n") + "\n" + [...perMinute].map(([m, n]) => `${String(n).padStart(7)} ${m}`).join("\n") + "\n";
      })(),
    },
  ]);
  b.reply("The pool warnings are spread evenly over the window, one or two a minute, with no burst before the errors: this is steady saturation rather than a spike. Worth raising the pool size or finding the slow query that holds connections; `logslice` itself is doing its job.");

  // 8. Manual compaction (/compact) with pi's default settings.
  b.compact(() => ({
    history:
      "## Goal\nGet `logslice` (a Rust CLI that prints the lines of a log file inside a time range) back into shape after a break: understand the parser, make the test suite pass, clean up lints.\n\n" +
      "## Constraints & Preferences\n- Keep changes small and explain them; the user reviews diffs with `git diff --stat`.\n\n" +
      "## Progress\n### Done\n- [x] Explained the parser: `TimeRange` is half-open `[start, end)`; `parse_bound()` in `src/range.rs` tries RFC 3339, then `FULL_FORMATS`, then `TIME_FORMATS` with `--date`; `src/stamp.rs` recognises line timestamps (RFC 3339, comma milliseconds, common log format)\n" +
      "- [x] Fixed the failing `range::tests::parses_minute_precision` by adding `%Y-%m-%dT%H:%M` and `%Y-%m-%d %H:%M` to `FULL_FORMATS`; 10 unit and 6 integration tests pass\n" +
      "- [x] Fixed three clippy `unnecessary_map_or` warnings (`is_none_or` in `TimeRange::contains`, `is_some_and` in `scan`); left the false `needless_borrows_for_generic_args` warning in `src/main.rs`\n\n" +
      "### In Progress\n- [ ] Looking at how `scan()` handles large files\n\n### Blocked\n- (none)\n\n" +
      "## Key Decisions\n- **Minute formats go last in `FULL_FORMATS`**: inputs with seconds keep matching the stricter formats first.\n\n" +
      "## Next Steps\n1. Decide whether scanning needs to avoid reading the whole file.\n\n" +
      "## Critical Context\n- `Option::is_none_or` requires Rust 1.82+.\n- `git diff --stat`: src/range.rs 5 lines, src/scan.rs 2 lines changed.",
    turnPrefix:
      "## Original Request\nCheck whether scanning reads the whole file every time, and show what the test log looks like.\n\n" +
      "## Early Progress\n- Read `src/scan.rs` (`scan()` streams from byte 0 through a 64 KiB `BufReader`, stops after `--to`) and `src/main.rs` (opens each file and calls `scan::scan`).\n" +
      "- Printed the first 320 lines of `tests/fixtures/app.log` (42180 lines, RFC 3339 stamps with milliseconds, INFO/DEBUG/WARN/ERROR, stack-trace continuation lines without a stamp).\n\n" +
      "## Context for Suffix\n- The answer that follows explains that everything before `--from` is read and proposes bisection on line boundaries.",
  }));

  // 9. After compaction.
  b.user("Good. Now write a CHANGELOG entry for 0.4.0 covering the seek work and the parser fix.");
  b.tools(null, [{ name: "bash", args: { command: "git log --oneline -8" }, result: "3c9e1f2 (HEAD -> main) Accept minute-precision bounds\n9b07d4e Add --count\n51a2c8b Treat lines without a timestamp as continuations\ne4f6a10 Support common log format timestamps\n0d8c337 --last accepts combined durations\n7aa21e5 Exit status 1 when nothing matched\n26b9f43 Initial version\n" }]);
  b.tools(null, [
    {
      name: "write",
      args: {
        path: P("CHANGELOG.md"),
        content:
          "# Changelog\n\n## 0.4.0\n\n- `--from` no longer reads the file from the start: the start offset is found by bisection on line boundaries, about 140 times faster on a 200 MB log. `--no-seek` restores the old behaviour (needed for pipes and files that are not time-ordered).\n- Bounds without seconds (`2024-03-01T10:00`, `2024-03-01 10:00`) are accepted.\n\n## 0.3.1\n\n- `--count` prints the number of matching lines per file.\n",
      },
      result: `Successfully wrote 437 bytes to ${P("CHANGELOG.md")}`,
    },
  ]);
  b.reply("Added `CHANGELOG.md` with a 0.4.0 section: the bisecting `--from` (with the 140× figure and when `--no-seek` is still needed) and the minute-precision bounds. I kept 0.3.1's `--count` entry below it, based on the git log.");

  b.user("Thanks. Give me a short PR description for all of this.");
  b.reply(
    "**Seek to `--from` instead of scanning, accept minute-precision bounds**\n\n" +
      "- `logslice` now bisects the file for the first record at or after `--from` (8 KiB probes on line boundaries, continuation lines skipped). A ten-minute slice near the end of a 200 MB log drops from 413 ms to 2.9 ms.\n" +
      "- `--no-seek` keeps the linear scan for inputs that are not time-ordered.\n" +
      "- `parse_bound` accepts `YYYY-MM-DDTHH:MM` and `YYYY-MM-DD HH:MM`, fixing `parses_minute_precision`.\n" +
      "- Tests: 12 unit, 6 integration, all green. CHANGELOG updated for 0.4.0.",
  );
  return b.toJsonl();
}
