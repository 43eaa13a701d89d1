// The thread tree of a session with sub-agents, above the timeline: the main thread, and under it
// each sub-agent thread nested below the thread that started it, with its turns, requests, prefix
// breaks, the cost of its recorded usage and the tool call that started it. Choosing one shows that thread's
// own turns, requests and prefix analysis; "Main thread" goes back. The thread shown names the
// tool call that started it, with a link back to that call. Sub-agents whose messages are in files
// not opened with the session are one row that says what to drop to see them (the agent's
// descriptor names it), not one empty row each. Hidden without threads.
import { plural } from "../../ui/words";
import type { ThreadInfo } from "../../app/threads";
import { setThread, showSpawnCall } from "../../page/options";
import { useAppStore } from "../../page/store";
import { formatPriced, type CostTotal } from "../../core/pricing/index";
import { useWholeSessionCost } from "../prices/index";

const ORIGIN_TEXT: Record<ThreadInfo["origin"], string> = {
  sidechain: "sidechain entries of this file",
  progress: "progress lines of this file",
  file: "its own file",
  elsewhere: "its messages are in a file not opened with this one",
};


function figures(thread: ThreadInfo): string {
  const parts = [plural(thread.turns, "turn"), plural(thread.requests, "request")];
  if (thread.breaks !== null && thread.turns > 0) parts.push(plural(thread.breaks, "cache break"));
  return parts.join(" · ");
}

/** `priced`: the thread's cost under the user's price edits (the page's), when known. */
function detail(thread: ThreadInfo, priced: CostTotal | undefined): string {
  const spawn = thread.spawnedBy ? `started by ${thread.spawnedBy.toolName} ${thread.spawnedBy.toolCallId}` : "start not found";
  // The cost of its recorded usage comes last; a thread without turns has none to show.
  const total = priced ?? thread.cost;
  const cost = total !== null && thread.turns > 0 ? ` · ${formatPriced(total)}` : "";
  return `${figures(thread)} · ${spawn} · ${ORIGIN_TEXT[thread.origin]}${cost}`;
}

/** The line under the tree while a sub-agent thread is shown: its start, with a link back to it. */
function SpawnBar({ thread, threads }: { thread: ThreadInfo; threads: ThreadInfo[] }) {
  const parent = thread.parentThreadId === null ? "the main thread" : (threads.find((item) => item.id === thread.parentThreadId)?.label ?? thread.parentThreadId);
  if (!thread.spawnedBy) return <div className="thread-spawn muted" data-testid="thread-spawn">The tool call that started this thread is not recorded.</div>;
  return (
    <div className="thread-spawn" data-testid="thread-spawn">
      <span className="muted">
        Started by {thread.spawnedBy.toolName} call {thread.spawnedBy.toolCallId} in {parent}.
      </span>{" "}
      <button type="button" className="link-button" data-testid="thread-spawn-link" onClick={() => void showSpawnCall(thread.id)}>
        Show the call
      </button>
    </div>
  );
}

/** A sub-agent known only from its start: its messages are in a file that was not opened. */
const notOpened = (thread: ThreadInfo) => thread.origin === "elsewhere" && thread.entryCount === 0;

/** One row for every sub-agent whose file was not dropped, saying what to drop; it lists them when opened. */
function NotOpenedThreads({ threads, whatToDrop }: { threads: ThreadInfo[]; whatToDrop: string | undefined }) {
  const count = threads.length === 1 ? "1 sub-agent's file was" : `${threads.length} sub-agents' files were`;
  return (
    <details className="threads-not-opened" data-testid="threads-not-opened" data-count={threads.length}>
      <summary title="Their start is recorded in this session, but their messages are in their own files">
        {count} not dropped{whatToDrop ? `: drop ${whatToDrop} to see ${threads.length === 1 ? "it" : "them"}` : ""}
      </summary>
      <ul className="threads-not-opened-list">
        {threads.map((thread) => (
          <li key={thread.id} className="muted" data-testid="thread-not-opened">
            {thread.label}
            {thread.spawnedBy ? ` · started by ${thread.spawnedBy.toolName} ${thread.spawnedBy.toolCallId}` : ""} · {thread.fileName}
          </li>
        ))}
      </ul>
    </details>
  );
}

export function ThreadList() {
  const allThreads = useAppStore((state) => state.session?.threads);
  const whatToDrop = useAppStore((state) => state.session?.agent?.missingThreadFiles);
  const current = useAppStore((state) => state.options.thread);
  const whole = useWholeSessionCost();
  if (!allThreads || allThreads.length === 0) return null;
  const missing = allThreads.filter(notOpened);
  const threads = allThreads.filter((thread) => !notOpened(thread));
  const shown = current === null ? null : (threads.find((thread) => thread.id === current) ?? null);
  return (
    <>
      <div className="thread-list" data-testid="thread-list" role="tree" aria-label="Threads">
        <button
          type="button"
          role="treeitem"
          aria-level={1}
          aria-selected={current === null}
          className={`thread-item${current === null ? " selected" : ""}`}
          data-testid="thread-main"
          aria-current={current === null}
          onClick={() => void setThread(null)}
        >
          <span className="thread-label">Main thread</span>
          <span className="thread-detail muted">
            {plural(allThreads.length, "sub-agent thread")}
            {missing.length > 0 ? ` · ${missing.length} not opened` : ""}
          </span>
        </button>
        {threads.map((thread) => (
          <button
            type="button"
            role="treeitem"
            aria-level={thread.depth + 1}
            aria-selected={current === thread.id}
            key={thread.id}
            className={`thread-item${current === thread.id ? " selected" : ""}`}
            style={{ paddingLeft: `${8 + thread.depth * 14}px` }}
            data-testid="thread-item"
            data-thread-id={thread.id}
            data-parent-thread-id={thread.parentThreadId ?? ""}
            data-depth={thread.depth}
            aria-current={current === thread.id}
            title={`${thread.label}\n${detail(thread, whole?.threads.find((line) => line.id === thread.id)?.recorded)}\n${thread.fileName}`}
            onClick={() => void setThread(thread.id)}
          >
            <span className="thread-label">
              <span className="thread-branch muted" aria-hidden="true">
                └{" "}
              </span>
              {thread.label}
            </span>
            <span className="thread-detail muted">{detail(thread, whole?.threads.find((line) => line.id === thread.id)?.recorded)}</span>
          </button>
        ))}
        {missing.length > 0 && <NotOpenedThreads threads={missing} whatToDrop={whatToDrop} />}
      </div>
      {shown && <SpawnBar thread={shown} threads={allThreads} />}
    </>
  );
}
