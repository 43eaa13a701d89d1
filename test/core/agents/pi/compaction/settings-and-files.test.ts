// Caps and trigger (PI-K5, PI-K24, PI-K27; spec §6 rows 12–14), file operations and the summary
// assembly (PI-K19, PI-K29, PI-K30).
import { describe, expect, it } from "vitest";
import {
  historySummaryCap,
  shouldCompact,
  turnPrefixSummaryCap,
  DEFAULT_COMPACTION_SETTINGS,
} from "../../../../../src/core/agents/pi/compaction/settings";
import {
  collectFileOperations,
  computeFileLists,
  emptyFileOperations,
  formatFileLists,
  inheritFileOperations,
} from "../../../../../src/core/agents/pi/compaction/file-operations";
import { assembleCompactionSummary, splitCompactionSummary } from "../../../../../src/core/agents/pi/compaction/summary";
import { loadPiFixture } from "./fixture-sessions";

describe("caps and trigger", () => {
  it("row 12: window 200000, reserve 16384 → 183617 compacts, 183616 does not", () => {
    expect(shouldCompact(183617, 200000, DEFAULT_COMPACTION_SETTINGS)).toBe(true);
    expect(shouldCompact(183616, 200000, DEFAULT_COMPACTION_SETTINGS)).toBe(false);
    expect(shouldCompact(999999, 200000, DEFAULT_COMPACTION_SETTINGS, false)).toBe(false);
  });
  it("row 13: reserve 16384 → summary cap 13107, turn-prefix cap 8192; fixtures 9280/5800 and 3200/2000", () => {
    expect(historySummaryCap(16384, "pi")).toBe(13107);
    expect(turnPrefixSummaryCap(16384, "pi")).toBe(8192);
    expect([historySummaryCap(11600, "pi"), turnPrefixSummaryCap(11600, "pi")]).toEqual([9280, 5800]);
    expect([historySummaryCap(4000, "pi"), turnPrefixSummaryCap(4000, "pi")]).toEqual([3200, 2000]);
  });
  it("row 14: senpi clamps to the model limit, pi does not", () => {
    expect(historySummaryCap(16384, "senpi", { maxTokens: 8192 })).toBe(8192);
    expect(historySummaryCap(16384, "pi", { maxTokens: 8192 })).toBe(13107);
    expect(historySummaryCap(11600, "pi", { maxTokens: 4000 })).toBe(9280);
    expect(historySummaryCap(16384, "senpi", { maxTokens: 0 })).toBe(13107);
  });
});

describe("file operations (PI-K19)", () => {
  it("read/write/edit by path; modified = edited ∪ written; read-only excludes modified; sorted by code units", () => {
    const ops = emptyFileOperations();
    collectFileOperations(
      {
        role: "assistant",
        content: [
          { type: "toolCall", id: "1", name: "read", arguments: { path: "/b" } },
          { type: "toolCall", id: "2", name: "read", arguments: { path: "/a" } },
          { type: "toolCall", id: "3", name: "read", arguments: { path: "/Z" } },
          { type: "toolCall", id: "4", name: "edit", arguments: { path: "/a" } },
          { type: "toolCall", id: "5", name: "write", arguments: { path: "/w" } },
          { type: "toolCall", id: "6", name: "bash", arguments: { path: "/ignored" } },
          { type: "toolCall", id: "7", name: "read", arguments: { file: "/no-path-arg" } },
        ],
      },
      ops,
    );
    collectFileOperations({ role: "user", content: "read /x" }, ops);
    expect(computeFileLists(ops)).toEqual({ readFiles: ["/Z", "/b"], modifiedFiles: ["/a", "/w"] });
  });

  it("inherits the previous details: readFiles → read, modifiedFiles → edited", () => {
    const ops = emptyFileOperations();
    inheritFileOperations({ readFiles: ["/r", "/m2"], modifiedFiles: ["/m"] }, ops);
    collectFileOperations({ role: "assistant", content: [{ type: "toolCall", id: "1", name: "write", arguments: { path: "/m2" } }] }, ops);
    expect(computeFileLists(ops)).toEqual({ readFiles: ["/r"], modifiedFiles: ["/m", "/m2"] });
  });

  it("PI-K30 sections: nothing when empty, read first, each block closed", () => {
    expect(formatFileLists({ readFiles: [], modifiedFiles: [] })).toBe("");
    expect(formatFileLists({ readFiles: ["/a", "/b"], modifiedFiles: [] })).toBe("\n\n<read-files>\n/a\n/b\n</read-files>");
    expect(formatFileLists({ readFiles: ["/a"], modifiedFiles: ["/m"] })).toBe(
      "\n\n<read-files>\n/a\n</read-files>\n\n<modified-files>\n/m\n</modified-files>",
    );
  });
});

describe("summary assembly (PI-K29, PI-K30)", () => {
  it("split turn without history: 'No prior history.' + separator + prefix text + file lists", () => {
    const summary = assembleCompactionSummary({ historyText: null, turnPrefixText: "P", fileLists: { readFiles: ["/r"], modifiedFiles: [] } });
    expect(summary).toBe("No prior history.\n\n---\n\n**Turn Context (split turn):**\n\nP\n\n<read-files>\n/r\n</read-files>");
  });

  it("every recorded fixture summary splits into parts that reassemble to it, with the stored details", () => {
    for (const name of ["print-openai-autocompact", "rpc-anthropic-manualcompact"] as const) {
      for (const entry of loadPiFixture(name).session.entries.filter((e) => e.type === "compaction")) {
        const summary = entry.raw.summary as string;
        const details = entry.raw.details as { readFiles: string[]; modifiedFiles: string[] };
        const parts = splitCompactionSummary(summary);
        expect(parts.fileListText).toBe(formatFileLists(details));
        const rebuilt = assembleCompactionSummary({
          historyText: parts.turnPrefixText !== null && parts.historyText === "No prior history." ? null : parts.historyText,
          turnPrefixText: parts.turnPrefixText,
          fileLists: details,
        });
        expect(rebuilt).toBe(summary);
      }
    }
  });
});
