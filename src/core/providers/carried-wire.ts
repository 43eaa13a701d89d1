// A serializer's wire list carried from one request to the next (design §3 "never quadratic"): in
// a session walk, turn N+1's prepared messages are turn N's objects followed by a few new ones, so
// the wire items made for the shared messages are kept and only the rest are converted. The list
// is built in steps (one message, or a run of tool results that becomes one wire message); the
// step holding the last shared message is made again, since a run can grow with the next turn.
import type { LlmMessage } from "../model";

/**
 * One step: converts the message at `start` (and the ones it takes with it) into `wire`, returns
 * the index of the next message to convert. It may read `wire` but only append to it, and must
 * give the same items for the same messages every time. `carried.counter` is a number the steps
 * keep (the Responses shape's message index), restored with the steps that are kept.
 */
type WireStep<W> = (list: readonly LlmMessage[], start: number, wire: W[], carried: CarriedWire<W>) => number;

export class CarriedWire<W> {
  private config: string | null = null;
  private sources: LlmMessage[] = [];
  /** The list last built from when it was a growing one (TransformResult.growing). */
  private growingList: readonly LlmMessage[] | null = null;
  private wire: W[] = [];
  /** Per step: the index of its first message and the wire length before it. */
  private stepStarts: number[] = [];
  private stepWire: number[] = [];
  private stepCounter: number[] = [];
  /** A number the steps keep from one to the next (see WireStep). */
  counter = 0;

  /**
   * The wire items of `list` under `config` (what else the steps read) after `head`, as a new
   * array that the caller owns. `growing`: `list` only ever grows at its end, so when it is the
   * same array as last time, the messages already converted are still its first ones.
   */
  build(config: string, list: readonly LlmMessage[], step: WireStep<W>, head: readonly W[] = [], growing = false): W[] {
    let shared = 0;
    if (this.config !== config) {
      this.config = config;
    } else if (growing && list === this.growingList && this.sources.length <= list.length) {
      shared = this.sources.length;
    } else {
      const known = Math.min(this.sources.length, list.length);
      while (shared < known && this.sources[shared] === list[shared]) shared++;
    }
    this.growingList = growing ? list : null;
    // Keep the steps before the one that holds the last shared message; make that one again.
    let keep = this.stepStarts.length - 1;
    while (keep > 0 && this.stepStarts[keep]! > shared - 1) keep--;
    if (shared === 0 || keep < 0) keep = 0;
    const from = keep < this.stepStarts.length ? this.stepStarts[keep]! : 0;
    if (keep < this.stepStarts.length) {
      this.wire.length = this.stepWire[keep]!;
      this.counter = this.stepCounter[keep]!;
    } else if (keep === 0) {
      this.counter = 0;
    }
    this.stepStarts.length = keep;
    this.stepWire.length = keep;
    this.stepCounter.length = keep;
    this.sources.length = from;
    for (let i = from; i < list.length; ) {
      this.stepStarts.push(i);
      this.stepWire.push(this.wire.length);
      this.stepCounter.push(this.counter);
      const next = step(list, i, this.wire, this);
      for (let j = i; j < next; j++) this.sources.push(list[j]!);
      i = next;
    }
    return head.length > 0 ? head.concat(this.wire) : this.wire.slice();
  }
}
