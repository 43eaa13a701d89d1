// Reading captured request bodies for the CLI: a file, or a folder of them (every `*.json` that
// is a request body; a recorder's `NNN.meta.json` beside a body says its kind, and only "main"
// requests are compared against turns). Each body is learnt (src/core/session/captures.ts): the
// first main one becomes the header (session constants), all of them teach model facts.
import fs from "node:fs";
import path from "node:path";
import type { RequestHeader } from "../core/model";
import { isCaptureBody, learnCapture } from "../core/session/captures";
import { CliError, type CliIo } from "./io";

export interface CliCapture {
  source: string;
  body: unknown;
  /** From `NNN.meta.json` when present ("main", "summary", "title"), else null. */
  kind: string | null;
  /** The request's user-agent from `NNN.meta.json` (it names the agent's version), else null. */
  userAgent: string | null;
}

function readCapture(io: CliIo, file: string): CliCapture {
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder("utf-8").decode(io.readFile(file))) as unknown;
  } catch (error) {
    throw new CliError(`capture ${file}: ${(error as Error).message}`);
  }
  const meta = file.replace(/\.json$/, ".meta.json");
  let kind: string | null = null;
  let userAgent: string | null = null;
  if (meta !== file && fs.existsSync(meta)) {
    try {
      const value = JSON.parse(fs.readFileSync(meta, "utf8")) as { kind?: unknown; headers?: Record<string, unknown> };
      kind = typeof value.kind === "string" ? value.kind : null;
      const agent = value.headers?.["user-agent"];
      userAgent = typeof agent === "string" ? agent : null;
    } catch {
      kind = null;
    }
  }
  return { source: path.basename(file), body, kind, userAgent };
}

/** The captures of each path (a file, or a folder's request bodies in name order). */
export function readCaptures(io: CliIo, paths: readonly string[]): CliCapture[] {
  const out: CliCapture[] = [];
  for (const item of paths) {
    if (fs.existsSync(item) && fs.statSync(item).isDirectory()) {
      const names = fs.readdirSync(item).filter((name) => name.endsWith(".json") && !name.endsWith(".meta.json")).sort();
      for (const name of names) {
        const capture = readCapture(io, path.join(item, name));
        if (isCaptureBody(capture.body)) out.push(capture);
      }
      if (names.length === 0) throw new CliError(`capture folder ${item} holds no .json request bodies`);
    } else {
      out.push(readCapture(io, item));
    }
  }
  return out;
}

/** Main captures only (a recorder's meta says so; without meta every body counts). */
export function mainCaptures(captures: readonly CliCapture[]): CliCapture[] {
  return captures.filter((capture) => capture.kind === null || capture.kind === "main");
}

/** Learnt headers of the main captures, in order; the first is the session constants' source. */
export function learnCaptures(captures: readonly CliCapture[]): RequestHeader[] {
  return mainCaptures(captures).map((capture) => {
    try {
      return learnCapture(capture.body, capture.source);
    } catch (error) {
      throw new CliError(`capture ${capture.source}: ${(error as Error).message}`);
    }
  });
}
