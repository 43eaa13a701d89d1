// The cost and composition fields the `prefix` and `requests` lines carry: each turn's recorded,
// predicted and break cost (src/core/pricing, built-in price table) and its context tokens by kind.
import type { TurnComposition } from "../core/session/sessionComposition";
import type { PricedUsage, TurnCost } from "../core/pricing/index";

function pricedField(priced: PricedUsage): Record<string, unknown> {
  return {
    status: priced.status,
    dollars: priced.dollars,
    ...(priced.missing.length > 0 ? { missing: priced.missing } : {}),
    // Only on turns priced at a long-context tier, so other lines keep their shape.
    ...(priced.longContext ? { longContext: priced.longContext } : {}),
  };
}

/** `{"recorded":{status,dollars},"predicted":{…},"break":{status,dollars,rebilledTokens}|null,"priceRow":…}` */
export function costField(cost: TurnCost, include: { predicted: boolean }): Record<string, unknown> {
  return {
    recorded: pricedField(cost.recorded),
    ...(include.predicted
      ? {
          predicted: pricedField(cost.predicted),
          break: cost.break ? { ...pricedField(cost.break), rebilledTokens: cost.rebilledTokens } : null,
        }
      : {}),
    priceRow: cost.recorded.row ?? cost.predicted.row,
  };
}

/** `{"tools":N,"system":N,"user":N,…,"total":N}`: the turn's tokens by kind. */
export function compositionField(composition: TurnComposition | undefined): Record<string, number> | null {
  if (!composition) return null;
  return { ...composition.byKind, total: composition.total } as Record<string, number>;
}
