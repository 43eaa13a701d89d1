// The deepseek-harness fixtures of test/fixtures/deepseek-harness: the recorded session (its
// Zstandard artifact, the decoded text beside it, the recorded requests) and the hand-written
// parent and fork child with a failed compaction.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Session } from "../../../../src/core/model";
import { readSessionBytes, readSessionText } from "../../../../src/core/session/index";
import { headRole } from "../../../../src/core/intake/index";
import { findSessionFile, fixtureCase } from "../../../support/fixtures";

export const recorded = fixtureCase("deepseek-harness/headless-deepseek-manualcompact");
const forked = fixtureCase("deepseek-harness/fork-failed-compaction");

const decoder = new TextDecoder();

export const zstdPath = () => findSessionFile(recorded.path("session"), ".jsonl.zstd");
export const decodedPath = () => findSessionFile(recorded.path("session-decoded"), ".jsonl");

/** The recorded artifact read from its bytes (the decoder loaded first). */
export async function readRecorded(): Promise<Session> {
  const bytes = readFileSync(zstdPath());
  const role = headRole(bytes);
  if (role.kind !== "compressed") throw new Error("the recorded artifact is not compressed");
  await role.container.loadDecoder();
  return readSessionBytes(bytes, "session.jsonl.zstd", (line) => decoder.decode(line));
}

export function readForked(id: "session-parent-1" | "session-child-1"): Session {
  const file = forked.path(path.join("session/--home-dev-demo--", id, "session.jsonl"));
  return readSessionText(readFileSync(file, "utf8"), "session.jsonl");
}
