// Request-header source: the system prompt and tools come from a captured request the user
// attaches; without one they are shown as "not recorded" (never invented).
import { useRef } from "react";
import { attachHeaderFile, clearHeader } from "../state/captures";
import { useAppStore } from "../state/store";

export function HeaderControl() {
  const header = useAppStore((state) => state.options.header);
  const captureCount = useAppStore((state) => state.options.captures.length);
  const headerError = useAppStore((state) => state.headerError);
  const recorded = useAppStore((state) => state.session?.agent?.recordsSystemAndTools === true);
  const inputRef = useRef<HTMLInputElement | null>(null);
  const toolCount = header?.tools?.length;
  const title = header
    ? `System prompt and tools from ${header.source}` +
      (header.systemPrompt !== undefined ? ` · system ${header.systemPrompt.length} chars` : " · no system prompt") +
      (toolCount !== undefined ? ` · ${toolCount} tools` : " · no tools")
    : recorded
      ? "The session file records the system prompt and tool definitions of every request (its request headers): no captured request is needed for them."
      : "The session file does not record the system prompt and tool definitions. Attach a captured request body (JSON) of the same agent to fill them in.";

  return (
    <div className={`header-control${headerError ? " has-error" : ""}`} title={headerError ?? title}>
      <span className={`header-state${header ? " attached" : ""}`} data-testid="header-state">
        {header ? `header: ${header.source}${captureCount > 0 ? ` (+${captureCount} captures)` : ""}` : recorded ? "system & tools: in the session" : "system & tools: not recorded"}
      </span>
      <button type="button" className="btn small" onClick={() => inputRef.current?.click()}>
        {header ? "Replace" : "Attach…"}
      </button>
      {header && (
        <button type="button" className="btn small" aria-label="Clear request header" onClick={clearHeader}>
          ✕
        </button>
      )}
      {headerError && <span className="header-error">{headerError}</span>}
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
