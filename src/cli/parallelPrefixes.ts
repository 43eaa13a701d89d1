// A session's prefix reports and compositions with exact o200k counts made on every core. A first
// walk (reports and compositions, counting chars/4) names every distinct text it needs counted and
// hands it to the token pool as it goes, so the workers count while it runs; the second walk, the
// one whose figures are printed, looks the counts up (precountedO200k). The second walk goes turn
// by turn as soon as the batches holding that turn's texts are counted (the first walk noted,
// after each turn, how many batches its texts filled), and this thread counts batches itself
// between turns, so walking and counting overlap instead of following each other. The figures
// are those of one walk with o200kCounter. Without a pool (`--tokenizer estimate`, one thread,
// no worker entry) it is one walk. Every walk counts each distinct text once: the prefix pass and
// the compositions ask for the same texts (a segment's text, then the message it came from).
import type { PipelineOptions, Session } from "../core/model";
import type { SessionAnalysis } from "../core/session/pipeline";
import { iterateSessionPrefixCompositions, type PrefixComposition } from "../core/session/sessionPrefixCompositions";
import type { TokenCounter, TokenizerChoice } from "../core/tokens/counters";
import { collectingO200k, precountedClaude, precountedO200k } from "../core/tokens/precounted";
import { textDigest } from "../core/tokens/textDigest";
import type { SegmentCache } from "../core/prefix/segment-builder";
import type { TokenPool } from "./threads/tokenPool";

/**
 * Characters the first walk may have named and not yet had counted. The walk names texts about
 * twice as fast as two cores count them: unbounded, a 1 GB session peaked at 4.4 GB of copies
 * queued for the threads; bounded so, at 0.94 GB, with the same time.
 */
const PENDING_CHARS = 8 * 1024 * 1024;

export interface ParallelPrefixOptions {
  tokenizer: TokenizerChoice;
  /** The threads counting tokens; null: everything is counted on this thread, in one walk. */
  pool: TokenPool | null;
  analysis?: SessionAnalysis;
  segmentCache?: SegmentCache;
  /** Awaited after the first walk, before this thread counts (it loads the tables it needs then). */
  beforeCounting?: () => Promise<void>;
}

export async function sessionPrefixCompositions(
  session: Session,
  pipeline: PipelineOptions,
  options: ParallelPrefixOptions,
): Promise<Iterable<PrefixComposition> | AsyncIterable<PrefixComposition>> {
  const { tokenizer, analysis, segmentCache, pool } = options;
  if (tokenizer === "estimate") return iterateSessionPrefixCompositions(session, pipeline, { tokenizer, analysis, segmentCache });
  // The prefix pass and the compositions ask for the same texts: every walk counts each once.
  const claudeSource = precountedClaude(new Map(), textDigest, true);
  const walk = (o200kSource: TokenCounter) =>
    iterateSessionPrefixCompositions(session, pipeline, { tokenizer, analysis, segmentCache, o200kSource, claudeSource });
  if (!pool) return walk(precountedO200k(new Map(), textDigest, true));
  let collected = 0;
  // This thread counts only once the table is loaded, the first time it must count.
  let tablesLoaded: Promise<void> | null = null;
  const beforeCounting = () => (tablesLoaded ??= options.beforeCounting?.() ?? Promise.resolve());
  // A text made of parts is named by them: a part kept as bytes goes to the threads as its bytes.
  const collecting = collectingO200k(
    (text) => {
      collected++;
      pool.submit(text);
    },
    textDigest,
    (parts, key) => {
      collected++;
      pool.submitParts(parts, key);
    },
  );
  // Kept only while no o200k text has been asked for: then the first walk's figures are final.
  let firstWalk: PrefixComposition[] | null = [];
  /** After each turn of the first walk: the batches its texts (and every earlier turn's) are in. */
  const batchesByTurn: number[] = [];
  for (const item of walk(collecting)) {
    if (collected === 0) firstWalk?.push(item);
    else firstWalk = null;
    batchesByTurn.push(pool.batchesSubmitted);
    // Texts named faster than they are counted wait as copies in the workers' queues: past
    // PENDING_CHARS this thread counts batches too, or waits for the workers, before going on.
    while (pool.pendingChars > PENDING_CHARS) {
      pool.flush();
      await beforeCounting();
      if (!pool.countNext()) await pool.nextReply();
      else await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  // No o200k text was asked for (every request counted by another counter, e.g. the Claude
  // estimate): the first walk's figures are already final, so the session is not walked again.
  if (collected === 0 && firstWalk) return firstWalk;
  await beforeCounting();
  // Too few texts for the workers to have started: this thread counts them in the second walk.
  if (pool.started === 0) return walk(precountedO200k(await pool.finish(), textDigest, true));
  pool.flush();
  return walkAsCounted(walk(precountedO200k(pool.counts, textDigest, true)), batchesByTurn, pool);
}

/** Yields each turn of `second` once the batches it needs are counted, counting batches meanwhile. */
async function* walkAsCounted(
  second: Iterable<PrefixComposition>,
  batchesByTurn: readonly number[],
  pool: TokenPool,
): AsyncGenerator<PrefixComposition> {
  const turns = second[Symbol.iterator]();
  for (let turn = 0; ; turn++) {
    const needed = batchesByTurn[Math.min(turn, batchesByTurn.length - 1)] ?? 0;
    while (!pool.countedBelow(needed)) {
      // A batch counted here lets the workers' replies in before the next check.
      if (pool.countNext()) await new Promise<void>((resolve) => setImmediate(resolve));
      else await pool.nextReply();
    }
    const step = turns.next();
    if (step.done) return;
    yield step.value;
  }
}
