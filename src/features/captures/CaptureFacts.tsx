// Details panel: what the attached captured requests taught — the session constants (filling
// every turn) and the model facts (filling the catalogue for the model each was sent to) — each
// with the capture it came from. Values are shown as plain text, shortened.
import type { CaptureFact, RequestHeader } from "../../core/model";
import { useAppStore } from "../../page/store";

function shortValue(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value) ?? "";
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

function FactRow({ fact }: { fact: CaptureFact }) {
  return (
    <li data-testid="capture-fact" title={`${fact.path} in ${fact.source}`}>
      <span className="strong">{fact.label}</span> <span className="muted">({fact.kind === "model" ? "model fact" : "session constant"} · {fact.source})</span>: {shortValue(fact.value)}
    </li>
  );
}

function CaptureBlock({ capture, role }: { capture: RequestHeader; role: string }) {
  const facts = capture.facts ?? [];
  return (
    <>
      <div className="kv">
        <span className="k">{role}</span>
        <span className="v">
          {capture.source}
          {capture.model ? ` · ${capture.model}` : ""}
        </span>
      </div>
      {facts.length > 0 && (
        <ul className="lint-list" data-testid={`capture-facts-${capture.source}`}>
          {facts.map((fact) => (
            <FactRow key={`${fact.key}@${fact.path}`} fact={fact} />
          ))}
        </ul>
      )}
    </>
  );
}

export function CaptureFacts() {
  const header = useAppStore((state) => state.options.header);
  const captures = useAppStore((state) => state.options.captures);
  if (!header && captures.length === 0) return null;
  return (
    <div data-testid="capture-facts">
      <div className="section-title">Learnt from captured requests</div>
      {header && <CaptureBlock capture={header} role="session constants" />}
      {captures.map((capture) => (
        <CaptureBlock key={capture.source} capture={capture} role="also attached" />
      ))}
    </div>
  );
}
