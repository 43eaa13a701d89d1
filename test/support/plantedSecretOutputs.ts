// The outputs a session with planted secrets is taken out through, for the redaction tests: turn
// 2's request exported without redaction holds the planted values (so the tests can fail);
// exported with redaction in every provider shape, as JSON and as curl, and shared as a redacted
// link of the branch or the whole session (reopened), it holds none of them. The reopened link is
// shared with the tests that check more of it.
import { expect, it } from "vitest";
import { buildShare, exportRequest } from "../../src/app/shareExport";
import { API_IDS, type PipelineOptions, type Session } from "../../src/core/model";
import { analyzeSession } from "../../src/core/session/pipeline";
import { decodeShareLink, type SharePayload } from "../../src/core/share";

/** A session of two turns with secrets planted in it, and how to find them in a text. */
export interface PlantedSession {
  session: Session;
  pipeline: PipelineOptions;
  /** The planted values a text holds, by name. */
  leaked: (text: string) => string[];
  /** Asserts that the unredacted export holds what was planted (found: what `leaked` names in it). */
  unredactedHolds: (found: string[]) => void;
}

/** One test per output (to be called inside a describe). */
export function itKeepsPlantedSecretsOut({ session, pipeline, leaked, unredactedHolds }: PlantedSession): void {
  it("the unredacted export holds the planted values (the test can fail)", () => {
    expect(analyzeSession(session, pipeline).turns.length).toBe(2);
    const plain = exportRequest(session, { ...pipeline, api: "openai-completions" }, { target: { kind: "turn", turn: 2 }, format: "json", redact: false, unmasked: [] });
    unredactedHolds(leaked(plain.text));
  });

  for (const api of API_IDS) {
    for (const format of ["json", "curl"] as const) {
      it(`no planted value in the ${api} export as ${format}`, () => {
        const result = exportRequest(session, { ...pipeline, api }, { target: { kind: "turn", turn: 2 }, format, redact: true, unmasked: [] });
        expect(leaked(result.text)).toEqual([]);
      });
    }
  }

  it("no planted value in a reopened share link (branch and full)", () => {
    for (const scope of ["branch", "full"] as const) expect(leaked(JSON.stringify(reopenedShareLink(session, pipeline, scope)))).toEqual([]);
  });
}

/** The payload of a redacted share link of turn 2 (of its branch, or of the whole session), reopened. */
export function reopenedShareLink(session: Session, pipeline: PipelineOptions, scope: "branch" | "full"): SharePayload {
  const share = buildShare(session, pipeline, { turn: 2, tab: "request", scope, redact: true, unmasked: [], pageUrlChars: 30 });
  expect(share.fragment).not.toBeNull();
  const decoded = decodeShareLink(share.fragment!);
  expect(decoded.ok).toBe(true);
  if (!decoded.ok) throw new Error(`the share link does not reopen: ${decoded.error.code}`);
  return decoded.payload;
}
