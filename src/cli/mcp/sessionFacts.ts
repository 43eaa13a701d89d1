// What the MCP tools say about whole sessions: the library row of each (agent, turns, first and
// last time, cost), its title where the file records one, and the user prompts matching a text.
// Everything is computed by the code the page's library and search use (src/app/libraryRow.ts,
// src/core/search); sessions are read with the CLI's reader (../inputs.ts).
import type { PipelineOptions, Session } from "../../core/model";
import { libraryRowFacts } from "../../app/libraryRow";
import { searchSession, type SearchHit } from "../../core/search/index";
import { loadAnySession } from "../inputs";
import type { CliIo } from "../io";
import { readFileSync } from "node:fs";

/** Reader warnings are left out: a tool answers with data, not with the reader's notes. */
const QUIET_IO: CliIo = {
  stdout: () => undefined,
  stderr: () => undefined,
  readFile: (file) => new Uint8Array(readFileSync(file)),
};

/** No profile named: each session is rebuilt with its agent's first (as `scan` and the library do). */
const PIPELINE: PipelineOptions = { leafId: null, api: null, header: null, notes: false };

export function readSession(file: string, sessionId: string | null = null): Promise<Session> {
  return loadAnySession(QUIET_IO, file, sessionId);
}

/** The title the file records (a header `title` or `summary`), else null. */
function titleOf(session: Session): string | null {
  const header = (session.header ?? {}) as Record<string, unknown>;
  for (const key of ["title", "summary"]) if (typeof header[key] === "string" && header[key] !== "") return header[key];
  return null;
}

export interface SessionRow {
  file: string;
  agent: string;
  sessionId: string | null;
  title: string | null;
  project: string | null;
  turns: number;
  compactions: number;
  first: string | null;
  last: string | null;
}

export function sessionRow(file: string, session: Session): SessionRow {
  const facts = libraryRowFacts(session);
  return {
    file,
    agent: facts.agent,
    sessionId: facts.sessionId,
    title: titleOf(session),
    project: facts.project,
    turns: facts.turns,
    compactions: facts.compactions,
    first: facts.started,
    last: facts.lastActive,
  };
}

/** The user prompts of the session's default branch holding `query` (case-insensitive), at most `limit`. */
export function userPromptHits(session: Session, query: string, limit: number): SearchHit[] {
  const hits: SearchHit[] = [];
  for (const step of searchSession(session, PIPELINE, query)) {
    if (step.kind !== "hit" || step.hit.kind !== "user") continue;
    hits.push(step.hit);
    if (hits.length >= limit) break;
  }
  return hits;
}
