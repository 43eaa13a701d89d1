// A count with the word it counts, for every text a user reads (the page, the CLI, notes): "1
// message", "2 messages", "1,234 entries", rounded to a whole number with thousands separators.
// The one plural helper of the project: src/ui/words.ts and the view-models use it.

const whole = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

export function plural(count: number, word: string, many = `${word}s`): string {
  const rounded = Math.round(count);
  return `${whole.format(rounded)} ${rounded === 1 ? word : many}`;
}
