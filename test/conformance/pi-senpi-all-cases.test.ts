// Conformance over EVERY case directory of ../shared/fixtures/pi (pi profile)
// and ../shared/fixtures/senpi (senpi profile), discovered rather than listed, so a new recorded
// case is checked without editing this file (the repository's copies in test/fixtures when the
// shared folder is absent). For every main request: the rebuilt request in the same provider shape,
// with the header taken from the case's first request, deep-equals the recorded body. For every
// compaction (summariser) request: the rebuilt data part (serialized conversation and previous
// summary, or senpi's replayed messages) equals the recorded one.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildCompactionRequests, listCompactionEntryIds } from "../../src/core/agents/pi/compaction";
import type { ProfileId, Session } from "../../src/core/model";
import { analyzeSession, buildTurnRequest } from "../../src/core/session/pipeline";
import { extractRequestHeader } from "../../src/core/providers";
import { readSessionBytes } from "../../src/core/session/index";
import { rebuildRecordedCompaction, recordedCompactionPolicy } from "../../src/core/session/simulate/index";
import { readCapturedSenpiRequest } from "../../src/core/agents/pi/policies/senpi-slots";
import { committedFixtures, sharedFixtures, type FixtureCase } from "../support/fixtures";
import { stringifyWithTexts } from "../../src/core/text/text";
import { decoded } from "../support/decoded";

// The shared originals when that folder is there, otherwise the committed copies.
const SOURCE = sharedFixtures() ?? committedFixtures;
const SOURCE_LABEL = SOURCE === committedFixtures ? "test/fixtures (shared folder absent)" : "../shared/fixtures";

type Json = Record<string, unknown>;

interface Recorded {
  kind: string;
  body: Json;
}

function loadCase(fixture: FixtureCase): { session: Session; requests: Recorded[] } {
  const file = fixture.sessionPath;
  const decoder = new TextDecoder();
  const session = readSessionBytes(readFileSync(file), path.basename(file), (bytes) => decoder.decode(bytes));
  const requests = fixture.requests().map((request) => ({ kind: request.kind, body: request.body }));
  return { session, requests };
}

/** The single user text of a summariser request (string or text blocks). */
function summariserUserText(body: Json): string {
  const user = (body.messages as Json[]).find((m) => m.role === "user")!;
  const content = user.content as string | { type: string; text?: string }[];
  return typeof content === "string" ? content : content.map((b) => b.text ?? "").join("");
}

function conversationOf(text: string): string {
  return text.slice("<conversation>\n".length, text.indexOf("\n</conversation>\n\n"));
}

function previousSummaryOf(text: string): string | null {
  const open = "\n</conversation>\n\n<previous-summary>\n";
  const at = text.indexOf(open);
  if (at < 0) return null;
  return text.slice(at + open.length, text.indexOf("\n</previous-summary>\n\n", at));
}

const PROFILES: { folder: string; profile: ProfileId }[] = [
  { folder: "pi", profile: "pi" },
  { folder: "senpi", profile: "senpi" },
];

for (const { folder, profile } of PROFILES) {
  const cases = SOURCE.caseNames(folder);
  describe(`every ${folder} case in ${SOURCE_LABEL}`, () => {
    it(`has cases`, () => expect(cases.length).toBeGreaterThan(0));
    for (const name of cases) {
      describe(`${folder}/${name} (${profile} profile)`, () => {
        const { session, requests } = loadCase(SOURCE.case(`${folder}/${name}`));
        const mains = requests.filter((r) => r.kind === "main");
        const summaries = requests.filter((r) => r.kind === "summary");

        it("every main request deep-equals its rebuild with the header of the case's first request", () => {
          const header = extractRequestHeader(mains[0]!.body, "001.json");
          const options = { profile, header };
          const turns = analyzeSession(session, options).turns;
          expect(turns).toHaveLength(mains.length);
          mains.forEach((recorded, index) => {
            const built = buildTurnRequest(session, options, index + 1);
            expect(built.api).toBe(turns[index]!.api);
            expect(decoded(built.body), `turn ${index + 1}`).toEqual(recorded.body);
          });
        });

        // pi's compactions are rebuilt in pi's standalone form (buildCompactionRequests); a senpi
        // compaction written with senpi's details schema in the cache-friendly replay form (SP-K4,
        // CP-SE-1 … CP-SE-11) by the senpi policy's request builder (rebuildRecordedCompaction).
        it("every compaction request's data part equals the recorded one (serialized conversation and previous summary, or the replayed messages)", () => {
          const header = extractRequestHeader(mains[0]!.body, "001.json");
          const ids = listCompactionEntryIds(session);
          const rebuilt = ids.flatMap((entryId) =>
            recordedCompactionPolicy(session, entryId) === "senpi"
              ? rebuildRecordedCompaction(session, { profile, header }, entryId).requests.map((r) => ({ form: r.form, dataPart: r.dataPart, userText: "" }))
              : buildCompactionRequests(session, { profile }, entryId).requests.map((r) => ({ form: "standalone", dataPart: null as unknown, userText: r.userText })),
          );
          expect(rebuilt).toHaveLength(summaries.length);
          rebuilt.forEach((request, index) => {
            const recorded = summaries[index]!.body;
            if (request.form === "replay") {
              expect(decoded(request.dataPart), `summary ${index + 1}`).toEqual(readCapturedSenpiRequest(recorded, "recorded")!.dataPart);
              return;
            }
            const text = summariserUserText(recorded);
            expect(conversationOf(request.userText), `summary ${index + 1}`).toBe(conversationOf(text));
            expect(previousSummaryOf(request.userText), `summary ${index + 1}`).toBe(previousSummaryOf(text));
          });
        });

        it("every replay-form compaction request equals the recorded body when the header and the instruction slots come from the recorded request", () => {
          const header = extractRequestHeader(mains[0]!.body, "001.json");
          const ids = listCompactionEntryIds(session).filter((entryId) => recordedCompactionPolicy(session, entryId) === "senpi");
          let index = 0;
          for (const entryId of ids) {
            const recorded = summaries[listCompactionEntryIds(session).indexOf(entryId)]!.body;
            const instructions = readCapturedSenpiRequest(recorded, "recorded")!.values;
            const rebuild = rebuildRecordedCompaction(session, { profile, header }, entryId, { instructions });
            expect(rebuild.keptMatches).toBe(true);
            for (const request of rebuild.requests) expect(stringifyWithTexts(request.body), `compaction ${++index}`).toBe(JSON.stringify(recorded));
          }
          expect(index).toBe(ids.length);
        });
      });
    }
  });
}
