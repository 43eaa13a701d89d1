// Prices as versioned data and the functions that apply them (pure, reusable by every command).
//
//   priceUsage(usage, modelRef, table?)  → { status: "priced" | "partly priced" | "not priced", dollars, parts, … }
//   sumPriced(priced[])                  → a session's total with its status
//   priceRebilled(tokens, modelRef)      → what a prefix break cost (tokens written again instead of read)
//   turnCost(input) / sessionCost(inputs) → recorded, predicted and break cost of every turn, and the totals
//   applyPriceOverrides(table, edits)    → the table with the user's edits (marked `edited`)
//
// Prices are US dollars per million tokens. The rows come from a maintained dataset
// (@pydantic/genai-prices, dataset.ts — imported apart, by the worker and the CLI only, so the
// page's entry chunk does not carry it), under the user's edits.
export * from "./types";
export * from "./lookup";
export * from "./price";
export * from "./format";
export * from "./turns";
export * from "./variants";
export * from "./fromPrefix";
export * from "./accumulate";
export * from "./fromUsage";
export * from "./wholeSession";
