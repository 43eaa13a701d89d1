// Centre view for a selected compaction event: its reconstructed summariser request(s) when the
// compaction module provides them (PI-R12), otherwise what the session records about it. pi's
// fixed instruction texts are named slots (PI-K20 … PI-K22, PI-K27): the user attaches captured
// summariser requests to fill them; slots left empty are marked "not recorded" (here and in the
// request JSON). Also shows the serialized conversation, the previous summary, the split turn's
// prefix transcript and the reconstruction's lints. Session text is rendered as text only.
import { useState } from "react";
import { attachCompactionCaptures, clearCompactionCaptures } from "../captures/capturesState";
import { useAppStore } from "../../page/store";
import type { CompactionRequestsResult } from "./protocol";
import { formatInt } from "../../ui/format";
import { ExportButton } from "../share/ExportPanel";
import { LazyRequestEditor } from "../request/LazyRequestEditor";
import { CompactionOutcomeLists } from "./CompactionOutcome";

function TextSection({ title, text, testId }: { title: string; text: string | null | undefined; testId: string }) {
  return (
    <details data-testid={testId}>
      <summary>
        {title}
        <span className="muted"> · {text ? `${formatInt(text.length)} chars` : "none"}</span>
      </summary>
      {text ? <pre>{text}</pre> : <div className="muted">None.</div>}
    </details>
  );
}

function InstructionSlots({ result }: { result: CompactionRequestsResult }) {
  const error = useAppStore((state) => state.compactionCaptureError);
  const slots = result.slots ?? [];
  const sources = result.instructionSources ?? [];
  return (
    <div data-testid="compaction-slots">
      <div className="strong">Instruction slots</div>
      <ul className="slot-list">
        {slots
          .filter((slot) => slot.used)
          .map((slot) => (
            <li key={slot.slot} className={slot.filled ? "filled" : "missing"} data-testid="compaction-slot" data-filled={slot.filled}>
              {slot.label}: {slot.filled ? "filled from a captured request" : "not recorded"}
            </li>
          ))}
      </ul>
      <label className="field" title="A summariser request captured from pi (Chat Completions or Anthropic shape); each fills the slot it carries">
        <span className="field-label">Attach captured summariser request</span>
        <input
          type="file"
          accept=".json,application/json"
          multiple
          data-testid="compaction-instructions-input"
          onChange={(event) => {
            const files = Array.from(event.target.files ?? []);
            event.target.value = "";
            if (files.length > 0) void attachCompactionCaptures(files);
          }}
        />
      </label>
      {sources.length > 0 && (
        <div className="muted">
          from {sources.join(", ")}{" "}
          <button type="button" className="btn small" onClick={() => clearCompactionCaptures()}>
            clear
          </button>
        </div>
      )}
      {error && <div className="error-text">{error}</div>}
    </div>
  );
}

export function CompactionView() {
  const compaction = useAppStore((state) => state.compaction);
  const [chosen, setChosen] = useState(0);
  if (compaction.status === "loading" && !compaction.result) {
    return <div className="center-message muted">Reconstructing the summariser request…</div>;
  }
  if (compaction.status === "error") return <div className="center-message error-text">{compaction.error}</div>;
  const result = compaction.result;
  if (!result || !result.available || result.requests.length === 0) {
    return (
      <div className="request-view" data-testid="compaction-view" data-rebuilt="false">
        <div className="compaction-panel">
          {result?.outcome && <CompactionOutcomeLists outcome={result.outcome} />}
          <div className="muted" data-testid="compaction-no-request">
            {result?.reason ?? "The summariser request is not recorded in the session and this file does not say enough to rebuild it."} The
            stored summary is among the next turn's messages (Added above).
          </div>
        </div>
      </div>
    );
  }
  const index = Math.min(chosen, result.requests.length - 1);
  const request = result.requests[index]!;
  return (
    <div className="request-view" data-testid="compaction-view" data-rebuilt="true">
      <div className="view-toolbar">
        <span className="strong">Summariser request</span>
        <span className="chip" title="Not recorded by the agent: rebuilt from the compaction's record with the agent's own code">reconstructed</span>
        {result.requests.length > 1 &&
          result.requests.map((r, i) => (
            <button key={r.label} type="button" className={`btn small${i === index ? " active" : ""}`} onClick={() => setChosen(i)}>
              {r.label}
            </button>
          ))}
        <span className="spacer" />
        <ExportButton target={{ kind: "compaction", entryId: result.entryId, index }} />
      </div>
      <div className="compaction-panel">
        {result.outcome && <CompactionOutcomeLists outcome={result.outcome} />}
        <InstructionSlots result={result} />
        <TextSection title="Serialized conversation" text={result.serializedConversation} testId="compaction-conversation" />
        <TextSection title="Previous summary" text={result.previousSummary} testId="compaction-previous-summary" />
        {result.turnPrefixConversation !== undefined && (
          <TextSection title="Split turn prefix (turn-prefix request)" text={result.turnPrefixConversation} testId="compaction-turn-prefix" />
        )}
        {result.lints.length > 0 && (
          <details data-testid="compaction-lints" open>
            <summary>Findings ({result.lints.length})</summary>
            <ul className="lint-list">
              {result.lints.map((lint, i) => (
                <li key={i}>{lint}</li>
              ))}
            </ul>
          </details>
        )}
      </div>
      <LazyRequestEditor jsonText={request.jsonText} highlights={request.highlights} documentKey={`compaction-${result.entryId}-${index}`} />
    </div>
  );
}
