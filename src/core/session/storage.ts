// Sessions kept in an agent's storage rather than one file: a SQLite database (opencode.db,
// hermes-agent's state.db) whose tables say whose it is (its side files: ./sideFiles.ts), the
// session picker's facts, stored usage totals and request dumps. The worker and the CLI open the
// database (sql.js) and hand its query function here; the agents' descriptors do the rest.
import type { AgentDescriptor, DatabaseReadInput, RequestDumpSupport, SessionUsageTotal, StorageSummary } from "../agents/descriptor";
import type { Session } from "../model";
import { tableNames } from "../storage/sqlite";
import { allAgents, findAgent } from "./agents";

/** One session of a database: read by the agent whose tables it holds (or the one that names what an unknown database lacks). */
export function readDatabase(input: DatabaseReadInput): Session {
  const tables = tableNames(input.query);
  const agents = allAgents();
  const agent = agents.find((candidate) => candidate.database?.recognises(tables)) ?? agents.find((candidate) => candidate.database?.readsUnrecognised);
  if (!agent?.database) throw new Error(`${input.fileName}: a SQLite database no supported agent writes`);
  return agent.database.read(input);
}

/** The database file each agent keeps its sessions in, with the agent's name ("opencode.db", opencode), in detection order. */
export function agentDatabaseFiles(): { agentLabel: string; fileName: string }[] {
  return allAgents().flatMap((agent) => (agent.database ? [{ agentLabel: agent.label, fileName: agent.database.fileName }] : []));
}

/** The session picker's facts of a session read from storage, or undefined for a session read from one file. */
export function storageSummary(session: Session): StorageSummary | undefined {
  return findAgent(session.formatId)?.storageSummary?.(session);
}

/** Usage the session's agent records per stored session only (hermes-agent's state.db counters); empty for other agents. */
export function sessionUsageTotals(session: Session): SessionUsageTotal[] {
  return findAgent(session.formatId)?.sessionUsageTotals?.(session) ?? [];
}

/** The request dumps of the session's agent, when it writes them and the session came from its storage. */
export function requestDumpsOf(session: Session): RequestDumpSupport | null {
  const dumps = findAgent(session.formatId)?.requestDumps;
  return dumps && dumps.applies(session) ? dumps : null;
}

/** The agents whose storage holds request dumps, for messages that say which are compared. */
export function agentsWithRequestDumps(): readonly AgentDescriptor[] {
  return allAgents().filter((agent) => agent.requestDumps !== undefined);
}

/** The ground-truth lines of turn `turn`: each request dump of that turn and whether it equals the rebuild. */
export function requestDumpLines(session: Session, options: Parameters<RequestDumpSupport["check"]>[1], turn: number): { line: string; equal: boolean }[] {
  const dumps = requestDumpsOf(session);
  if (!dumps) return [];
  return dumps
    .check(session, options)
    .filter((check) => check.turn === turn)
    .map((check) => ({ line: dumps.describe(check), equal: check.equal }));
}
