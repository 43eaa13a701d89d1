// An opencode session inside a share payload (header line, then one record per line) reads back
// into the same session, and the chunked-mode settings travel in the link's simulator map.
import { describe, expect, it } from "vitest";
import { decodeSimulatorShare, encodeSimulatorShare } from "../../../../src/features/simulator/simulatorShare";
import type { SimulatorSettings } from "../../../../src/features/simulator/protocol";
import { readOpencodeExportText } from "../../../../src/core/agents/opencode/reader";
import { sessionLines } from "../../../../src/core/share/session-lines";
import { compaction, exportDocument, summary, user } from "./helpers";

describe("opencode sessions in share payloads", () => {
  it("the share lines read back to the same entries (the export document is rebuilt)", () => {
    const session = readOpencodeExportText(exportDocument([user("u1", "hello"), summary("s1", "u1", "sum"), compaction("c1", "u1")]), "export.json");
    const lines = sessionLines(session);
    expect(lines).toHaveLength(4);
    const again = readOpencodeExportText(lines.join("\n"), "export.json");
    expect(again.entries.map((e) => e.raw)).toEqual(session.entries.map((e) => e.raw));
    expect(again.header).toEqual(session.header);
    expect(again.warnings).toEqual([]);
  });

  it("a bad record line in share lines is reported, the others kept", () => {
    const session = readOpencodeExportText(exportDocument([user("u1", "hello"), user("u2", "again")]), "export.json");
    const lines = sessionLines(session);
    const again = readOpencodeExportText([lines[0], "{not json", lines[2]].join("\n"), "export.json");
    expect(again.entries.map((e) => e.id)).toEqual(["u2"]);
    expect(again.warnings.map((w) => w.reason).join(" ")).toContain("messages[0]");
  });

  it("the chunked mode and its limits round-trip through the simulator settings of a link", () => {
    const settings: SimulatorSettings = {
      turn: 6,
      policyId: "opencode",
      parameters: { compactionMode: "chunked", chunkMaxChunks: 3, chunkSummaryOutputTokens: 2048, chunkRollingSummaryTokens: 500 },
      summary: { kind: "default" },
      focus: null,
      limits: { contextWindow: 64576, maxOutputTokens: 4096 },
      reserve: null,
      manual: true,
      modelWindow: "recorded",
      agentDefaultContextWindow: null,
      providerDefaultContextWindow: null,
      instructions: null,
      inferred: null,
    };
    const shared = decodeSimulatorShare(encodeSimulatorShare(settings));
    expect(shared?.parameters).toEqual(settings.parameters);
    expect(shared?.limits).toEqual(settings.limits);
    expect(shared?.manual).toBe(true);
  });
});
