// The cost and composition fields the `prefix` and `requests` lines carry: each turn's recorded,
// predicted and break cost (src/core/pricing, built-in price table) and its context tokens by kind.
import type { TurnComposition } from "../core/session/sessionComposition";
import type { PricedUsage, TurnCost } from "../core/pricing/index";

function pricedField(priced: PricedUsage): Record<string, unknown> {
  // Built key by key, not spread: `prefix` prints one per part of every turn (the keys' order is the line's).
  const field: Record<string, unknown> = { status: priced.status, dollars: priced.dollars };
  if (priced.missing.length > 0) field.missing = priced.missing;
  // Only on turns priced at a long-context tier, so other lines keep their shape.
  if (priced.longContext) field.longContext = priced.longContext;
  return field;
}

/** `{"recorded":{status,dollars},"predicted":{…},"break":{status,dollars,rebilledTokens}|null,"priceRow":…}` */
export function costField(cost: TurnCost, include: { predicted: boolean }): Record<string, unknown> {
  const field: Record<string, unknown> = { recorded: pricedField(cost.recorded) };
  if (include.predicted) {
    field.predicted = pricedField(cost.predicted);
    if (cost.break) {
      const rebilled = pricedField(cost.break);
      rebilled.rebilledTokens = cost.rebilledTokens;
      field.break = rebilled;
    } else field.break = null;
  }
  field.priceRow = cost.recorded.row ?? cost.predicted.row;
  return field;
}

/** `{"tools":N,"system":N,"user":N,…,"total":N}`: the turn's tokens by kind. */
export function compositionField(composition: TurnComposition | undefined): Record<string, number> | null {
  if (!composition) return null;
  return { ...composition.byKind, total: composition.total } as Record<string, number>;
}
