// Costs of a session's turns: for each turn what the recorded usage cost, what the cache simulation
// predicts it cost (its predicted cache reads and writes; output as recorded, the simulation does
// not predict output), and what its prefix break cost (tokens re-billed); plus the session totals.
import type { ModelRefLike } from "./lookup";
import { priceRebilled, priceUsage, priceUsageTotal, sumPriced, type PricedSummand, type PricedTotal } from "./price";
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
  /** Tokens a break made the provider bill again (`rebilledTokensOf`); 0 when none. */
  rebilledTokens: number;
}

export interface TurnCost {
  turn: number;
  recorded: PricedUsage;
  predicted: PricedUsage;
  /** Null when the turn does not break the prefix. */
  break: PricedUsage | null;
  /** The tokens the break made the provider bill again (0 without a break), priced or not. */
  rebilledTokens: number;
}

export interface SessionCost {
  recorded: PricedTotal;
  predicted: PricedTotal;
  breaks: PricedTotal;
  /**
   * The cost of turn `turn` (numbered from 1), priced when asked: a view shows a few turns at a
   * time, and a row kept per turn would hold tens of megabytes for a session of 40,000 turns.
   */
  turn(turn: number): TurnCost | null;
}

/** Turns' costs remembered between asks (a view shows the same rows again as it redraws). */
const REMEMBERED_TURN_COSTS = 2048;

/** The prediction's usage: its input side, with the recorded output (the simulation predicts no output). */
function predictedUsageOf(input: TurnCostInput): PriceableUsage | null {
  return input.predicted ? { ...input.predicted, output: input.recorded?.output ?? 0 } : null;
}

/** Without recorded output a priced prediction covers the input only: it is partly priced. */
function lacksOutput(input: TurnCostInput, predicted: PricedSummand): boolean {
  return Boolean(input.predicted) && !input.recorded && predicted.status === "priced";
}

/**
 * A turn's recorded, predicted and break cost. `withParts` false leaves the recorded and predicted
 * parts empty, for a line that prints their status and dollars only (`prefix` prints one per turn).
 */
export function turnCost(input: TurnCostInput, table: PriceTable, withParts = true): TurnCost {
  const predicted = priceUsage(predictedUsageOf(input), input.model, table, input.at, withParts);
  if (lacksOutput(input, predicted)) {
    predicted.status = "partly priced";
    predicted.missing.push("output not recorded");
  }
  return {
    turn: input.turn,
    recorded: priceUsage(input.recorded, input.model, table, input.at, withParts),
    predicted,
    break: input.rebilledTokens > 0 ? priceRebilled(input.rebilledTokens, input.model, table, input.at) : null,
    rebilledTokens: input.rebilledTokens,
  };
}

/** The session's totals, priced turn by turn without keeping the turns' rows; each turn's on demand. */
export function sessionCost(inputs: readonly TurnCostInput[], table: PriceTable): SessionCost {
  const recorded: PricedSummand[] = [];
  const predicted: PricedSummand[] = [];
  const breaks: PricedSummand[] = [];
  for (const input of inputs) {
    // The totals need each turn's status and dollars only: no parts are made.
    recorded.push(priceUsageTotal(input.recorded, input.model, table, input.at));
    const prediction = priceUsageTotal(predictedUsageOf(input), input.model, table, input.at);
    predicted.push(lacksOutput(input, prediction) ? { status: "partly priced", dollars: prediction.dollars } : prediction);
    if (input.rebilledTokens > 0) {
      const rebilled = priceRebilled(input.rebilledTokens, input.model, table, input.at);
      breaks.push({ status: rebilled.status, dollars: rebilled.dollars });
    }
  }
  const remembered = new Map<number, TurnCost | null>();
  return {
    recorded: sumPriced(recorded),
    predicted: sumPriced(predicted),
    breaks: sumPriced(breaks),
    turn(turn) {
      let cost = remembered.get(turn);
      if (cost === undefined) {
        // Inputs are in turn order from 1; look further only when they are not.
        const input = inputs[turn - 1]?.turn === turn ? inputs[turn - 1] : inputs.find((candidate) => candidate.turn === turn);
        cost = input ? turnCost(input, table) : null;
        if (remembered.size >= REMEMBERED_TURN_COSTS) remembered.clear();
        remembered.set(turn, cost);
      }
      return cost;
    },
  };
}

