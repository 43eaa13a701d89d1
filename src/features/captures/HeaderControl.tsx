// Request-header source: the system prompt and tools come from a captured request the user
// attaches; without one they are shown as "not recorded" (never invented).
import { useRef } from "react";
import { attachHeaderFile, clearHeader, saveFactsFile } from "./capturesState";
import { useAppStore } from "../../page/store";

/** True when the rebuilt request still lacks its system prompt or its tool definitions. */
function lacksSystemOrTools(notRecorded: readonly string[]): boolean {
  return notRecorded.some((label) => /^(system|tool)/i.test(label));
}

/** Which of the two the file lacks, in words: exactly the missing one, the other said to be there. */
function missingWords(notRecorded: readonly string[] | null): string {
  const system = notRecorded?.some((label) => /^system/i.test(label)) ?? true;
  const tools = notRecorded?.some((label) => /^tool/i.test(label)) ?? true;
  if (system && !tools) return "system prompt: not in the file (tools are)";
  if (tools && !system) return "tools: not in the file (system prompt is)";
  return "system & tools: not in the file";
}

export function HeaderControl() {
  const hasSession = useAppStore((state) => state.session !== null);
  // Some sessions hold both (a hermes snapshot, request dumps): then nothing needs attaching.
  const fileHoldsBoth = useAppStore((state) => {
    const built = state.request.result?.built;
    return built ? !lacksSystemOrTools(built.notRecorded) : false;
  });
  const header = useAppStore((state) => state.options.header);
  const captureCount = useAppStore((state) => state.options.captures.length);
  const headerError = useAppStore((state) => state.headerError);
  const factsNote = useAppStore((state) => state.factsNote);
  // The agent's files record them for every request (deepseek-harness's request headers).
  const recorded = useAppStore((state) => state.session?.agent?.recordsSystemAndTools === true);
  const notRecorded = useAppStore((state) => state.request.result?.built.notRecorded ?? null);
  const inSession = fileHoldsBoth || recorded;
  const inputRef = useRef<HTMLInputElement | null>(null);
  const toolCount = header?.tools?.length;
  const title = header
    ? `System prompt and tools from ${header.source}` +
      (header.systemPrompt !== undefined ? ` · system ${header.systemPrompt.length} chars` : " · no system prompt") +
      (toolCount !== undefined ? ` · ${toolCount} tools` : " · no tools")
    : inSession
      ? "This turn's request takes its system prompt and tool definitions from the session's own files. A captured request body (JSON) can still replace them."
      : "The session file does not record the system prompt and tool definitions. Attach a captured request body (JSON) of the same agent to fill them in.";
  if (!hasSession) return null;

  return (
    <div className={`header-control${headerError ? " has-error" : ""}`} title={headerError ?? title}>
      <span className={`header-state${header || inSession ? " attached" : ""}`} data-testid="header-state">
        {header
          ? `system & tools: from ${header.source}${captureCount > 0 ? ` (+${captureCount} captures)` : ""}`
          : inSession
            ? "system & tools: in the session"
            : missingWords(notRecorded)}
      </span>
      <button type="button" className="btn small" onClick={() => inputRef.current?.click()}>
        {header ? "Replace" : "Attach…"}
      </button>
      {header && (
        <button
          type="button"
          className="btn small"
          data-testid="facts-save"
          title="Save what the captured requests taught (system prompt, tools, settings, model facts: the first capture of each model) as a facts file. Attach it to a later session of the same agent version instead of capturing again."
          onClick={() => void saveFactsFile()}
        >
          Save facts
        </button>
      )}
      {header && (
        <button type="button" className="btn small" aria-label="Clear request header" onClick={clearHeader}>
          ✕
        </button>
      )}
      {headerError && <span className="header-error">{headerError}</span>}
      {!headerError && factsNote && (
        <span className="header-error" data-testid="facts-note">
          {factsNote}
        </span>
      )}
      <input
        ref={inputRef}
        type="file"
        hidden
        accept=".json,application/json"
        data-testid="header-input"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = "";
          if (file) void attachHeaderFile(file);
        }}
      />
    </div>
  );
}
