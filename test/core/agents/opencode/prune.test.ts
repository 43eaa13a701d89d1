// opencode's prune (CP-OC-26): the two newest user turns are skipped, 40000 tokens of newer tool
// output are protected, older outputs are cleared only when more than 20000 tokens are freed;
// `skill` outputs are never pruned; the walk stops at a summary or an already pruned output.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { pruneRows } from "../../../../src/core/agents/opencode/policy/prune";
import type { OcMessage } from "../../../../src/core/agents/opencode/policy/rows";
import { readOpencodeExportText } from "../../../../src/core/agents/opencode/reader";
import { simulateCompaction } from "../../../../src/core/session/simulate/simulate";
import { fixtureCase } from "../../../support/fixtures";

const user = (id: string): OcMessage => ({ info: { id, role: "user" }, parts: [{ type: "text", text: "go" }] });
const step = (id: string, tokens: number, tool = "bash", extra: Partial<OcMessage["info"]> = {}): OcMessage => ({
  info: { id, role: "assistant", ...extra },
  parts: [{ type: "tool", tool, callID: `c-${id}`, state: { status: "completed", input: {}, output: "x".repeat(tokens * 4) } }],
});
const compacted = (rows: OcMessage[]) => rows.flatMap((r) => r.parts.filter((p) => p.state?.time?.compacted !== undefined).map(() => r.info.id));

describe("CP-OC-26 prune", () => {
  it("protects 40000 tokens past the two newest turns and clears the older outputs when more than 20000 are freed", () => {
    const rows = [user("u1"), step("a1", 15000), step("a2", 12000), user("u2"), step("a3", 30000), step("a4", 15000), user("u3"), step("a5", 50000), user("u4"), step("a6", 50000)];
    const r = pruneRows(rows);
    // Walk: a6, u4, a5 skipped (fewer than two user turns seen); from u3 on: a4 15000, a3 → 45000 > 40000.
    expect(r.total).toBe(15000 + 30000 + 12000 + 15000);
    expect(compacted(r.rows)).toEqual(["a1", "a2", "a3"]);
    expect(r.pruned).toBe(30000 + 12000 + 15000);
    expect(r.applied).toBe(true);
    expect(compacted(rows)).toEqual([]); // the input is not changed
  });

  it("nothing is written when 20000 tokens or fewer would be freed; skill is never pruned; a summary or a pruned output stops the walk", () => {
    const small = [user("u1"), step("a1", 20000), step("a2", 40000), user("u2"), user("u3")];
    expect(pruneRows(small).applied).toBe(false);
    expect(pruneRows(small).pruned).toBe(20000);
    const skill = [user("u1"), step("s", 90000, "skill"), step("a1", 30000), user("u2"), user("u3")];
    expect(pruneRows(skill).applied).toBe(false);
    const summary = [step("old", 90000), { info: { id: "sum", role: "assistant", summary: true }, parts: [] }, user("u1"), step("a1", 39000), user("u2"), user("u3")];
    expect(pruneRows(summary as OcMessage[]).pruned).toBe(0);
    const already = [user("u0"), step("older", 90000), user("u1"), { ...step("done", 10), parts: [{ type: "tool", tool: "bash", state: { status: "completed", output: "", time: { compacted: 5 } } }] }, step("a1", 39000), user("u2"), user("u3")];
    expect(pruneRows(already as OcMessage[]).total).toBe(39000);
  });

  it("in the policy: the opencode fixture's outputs are small, so prune reports nothing pruned", () => {
    const fixture = fixtureCase("opencode/run-autocompact");
    const session = readOpencodeExportText(readFileSync(fixture.path("session/export.json"), "utf8"), "export.json");
    const r = simulateCompaction({ session, options: { profile: "pi" }, turn: 6, policyId: "opencode", parameters: { prune: true }, limits: { contextWindow: 15000, maxOutputTokens: 4000 }, followingTurns: 0, providerCount: false });
    expect(r.findings.find((f) => f.id === "tool-outputs-pruned")!.message).toContain("nothing pruned");
    expect(r.partition.pruned).toEqual([]);
  });
});
