// When the worker shows a provisional session while a file is still being read (design §3: the
// first turns before the last line is read). The first snapshot comes early (a short time or a
// few MB into the file); each later one only once the bytes read have doubled and a moment has
// passed. Each provisional analysis costs about as much as the bytes read so far, so doubling
// keeps their sum below the final analysis' cost, however large the file.

/** First snapshot after this long, or after FIRST_BYTES, whichever comes first. */
const FIRST_MS = 200;
const FIRST_BYTES = 4 * 1024 * 1024;
/** Later snapshots: at least this long apart, and only once the bytes read have doubled. */
const MIN_INTERVAL_MS = 600;
const GROWTH = 2;
/** No snapshot in the last part of the file: the final result is about to replace it. */
const TAIL_FRACTION = 0.85;

export class ProvisionalSchedule {
  private readonly started = performance.now();
  private lastAt = 0;
  private lastBytes = 0;

  constructor(private readonly totalBytes: number | null) {}

  /** True when a snapshot is due after `bytesRead` bytes; the caller then takes it. */
  due(bytesRead: number): boolean {
    if (this.totalBytes !== null && bytesRead >= this.totalBytes * TAIL_FRACTION) return false;
    const now = performance.now();
    const due =
      this.lastBytes === 0
        ? now - this.started >= FIRST_MS || bytesRead >= FIRST_BYTES
        : now - this.lastAt >= MIN_INTERVAL_MS && bytesRead >= this.lastBytes * GROWTH;
    if (due) {
      this.lastAt = now;
      this.lastBytes = bytesRead;
    }
    return due;
  }
}
