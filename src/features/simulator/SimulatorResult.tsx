// The result of one simulation, in the order of compaction-policies.md CP-0-2: (1) the trigger
// arithmetic with its numbers, (2) the partition (kept / summarised / pruned / dropped, with the
// messages and their tokens), (3) the summariser request(s) in a read-only editor with the
// replayed prefix, the focus topic and the redaction shown, (4) the request after compaction and
// the following turns, (5) the verdict, (6) tokens, then findings and the model-resolution table.
// Session text is rendered as text only.
import { useState } from "react";
import { useSimulatorStore } from "./simulatorState";
import type { SimulatedRequestRef, SimulationView, SummariserRequestView, RangeView } from "./protocol";
import { ExportButton } from "../export/index";
import { ruleTooltip } from "../../ui/ruleIds";
import { formatInt } from "../../ui/format";
import { InferredRulesBadge } from "../../ui/InferredBadge";
import { codeNameWords, formatFigure, inWords, plainWords, plural, savingWords, verdictWords } from "../../ui/words";
import { LazyRequestEditor } from "../request/index";
import { WhyTip } from "../../ui/WhyTip";

/** A text of the core in words, its rule ids in the tooltip with their documentation pages. */
function Words({ text }: { text: string }) {
  const { text: shown, ruleIds } = plainWords(text);
  return <span title={ruleIds.length > 0 ? ruleTooltip(ruleIds) : undefined}>{shown}</span>;
}

function Kv({ label, children, title, testId }: { label: string; children: React.ReactNode; title?: string; testId?: string }) {
  return (
    <div className="kv" title={title} data-testid={testId}>
      <span className="k">{label}</span>
      <span className="v">{children}</span>
    </div>
  );
}

/** A policy's arithmetic, its numbers grouped; it ends "→ no" where it does not fire: said in words. */
function expressionInWords(expression: string): string {
  return inWords(expression.replace(/\d{4,}(?:\.\d+)?/g, (n) => formatInt(Number(n))).replace(/→ no$/, "→ does not fire here"));
}

function Trigger({ view }: { view: SimulationView }) {
  const trigger = view.trigger;
  const limits = view.limits;
  return (
    <section className="sim-section" data-testid="simulator-trigger" data-result={String(trigger.result)}>
      <div className="section-title">
        1 · Trigger
        <WhyTip rule={trigger.ruleId} />
      </div>
      <div className={`sim-expression${trigger.result ? " fires" : ""}`} data-testid="simulator-trigger-expression">
        {trigger.manual ? `manual compaction: trigger skipped (${expressionInWords(trigger.expression)})` : expressionInWords(trigger.expression)}
      </div>
      <table className="sim-table">
        <tbody>
          {trigger.operands.map((operand) => (
            <tr key={operand.name}>
              <td title={operand.name}>{codeNameWords(operand.name)}</td>
              <td className="num">{formatFigure(operand.value)}</td>
              <td className="muted">
                <Words text={operand.source} />
              </td>
            </tr>
          ))}
          <tr>
            <td>comparison</td>
            <td className="num">
              {formatFigure(trigger.left)} {trigger.operator} {formatFigure(trigger.right)}
            </td>
            <td className="muted">{trigger.result ? "true: compaction fires" : "false: no automatic compaction here"}</td>
          </tr>
        </tbody>
      </table>
      <div className="explain">
        <Words
          text={`Limits: window ${formatInt(limits.contextWindow)} (${limits.contextWindowSource}), output ${formatInt(limits.maxOutputTokens)} (${limits.maxOutputTokensSource})${
            limits.inputLimit !== null ? `, input ${formatInt(limits.inputLimit)} (${limits.inputLimitSource})` : ""
          }. Estimator: ${trigger.estimator}.`}
        />
      </div>
    </section>
  );
}

const RANGE_TITLES: Record<RangeView["kind"], string> = {
  kept: "kept",
  summarised: "summarised (dropped from the context, replaced by the summary)",
  pruned: "pruned (shortened without the model)",
  "dropped-without-summary": "dropped without summary",
};

/** "message 0", "messages 0–3". */
function messagesText(first: number, last: number): string {
  return first === last ? `message ${first}` : `messages ${first}–${last}`;
}

function Range({ range }: { range: RangeView }) {
  const [open, setOpen] = useState(range.kind !== "kept");
  return (
    <div className={`sim-range sim-range-${range.kind}`} data-testid="simulator-range" data-kind={range.kind}>
      <button type="button" className="sim-range-head" onClick={() => setOpen(!open)} aria-expanded={open}>
        <span className="sim-range-kind">{RANGE_TITLES[range.kind]}</span>
        <span>{range.label ? inWords(range.label) : ""}</span>
        <span className="num">~{formatInt(range.tokens)} tok</span>
        <span className="muted">{range.messageStart === null ? plural(range.entryCount, "entry", "entries") : messagesText(range.messageStart, (range.messageEnd ?? 1) - 1)}</span>
        <WhyTip rule={range.ruleId} />
      </button>
      {open && range.messages.length > 0 && (
        <ul className="sim-messages">
          {range.messages.map((message) => (
            <li key={message.index} data-testid="simulator-range-message">
              <span className="num">#{message.index}</span>
              <span className="sim-role">{codeNameWords(message.role)}</span>
              <span className="num">~{formatInt(message.tokens)}</span>
              <span className="sim-preview" title={message.preview}>{message.preview}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Partition({ view }: { view: SimulationView }) {
  const details = Object.entries(view.partitionDetails);
  return (
    <section className="sim-section" data-testid="simulator-partition">
      <div className="section-title">2 · Partition of turn #{view.turn}'s context</div>
      {view.ranges.length === 0 ? <div className="muted">Nothing to partition.</div> : view.ranges.map((range, index) => <Range key={index} range={range} />)}
      {details.length > 0 && (
        <div className="sim-details">
          {details.map(([key, value]) => (
            <Kv key={key} label={codeNameWords(key)} title={key}>
              {value === null ? "—" : typeof value === "number" ? formatInt(value) : inWords(String(value))}
            </Kv>
          ))}
        </div>
      )}
    </section>
  );
}

function RequestExport({ settings, request }: SimulatedRequestRef) {
  return <ExportButton target={{ kind: "simulation", simulation: { settings, request } }} />;
}

function SummariserRequest({ request, index, view, settings }: { request: SummariserRequestView; index: number; view: SimulationView; settings: SimulatedRequestRef["settings"] | null }) {
  return (
    <div className="sim-request" data-testid="simulator-summariser-request" data-role={request.role}>
      <div className="sim-request-head">
        <strong>
          {index + 1}. {request.role}
        </strong>
        <span className="muted">
          {codeNameWords(request.form)} · {request.api}
          {request.maxTokens !== null ? ` · max ${formatInt(request.maxTokens)} tokens` : ""}
        </span>
        <span className="spacer" />
        {settings && <RequestExport settings={settings} request={index} />}
      </div>
      <Kv label="replayed prefix" title="Leading part of the request byte-identical to the turn's main request (teal in the editor)">
        {request.replayedPrefixChars > 0 ? `${formatInt(request.replayedPrefixChars)} chars identical to turn #${view.turn}'s request` : "none (not a replay)"}
      </Kv>
      {request.cache && (
        <Kv label="cache" title={`Compared with ${request.cache.reference}`}>
          ~{formatInt(request.cache.sharedPrefixTokens)} of {formatInt(request.cache.totalTokens)} tokens shared · <Words text={request.cache.note.replace(/\d{4,}/g, (n) => formatInt(Number(n)))} />
        </Kv>
      )}
      <Kv label="focus topic">{request.focusPlacement ?? "not used by this request"}</Kv>
      <Kv label="redaction">
        <Words text={request.redaction} />
      </Kv>
      {request.instructionSlots.length > 0 && (
        <Kv label="instruction slots">
          {request.instructionSlots.map((slot) => `${codeNameWords(slot.slot)}: ${slot.filledFrom === "captured" ? `captured${slot.source ? ` (${slot.source})` : ""}` : "our description"}`).join(" · ")}
        </Kv>
      )}
      {request.notes.map((note, i) => (
        <div key={i} className="explain">
          <Words text={note} />
        </div>
      ))}
      <div className="sim-editor">
        <LazyRequestEditor jsonText={request.jsonText} highlights={request.highlights} documentKey={`sim-${view.policyId}-${view.turn}-${index}`} />
      </div>
    </div>
  );
}

function After({ view, settings }: { view: SimulationView; settings: SimulatedRequestRef["settings"] | null }) {
  const after = view.after;
  const [showRequest, setShowRequest] = useState(false);
  return (
    <section className="sim-section" data-testid="simulator-after">
      <div className="section-title">4 · After compaction</div>
      {after.summary ? (
        <Kv label="summary">
          <Words text={`${after.summary.source} · ~${formatInt(after.summary.tokens)} tokens${after.summary.label ? ` · ${after.summary.label.replace(/\d{4,}/g, (n) => formatInt(Number(n)))}` : ""}`} />
        </Kv>
      ) : (
        <Kv label="summary">none</Kv>
      )}
      <Kv label="next request" testId="simulator-savings">
        {after.jsonText === null ? "none" : `${plural(after.messageCount, "message")} · ~${formatInt(view.tokens.after)} tokens (was ~${formatInt(view.tokens.before)}, ${savingWords(view.tokens.saved)})`}
      </Kv>
      <Kv label="prefix break" testId="simulator-prefix-break">
        {after.prefixBreak
          ? `at message ${after.prefixBreak.messageIndex < 0 ? "before the messages" : `#${after.prefixBreak.messageIndex}`} · ~${formatInt(after.prefixBreak.sharedPrefixTokens)} tokens still shared · ${inWords(after.prefixBreak.reason)}`
          : "none"}
      </Kv>
      {after.followingTurns.length > 0 && (
        <table className="sim-table" data-testid="simulator-following-turns">
          <thead>
            <tr>
              <th>turn</th>
              <th>recorded</th>
              <th>simulated</th>
              <th title="Tokens the simulated request saves against the recorded one (negative: it is larger)">saved</th>
              <th>prefix break</th>
            </tr>
          </thead>
          <tbody>
            {after.followingTurns.map((turn) => (
              <tr key={turn.turn}>
                <td>#{turn.turn}</td>
                <td className="num">{formatInt(turn.originalTokens)}</td>
                <td className="num">{formatInt(turn.simulatedTokens)}</td>
                <td className="num">{turn.savedTokens < 0 ? `+${formatInt(-turn.savedTokens)} more` : formatInt(turn.savedTokens)}</td>
                <td className="muted">{turn.prefixBreak ? `message #${turn.prefixBreak.messageIndex}: ${inWords(turn.prefixBreak.reason)}` : "extends the previous request"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {after.jsonText !== null && (
        <div className="sim-request-head">
          <button type="button" className="btn small" data-testid="simulator-after-toggle" aria-expanded={showRequest} onClick={() => setShowRequest(!showRequest)}>
            {showRequest ? "Hide" : "Show"} the request after compaction
          </button>
          <span className="spacer" />
          {settings && <RequestExport settings={settings} request="after" />}
        </div>
      )}
      {showRequest && after.jsonText !== null && (
        <div className="sim-editor">
          <LazyRequestEditor jsonText={after.jsonText} highlights={[]} documentKey={`sim-after-${view.policyId}-${view.turn}`} />
        </div>
      )}
      {after.storedRecordJson && (
        <details>
          <summary className="muted">What the agent would store</summary>
          <pre className="sim-pre">{after.storedRecordJson}</pre>
        </details>
      )}
    </section>
  );
}

function VerdictSection({ view }: { view: SimulationView }) {
  const verdict = view.verdict;
  return (
    <section className="sim-section" data-testid="simulator-verdict" data-verdict={verdict.verdict}>
      <div className="section-title">5 · Verdict</div>
      <div className={`sim-verdict sim-verdict-${verdict.verdict}`} title={verdict.code ? `The policy's error code: ${verdict.code}` : undefined}>
        {verdictWords(verdict.verdict)}
        <WhyTip rule={verdict.ruleId} />
      </div>
      {verdict.message && (
        <div className="explain">
          <Words text={expressionInWords(verdict.message)} />
        </div>
      )}
      <Kv label="checked">{verdict.checked.map(verdictWords).join(" · ")}</Kv>
      <Kv label="not checked by this policy" testId="simulator-not-checked">
        {verdict.notChecked.length > 0 ? verdict.notChecked.map(verdictWords).join(" · ") : "—"}
      </Kv>
      <div className="section-title">6 · Tokens</div>
      <Kv label="before → after" title={view.tokens.estimator}>
        ~{formatInt(view.tokens.before)} → ~{formatInt(view.tokens.after)} ({savingWords(view.tokens.saved, ["saved", "added"])})
      </Kv>
      <Kv label="summariser input">~{formatInt(view.tokens.summariserInput)}</Kv>
      {view.tokens.provider && (
        <Kv label="provider count" testId="simulator-provider-count" title={`The system, tools and messages of each body counted; the provider adds a few framing tokens per message.\n${ruleTooltip(["CP-0-5"])}`}>
          {view.tokens.provider.exact ? "" : "~"}
          {formatInt(view.tokens.provider.before)} → {view.tokens.provider.exact ? "" : "~"}
          {formatInt(view.tokens.provider.after)} (summariser input {formatInt(view.tokens.provider.summariserInput)}) · {inWords(view.tokens.provider.counter)}
        </Kv>
      )}
      <div className="explain">
        <Words text={`Estimator: ${view.tokens.estimator}`} />
      </div>
    </section>
  );
}

function locationText(location: SimulationView["findings"][number]["location"]): string {
  if (!location) return "";
  const parts: string[] = [];
  if (location.request !== undefined) parts.push(location.request === "after" ? "request after compaction" : `summariser request ${location.request + 1}`);
  if (location.path) parts.push(location.path);
  if (location.messageIndex !== undefined) parts.push(`message #${location.messageIndex}`);
  if (location.entryId) parts.push(`entry ${location.entryId}`);
  if (location.start !== undefined) parts.push(`chars ${location.start}–${location.end ?? location.start}`);
  return parts.join(" · ");
}

function Findings({ view }: { view: SimulationView }) {
  return (
    <section className="sim-section" data-testid="simulator-findings">
      <div className="section-title">Findings ({view.findings.length})</div>
      {view.findings.length === 0 ? (
        <div className="muted">No findings.</div>
      ) : (
        <ul className="sim-findings">
          {view.findings.map((finding, index) => (
            <li key={index} data-testid="simulator-finding" data-severity={finding.severity} data-id={finding.id}>
              <span className={`badge sim-severity-${finding.severity}`}>{finding.severity}</span> <strong title={finding.id}>{codeNameWords(finding.id)}</strong>
              <WhyTip rule={finding.ruleId} />
              <div>
                <Words text={finding.message} />
              </div>
              {finding.location && <div className="muted">at {locationText(finding.location)}</div>}
            </li>
          ))}
        </ul>
      )}
      {view.inferred.length > 0 && (
        <>
          <div className="section-title">Rules this result depends on</div>
          <div className="inferred-list" data-testid="simulator-inferred">
            <InferredRulesBadge ruleIds={view.inferred} what="This simulation follows rules we inferred." />
          </div>
        </>
      )}
    </section>
  );
}

function ModelResolution({ view }: { view: SimulationView }) {
  const m = view.modelResolution;
  return (
    <section className="sim-section" data-testid="simulator-model-resolution">
      <div className="section-title">Model resolution (context window)</div>
      <table className="sim-table">
        <tbody>
          <tr>
            <td>recorded model</td>
            <td className="num">{formatInt(m.recorded.window)}</td>
            <td className="muted">
              {m.recorded.model} ({inWords(m.recorded.source)})
            </td>
          </tr>
          <tr>
            <td>agent default</td>
            <td className="num">{m.agentDefault === null ? "—" : formatInt(m.agentDefault)}</td>
            <td className="muted">{m.agentDefault === null ? "enter the agent default model's window above" : "entered"}</td>
          </tr>
          <tr>
            <td>provider default</td>
            <td className="num">{m.providerDefault === null ? "—" : formatInt(m.providerDefault)}</td>
            <td className="muted">{m.providerDefault === null ? "enter the provider default model's window above" : "entered"}</td>
          </tr>
          <tr className="sim-used">
            <td>used</td>
            <td className="num">{formatInt(m.used.window)}</td>
            <td className="muted">{inWords(m.used.from)}</td>
          </tr>
          {m.variants.map((variant) => (
            <tr key={variant.label}>
              <td>{inWords(variant.label)}</td>
              <td className="num">{formatInt(variant.window)}</td>
              <td className="muted">{inWords(variant.source)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export function SimulatorResult({ turn }: { turn: number }) {
  const simulation = useSimulatorStore((state) => state.simulation);
  const settings = useSimulatorStore((state) => state.simulationSettings);
  const view = simulation.result;
  return (
    <div className="sim-result" data-testid="simulator-result" data-status={simulation.status}>
      {simulation.status === "running" && <div className="muted sim-status">Simulating after turn #{turn}…</div>}
      {simulation.status === "error" && (
        <div className="error-text" data-testid="simulator-error">
          {simulation.error}
        </div>
      )}
      {view && (
        <>
          <Trigger view={view} />
          <Partition view={view} />
          <section className="sim-section" data-testid="simulator-summariser-requests">
            <div className="section-title">3 · Summariser request{view.summariserRequests.length === 1 ? "" : "s"} ({view.summariserRequests.length})</div>
            {view.summariserRequests.length === 0 && <div className="muted">No summariser call.</div>}
            {view.summariserRequests.map((request, index) => (
              <SummariserRequest key={`${view.policyId}-${index}`} request={request} index={index} view={view} settings={settings} />
            ))}
          </section>
          <After view={view} settings={settings} />
          <VerdictSection view={view} />
          <Findings view={view} />
          <ModelResolution view={view} />
        </>
      )}
    </div>
  );
}
