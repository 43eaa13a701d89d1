// A pi/senpi session whose large texts are kept as bytes (stored texts) gives every output the
// same session with strings gives: each turn's request (rendered, and equal to the recorded
// requests/NNN.json where the string session's is), the analysis, prefix rows with estimated and
// exact token counts, the request and conversation views, search hits, compaction simulations,
// export and share. Every pi and senpi session we hold is checked, with the reader's threshold
// (1 KiB) and with a threshold of 1 byte (nearly every text stored).
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { API_IDS, type ContextMessage, type PipelineOptions, type Session } from "../../../src/core/model";
import { analyzeSession, buildTurnRequest, messageCharsEstimator } from "../../../src/core/session/pipeline";
import { readSessionBytes, readSessionText } from "../../../src/core/session/index";
import { setReadersKeepStoredTexts } from "../../../src/core/text/storedTextsSwitch";
import { analyzeSessionPrefixes } from "../../../src/core/session/sessionPrefixes";
import { extractRequestHeader } from "../../../src/core/providers";
import { simulateCompaction } from "../../../src/core/session/simulate/index";
import { simulatorPolicies } from "../../../src/features/simulator/simulatorService";
import { requestView } from "../../../src/features/request/requestModel";
import { conversationView } from "../../../src/features/conversation/conversationModel";
import { exportRequest, shareBundle } from "../../../src/app/shareExport";
import { searchSession } from "../../../src/core/search/searchSession";
import { checkSession } from "../../../src/core/check";
import { exportCurl } from "../../../src/core/export/curl";
import { stringifyWithTexts, withTextsDecoded, type Text } from "../../../src/core/text/text";
import { createTextStore, isStoredText, releaseTextStore, SOURCE_CHUNK, type StoredText } from "../../../src/core/text/storedText";
import { readSessionChunks } from "../../../src/core/session/read";
import { memoryTextSource } from "../../support/memoryTextSource";
import { REPO_ROOT, sharedFixtures } from "../../support/fixtures";
import { storeLiteralBytes, storeSessionTexts } from "../../support/stored-texts";

interface Case {
  name: string;
  file: string;
  session: Session;
  /** Recorded main request bodies, in turn order, when the case is a recording. */
  recorded: string[] | null;
}

function jsonlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...jsonlFiles(full));
    else if (name.endsWith(".jsonl")) out.push(full);
  }
  return out.sort();
}

/** Recorded main requests beside a session file (`<case>/requests/NNN.json` with `NNN.meta.json` kind main). */
function recordedMainRequests(file: string): string[] | null {
  for (let dir = path.dirname(file); dir.length > 1; dir = path.dirname(dir)) {
    const requests = path.join(dir, "requests");
    let names: string[];
    try {
      names = readdirSync(requests);
    } catch {
      continue;
    }
    const bodies = names.filter((name) => /^\d+\.json$/.test(name)).sort();
    return bodies
      .filter((name) => {
        const meta = JSON.parse(readFileSync(path.join(requests, name.replace(".json", ".meta.json")), "utf8")) as { kind?: string };
        return meta.kind === "main";
      })
      .map((name) => readFileSync(path.join(requests, name), "utf8"));
  }
  return null;
}

/** Every session file under `dirs` that reads as a pi/senpi session. */
function piCases(label: string, dirs: string[]): Case[] {
  const cases: Case[] = [];
  for (const file of dirs.flatMap(jsonlFiles)) {
    let session: Session;
    try {
      session = readSessionText(readFileSync(file, "utf8"), path.basename(file));
    } catch {
      continue;
    }
    if (session.formatId !== "pi") continue;
    cases.push({ name: `${label}/${path.relative(label === "test" ? path.join(REPO_ROOT, "test") : SHARED, file)}`, file, session, recorded: recordedMainRequests(file) });
  }
  return cases;
}

const SHARED = sharedFixtures()?.dir ?? "";
const CASES: Case[] = [
  ...piCases("test", [path.join(REPO_ROOT, "test/fixtures")]),
  ...(SHARED ? piCases("shared", ["pi", "senpi", "realworld/pi", "hostile"].map((dir) => path.join(SHARED, dir))) : []),
];

/** Where two texts first differ, for a readable failure. */
/** The stored texts a value holds. */
function storedTextsOf(value: unknown): StoredText[] {
  if (isStoredText(value)) return [value];
  if (Array.isArray(value)) return value.flatMap(storedTextsOf);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(storedTextsOf);
  return [];
}

function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return `at ${i}: ${JSON.stringify(a.slice(Math.max(0, i - 60), i + 80))} vs ${JSON.stringify(b.slice(Math.max(0, i - 60), i + 80))}`;
}

/** Asserts two outputs equal without printing megabytes. */
function same(key: string, stored: string, strings: string): void {
  if (stored !== strings) expect.fail(`${key} differs ${firstDifference(stored, strings)}`);
}

/** Words to search for: a few common ones and some taken from the session's long texts. */
function queries(session: Session): string[] {
  const words = new Set(["the", "error", "README", "function", "ä"]);
  const text = JSON.stringify(session.entries.map((entry) => entry.raw));
  for (const match of text.slice(0, 200_000).matchAll(/[A-Za-z]{9,}/g)) {
    words.add(match[0]);
    if (words.size >= 9) break;
  }
  return [...words];
}

/** Turns whose per-turn outputs are compared: all of them, or ~40 spread over a long session (first and last included). */
function sampledTurns(count: number): number[] {
  if (count <= 40) return Array.from({ length: count }, (_, i) => i + 1);
  const step = (count - 1) / 39;
  return [...new Set(Array.from({ length: 40 }, (_, i) => 1 + Math.round(i * step)))];
}

/** Each output of the session under `options`, one at a time: `visit(key, text)`. */
function outputs(session: Session, options: PipelineOptions, visit: (key: string, text: string) => void, search: string[]): void {
  const analysis = analyzeSession(session, options);
  visit("analysis", JSON.stringify(analysis));
  visit("check", JSON.stringify(checkSession(session, options, { analysis })));
  const charsOf = messageCharsEstimator(session, options);
  for (const turn of sampledTurns(analysis.turns.length)) {
    const built = buildTurnRequest(session, options, turn);
    visit(`turn ${turn} body`, stringifyWithTexts(built.body));
    visit(`turn ${turn} messages`, stringifyWithTexts({ messages: built.messages, dropped: built.dropped }));
    visit(`turn ${turn} estimates`, JSON.stringify(built.messages.map((item) => charsOf(item.message))));
    visit(`turn ${turn} request view`, JSON.stringify(requestView(turn, built, charsOf)));
    visit(`turn ${turn} conversation view`, JSON.stringify(conversationView(turn, built)));
    visit(`turn ${turn} curl`, JSON.stringify(exportCurl(built.api, built.body)));
    visit(`turn ${turn} export`, JSON.stringify(exportRequest(session, options, { target: { kind: "turn", turn }, format: "json", redact: true, unmasked: [] })));
  }
  visit("prefix (estimate)", JSON.stringify(analyzeSessionPrefixes(session, options, { analysis, prefix: { tokenizer: "estimate" } })));
  visit("prefix (exact)", JSON.stringify(analyzeSessionPrefixes(session, options, { analysis, prefix: { tokenizer: "auto" } })));
  for (const query of search) visit(`search ${query}`, JSON.stringify([...searchSession(session, options, query)]));
  const last = analysis.turns.length;
  if (last > 0) {
    for (const policy of simulatorPolicies(session, options).policies.filter((p) => p.supported)) {
      for (const turn of last > 40 ? [last] : new Set([Math.ceil(last / 2), last])) {
        let result: string;
        try {
          result = stringifyWithTexts(simulateCompaction({ session, options, turn, policyId: policy.id, manual: true }));
        } catch (error) {
          result = `throws ${String(error)}`;
        }
        // Simulated entries are numbered by a counter that runs across simulations: not compared.
        visit(`simulate ${policy.id} at turn ${turn}`, result.replace(/"sim-[a-z-]+-\d+"/g, "\"sim-N\""));
      }
    }
  }
  visit("share", shareBundle(session, options, { turn: null, tab: "request", scope: "full", redact: true, unmasked: [], pageUrlChars: 40 }).text);
}

function compare(stored: Session, strings: Session, options: PipelineOptions, search: string[]): number {
  const expected = new Map<string, string>();
  outputs(strings, options, (key, text) => expected.set(key, text), search);
  let compared = 0;
  outputs(stored, options, (key, text) => {
    same(key, text, expected.get(key) ?? "(no such output)");
    compared++;
  }, search);
  expect(compared).toBe(expected.size);
  return compared;
}

describe("a session with stored texts gives the outputs of the same session with strings", () => {
  it("finds the pi and senpi sessions to check", () => {
    expect(CASES.filter((c) => c.name.startsWith("test/")).length).toBeGreaterThanOrEqual(6);
    if (SHARED) expect(CASES.filter((c) => c.name.startsWith("shared/")).length).toBeGreaterThanOrEqual(5);
  });

  for (const testCase of CASES) {
    it(`${testCase.name}, read by the pi reader's byte path`, { timeout: 900_000 }, () => {
      setReadersKeepStoredTexts(true); // the default; said here because this case is about it
      const session: Session = readSessionBytes(readFileSync(testCase.file), path.basename(testCase.file), (bytes) => new TextDecoder().decode(bytes));
      compare(session, testCase.session, { profile: "pi" }, queries(testCase.session));
      compare(session, testCase.session, { profile: "senpi", notes: true }, queries(testCase.session));
    });
    /** A pi entry's summary (a compaction's, a branch's, or a summary message's), when it has one. */
    const summaryOf = (raw: unknown): unknown => {
      if (typeof raw !== "object" || raw === null) return null;
      const record = raw as { type?: unknown; summary?: unknown; message?: { summary?: unknown } };
      if (record.type === "compaction" || record.type === "branch_summary") return record.summary;
      return typeof record.message === "object" && record.message !== null ? record.message.summary : null;
    };
    it(`${testCase.name}, read by the pi reader's byte path with its texts left in the file`, { timeout: 900_000 }, () => {
      const bytes = new Uint8Array(readFileSync(testCase.file));
      // Chunks of 4 KiB: lines cut across chunks, so texts are found at offsets in several pieces.
      const chunks: Uint8Array[] = [];
      for (let at = 0; at < bytes.length; at += 4096) chunks.push(bytes.subarray(at, at + 4096));
      const source = memoryTextSource(bytes);
      const session = readSessionChunks(chunks, path.basename(testCase.file), (part) => new TextDecoder().decode(part), undefined, source);
      const kept = session.entries.flatMap((entry) => storedTextsOf(entry.raw));
      // Only the summaries are copied into the store (every analysis decodes them); every other
      // text stays in the file, with its first bytes in the store.
      const summaries = new Set(session.entries.flatMap((entry) => storedTextsOf(summaryOf(entry.raw))));
      expect(kept.filter((text) => text.chunk !== SOURCE_CHUNK && !summaries.has(text))).toEqual([]);
      expect(kept.filter((text) => text.chunk === SOURCE_CHUNK && text.headChunk === undefined)).toEqual([]);
      compare(session, testCase.session, { profile: "pi" }, queries(testCase.session));
      compare(session, testCase.session, { profile: "senpi", notes: true }, queries(testCase.session));
      if (kept.some((text) => text.chunk === SOURCE_CHUNK)) expect(source.reads).toBeGreaterThan(0);
      if (session.textStore) releaseTextStore(session.textStore);
      expect(source.closed).toBe(session.textStore !== undefined);
    });
    for (const threshold of [1024, 1]) {
      it(`${testCase.name}, texts of ${threshold}+ bytes stored`, { timeout: 900_000 }, () => {
        const { session, stored } = storeSessionTexts(testCase.session, threshold);
        if (threshold === 1) expect(stored).toBeGreaterThan(0);
        // The stored session holds the same texts (the harness itself changes nothing else).
        expect(session.entries.map((entry) => withTextsDecoded(entry.raw))).toEqual(testCase.session.entries.map((entry) => entry.raw));
        const search = queries(testCase.session);
        for (const profile of ["pi", "senpi"] as const) {
          compare(session, testCase.session, { profile }, search);
        }
        compare(session, testCase.session, { profile: "senpi", notes: true }, search);
        if (testCase.recorded && testCase.recorded.length > 0) {
          // Byte for byte against the recording wherever the string session is.
          const header = extractRequestHeader(JSON.parse(testCase.recorded[0]!), "requests/001.json");
          for (const profile of ["pi", "senpi"] as const) {
            testCase.recorded.forEach((recorded, index) => {
              const strings = JSON.stringify(buildTurnRequest(testCase.session, { profile, header }, index + 1).body);
              const rendered = stringifyWithTexts(buildTurnRequest(session, { profile, header }, index + 1).body);
              if (strings === recorded) same(`${profile} turn ${index + 1} against the recording`, rendered, recorded);
              else same(`${profile} turn ${index + 1}`, rendered, strings);
            });
          }
        }
      });
    }
  }
});

describe("stored texts that are not JSON.stringify's own bytes", () => {
  // A lone surrogate (pi-ai removes it before sending), `\/`, an upper-case and an optional
  // `\u` escape: the stored text is neither well-formed nor canonical, and every output is
  // still the one of the same text held as a string.
  const literal = String.raw`Look at \/tmp\/notes.txt: \u0041BC, \u00e9t\u00E9, a lone \ud800 here and \udc01 there. `.repeat(40);
  const decoded = JSON.parse(`"${literal}"`) as string;
  const fixture = CASES.find((c) => c.name.startsWith("test/fixtures/pi/print-openai-autocompact"))!;

  function withText(session: Session, text: Text): Session {
    let replaced = 0;
    const entries = session.entries.map((entry) => {
      const message = entry.raw.message as { role?: string; content?: unknown } | undefined;
      if (entry.type !== "message" || message?.role === undefined || replaced > 0) return entry;
      if (message.role !== "user") return entry;
      replaced++;
      return { ...entry, raw: { ...entry.raw, message: { ...message, content: [{ type: "text", text }] } } };
    });
    expect(replaced).toBe(1);
    return { ...session, entries };
  }

  it("are measured so, and give the string session's outputs in every wire shape", { timeout: 120_000 }, () => {
    const store = createTextStore();
    const stored = storeLiteralBytes(store, new TextEncoder().encode(literal));
    expect(stored.wellFormed).toBe(false);
    expect(stored.canonical).toBe(false);
    expect(stored.units).toBe(decoded.length);
    const strings = withText(fixture.session, decoded);
    const bytes = withText(fixture.session, stored);
    for (const api of API_IDS) compare(bytes, strings, { profile: "pi", api }, ["lone", "ABC", "/tmp/notes"]);
    // The lone surrogates are gone from what is sent, and nothing is sent as an object.
    const body = stringifyWithTexts(buildTurnRequest(bytes, { profile: "pi", api: "anthropic-messages" }, 1).body);
    expect(body).toContain("/tmp/notes.txt: ABC, été, a lone  here and  there.");
    expect(body).not.toContain("stored-text");
  });
});

describe("serialisers keep stored texts as references", () => {
  // Rendering cannot tell a serialiser that decodes a stored text from one that passes it on, so
  // this looks at the wire objects themselves: each well-formed stored text sent as a text of its
  // own is the very StoredText object in the body, in every wire shape.
  const fixture = CASES.find((c) => c.name.startsWith("test/fixtures/pi/print-openai-autocompact"))!;

  function storedTextsIn(value: unknown, found: Set<StoredText>): Set<StoredText> {
    if (isStoredText(value)) found.add(value);
    else if (Array.isArray(value)) for (const item of value) storedTextsIn(item, found);
    else if (typeof value === "object" && value !== null) for (const item of Object.values(value)) storedTextsIn(item, found);
    return found;
  }

  /** Stored texts of the context sent as texts of their own: single text blocks of user messages and tool results, assistant text. */
  function sentAlone(messages: readonly ContextMessage[]): StoredText[] {
    const out: StoredText[] = [];
    for (const { message, provenance } of messages) {
      if (provenance.rule !== "entry") continue;
      if (typeof message.content !== "object" || !Array.isArray(message.content)) {
        if (isStoredText(message.content)) out.push(message.content);
        continue;
      }
      const texts = message.content.filter((block) => block.type === "text");
      if (message.role !== "assistant" && texts.length !== 1) continue;
      for (const block of texts) if (block.type === "text" && isStoredText(block.text) && block.text.wellFormed) out.push(block.text);
    }
    return out;
  }

  for (const api of API_IDS) {
    it(`${api}: the body holds the context's stored texts themselves`, () => {
      const { session } = storeSessionTexts(fixture.session, 1);
      let checked = 0;
      for (let turn = 1; turn <= analyzeSession(session, { profile: "pi" }).turns.length; turn++) {
        const built = buildTurnRequest(session, { profile: "pi", api }, turn);
        const inBody = storedTextsIn(built.body, new Set());
        for (const text of sentAlone(built.messages)) {
          expect(inBody.has(text), `turn ${turn}: a stored text of the context is not in the body as itself`).toBe(true);
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(20);
    });
  }
});
