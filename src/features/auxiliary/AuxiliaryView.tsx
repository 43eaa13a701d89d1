// Centre view for a selected auxiliary request (opencode's title request FM-OC-15, summariser
// request CP-OC-17): the rebuilt body with its highlights (not-recorded parts, text opencode
// synthesises), and for a summariser request the `<conversation>` text and prior summary that
// the session determines (shown as plain text).
import { useAppStore } from "../../page/store";
import { formatCompact } from "../../ui/format";
import { LazyRequestEditor, RequestLegend } from "../request/index";
import { ruleTooltip } from "../../ui/ruleIds";
import { provenanceWords } from "../../ui/words";

export function AuxiliaryView() {
  const auxiliary = useAppStore((state) => state.auxiliary);
  if (auxiliary.status === "loading") return <div className="center-message muted">Rebuilding the auxiliary request…</div>;
  if (auxiliary.status === "error") return <div className="center-message error-text">{auxiliary.error}</div>;
  const result = auxiliary.result;
  if (!result) return <div className="center-message muted">Select a request.</div>;
  return (
    <div className="request-view" data-testid="auxiliary-view">
      <div className="view-toolbar">
        <span className="strong" data-testid="auxiliary-kind">
          {result.label}
        </span>
        <span className="chip" title={`Synthesised by the agent, not stored in the session (${result.rule}).\n${ruleTooltip([result.ruleId])}`}>
          {provenanceWords(result.rule)}
        </span>
        <span className="muted">{formatCompact(result.jsonText.length)} chars</span>
        <span className="spacer" />
        <RequestLegend />
      </div>
      <LazyRequestEditor jsonText={result.jsonText} highlights={result.highlights} documentKey={`auxiliary-${result.index}`} />
      {result.summariser && (
        <details className="auxiliary-summariser">
          <summary>
            What the session determines: the {"<conversation>"} text ({formatCompact(result.summariser.conversation.length)} chars)
            {result.summariser.priorSummary !== null ? " and the prior summary" : ""}
          </summary>
          {result.summariser.priorSummary !== null && (
            <>
              <div className="section-title" title={ruleTooltip(["CP-OC-20"])}>Prior summary</div>
              <pre className="plain-text">{result.summariser.priorSummary}</pre>
            </>
          )}
          <div className="section-title" title={ruleTooltip(["CP-OC-16"])}>Conversation</div>
          <pre className="plain-text">{result.summariser.conversation}</pre>
        </details>
      )}
    </div>
  );
}
