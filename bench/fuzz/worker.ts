// Worker thread of the fuzz run: holds the fixtures, makes each input from (fixture, family, seed)
// and runs it through every stage. The parent thread times each job and terminates this worker
// when one does not answer: that is how a hang is found and stopped.
import { parentPort, workerData } from "node:worker_threads";
import { UnsupportedFormatError } from "../../src/core/session/index";
import { depthFor, exerciseInput, StageError, lostValidLines, validLinesOf } from "./exercise";
import type { FuzzFixture } from "./fixtures";
import { mutate } from "./mutators";

export interface FuzzJob {
  fixture: number;
  family: string;
  seed: number;
}

export type FuzzJobResult =
  | { kind: "skipped" }
  | { kind: "ok"; turns: number; lost: number[] }
  /** The readers named why the file is not one of theirs (UnsupportedFormatError): a message, not a crash. */
  | { kind: "refused"; message: string }
  | { kind: "error"; stage: string; message: string; stack: string };

const fixtures = (workerData as { fixtures: FuzzFixture[] }).fixtures;
const validLines = fixtures.map((f) => validLinesOf(f.fileName, f.text));

parentPort!.on("message", (job: FuzzJob) => {
  const fixture = fixtures[job.fixture]!;
  const text = mutate(fixture.text, job.family, job.seed);
  if (text === null) {
    parentPort!.postMessage({ kind: "skipped" } satisfies FuzzJobResult);
    return;
  }
  let result: FuzzJobResult;
  try {
    const run = exerciseInput(fixture.fileName, text, { variant: job.seed, depth: depthFor(job.seed, job.family) });
    const valid = validLines[job.fixture];
    result = { kind: "ok", turns: run.turns, lost: valid ? lostValidLines(valid, text, run.session) : [] };
  } catch (error) {
    if (error instanceof StageError && error.original instanceof UnsupportedFormatError) {
      parentPort!.postMessage({ kind: "refused", message: error.original.message } satisfies FuzzJobResult);
      return;
    }
    const err = error as Error & { stage?: string };
    result = { kind: "error", stage: err.stage ?? "?", message: err.message ?? String(error), stack: (err.stack ?? "").split("\n").slice(0, 8).join("\n") };
  }
  parentPort!.postMessage(result);
});
parentPort!.postMessage({ kind: "ready" });
