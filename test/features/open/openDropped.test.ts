// Sorting a drop on the page: a reproduction bundle opens alone; `.json` files are asked of the
// worker (whose readers tell an opencode export from a captured request) and only when there are
// some; a recorder's `.meta.json` is neither; sessions open together, captures are attached.
// The worker bridge is replaced by one that records what it is asked.
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { OpenSource } from "../../../src/features/open/protocol";

const opened: OpenSource[] = [];
const calls: { method: string; names: string[] }[] = [];

vi.mock("../../../src/worker/client", () => ({
  DEFAULT_WATCHDOG_MS: 60_000,
  isStale: () => false,
  PipelineClient: class {
    open(source: OpenSource) {
      opened.push(source);
      // The session's summary: the page shows it, then analyses it (never answered here).
      return Promise.resolve({ runId: opened.length, fileName: "x", formatId: "pi", agent: null, formatLabel: "pi", formatVersion: null, entryCount: 1, lineCount: 1, byteLength: 1, warnings: [] });
    }
    call(method: string, params: { files?: File[]; source?: string }) {
      if (method !== "sniffSessions" && method !== "parseCapture") return new Promise(() => undefined);
      calls.push({ method, names: params.files?.map((file) => file.name) ?? [params.source ?? ""] });
      if (method === "sniffSessions") return Promise.resolve(params.files!.map((file) => (file.name.startsWith("export") ? "session" : null)));
      if (method === "parseCapture") return Promise.resolve({ kind: "header", header: { source: params.source } });
      return new Promise(() => undefined);
    }
  },
}));

const { openDroppedFiles } = await import("../../../src/features/open/openDropped");

const file = (name: string, text = "{}\n") => new File([text], name);
/** Lets the drop's awaits run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));
const openedNames = () =>
  opened.map((source) => (source.kind === "files" ? source.files.map((item) => item.name) : source.kind === "file" ? [source.file.name] : [source.kind]));

describe("a drop of several files", () => {
  beforeEach(() => {
    opened.length = 0;
    calls.length = 0;
  });

  it("opens session files together without asking the worker about them", async () => {
    openDroppedFiles([file("main.jsonl"), file("agent-1.jsonl")]);
    await settle();
    expect(calls).toEqual([]);
    expect(openedNames()).toEqual([["main.jsonl", "agent-1.jsonl"]]);
  });

  it("asks the worker which .json files are sessions; the others are attached as captures once the session is shown", async () => {
    openDroppedFiles([file("007.json"), file("export.json"), file("007.meta.json"), file("notes.jsonl")]);
    await settle();
    expect(calls[0]).toEqual({ method: "sniffSessions", names: ["007.json", "export.json"] });
    expect(openedNames()).toEqual([["export.json", "notes.jsonl"]]);
    expect(calls.slice(1)).toEqual([{ method: "parseCapture", names: ["007.json"] }]);
  });

  it("opens a reproduction bundle alone", async () => {
    openDroppedFiles([file("export.json"), file("view.contextscope.json", '{"contextscope":"bundle","v":1,"payload":{}}')]);
    await settle();
    expect(calls).toEqual([]);
    expect(openedNames()).toEqual([["share-bundle"]]);
  });
});
