// Gemini CLI's files beside its chats that are not chats (google-gemini/gemini-cli at commit
// 5411f113cafae26161b4969b0237b8e1e024e2c2):
// - `~/.gemini/projects.json`, `{"projects": {<project root>: <short name>}}`, the registry that
//   names each project's folder under `~/.gemini/tmp/` (packages/core/src/config/projectRegistry.ts,
//   read by Storage.initialize in packages/core/src/config/storage.ts). A chat's `projectHash` is
//   the SHA-256 of its project root (getProjectHash, packages/core/src/utils/paths.ts), so the
//   registry tells which folder the chat worked in.
// - `~/.gemini/tmp/<project>/logs.json`, a JSON array of `{sessionId, messageId, timestamp, type:
//   "user", message}`: every prompt typed, slash commands included, kept for the prompt history
//   (Logger, packages/core/src/core/logger.ts; written by useGeminiStream in packages/cli).
// Neither is sent to the model. Read with a chat, they give its project folder and how many
// prompts were typed in it; otherwise they are named as not needed.
import { plural } from "../../util/plural";
import type { AgentSideFiles, TextFile } from "../descriptor";
import type { CompanionNote, Session } from "../../model";
import { sha256Hex } from "../../util/sha256";

const PROJECTS = "projects.json";
const LOGS = "logs.json";
/** Commands shown in a note at most (the rest are counted). */
const SHOWN_COMMANDS = 5;

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The registry's project roots and short names; null when the text is not one. */
function projectsOf(text: string): [string, string][] | null {
  const value = parse(text);
  if (!isRecord(value) || !isRecord(value.projects)) return null;
  const entries = Object.entries(value.projects);
  return entries.every(([, short]) => typeof short === "string") ? (entries as [string, string][]) : null;
}

interface LogEntry {
  sessionId: string;
  message: string;
}

/** The prompt log's entries (the CLI keeps only well-formed ones, as here); null when the text is not one. */
function logEntriesOf(text: string): LogEntry[] | null {
  const value = parse(text);
  if (!Array.isArray(value)) return null;
  const entries = value.filter((entry): entry is LogEntry => isRecord(entry) && typeof entry.sessionId === "string" && typeof entry.message === "string" && typeof entry.messageId === "number");
  // An empty log is the CLI's own first write ("[]"); a non-empty array of none of its entries is not its log.
  return value.length === 0 || entries.length > 0 ? entries : null;
}

function projectNote(session: Session, text: string): { note: string; root: string | null } {
  const projects = projectsOf(text) ?? [];
  const hash = session.header?.projectHash;
  const match = typeof hash === "string" ? projects.find(([root]) => sha256Hex(root) === hash.toLowerCase()) : undefined;
  if (match) return { root: match[0], note: `${PROJECTS}: this chat worked in ${match[0]} (the CLI's folder for it is ~/.gemini/tmp/${match[1]}/).` };
  return {
    root: null,
    note: `${PROJECTS} names ${plural(projects.length, "project folder")}, none of them this chat's (its projectHash matches none): not needed here.`,
  };
}

function logNote(session: Session, text: string): string {
  const entries = logEntriesOf(text) ?? [];
  const sessionId = session.header?.sessionId;
  const own = entries.filter((entry) => entry.sessionId === sessionId);
  if (own.length === 0) return `${LOGS} holds ${plural(entries.length, "typed prompt")} of other chats, none of this one: not needed here.`;
  const commands = own.map((entry) => entry.message.trim()).filter((message) => message.startsWith("/"));
  const names = [...new Set(commands.map((command) => command.split(/\s+/)[0]!))];
  const shown = names.slice(0, SHOWN_COMMANDS).join(", ") + (names.length > SHOWN_COMMANDS ? ", …" : "");
  const commandPart = commands.length > 0 ? `, ${plural(commands.length, "slash command")} among them (${shown}) that the CLI ran itself rather than sending` : "";
  return `${LOGS}: ${plural(own.length, "prompt")} typed in this chat${commandPart}. The CLI keeps them for its prompt history; the requests come from the chat file.`;
}

export const geminiNoteFiles: AgentSideFiles = {
  kind: "session-notes",
  namePattern: /^(projects|logs)\.json$/,
  accepts: (name, text) => (name === PROJECTS ? projectsOf(text) !== null : name === LOGS ? logEntriesOf(text) !== null : false),
  attach(session: Session, files: readonly TextFile[]): Session {
    const notes: CompanionNote[] = [];
    let project: string | null = null;
    for (const file of files) {
      if (file.name === PROJECTS) {
        const found = projectNote(session, file.text);
        project ??= found.root;
        notes.push({ fileName: file.name, note: found.note });
      } else notes.push({ fileName: file.name, note: logNote(session, file.text) });
    }
    // The project folder goes where the library and scan look for it (`project`), the chat's own fields kept.
    const header = project !== null ? { ...(session.header ?? {}), project } : session.header;
    return { ...session, header, companionNotes: [...(session.companionNotes ?? []), ...notes] };
  },
  aloneMessage: (name) =>
    name === PROJECTS
      ? `${PROJECTS} is Gemini CLI's list of project folders, not a chat. Open a chat (~/.gemini/tmp/<project>/chats/session-….jsonl) with it to see which folder the chat worked in.`
      : `${LOGS} is Gemini CLI's log of typed prompts, not a chat. Open a chat (~/.gemini/tmp/<project>/chats/session-….jsonl) with it to count the prompts typed in that chat.`,
};
