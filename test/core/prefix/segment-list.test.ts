// Segment lists shared from turn to turn (segment-list.ts): a list handed out reads the same
// whatever later requests do to the store it reads (copy on write), and the segmenter reads a
// recorded shared head instead of comparing the messages again.
import { describe, expect, it } from "vitest";
import { createSegmentCache } from "../../../src/core/prefix/segment-builder";
import { SegmentList, SegmentStore } from "../../../src/core/prefix/segment-list";
import { segmentRequest } from "../../../src/core/prefix/segment-request";
import type { CacheSegment } from "../../../src/core/prefix/types";
import { recordSharedHead } from "../../../src/core/util/list-lineage";

const est = { tokenizer: "estimate" as const };

function seg(label: string): CacheSegment {
  return {
    label,
    level: "messages",
    messageIndex: null,
    hash: 0,
    bytes: 1,
    tokens: 1,
    framingTokens: 0,
    marker: null,
    isBlock: false,
    notRecorded: null,
    source: label,
    view: "whole",
    textType: "text",
    tokenMode: "text",
  };
}

const labels = (list: SegmentList<CacheSegment>) => [...list].map((s) => s.label);

describe("SegmentStore and SegmentList", () => {
  it("a window keeps its segments when the store is cut back inside it and grows again, across chunks", () => {
    const store = new SegmentStore<CacheSegment>();
    for (let i = 0; i < 700; i++) store.push(seg(`m${i}`));
    const first = store.window([seg("tools")], [seg("tail")]);
    const before = labels(first);
    // Cut inside the window (chunks before it and after it), then grow past its old end with other segments.
    store.truncate(600);
    for (let i = 0; i < 300; i++) store.push(seg(`n${i}`));
    const second = store.window([seg("tools")], []);
    expect(labels(first)).toEqual(before);
    expect(first.length).toBe(702);
    expect(first.at(601)!.label).toBe("m600");
    expect(first.at(701)!.label).toBe("tail");
    expect(second.length).toBe(901);
    expect(second.at(600)!.label).toBe("m599");
    expect(second.at(601)!.label).toBe("n0");
    // Cut exactly at a chunk boundary: the same holds.
    store.truncate(512);
    store.push(seg("z"));
    expect(second.at(513)!.label).toBe("m512");
    expect(store.window([], []).at(512)!.label).toBe("z");
  });

  it("a cut in the newest chunk keeps the spine (no copy of the context) and every earlier list as it was", () => {
    const store = new SegmentStore<CacheSegment>();
    for (let i = 0; i < 760; i++) store.push(seg(`m${i}`));
    const lists: SegmentList<CacheSegment>[] = [store.window([], [])];
    const seen: string[][] = [labels(lists[0]!)];
    // Each turn moves a marker: the newest segment is replaced and two are added, in the last chunk.
    for (let turn = 0; turn < 40; turn++) {
      store.truncate(store.length - 1);
      store.push(seg(`t${turn}-a`));
      store.push(seg(`t${turn}-b`));
      lists.push(store.window([], []));
      seen.push(labels(lists[lists.length - 1]!));
    }
    // The lists crossed chunk boundaries; none of the cuts fell below a chunk a list reads through the spine.
    expect(store.length).toBe(800);
    expect(store.spineCopies).toBe(0);
    lists.forEach((list, i) => expect(labels(list)).toEqual(seen[i]));
    // A cut below a chunk an earlier list reads through the spine copies the spine once.
    store.truncate(100);
    store.push(seg("deep"));
    expect(store.spineCopies).toBe(1);
    lists.forEach((list, i) => expect(labels(list)).toEqual(seen[i]));
    expect(labels(store.window([], [])).slice(99)).toEqual(["m99", "deep"]);
  });

  it("reads nothing outside 0 … length − 1, and a patched copy changes one index only", () => {
    const list = SegmentList.of([seg("a"), seg("b"), seg("c")]);
    expect(list.at(-1)).toBeUndefined();
    expect(list.at(3)).toBeUndefined();
    const patched = list.with(1, seg("B"));
    expect(labels(patched)).toEqual(["a", "B", "c"]);
    expect(labels(list)).toEqual(["a", "b", "c"]);
    expect(patched.at(-1)).toBeUndefined();
    expect(patched.with(2, seg("C")).toArray().map((s) => s.label)).toEqual(["a", "B", "C"]);
    expect(patched.findIndex((s) => s.label === "c")).toBe(2);
    expect(() => list.with(3, seg("x"))).toThrow(RangeError);
  });
});

/** A conversation of `n` exchanges, each message a new object; the last one carries a cache marker. */
function conversation(n: number): unknown[] {
  const list: unknown[] = [];
  for (let i = 0; i < n; i++) list.push({ role: "user", content: `q${i}` }, { role: "assistant", content: [{ type: "text", text: `a${i}` }] });
  return list;
}

function withMarkerOnLast(list: readonly unknown[]): unknown[] {
  const last = list[list.length - 1] as { role: string; content: unknown };
  return [...list.slice(0, -1), { role: last.role, content: [{ type: "text", text: "last", cache_control: { type: "ephemeral" } }] }];
}

describe("segment lists of consecutive requests", () => {
  it("an earlier request's segments stay as they were when the next one diverges inside them (the marker moves every turn)", () => {
    const cache = createSegmentCache();
    let history = conversation(200);
    const requests = [];
    const snapshots: unknown[][] = [];
    for (let turn = 0; turn < 4; turn++) {
      const request = segmentRequest("anthropic-messages", { system: "sys", messages: withMarkerOnLast(history) }, { ...est, cache });
      requests.push(request);
      snapshots.push(request.segments.toArray().map((s) => [s.label, s.hash, s.marker?.kind ?? null]));
      history = [...history, { role: "user", content: `more ${turn}` }];
    }
    requests.forEach((request, i) => expect(request.segments.toArray().map((s) => [s.label, s.hash, s.marker?.kind ?? null])).toEqual(snapshots[i]));
    // The last request's list is the one a fresh segmentation gives.
    const fresh = segmentRequest("anthropic-messages", { system: "sys", messages: withMarkerOnLast(history.slice(0, -1)) }, est);
    expect(requests[3]!.segments.toArray()).toEqual(fresh.segments.toArray());
  });

  it("takes the recorded shared head of the message list without reading those messages again", () => {
    const cache = createSegmentCache();
    const first = conversation(50);
    segmentRequest("anthropic-messages", { messages: first }, { ...est, cache });
    const next = [...first, { role: "user", content: "new" }];
    const reads: number[] = [];
    const watched = new Proxy(next, {
      get(target, key, receiver) {
        if (typeof key === "string" && /^\d+$/.test(key)) reads.push(Number(key));
        return Reflect.get(target, key, receiver);
      },
    });
    recordSharedHead(watched, first, first.length);
    const request = segmentRequest("anthropic-messages", { messages: watched }, { ...est, cache });
    expect(reads.filter((index) => index < first.length)).toEqual([]);
    expect(request.segments.toArray()).toEqual(segmentRequest("anthropic-messages", { messages: next }, est).segments.toArray());
  });
});
