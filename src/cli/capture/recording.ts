// The files of a recording, in the layout of the shared fixtures so `captures` and `verify` read
// both: requests/NNN.json (the request body byte for byte), requests/NNN.meta.json (method, path,
// headers with credentials redacted, status, timing, the guessed kind), responses/NNN.txt (the
// response bytes as they came, compressed if the upstream compressed them). Each file appears
// whole: it is written under a `.partial` name and renamed, so a reader looking at the folder while
// the agent runs (`verify`, `captures`, the page) never reads half a file.
import fs from "node:fs";
import { rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { guessRequestKindAt } from "../../core/captures/requestKind";

export interface RecordedExchange {
  seq: number;
  time: string;
  method: string;
  /** Path and query, credentials redacted. */
  path: string;
  upstream: string | null;
  headers: Record<string, string>;
  body: Buffer;
  status: number | null;
  responseHeaders: Record<string, string>;
  response: Buffer;
  /** Milliseconds from the request's arrival to the upstream's first response byte, and to its end. */
  firstByteMs: number | null;
  totalMs: number;
  error: string | null;
}

function number(seq: number): string {
  return String(seq).padStart(3, "0");
}

function bodyJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString("utf8")) as unknown;
  } catch {
    return undefined;
  }
}

export class Recording {
  readonly dir: string;
  private seq = 0;

  constructor(dir: string) {
    this.dir = dir;
    fs.mkdirSync(path.join(dir, "requests"), { recursive: true });
    fs.mkdirSync(path.join(dir, "responses"), { recursive: true });
  }

  /** The next request's sequence number (1, 2, … in arrival order). */
  next(): number {
    return ++this.seq;
  }

  get count(): number {
    return this.seq;
  }

  /**
   * Writes one exchange. A body that is JSON is `NNN.json`, any other non-empty body `NNN.body`
   * (so a folder of `.json` files holds request bodies only). Written without blocking the
   * proxy's other exchanges.
   */
  async write(exchange: RecordedExchange): Promise<void> {
    const id = number(exchange.seq);
    const json = exchange.body.length > 0 ? bodyJson(exchange.body) : undefined;
    const bodyFile = exchange.body.length === 0 ? null : json !== undefined ? `${id}.json` : `${id}.body`;
    const writes = [writeWhole(path.join(this.dir, "responses", `${id}.txt`), exchange.response)];
    if (bodyFile) writes.push(writeWhole(path.join(this.dir, "requests", bodyFile), exchange.body));
    const meta = {
      seq: exchange.seq,
      time: exchange.time,
      method: exchange.method,
      path: exchange.path,
      upstream: exchange.upstream,
      headers: exchange.headers,
      kind: json !== undefined ? guessRequestKindAt(exchange.path, json) : null,
      status: exchange.status,
      responseHeaders: exchange.responseHeaders,
      timing: { firstByteMs: exchange.firstByteMs, totalMs: exchange.totalMs },
      bodyFile,
      responseBytes: exchange.response.length,
      ...(exchange.error !== null ? { error: exchange.error } : {}),
    };
    // The meta file last: once it exists, the exchange's other files are complete.
    await Promise.all(writes);
    await writeWhole(path.join(this.dir, "requests", `${id}.meta.json`), `${JSON.stringify(meta, null, 2)}\n`);
  }
}

/** Writes a file so that it exists only once complete: a rename within one folder is atomic. */
async function writeWhole(file: string, data: Buffer | string): Promise<void> {
  const partial = `${file}.partial`;
  await writeFile(partial, data);
  await rename(partial, file);
}
