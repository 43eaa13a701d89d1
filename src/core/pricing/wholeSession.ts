// The cost of a whole session: its main thread and every sub-agent thread, each thread's recorded
// usage priced turn by turn (long-context tiers and dated prices apply per request), with the
// per-thread breakdown and the models no price was found for. The page's top bar, the price panel
// and the one-glance summary show this; a thread's own cost is one line of it.
import type { RecordedUsage } from "../model";
import type { ModelRefLike } from "./lookup";
import { priceUsage, sumPriced, type PricedTotal } from "./price";
import { priceableOfUsage } from "./fromUsage";
import type { PriceTable } from "./types";

/** One provider call of a thread, as much as pricing needs. */
export interface CostTurn {
  model: ModelRefLike | null;
  /** When it was sent (ISO), for dated prices; null when the file does not say. */
  at: string | null;
  usage: RecordedUsage | null;
  /** The provider's id of the call, when the file records one (TurnSummary.callId). */
  callId?: string;
}

/** One thread's calls: the main thread has `id` null. */
export interface ThreadCostInput {
  id: string | null;
  label: string;
  turns: CostTurn[];
  /** Set when `turns` are not the calls but the totals a storage records per session, saying so. */
  countedAs?: string;
  /** Calls of this thread's file that replay a call an earlier thread counts (the same call id), left out of `turns`. */
  replayed?: number;
}

interface ThreadCostLine {
  id: string | null;
  label: string;
  turns: number;
  /** Calls that recorded no usage (not counted in the dollars). */
  withoutUsage: number;
  recorded: PricedTotal;
  /** Set when the figures are a storage's per-session totals, not the calls' own usage. */
  countedAs?: string;
  /** Calls the thread's file replays from an earlier thread, counted there and not here. */
  replayed?: number;
}

export interface WholeSessionCost {
  /** Every thread's recorded usage priced, summed. */
  total: PricedTotal;
  /** The main thread first, then the sub-agent threads in tree order. */
  threads: ThreadCostLine[];
  /** Model names (as the session records them) that no row prices, each once. */
  unpricedModels: string[];
  /** Calls in all, and those that recorded usage (0: the file records no usage to price). */
  calls: number;
  callsWithUsage: number;
}

export function wholeSessionCost(threads: readonly ThreadCostInput[], table: PriceTable): WholeSessionCost {
  const unpriced = new Set<string>();
  const all: { status: PricedTotal["status"]; dollars: number | null }[] = [];
  const lines = threads.map((thread): ThreadCostLine => {
    const priced = [];
    let withoutUsage = 0;
    for (const turn of thread.turns) {
      if (!turn.usage) {
        withoutUsage++;
        continue;
      }
      const cost = priceUsage(priceableOfUsage(turn.usage), turn.model, table, turn.at);
      if (cost.row === null) unpriced.add(turn.model ? `${turn.model.provider}/${turn.model.modelId}` : "unknown model");
      priced.push(cost);
      all.push(cost);
    }
    const line: ThreadCostLine = { id: thread.id, label: thread.label, turns: thread.turns.length, withoutUsage, recorded: totalOf(priced) };
    if (thread.countedAs) line.countedAs = thread.countedAs;
    if (thread.replayed) line.replayed = thread.replayed;
    return line;
  });
  const calls = lines.reduce((sum, line) => sum + line.turns, 0);
  return { total: totalOf(all), threads: lines, unpricedModels: [...unpriced], calls, callsWithUsage: all.length };
}

/** A sum that is an honest $0 when nothing recorded usage (a thread of calls without usage). */
function totalOf(items: readonly { status: PricedTotal["status"]; dollars: number | null }[]): PricedTotal {
  if (items.length === 0) return { status: "priced", dollars: 0, priced: 0, partly: 0, notPriced: 0 };
  return sumPriced(items);
}
