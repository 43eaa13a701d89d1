// A session's prefix reports and compositions with exact o200k counts made on every core. A first
// walk (reports and compositions, counting chars/4) names every distinct text it needs counted and
// hands it to the token pool as it goes, so the workers count while it runs; the second walk, the
// one whose figures are printed, looks the counts up (precountedO200k). The figures are those of
// one walk with o200kCounter. Without a pool (`--tokenizer estimate`, one thread, no worker
// entry) it is one walk.
import type { PipelineOptions, Session } from "../core/model";
import type { SessionAnalysis } from "../core/pipeline/index";
import { iterateSessionPrefixCompositions, type PrefixComposition } from "../core/pipeline/sessionPrefixCompositions";
import type { TokenizerChoice } from "../core/tokens/counters";
import { collectingO200k, precountedO200k } from "../core/tokens/precounted";
import type { SegmentCache } from "../core/prefix/segment-builder";
import type { TokenPool } from "./threads/tokenPool";

export interface ParallelPrefixOptions {
  tokenizer: TokenizerChoice;
  /** The threads counting tokens; null: everything is counted on this thread, in one walk. */
  pool: TokenPool | null;
  analysis?: SessionAnalysis;
  segmentCache?: SegmentCache;
}

export async function sessionPrefixCompositions(
  session: Session,
  pipeline: PipelineOptions,
  options: ParallelPrefixOptions,
): Promise<Iterable<PrefixComposition>> {
  const { tokenizer, analysis, segmentCache, pool } = options;
  const walk = (o200kSource?: ReturnType<typeof collectingO200k>) =>
    iterateSessionPrefixCompositions(session, pipeline, { tokenizer, analysis, segmentCache, ...(o200kSource ? { o200kSource } : {}) });
  if (!pool || tokenizer === "estimate") return walk();
  let collected = 0;
  const collecting = collectingO200k((text) => {
    collected++;
    pool.submit(text);
  });
  const firstWalk = [...walk(collecting)];
  const counts = await pool.finish();
  // No o200k text was asked for (every request counted by another counter, e.g. the Claude
  // estimate): the first walk's figures are already final, so the session is not walked again.
  if (collected === 0) return firstWalk;
  return walk(precountedO200k(counts));
}
