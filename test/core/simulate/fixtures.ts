// Fixture loading for simulator tests: the pi, senpi, Claude Code, Codex and opencode fixture copies.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readSessionText } from "../../../src/core/readers";
import type { Session } from "../../../src/core/model";
import { findJsonl } from "../../support/fixture-files";

export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../fixtures");

export interface Fixture {
  dir: string;
  sessionPath: string;
  session: Session;
  request(n: number): Record<string, unknown>;
  requestPath(n: number): string;
}

export type FixtureAgent = "pi" | "senpi" | "claude" | "codex" | "opencode";

/** A fixture case: the session file (opencode: `export.json`) and its recorded requests. */
export function loadFixture(agent: FixtureAgent, name: string): Fixture {
  const dir = path.join(FIXTURES, agent, name);
  const sessionPath = agent === "opencode" ? path.join(dir, "session", "export.json") : findJsonl(path.join(dir, "session"));
  const session = readSessionText(readFileSync(sessionPath, "utf8"), path.basename(sessionPath));
  const requestPath = (n: number) => path.join(dir, "requests", `${String(n).padStart(3, "0")}.json`);
  return { dir, sessionPath, session, requestPath, request: (n) => JSON.parse(readFileSync(requestPath(n), "utf8")) as Record<string, unknown> };
}
