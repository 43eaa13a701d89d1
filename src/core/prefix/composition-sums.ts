// A turn's composition (tokens by kind) carried over from the previous turn: in a session walk,
// turn N+1's context repeats turn N's messages and adds a few, so only the messages past the first
// one that differs are looked up and added, instead of every message of every turn (a lookup and
// an object per message, turns × context). The figures are those of tokenComposition.
import type { ContextMessage } from "../model";
import type { TokenCounter } from "../tokens/counters";
import { COMPOSITION_LABELS, compositionKind, countedAsSystemSegment, messageTokens, systemSegmentMessages, type CompositionKind } from "./composition";
import type { SegmentedRequest } from "./types";
import { carryOf } from "./segment-builder";
import { sharedHeadWith } from "../util/list-lineage";

const KIND_ORDER = Object.keys(COMPOSITION_LABELS) as CompositionKind[];

export interface CompositionSums {
  /** Tokens per kind, in the display order; kinds the request has none of are absent. */
  byKind: Partial<Record<CompositionKind, number>>;
  total: number;
  exact: boolean;
}

interface Sum {
  count: number;
  tokens: number;
}

/** Sums of one walk's turns, one `next` per turn, in order. */
export class CompositionCarry {
  private counter: TokenCounter | null = null;
  /** How many messages the last request's system segments were made of. */
  private systemMessages = 0;
  /** The previous turn's messages, rules, kinds and tokens by index. */
  private items: ContextMessage[] = [];
  private messages: object[] = [];
  private rules: string[] = [];
  private kinds: CompositionKind[] = [];
  private tokens: number[] = [];
  /** Whether each is a leading system prompt message (counted by the system segments, not here). */
  private leadingSystem: boolean[] = [];
  /** The previous turn's list itself, which the next one's may record it begins with. */
  private lastItems: readonly ContextMessage[] | null = null;
  /** Sums over every message of the previous turn. */
  private sums = new Map<CompositionKind, Sum>();

  next(segmented: SegmentedRequest, items: readonly ContextMessage[], counter: TokenCounter): CompositionSums {
    const systemMessages = systemSegmentMessages(segmented);
    // Which leading messages the system segments count depends on them: start over when it changes.
    if (counter !== this.counter || systemMessages !== this.systemMessages) {
      this.counter = counter;
      this.systemMessages = systemMessages;
      this.truncate(0);
    }
    // The first message that is not the previous turn's at the same index (same object, same rule).
    // The same item object first (a walk shares them between turns): one comparison, no lookups.
    // A list that records it begins with the previous turn's items (util/list-lineage.ts) needs
    // no comparison over them.
    const known = Math.min(this.messages.length, items.length);
    const recorded = this.lastItems ? sharedHeadWith(items, this.lastItems) : undefined;
    let same = recorded !== undefined ? Math.min(known, recorded) : 0;
    this.lastItems = items;
    while (same < known && (items[same] === this.items[same] || (items[same]!.message === this.messages[same] && items[same]!.provenance.rule === this.rules[same]))) same++;
    this.truncate(same);
    for (let i = same; i < items.length; i++) {
      const item = items[i]!;
      this.items.push(item);
      const kind = compositionKind(item);
      const tokens = messageTokens(item, counter);
      const leading = countedAsSystemSegment(kind, i, systemMessages, i === 0 || this.leadingSystem[i - 1]!);
      this.messages.push(item.message);
      this.rules.push(item.provenance.rule);
      this.kinds.push(kind);
      this.tokens.push(tokens);
      this.leadingSystem.push(leading);
      if (!leading) add(this.sums, kind, tokens);
    }
    // The segments before the message part (segment-builder.ts `carryMessages`) add tools and
    // system tokens; counted in four numbers, not a map per turn.
    const segments = segmented.segments;
    const end = carryOf(segmented)?.from ?? segments.length;
    let toolsCount = 0;
    let toolsTokens = 0;
    let systemCount = 0;
    let systemTokens = 0;
    for (let i = 0; i < end; i++) {
      const segment = segments.at(i)!;
      if (segment.level === "tools" || segment.level === "schema") {
        toolsCount++;
        toolsTokens += segment.tokens;
      } else if (segment.level === "system" && segment.view !== "header") {
        systemCount++;
        systemTokens += segment.tokens;
      }
    }
    const byKind: Partial<Record<CompositionKind, number>> = {};
    let total = 0;
    for (const kind of KIND_ORDER) {
      const own = this.sums.get(kind);
      const headCount = kind === "tools" ? toolsCount : kind === "system" ? systemCount : 0;
      if (headCount + (own?.count ?? 0) === 0) continue;
      const tokens = (kind === "tools" ? toolsTokens : kind === "system" ? systemTokens : 0) + (own?.tokens ?? 0);
      byKind[kind] = tokens;
      total += tokens;
    }
    return { byKind, total, exact: counter.exact };
  }

  /** Keeps the first `length` messages; their sums are recomputed when some are dropped. */
  private truncate(length: number): void {
    if (length === this.messages.length) return;
    this.items.length = length;
    this.messages.length = length;
    this.rules.length = length;
    this.kinds.length = length;
    this.tokens.length = length;
    this.leadingSystem.length = length;
    this.sums = new Map();
    for (let i = 0; i < length; i++) if (!this.leadingSystem[i]) add(this.sums, this.kinds[i]!, this.tokens[i]!);
  }
}

function add(sums: Map<CompositionKind, Sum>, kind: CompositionKind, tokens: number): void {
  const sum = sums.get(kind);
  if (sum) {
    sum.count += 1;
    sum.tokens += tokens;
  } else sums.set(kind, { count: 1, tokens });
}
