// A session's prefix reports with exact o200k counts made on every core: a first pass of the
// analysis collects the distinct texts (counting chars/4) and hands them to the token pool as it
// goes, so the workers count while it runs; the second pass, the one whose reports are used,
// looks the counts up (precountedO200k). The reports are the same as a one-pass analysis with
// o200kCounter. With `--tokenizer estimate`, one thread, or no worker entry, it is one pass.
import type { PipelineOptions, Session } from "../core/model";
import type { SessionAnalysis } from "../core/pipeline/index";
import { iterateSessionPrefixes } from "../core/pipeline/sessionPrefixes";
import type { PrefixTurnReport } from "../core/prefix/analyze";
import type { TokenizerChoice } from "../core/tokens/counters";
import { collectingO200k, precountedO200k } from "../core/tokens/precounted";
import type { SegmentCache } from "../core/prefix/segment-builder";
import { createTokenPool } from "./threads/tokenPool";

export interface ParallelPrefixOptions {
  tokenizer: TokenizerChoice;
  /** Threads counting tokens (1: count on this thread). */
  threads: number;
  analysis?: SessionAnalysis;
  /** Segment cache of the reports' pass, shared with a walk beside it (the composition walk). */
  segmentCache?: SegmentCache;
}

export async function sessionPrefixReports(
  session: Session,
  pipeline: PipelineOptions,
  options: ParallelPrefixOptions,
): Promise<Iterable<PrefixTurnReport>> {
  const { tokenizer, analysis, segmentCache } = options;
  const pool = tokenizer === "estimate" ? null : createTokenPool(options.threads);
  if (!pool) return iterateSessionPrefixes(session, pipeline, { analysis, prefix: { tokenizer, segmentCache } });
  let collected = 0;
  const collecting = collectingO200k((text) => {
    collected++;
    pool.submit(text);
  });
  const firstPass = [...iterateSessionPrefixes(session, pipeline, { analysis, prefix: { tokenizer, o200kSource: collecting, segmentCache } })];
  const counts = await pool.finish();
  // No o200k text was asked for (every request counted by another counter, e.g. the Claude
  // estimate): the first pass's reports are already final, so the session is not walked again.
  if (collected === 0) return firstPass;
  return iterateSessionPrefixes(session, pipeline, { analysis, prefix: { tokenizer, o200kSource: precountedO200k(counts), segmentCache } });
}
