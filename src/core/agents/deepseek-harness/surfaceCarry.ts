// What a surface list's nodes derive to, carried from request to request: requests share their
// surface list while it only grows (a replacement makes a new one, sessionIndex.ts), so each
// node's messages, entry id and characters are taken once per list instead of once per request
// (thousands of requests of hundreds of nodes), and a request's figures are read at its length
// (running totals) instead of summed over its whole context.
import type { ContextMessage, LlmMessage, Session } from "../../model";
import { llmMessageChars } from "../pi/convert";
import { deriveContextMessages } from "./messages";
import type { HarnessIndex, StepRequest } from "./sessionIndex";
import { wireMessage } from "./wire";

/** Each checkpoint node's compaction (its place in `index.compactions`; the newest when several). */
const checkpointOrders = new WeakMap<HarnessIndex, Map<number, number>>();

function checkpointOrderOf(index: HarnessIndex): Map<number, number> {
  let orders = checkpointOrders.get(index);
  if (!orders) {
    orders = new Map();
    index.compactions.forEach((record, order) => {
      if (record.checkpoint !== null) orders!.set(record.checkpoint, order);
    });
    checkpointOrders.set(index, orders);
  }
  return orders;
}

export class SurfaceCarry {
  /** The context messages of the nodes taken so far, in order. */
  readonly messages: ContextMessage[] = [];
  /** The same messages' LLM messages (a wire list is built from them, carried-wire.ts). */
  readonly llm: LlmMessage[] = [];
  /** The messages' wire forms, made when first asked for (`wireAt`): a walk's body reads them. */
  private readonly wire: (Record<string, unknown> | undefined)[] = [];
  /** `ends[k]`: how many messages the first k + 1 nodes make. */
  readonly ends: number[] = [];
  readonly ids: string[] = [];
  /** `charEnds[k]`: the characters of the first `ends[k]` messages (taken when asked, `charsAt`). */
  private readonly charEnds: number[] = [];
  /** The checkpoint nodes met, in list order: each one's first place in the list… */
  private readonly checkpointAts: number[] = [];
  /** …and the newest compaction place among it and the checkpoints before it (a running maximum). */
  private readonly newestOrders: number[] = [];
  private readonly seen = new Set<number>();
  /** Each node's messages, taken once: the same objects wherever the node stands in the list. */
  private readonly derived = new Map<number, ContextMessage[]>();
  /**
   * The carry of the list before (a compaction replaced part of it): the nodes it kept are still
   * its objects. Only that list's own nodes are kept, not the lists before it, so a walk holds the
   * messages of two lists at most instead of every message of the session.
   */
  private readonly inherited: ReadonlyMap<number, ContextMessage[]> | null;

  constructor(
    readonly surface: readonly number[],
    previous: SurfaceCarry | null = null,
  ) {
    this.inherited = previous === null ? null : previous.derived;
  }

  /** Takes the nodes up to `length` (the list's first `length` items). */
  extend(session: Session, index: HarnessIndex, length: number): void {
    if (this.ends.length >= length) return;
    const orders = checkpointOrderOf(index);
    for (let at = this.ends.length; at < length; at++) {
      const node = this.surface[at]!;
      const entry = session.entries[node]!;
      let derived = this.derived.get(node);
      if (derived === undefined) {
        derived = this.inherited?.get(node) ?? deriveContextMessages(entry, index.toolNames);
        this.derived.set(node, derived);
      }
      for (const message of derived) {
        this.messages.push(message);
        this.llm.push(message.message);
      }
      this.ends.push(this.messages.length);
      this.ids.push(entry.id);
      if (!this.seen.has(node)) {
        this.seen.add(node);
        const order = orders.get(node);
        if (order !== undefined) {
          const before = this.newestOrders.length > 0 ? this.newestOrders[this.newestOrders.length - 1]! : -1;
          this.checkpointAts.push(at);
          this.newestOrders.push(Math.max(before, order));
        }
      }
    }
  }

  /** The wire form of the message at `at` (taken nodes only), the same object every time. */
  wireAt(at: number): Record<string, unknown> {
    let wire = this.wire[at];
    if (wire === undefined) {
      wire = wireMessage(this.llm[at]!);
      this.wire[at] = wire;
    }
    return wire;
  }

  /** How many messages the first `length` nodes make. */
  countAt(length: number): number {
    return length === 0 ? 0 : this.ends[length - 1]!;
  }

  /** The characters of the first `length` nodes' messages (taken nodes only). */
  charsAt(length: number): number {
    for (let at = this.charEnds.length; at < length; at++) {
      let chars = at > 0 ? this.charEnds[at - 1]! : 0;
      for (let m = at > 0 ? this.ends[at - 1]! : 0; m < this.ends[at]!; m++) chars += llmMessageChars(this.llm[m]!);
      this.charEnds.push(chars);
    }
    return length === 0 ? 0 : this.charEnds[length - 1]!;
  }

  /** The place in `index.compactions` of the newest compaction whose checkpoint is among the first `length` nodes, or -1. */
  newestCompactionAt(length: number): number {
    // The last checkpoint placed before `length` (places grow along the list): a binary search,
    // so a request costs the same however many compactions came before it.
    let low = 0;
    let high = this.checkpointAts.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.checkpointAts[middle]! < length) low = middle + 1;
      else high = middle;
    }
    return low === 0 ? -1 : this.newestOrders[low - 1]!;
  }
}

const carries = new WeakMap<HarnessIndex, SurfaceCarry>();

/**
 * The carry of a request's surface list, extended to the request's length: one per session
 * index, for the list of the last request asked for (requests are mostly asked for in order; the
 * lists left behind are not kept alive, and a request of another list starts a new carry).
 */
export function surfaceCarryOf(session: Session, index: HarnessIndex, request: StepRequest): SurfaceCarry {
  let carry = carries.get(index);
  if (!carry || carry.surface !== request.surface) {
    carry = new SurfaceCarry(request.surface, carry ?? null);
    carries.set(index, carry);
  }
  carry.extend(session, index, request.surfaceLength);
  return carry;
}
