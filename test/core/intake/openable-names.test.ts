// The Open file picker's accept list names every compressed container the intake reads, and the
// plain files of every agent (lines, JSON documents, databases with their -wal).
import { describe, expect, it } from "vitest";
import { isContainerName } from "../../../src/core/intake/containers/index";
import { OPENABLE_ACCEPT, OPENABLE_EXTENSIONS } from "../../../src/core/intake/openableNames";

describe("the names the Open file picker accepts", () => {
  it("include every container name the intake knows, .zstd and .zst included", () => {
    for (const name of ["session.jsonl.zstd", "session.jsonl.zst", "session.jsonl.gz"]) {
      expect(isContainerName(name)).toBe(true);
      expect(OPENABLE_EXTENSIONS.some((extension) => name.endsWith(extension))).toBe(true);
    }
    // Every container-looking extension listed is one the intake reads as a container.
    const containers = OPENABLE_EXTENSIONS.filter((extension) => isContainerName(`x${extension}`));
    expect(containers.sort()).toEqual([".gz", ".zst", ".zstd"]);
  });

  it("include the agents' plain files and databases, as the accept attribute lists them", () => {
    const accept = OPENABLE_ACCEPT.split(",");
    for (const extension of [".jsonl", ".json", ".db", ".db-wal", ".sqlite", ".zstd", ".zst", ".gz"]) expect(accept).toContain(extension);
  });
});
