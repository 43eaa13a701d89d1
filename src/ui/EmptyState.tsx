// What the main area shows with no session: how to get one in, and every agent and file kind the
// readers know. The formats page is a document of the repository (docs/formats.md), not a page of
// the app, which never loads anything but itself: it is named as a path, as text.
import { useAppStore } from "../state/store";

/** The agents and files we read, as docs/formats.md lists them. */
const READABLE_FILES: readonly { agent: string; files: string }[] = [
  { agent: "pi", files: "session JSONL, format versions 1–3 (~/.pi/agent/sessions/…)" },
  { agent: "senpi", files: "session JSONL (~/.senpi/agent/sessions/…), read with the senpi profile" },
  { agent: "Claude Code", files: "transcript JSONL (~/.claude/projects/<project>/<session>.jsonl), with its subagents/agent-<id>.jsonl" },
  { agent: "Codex CLI", files: "rollout JSONL (~/.codex/sessions/YYYY/MM/DD/rollout-….jsonl), with child rollouts" },
  { agent: "opencode", files: "`opencode export` JSON, or the opencode.db database with its opencode.db-wal" },
  {
    agent: "hermes-agent",
    files: "state.db (with state.db-wal), sessions/session_<id>.json snapshots, <id>.jsonl transcripts, request_dump_*.json, or the home folder",
  },
  { agent: "chat message list", files: "a JSON array of OpenAI chat messages" },
];

export function EmptyState() {
  const status = useAppStore((state) => state.loadStatus);
  const analysisError = useAppStore((state) => state.analysisError);
  if (status === "loading") {
    return <div className="empty-state muted">Reading…</div>;
  }
  return (
    <div className="empty-state" data-testid="empty-state">
      <div className="empty-title">See exactly what the model received, turn by turn.</div>
      {analysisError && <div className="error-text">The session was read but could not be analysed: {analysisError}</div>}
      <div className="muted">
        Drop a session file (or several, or a folder) anywhere on the page, use <b>Open file</b>, paste it, or pick one of the
        samples. Everything stays in this tab: nothing is uploaded.
      </div>
      <table className="readable-files" data-testid="readable-files">
        <tbody>
          {READABLE_FILES.map((row) => (
            <tr key={row.agent}>
              <td className="strong">{row.agent}</td>
              <td className="muted">{row.files}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="muted">
        What is read from each file, and what cannot be rebuilt: <code data-testid="formats-doc">docs/formats.md</code> in the
        Contextscope repository (one page per agent under docs/formats/).
      </div>
    </div>
  );
}
