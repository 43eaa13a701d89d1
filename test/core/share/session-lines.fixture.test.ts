// The branch cut reproduces the turn: on the recorded pi and senpi fixtures, every turn's request
// rebuilt from the cut session (read back from the payload lines) equals the one rebuilt from the
// whole file, and the cut session's default leaf is that turn. The fixtures hold no secrets, so
// redaction must report nothing (no false positives on real sessions) and change nothing.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ProfileId } from "../../../src/core/model";
import { analyzeSession, buildTurnRequest } from "../../../src/core/session/pipeline";
import { readSessionText } from "../../../src/core/session/index";
import { buildSharePayload, decodeShareLink, encodeShareFragment, shareSessionText } from "../../../src/core/share";
import { fixtureCase } from "../../support/fixtures";

const CASES: [ProfileId, string][] = [
  ["pi", "pi/print-openai-autocompact"],
  ["pi", "pi/rpc-anthropic-manualcompact"],
  ["senpi", "senpi/print-openai-autocompact"],
];

for (const [profile, dir] of CASES) {
  describe(`branch share of ${dir}`, () => {
    const filePath = fixtureCase(dir).sessionPath;
    const file = path.basename(filePath);
    const text = readFileSync(filePath, "utf8");
    const session = readSessionText(text, file);
    const options = { profile };
    const analysis = analyzeSession(session, options);

    it("has turns to check", () => expect(analysis.turns.length).toBeGreaterThan(1));

    it.each([false, true])("every turn rebuilds identically from its branch link (redaction %s)", (redact) => {
      for (const turn of analysis.turns) {
        const view = { turn: turn.turn, tab: "request", profile, provider: null, notes: false, leafId: turn.entryId };
        const { payload, findings } = buildSharePayload({ session, scope: "branch", leafEntryId: turn.entryId, view, redact });
        // The fixtures hold no secrets: redaction must find nothing and change nothing.
        expect(findings).toEqual([]);
        const decoded = decodeShareLink(encodeShareFragment(payload));
        expect(decoded.ok).toBe(true);
        if (!decoded.ok) return;
        const reopened = readSessionText(shareSessionText(decoded.payload.session), decoded.payload.session.fileName, decoded.payload.session.formatId);
        const reopenedAnalysis = analyzeSession(reopened, { profile, leafId: decoded.payload.view.leafId });
        expect(reopenedAnalysis.turns.length).toBe(turn.turn);
        expect(reopenedAnalysis.turns.at(-1)?.entryId).toBe(turn.entryId);
        const original = buildTurnRequest(session, options, turn.turn);
        const rebuilt = buildTurnRequest(reopened, { profile }, turn.turn);
        expect(JSON.stringify(rebuilt.body)).toBe(JSON.stringify(original.body));
      }
    });
  });
}
