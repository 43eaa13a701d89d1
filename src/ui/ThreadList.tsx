// The threads of a session with sub-agents, above the timeline: the main thread and each
// sub-agent thread with its label, turn count and the tool call that started it. Choosing one
// shows that thread's own turns and requests; "Main thread" goes back. Hidden without threads.
import type { ThreadInfo } from "../worker/protocol";
import { setThread } from "../state/actions";
import { useAppStore } from "../state/store";

const ORIGIN_TEXT: Record<ThreadInfo["origin"], string> = {
  sidechain: "sidechain entries of this file",
  progress: "progress lines of this file",
  file: "its own file",
  elsewhere: "its messages are in a file not opened with this one",
};

function detail(thread: ThreadInfo): string {
  const spawn = thread.spawnedBy ? `started by ${thread.spawnedBy.toolName} ${thread.spawnedBy.toolCallId}` : "start not found";
  return `${thread.turns} ${thread.turns === 1 ? "turn" : "turns"} · ${spawn} · ${ORIGIN_TEXT[thread.origin]}`;
}

export function ThreadList() {
  const threads = useAppStore((state) => state.session?.threads);
  const current = useAppStore((state) => state.options.thread);
  if (!threads || threads.length === 0) return null;
  return (
    <div className="thread-list" data-testid="thread-list" role="list" aria-label="Threads">
      <button
        type="button"
        role="listitem"
        className={`thread-item${current === null ? " selected" : ""}`}
        data-testid="thread-main"
        aria-current={current === null}
        onClick={() => setThread(null)}
      >
        <span className="thread-label">Main thread</span>
        <span className="thread-detail muted">{threads.length} sub-agent {threads.length === 1 ? "thread" : "threads"}</span>
      </button>
      {threads.map((thread) => (
        <button
          type="button"
          role="listitem"
          key={thread.id}
          className={`thread-item${current === thread.id ? " selected" : ""}${thread.parentThreadId ? " nested" : ""}`}
          data-testid="thread-item"
          data-thread-id={thread.id}
          aria-current={current === thread.id}
          title={`${thread.label}\n${detail(thread)}\n${thread.fileName}`}
          onClick={() => setThread(thread.id)}
        >
          <span className="thread-label">{thread.label}</span>
          <span className="thread-detail muted">{detail(thread)}</span>
        </button>
      ))}
    </div>
  );
}
