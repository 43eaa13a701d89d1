// A count with the word it counts, for every text a user reads (the page, the CLI, notes): "1
// message", "2 messages", "1,234 entries", rounded to a whole number with thousands separators.
// The one plural helper of the project: src/ui/words.ts and the view-models use it.

/**
 * The formatter, made on first use: the first Intl.NumberFormat of a process sets up the ICU
 * number data, some 20 ms of CPU, which a CLI command that never writes a count must not pay at
 * start-up (every module of the core is evaluated when the CLI starts).
 */
let whole: Intl.NumberFormat | undefined;

export function plural(count: number, word: string, many = `${word}s`): string {
  const rounded = Math.round(count);
  whole ??= new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
  return `${whole.format(rounded)} ${rounded === 1 ? word : many}`;
}
