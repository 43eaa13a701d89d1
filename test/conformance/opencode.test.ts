// Conformance over the opencode fixture run-autocompact (opencode 1.18.33, FM-OC-9 … FM-OC-15):
// every main request rebuilt from the session file — from `opencode export` JSON and from the
// SQLite database with its -wal — equals the recorded body: the conversation part always, the
// whole body once a captured request supplies what the session does not store (system prompt,
// tool definitions, output cap; docs/formats/opencode.md). Title and summariser requests are
// auxiliary events; their stored/derivable parts are checked against requests 001, 010, 016.
import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { isNotRecorded, type Session } from "../../src/core/model";
import { analyzeSession, buildTurnRequest, countTurns } from "../../src/core/session/pipeline";
import { buildOpencodeAuxiliaryRequest } from "../../src/core/agents/opencode";
import { extractRequestHeader } from "../../src/core/providers";
import { readSessionText } from "../../src/core/session/index";
import { loadDatabase } from "../../src/cli/sqlite";
import { fixtureCase } from "../support/fixtures";

const fixture = fixtureCase("opencode/run-autocompact");

interface Recorded {
  seq: number;
  kind: string;
  body: Record<string, unknown>;
}

function loadRecorded(): Recorded[] {
  return fixture.requests().map((request) => ({ seq: request.number, kind: request.kind, body: request.body }));
}

const options = { profile: "pi" as const };

describe("opencode run-autocompact conformance", () => {
  let recorded: Recorded[];
  let main: Recorded[];
  const sessions: Record<string, Session> = {};

  beforeAll(async () => {
    recorded = loadRecorded();
    main = recorded.filter((item) => item.kind === "main");
    sessions.export = readSessionText(fs.readFileSync(fixture.path("session/export.json"), "utf8"), "export.json");
    sessions.database = await loadDatabase(fixture.path("session/opencode-db/opencode.db"));
  });

  for (const source of ["export", "database"] as const) {
    describe(`from the ${source}`, () => {
      it("reads the session and finds 17 main requests", () => {
        const session = sessions[source] as Session;
        expect(session.formatId).toBe("opencode");
        expect(session.entries).toHaveLength(32);
        expect(main).toHaveLength(17);
        expect(countTurns(session, options)).toBe(17);
        if (source === "database") {
          expect(session.header?.walApplied).toBe(true);
          expect(session.warnings.some((w) => /without its -wal/.test(w.reason))).toBe(false);
        }
      });

      it("rebuilds the conversation of every main request exactly", () => {
        const session = sessions[source] as Session;
        main.forEach((request, k) => {
          const built = buildTurnRequest(session, options, k + 1);
          const messages = built.body.messages as Record<string, unknown>[];
          const expected = request.body.messages as Record<string, unknown>[];
          expect(messages.slice(1), `request ${request.seq}`).toEqual(expected.slice(1));
          expect(JSON.stringify(messages.slice(1))).toBe(JSON.stringify(expected.slice(1)));
          expect(isNotRecorded((messages[0] as Record<string, unknown>).content)).toBe(true);
          expect(Object.keys(built.body)).toEqual(Object.keys(request.body));
          for (const key of ["model", "tool_choice", "stream", "stream_options"]) expect(built.body[key]).toEqual(request.body[key]);
          expect(built.notRecorded).toEqual(["max_tokens", "system", "tools"]);
        });
      });

      it("rebuilds every main request byte for byte with a captured request as header", () => {
        const session = sessions[source] as Session;
        const header = extractRequestHeader((main[0] as Recorded).body, "002.json");
        main.forEach((request, k) => {
          const built = buildTurnRequest(session, { ...options, header }, k + 1);
          expect(JSON.stringify(built.body), `request ${request.seq}`).toBe(JSON.stringify(request.body));
          expect(built.notRecorded).toEqual([]);
        });
      });

      it("shows both compactions as events and the title and summariser requests as auxiliary events", () => {
        const session = sessions[source] as Session;
        const analysis = analyzeSession(session, options);
        const compactions = analysis.timeline.filter((item) => item.kind === "compaction");
        expect(compactions.map((item) => item.kind === "compaction" && [item.beforeTurn, item.firstKeptEntryId])).toEqual([
          [9, "msg_228c568b2001hVEFM7fLdxoMRG"],
          [14, "msg_228c587bf0014c9pZpT4tyT50c"],
        ]);
        expect(analysis.turns.filter((turn) => turn.afterCompaction).map((turn) => turn.turn)).toEqual([9, 14]);
        expect(analysis.auxiliary?.map((event) => [event.purpose, event.beforeTurn, event.rule])).toEqual([
          ["title", 1, "synth:title"],
          ["summary", 9, "synth:compaction-summary"],
          ["summary", 14, "synth:compaction-summary"],
        ]);
        expect(analysis.turns[0]?.usage?.totalTokens).toBe(7721);
      });

      it("rebuilds the title request's stored part (request 001)", () => {
        const session = sessions[source] as Session;
        const title = buildOpencodeAuxiliaryRequest(session, options, 0).request;
        const expected = (recorded[0] as Recorded).body;
        expect((recorded[0] as Recorded).kind).toBe("title");
        expect(Object.keys(title.body)).toEqual(Object.keys(expected));
        expect((title.body.messages as unknown[]).slice(1)).toEqual((expected.messages as unknown[]).slice(1));
        expect(title.notRecorded).toContain("system");
      });

      it("rebuilds the summariser input of both compactions (requests 010 and 016)", () => {
        const session = sessions[source] as Session;
        const summaries = recorded.filter((item) => item.kind === "summary");
        expect(summaries.map((item) => item.seq)).toEqual([10, 16]);
        summaries.forEach((request, i) => {
          const aux = buildOpencodeAuxiliaryRequest(session, options, i + 1);
          const content = ((request.body.messages as Record<string, unknown>[])[1] as Record<string, unknown>).content as string;
          expect(content.startsWith(`Here is the conversation so far:\n\n<conversation>\n${aux.summariser?.conversation}\n</conversation>\n\n`)).toBe(true);
          if (i === 0) expect(aux.summariser?.priorSummary).toBeNull();
          else expect(content).toContain(`<prior-summary>\n${aux.summariser?.priorSummary}\n</prior-summary>`);
          expect(Object.keys(aux.request.body)).toEqual(Object.keys(request.body));
        });
      });
    });
  }
});
