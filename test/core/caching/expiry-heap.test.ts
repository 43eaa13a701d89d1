// Cache entries expire from a heap of due times (src/core/caching/simulate.ts): an entry touched
// since a record was pushed outlives that record, one whose last use moved back in time expires
// by its new time, and the records stay few while time stands still.
import { describe, expect, it } from "vitest";
import { createCacheSimulationState, simulateCache } from "../../../src/core/caching/simulate";
import { diffRequests } from "../../../src/core/prefix/diff";
import { segmentRequest } from "../../../src/core/prefix/segment-request";

const est = { tokenizer: "estimate" as const };
const MIN = 60_000;
const marked = (text: string) => ({ type: "text", text, cache_control: { type: "ephemeral" } });
const body = (tag: string) => ({ model: "claude-sonnet-4-5", messages: [{ role: "user", content: [marked(tag + "y".repeat(8000))] }] });

/** Sends `bodies` at `times` (minutes) through one simulation; the cache reads of each. */
function reads(bodies: Record<string, unknown>[], times: number[]) {
  const state = createCacheSimulationState();
  let previous: ReturnType<typeof segmentRequest> | null = null;
  const out = bodies.map((b, i) => {
    const request = segmentRequest("anthropic-messages", b, est);
    const result = simulateCache(state, request, previous ? diffRequests(previous, request, est) : null, times[i]! * MIN);
    previous = request;
    return result.cacheRead;
  });
  return { state, out };
}

describe("cache entry expiry", () => {
  it("keeps an entry read since its first due time, and drops it once unused past its TTL", () => {
    const { out } = reads([body("a"), body("a"), body("a"), body("a")], [0, 4, 8, 20]);
    expect(out[0]).toBe(0);
    expect(out[1]).toBeGreaterThan(0);
    // Due at 5 minutes when written, read at 4: still there at 8.
    expect(out[2]).toBe(out[1]);
    // Unused from 8 to 20 minutes.
    expect(out[3]).toBe(0);
  });

  it("expires an entry by its latest use even when that use is earlier in time", () => {
    // Used at 10 minutes, then by a request stamped 1 minute: due at 6, gone at 7.
    const { out } = reads([body("a"), body("a"), body("a")], [10, 1, 7]);
    expect(out[1]).toBeGreaterThan(0);
    expect(out[2]).toBe(0);
  });

  it("holds a bounded number of due-time records while time stands still", () => {
    const bodies = Array.from({ length: 400 }, (_, i) => body(i % 2 === 0 ? "a" : "b"));
    const { state } = reads(bodies, bodies.map(() => 3));
    expect(state.entries.size).toBe(2);
    expect(state.expiries.length).toBeGreaterThan(0);
    expect(state.expiries.length).toBeLessThanOrEqual(4 * state.entries.size + 65);
  });
});
