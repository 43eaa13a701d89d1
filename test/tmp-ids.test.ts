import { it } from "vitest";
import { recordedCompactionPoints } from "../src/core/simulate";
import { fixtureCase } from "./support/fixtures";
it("ids", () => {
  for (const id of ["codex/exec-autocompact","opencode/run-autocompact","claude/print-autocompact-manualcompact"]) {
    const fx = fixtureCase(id);
    const pts = recordedCompactionPoints(fx.session, { profile: "pi" });
    const ids = new Map(fx.session.entries.map((e, i) => [e.id, i]));
    for (const p of pts) console.log(id, p.turn, p.manual, p.recordedKept.map((k) => ids.get(k)), fx.session.entries.length);
  }
});
