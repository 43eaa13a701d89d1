// The session follower and the live analysis (src/core/session/follow.ts): a session fed in
// pieces, as its agent appends to it, yields the same turns and the same prefix reports as the
// whole file read at once; a line cut mid-write waits for its end; a rewrite starts again.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { PipelineOptions } from "../../../src/core/model";
import { LiveTurns, SessionFollower } from "../../../src/core/session/follow";
import { datasetPriceTable } from "../../../src/core/pricing/dataset";
import { iterateSessionPrefixes } from "../../../src/core/session/sessionPrefixes";
import { readSessionText } from "../../../src/core/session/index";
import { fixtureCase } from "../../support/fixtures";

const PIPELINE: PipelineOptions = { profile: "pi", leafId: null, api: null, header: null, notes: false };
const decoder = new TextDecoder();
const decode = (bytes: Uint8Array) => decoder.decode(bytes);

function bytesOf(caseName: string): { bytes: Uint8Array; name: string } {
  const path = fixtureCase(caseName).sessionPath;
  return { bytes: new Uint8Array(readFileSync(path)), name: path.split("/").pop()! };
}

describe.each(["pi/print-openai-autocompact", "claude/print-autocompact-manualcompact", "codex/exec-autocompact"])("following %s", (caseName) => {
  it("reports every turn once, as the whole file's prefix analysis does, whatever the pieces", () => {
    const { bytes, name } = bytesOf(caseName);
    const whole = readSessionText(decoder.decode(bytes), name);
    const expected = [...iterateSessionPrefixes(whole, PIPELINE, { prefix: { tokenizer: "estimate" } })];
    expect(expected.length).toBeGreaterThan(1);
    const follower = new SessionFollower(name, decode);
    const live = new LiveTurns({ pipeline: PIPELINE, tokenizer: "estimate", prices: datasetPriceTable() });
    const seen: { turn: number; tokens: number; cause: string | null }[] = [];
    let restarts = 0;
    // Pieces that cut lines (and characters) anywhere: 997 bytes at a time.
    for (let at = 0; at < bytes.length; at += 997) {
      follower.append(bytes.subarray(at, at + 997));
      const session = follower.session();
      if (!session) continue;
      const update = live.update(session);
      // A turn that turns out to be something else once later lines arrive (Codex: the request
      // before a compaction line is the summariser's) makes the analysis start again.
      if (update.kind === "restarted") {
        restarts++;
        seen.length = 0;
      }
      for (const turn of update.turns) seen.push({ turn: turn.turn, tokens: turn.tokens, cause: turn.cause });
    }
    expect(follower.offset).toBe(bytes.length);
    expect(seen).toEqual(expected.map((report) => ({ turn: report.turn, tokens: report.tokens, cause: report.cause })));
    const compactions = live.update(follower.session()!).analysis.timeline.filter((item) => item.kind === "compaction").length;
    expect(restarts).toBeLessThanOrEqual(compactions);
  });
});

describe("a rewritten session", () => {
  it("is analysed again from its first turn", () => {
    const { bytes, name } = bytesOf("pi/print-openai-autocompact");
    const live = new LiveTurns({ pipeline: PIPELINE, tokenizer: "estimate", prices: datasetPriceTable() });
    const first = live.update(readSessionText(decoder.decode(bytes), name));
    expect(first.turns.length).toBeGreaterThan(2);
    // The same session with other entry ids from the start: not an extension of what was seen.
    const renamed = readSessionText(decoder.decode(bytes).replaceAll('"id":"', '"id":"x').replaceAll('"parentId":"', '"parentId":"x'), name);
    const again = live.update(renamed);
    expect(again.kind).toBe("restarted");
    expect(again.turns.map((turn) => turn.turn)).toEqual(first.turns.map((turn) => turn.turn));
  });

  it("a line still being written is read once its end arrives", () => {
    const { bytes, name } = bytesOf("pi/print-openai-autocompact");
    const follower = new SessionFollower(name, decode);
    const cut = bytes.lastIndexOf(0x0a, bytes.length - 2) + 10;
    follower.append(bytes.subarray(0, cut));
    const before = follower.session()!.entries.length;
    follower.append(bytes.subarray(cut));
    expect(follower.session()!.entries.length).toBe(before + 1);
    expect(follower.session()!.warnings).toEqual(readSessionText(decoder.decode(bytes), name).warnings.filter((w) => w.line > 0));
  });
});

describe("following from the last turn", () => {
  it("reports the turns appended afterwards as the whole file's analysis does", () => {
    const { bytes, name } = bytesOf("pi/print-openai-autocompact");
    const text = decoder.decode(bytes);
    const whole = readSessionText(text, name);
    const expected = [...iterateSessionPrefixes(whole, PIPELINE, { prefix: { tokenizer: "estimate" } })];
    const lines = text.split("\n");
    const half = readSessionText(lines.slice(0, 22).join("\n"), name);
    const live = new LiveTurns({ pipeline: PIPELINE, tokenizer: "estimate", primeWithLastTurn: true, prices: datasetPriceTable() });
    const primed = live.update(half);
    expect(primed.turns).toEqual([]);
    expect(live.turnCount).toBeGreaterThan(1);
    const later = live.update(whole).turns;
    expect(later.map((turn) => turn.turn)).toEqual(expected.slice(live.turnCount - later.length).map((report) => report.turn));
    expect(later.map((turn) => [turn.tokens, turn.cause, turn.breakPath])).toEqual(
      expected.slice(expected.length - later.length).map((report) => [report.tokens, report.cause, report.breakPath]),
    );
  });
});

describe("more new turns than one update analyses", () => {
  it("reports the newest, counts the rest as skipped, and compares the first reported with the turn just before it", () => {
    const { bytes, name } = bytesOf("pi/print-openai-autocompact");
    const text = decoder.decode(bytes);
    const whole = readSessionText(text, name);
    const expected = [...iterateSessionPrefixes(whole, PIPELINE, { prefix: { tokenizer: "estimate" } })];
    expect(expected.length).toBeGreaterThan(4);
    const first = readSessionText(text.split("\n").slice(0, 3).join("\n"), name);
    const live = new LiveTurns({ pipeline: PIPELINE, tokenizer: "estimate", prices: datasetPriceTable(), maxTurnsPerUpdate: 2 });
    const start = live.update(first);
    expect(start.skipped).toBe(0);
    const update = live.update(whole);
    const newTurns = expected.length - start.turns.length;
    expect(update.skipped).toBe(newTurns - 2);
    expect(update.turns.map((turn) => turn.turn)).toEqual([expected.length - 1, expected.length]);
    // The same tokens and the same break verdicts as the whole file's analysis (each compared with the turn before it).
    expect(update.turns.map((turn) => [turn.tokens, turn.cause, turn.breakPath])).toEqual(expected.slice(-2).map((report) => [report.tokens, report.cause, report.breakPath]));
    expect(live.turnCount).toBe(expected.length);
  });
});

describe("the line bound while following", () => {
  it("skips a line over the bound, names it in every session value after it, and reads the lines after", () => {
    const { bytes, name } = bytesOf("pi/print-openai-autocompact");
    const lines = decoder.decode(bytes).trimEnd().split("\n");
    const long = `{"type":"message","id":"huge","text":"${"z".repeat(200_000)}"}`;
    const text = [...lines.slice(0, 3), long, ...lines.slice(3)].join("\n");
    const follower = new SessionFollower(name, decode, {}, { maxLineBytes: 100_000, maxDecodedRatio: 1000, maxDecodedBytes: 2 ** 33, maxWarningsPerKind: 100 });
    const encoded = new TextEncoder().encode(text);
    const half = encoded.length - 50;
    follower.append(encoded.subarray(0, half));
    const during = follower.session()!;
    follower.append(encoded.subarray(half));
    const after = follower.finish();
    const said = { line: 4, reason: `a line of ${(long.length / 1000).toFixed(1)} kB is over the line bound (100.0 kB): skipped; every other line is read` };
    expect(during.warnings).toContainEqual(said);
    expect(after.warnings).toContainEqual(said);
    expect(after.entries.map((entry) => entry.id)).toEqual(readSessionText(lines.join("\n"), name).entries.map((entry) => entry.id));
  });
});
