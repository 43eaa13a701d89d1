// The charts' path text (src/ui/chartPath.ts): with points on distinct x positions it is the plain
// path through them; with many points on one x (a long session on a narrow chart) it keeps each
// x position's first and last point and its vertical extent, and writes at most four points per
// position; `largest` takes a maximum without spreading arguments (40,000 turns overflowed it).
import { describe, expect, it } from "vitest";
import { ChartPath, largest } from "../../src/ui/chartPath";

function plainPath(points: readonly [number, number][], moveFirst: boolean): string {
  return points.map(([x, y], i) => `${i === 0 && moveFirst ? "M" : "L"}${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
}

function parse(path: string): [string, number][] {
  return path.split(" ").map((command) => {
    const [x, y] = command.slice(1).split(",");
    return [x!, Number(y)];
  });
}

/** Per x text, in order: the first y, the last y, the lowest and the highest. */
function columns(points: readonly [string, number][]): { x: string; first: number; last: number; low: number; high: number }[] {
  const out: { x: string; first: number; last: number; low: number; high: number }[] = [];
  for (const [x, y] of points) {
    const column = out[out.length - 1];
    if (column && column.x === x) {
      column.last = y;
      column.low = Math.min(column.low, y);
      column.high = Math.max(column.high, y);
    } else out.push({ x, first: y, last: y, low: y, high: y });
  }
  return out;
}

function built(points: readonly [number, number][], moveFirst: boolean): string {
  const path = new ChartPath(moveFirst);
  for (const [x, y] of points) path.add(x, y);
  return path.text();
}

describe("ChartPath", () => {
  it("is the plain path when every point has its own x", () => {
    const points: [number, number][] = Array.from({ length: 50 }, (_, i) => [i * 6, 40 - ((i * 7) % 31)]);
    expect(built(points, true)).toBe(plainPath(points, true));
    expect(built(points, false)).toBe(plainPath(points, false));
  });

  it("keeps each x position's first, last, lowest and highest point when many share it", () => {
    // 40,000 turns across 300 units: about 13 turns per tenth of a unit, values rising and falling.
    const turns = 40_000;
    const points: [number, number][] = Array.from({ length: turns }, (_, i) => [(i / (turns - 1)) * 300, 2 + ((i * 7919) % 4000) / 100]);
    const text = built(points, true);
    const written = parse(text);
    expect(text.startsWith("M")).toBe(true);
    expect(text.slice(1).includes("M")).toBe(false);
    const expected = columns(parse(plainPath(points, true)));
    const got = columns(written);
    expect(got).toEqual(expected);
    expect(written.length).toBeLessThanOrEqual(4 * expected.length);
    expect(written.length).toBeLessThan(turns / 3);
  });

  it("writes a run whose values fall as well as one whose values rise", () => {
    const falling = built([[1, 9], [1, 3], [1, 7], [1, 1], [2, 5]], true);
    expect(columns(parse(falling))).toEqual(columns(parse(plainPath([[1, 9], [1, 3], [1, 7], [1, 1], [2, 5]], true))));
    expect(built([[1, 4], [1, 4], [1, 4]], true)).toBe("M1.0,4.0");
  });
});

describe("largest", () => {
  it("takes the maximum of more values than a call can take as arguments", () => {
    const values = Array.from({ length: 300_000 }, (_, i) => (i === 123_456 ? 9_999 : i % 1000));
    expect(largest(values, 1)).toBe(9_999);
    expect(largest([], 1)).toBe(1);
  });
});
