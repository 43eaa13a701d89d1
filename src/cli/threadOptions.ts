// The CLI's sub-agent thread options, shared by the commands that take them: `--with <file>`
// links files opened with the session (Claude Code sub-agent files, Codex child rollouts) as its
// threads, `--thread <id>` selects one thread's own session, and the option specs they print.
import type { Session } from "../core/model";
import { linkSessions, threadSessionOf, unlinkedWarning } from "../core/session/threads";
import { listOption } from "./args";
import { loadSession } from "./inputs";
import { CliError, type CliIo } from "./io";
import type { CliCommand, CliOptionValues } from "./registry";

type OptionSpec = CliCommand["options"][number];

export const WITH_OPTION: OptionSpec = {
  name: "with",
  value: "file",
  description: "a file opened with the session, linked to it as a thread (Claude Code subagents/agent-<id>.jsonl, Codex child rollout; repeatable)",
  multiple: true,
};

/** The session with the files of `--with` linked to it as threads. */
export function withThreads(session: Session, options: CliOptionValues, io: CliIo): Session {
  const others = listOption(options, "with").map((other) => loadSession(io, other));
  if (others.length === 0) return session;
  const linked = linkSessions([session, ...others]);
  for (const other of linked.unlinked) io.stderr(`warning: line 0: ${unlinkedWarning(linked.session.fileName, other).reason}\n`);
  return linked.session;
}

/** `--thread <id>`: that sub-agent thread's own session instead of the main thread. */
export function threadOf(session: Session, thread: string | undefined, command: string): Session {
  try {
    return threadSessionOf(session, thread);
  } catch (error) {
    throw new CliError(`${command}: --thread ${thread}: ${(error as Error).message}`);
  }
}
