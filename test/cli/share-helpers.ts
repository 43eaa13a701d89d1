// Shared inputs of the export/share/open CLI tests: fixture paths, a seeded secrets session
// written to a temporary file, and the app's own view of a turn (requestView) to compare with.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PipelineOptions, Session } from "../../src/core/model";
import { buildTurnRequest, messageCharsEstimator } from "../../src/core/session/pipeline";
import { readSessionText } from "../../src/core/session/index";
import { requestView } from "../../src/features/request/requestModel";
import { runCli } from "../../src/cli/run";
import { seededSessionText } from "../support/secret-examples";
import { fixtureCase } from "../support/fixtures";

export const PI_OPENAI = fixtureCase("pi/print-openai-autocompact").sessionPath;
export const PI_ANTHROPIC = fixtureCase("pi/rpc-anthropic-manualcompact").sessionPath;
export const SENPI = fixtureCase("senpi/print-openai-autocompact").sessionPath;
export const PI_OPENAI_HEADER = fixtureCase("pi/print-openai-autocompact").requestPath(1);

export function readFixtureSession(file: string): Session {
  return readSessionText(readFileSync(file, "utf8"), path.basename(file));
}

/** The Request view's text of a turn, as the worker computes it for the app. */
export function viewText(session: Session, options: PipelineOptions, turn: number): string {
  return requestView(turn, buildTurnRequest(session, options, turn), messageCharsEstimator(session, options)).jsonText;
}

let tempDir: string | null = null;
export function tempFile(name: string, text: string): string {
  tempDir ??= mkdtempSync(path.join(tmpdir(), "contextscope-share-"));
  const file = path.join(tempDir, name);
  writeFileSync(file, text);
  return file;
}

export function seededSessionFile(): string {
  return tempFile("seeded-secrets.jsonl", seededSessionText());
}

export interface TextRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process and captures its output as text (export prints multi-line JSON). */
export async function runCliText(argv: string[]): Promise<TextRun> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(argv, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    readFile: (file) => new Uint8Array(readFileSync(file)),
  });
  return { code, stdout, stderr };
}
