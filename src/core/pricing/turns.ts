// Costs of a session's turns: for each turn what the recorded usage cost, what the cache simulation
// predicts it cost (its predicted cache reads and writes; output as recorded, the simulation does
// not predict output), and what its prefix break cost (tokens re-billed); plus the session totals.
import type { ModelRefLike } from "./lookup";
import { priceRebilled, priceUsage, sumPriced, type PricedTotal } from "./price";
import type { PriceTable, PriceableUsage, PricedUsage } from "./types";

export interface TurnCostInput {
  turn: number;
  model: ModelRefLike | null;
  /** When the request was sent (ISO), for prices that changed on a date or differ by the hour. */
  at?: string | null;
  /** Usage the session recorded for the turn, normalised. */
  recorded: PriceableUsage | null;
  /** The cache simulation's input-side prediction (output is taken from `recorded`). */
  predicted: Omit<PriceableUsage, "output"> | null;
  /** Tokens the previous request had in its prefix that this one sends again after a break; 0 when none. */
  rebilledTokens: number;
}

export interface TurnCost {
  turn: number;
  recorded: PricedUsage;
  predicted: PricedUsage;
  /** Null when the turn does not break the prefix. */
  break: PricedUsage | null;
}

export interface SessionCost {
  turns: TurnCost[];
  recorded: PricedTotal;
  predicted: PricedTotal;
  breaks: PricedTotal;
}

export function turnCost(input: TurnCostInput, table: PriceTable): TurnCost {
  const predictedUsage: PriceableUsage | null = input.predicted ? { ...input.predicted, output: input.recorded?.output ?? 0 } : null;
  const predicted = priceUsage(predictedUsage, input.model, table, input.at);
  if (predictedUsage && !input.recorded && predicted.status === "priced") {
    // Without recorded output the prediction covers the input only.
    predicted.status = "partly priced";
    predicted.missing.push("output not recorded");
  }
  return {
    turn: input.turn,
    recorded: priceUsage(input.recorded, input.model, table, input.at),
    predicted,
    break: input.rebilledTokens > 0 ? priceRebilled(input.rebilledTokens, input.model, table, input.at) : null,
  };
}

export function sessionCost(inputs: readonly TurnCostInput[], table: PriceTable): SessionCost {
  const turns = inputs.map((input) => turnCost(input, table));
  return {
    turns,
    recorded: sumPriced(turns.map((t) => t.recorded)),
    predicted: sumPriced(turns.map((t) => t.predicted)),
    breaks: sumPriced(turns.flatMap((t) => (t.break ? [t.break] : []))),
  };
}
