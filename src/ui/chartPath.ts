// SVG path text for the small charts, one point per turn: a session of 40,000 turns would write
// 40,000 points per shape, though the chart's coordinates (a tenth of a unit) hold a few thousand
// distinct x positions. Points falling on the same x are drawn as one vertical run, so only its
// first, lowest, highest and last points are written: the path draws the same pixels, a filled
// area the same fill, with at most four points per x position.

/** Coordinates are written with one decimal, as the charts' viewBox resolves them. */
function coordinate(value: number): string {
  return value.toFixed(1);
}

/** Builds the points of a path in order; `text()` is the path's segments ("M"/"L" commands). */
export class ChartPath {
  private readonly parts: string[] = [];
  /** The run of points at the current x: its x text and its first, lowest, highest and last y. */
  private runX: string | null = null;
  private first = 0;
  private low = 0;
  private high = 0;
  private last = 0;
  private started: boolean;

  /** `moveFirst`: the first point starts the path ("M"); otherwise it continues one ("L"). */
  constructor(moveFirst: boolean) {
    this.started = !moveFirst;
  }

  add(x: number, y: number): void {
    const xText = coordinate(x);
    if (xText === this.runX) {
      if (y < this.low) this.low = y;
      if (y > this.high) this.high = y;
      this.last = y;
      return;
    }
    this.closeRun();
    this.runX = xText;
    this.first = this.low = this.high = this.last = y;
  }

  /** The path's commands, space-separated. */
  text(): string {
    this.closeRun();
    return this.parts.join(" ");
  }

  private closeRun(): void {
    if (this.runX === null) return;
    // The run's own order (first, then the extremes in the order they bound it, then last) keeps
    // the segments joining it to its neighbours where they were. A value equal to the one just
    // written (most runs are one point) is neither formatted nor written again.
    const rising = this.first <= this.last;
    this.writtenY = Number.NaN;
    this.writtenText = null;
    this.write(this.first);
    this.write(rising ? this.low : this.high);
    this.write(rising ? this.high : this.low);
    this.write(this.last);
    this.runX = null;
  }

  /** The y last written in the run being closed, as a number and as text. */
  private writtenY = Number.NaN;
  private writtenText: string | null = null;

  private write(y: number): void {
    if (y === this.writtenY) return;
    this.writtenY = y;
    const yText = coordinate(y);
    if (yText === this.writtenText) return;
    this.writtenText = yText;
    this.parts.push(`${this.started ? "L" : "M"}${this.runX},${yText}`);
    this.started = true;
  }
}

/** The largest of `values` (at least `floor`), without spreading them into one call's arguments. */
export function largest(values: Iterable<number>, floor: number): number {
  let max = floor;
  for (const value of values) if (value > max) max = value;
  return max;
}
