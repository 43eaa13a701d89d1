// Prices as versioned data and the functions that apply them (pure, reusable by every command).
//
//   priceUsage(usage, modelRef, table?)  → { status: "priced" | "partly priced" | "not priced", dollars, parts, … }
//   sumPriced(priced[])                  → a session's total with its status
//   priceRebilled(tokens, modelRef)      → what a prefix break cost (tokens written again instead of read)
//   turnCost(input) / sessionCost(inputs) → recorded, predicted and break cost of every turn, and the totals
//   applyPriceOverrides(table, edits)    → the table with the user's edits (marked `edited`)
//
// The table (prices-data.ts) is US dollars per million tokens, each row with its source and date.
export * from "./types";
export * from "./lookup";
export * from "./price";
export * from "./format";
export * from "./turns";
export { BUILTIN_PRICE_TABLE, PRICES_AS_OF } from "./prices-data";
export * from "./fromPrefix";
export * from "./accumulate";
export * from "./fromUsage";
