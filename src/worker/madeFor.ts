// What a result of the worker was made for: the open run whose session it describes and the
// options it was made with. The page keeps a result only while that session and those options are
// the ones on screen (src/page/workerBridge.ts `isForShown`), so a pass of an earlier session that
// lands late, or one the page asked for before the session changed, never shows up as this one's.
import type { PipelineOptions } from "../core/model";
import { optionsKey } from "./sessionHost";

export interface MadeFor {
  /** The open run that read the session (SessionSummary.runId). */
  runId: number;
  /** The options' cache key (JSON of the pipeline options). */
  options: string;
}

export function madeFor(runId: number, options: PipelineOptions): MadeFor {
  return { runId, options: optionsKey(options) };
}
