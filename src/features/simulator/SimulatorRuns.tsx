// Longer simulator runs: a policy's spiral run (opencode's, CP-OC-8/10/32: repeated failed attempts,
// the next request's size per attempt, with the fix off and on side by side, in the policy's words) and the whole-session
// replay (where automatic compaction would fire; also marked in the timeline) with the comparison
// of two policies (compactions, tokens sent, estimated cache reads).
import type { PolicyId } from "../../core/session/simulate/index";
import type { SpiralLabels, SpiralRunResult } from "../../core/simulate/types";
import { clearReplay, runCompare, runReplay, runSpiral, setSimulator, useSimulatorStore } from "./simulatorState";
import { formatInt } from "../../ui/format";
import { WhyTip } from "../../ui/WhyTip";
import { inWords, verdictWords } from "../../ui/words";

function SpiralColumn({ label, run, testId }: { label: string; run: SpiralRunResult; testId: string }) {
  return (
    <div className="sim-spiral-column" data-testid={testId} data-verdict={run.verdict}>
      <div className="section-title">{inWords(label)}</div>
      <div className={`sim-verdict sim-verdict-${run.verdict}`} data-testid={`${testId}-verdict`}>
        {verdictWords(run.verdict)}
        <WhyTip rule={run.ruleId} />
      </div>
      <div className="explain">{inWords(run.message)}</div>
      <table className="sim-table">
        <thead>
          <tr>
            <th>attempt</th>
            <th title="Estimated tokens of the attempt's summariser request">summariser</th>
            <th title="Estimated tokens of the next main request after the failed attempt">next request</th>
            <th>grew</th>
            <th title="Failed summaries still in the model's scope">failed in scope</th>
          </tr>
        </thead>
        <tbody>
          {run.attempts.map((attempt) => (
            <tr key={attempt.attempt}>
              <td>{attempt.attempt}</td>
              <td className="num">{formatInt(attempt.summariserRequestTokens)}</td>
              <td className="num">{formatInt(attempt.nextMainRequestTokens)}</td>
              <td>{attempt.grew ? "yes" : "no"}</td>
              <td className="num">{attempt.failedSummariesInScope}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function SimulatorSpiral({ turn, labels }: { turn: number; labels: SpiralLabels }) {
  const spiral = useSimulatorStore((state) => state.spiral);
  const attempts = useSimulatorStore((state) => state.spiralAttempts);
  const brake = useSimulatorStore((state) => state.parameters[state.policyId]?.[labels.fixParameter] === true);
  const result = spiral.result;
  return (
    <section className="sim-section" data-testid="simulator-spiral" data-status={spiral.status}>
      <div className="section-title">{inWords(labels.title)}</div>
      <div className="sim-row">
        <label className="sim-field">
          <span className="field-label">Failed attempts</span>
          <input
            type="number"
            min={1}
            max={20}
            data-testid="simulator-spiral-attempts"
            value={attempts}
            onChange={(event) => setSimulator({ spiralAttempts: Math.min(20, Math.max(1, Math.floor(Number(event.target.value) || 1))) })}
          />
        </label>
        <button type="button" className="btn small" data-testid="simulator-spiral-run" onClick={() => void runSpiral(turn)}>
          Run spiral after turn #{turn}
        </button>
        {spiral.status === "running" && <span className="muted">running…</span>}
      </div>
      <div className="explain">
        Each attempt stores a compaction request and a failed summary, then measures the next main request. The brake switch above is
        currently <strong>{brake ? "on" : "off"}</strong> (highlighted); both runs are shown.
      </div>
      {spiral.error && <div className="error-text">{spiral.error}</div>}
      {result && (
        <>
          <div className="sim-spiral" data-testid="simulator-spiral-result" data-brake={brake ? "on" : "off"} data-verdict={brake ? result.on.verdict : result.off.verdict}>
            <div className={brake ? "" : "sim-current"}>
              <SpiralColumn label={labels.off} run={result.off} testId="simulator-spiral-off" />
            </div>
            <div className={brake ? "sim-current" : ""}>
              <SpiralColumn label={labels.on} run={result.on} testId="simulator-spiral-on" />
            </div>
          </div>
        </>
      )}
    </section>
  );
}

export function SimulatorReplay() {
  const state = useSimulatorStore();
  const replay = state.replay;
  const compare = state.compare;
  const runnable = (state.policies ?? []).filter((p) => p.supported);
  const labelOf = (id: string) => inWords(state.policies?.find((p) => p.id === id)?.label ?? id);
  const fired = replay.result?.turns.filter((t) => t.fired) ?? [];
  return (
    <section className="sim-section" data-testid="simulator-replay" data-status={replay.status}>
      <div className="section-title">Whole-session replay ({labelOf(state.policyId)})</div>
      <div className="sim-row">
        <button type="button" className="btn small" data-testid="simulator-replay-run" onClick={() => void runReplay()}>
          Replay the session
        </button>
        {replay.result && (
          <button type="button" className="btn small" onClick={clearReplay}>
            Clear marks
          </button>
        )}
        {replay.status === "running" && <span className="muted">running…</span>}
      </div>
      <div className="explain">
        Runs the policy's automatic trigger after every turn with the settings above (recorded compactions removed) and marks the turns where it
        would fire in the timeline. Approximate: later turns are not re-serialized on top of each compaction.
        <WhyTip rule="CP-0-INF-REPLAY" />
      </div>
      {replay.error && <div className="error-text">{replay.error}</div>}
      {replay.result && (
        <div data-testid="simulator-replay-result" data-compactions={replay.result.totals.compactions}>
          <div className="kv">
            <span className="k">compaction would fire after</span>
            <span className="v">{fired.length === 0 ? "no turn" : fired.map((t) => `#${t.turn}`).join(", ")}</span>
          </div>
          <div className="kv">
            <span className="k">tokens sent · est. cache reads</span>
            <span className="v">
              ~{formatInt(replay.result.totals.tokensSent)} · ~{formatInt(replay.result.totals.estimatedCacheRead)}
            </span>
          </div>
          {fired.length > 0 && (
            <table className="sim-table">
              <thead>
                <tr>
                  <th>turn</th>
                  <th>context</th>
                  <th>threshold</th>
                  <th>verdict</th>
                  <th>saved</th>
                </tr>
              </thead>
              <tbody>
                {fired.map((t) => (
                  <tr key={t.turn}>
                    <td>#{t.turn}</td>
                    <td className="num">{formatInt(t.contextTokens)}</td>
                    <td className="num">{formatInt(t.threshold)}</td>
                    <td>{verdictWords(t.verdict)}</td>
                    <td className="num">{formatInt(t.savedByThisCompaction)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      )}

      <div className="section-title">Compare two policies</div>
      <div className="sim-row">
        <span>{labelOf(state.policyId)} vs</span>
        <select data-testid="simulator-compare-policy" value={state.comparePolicy} onChange={(event) => setSimulator({ comparePolicy: event.target.value as PolicyId, compare: { status: "idle", result: null, error: null } })}>
          {runnable.map((p) => (
            <option key={p.id} value={p.id}>
              {inWords(p.label)}
            </option>
          ))}
        </select>
        <button type="button" className="btn small" data-testid="simulator-compare-run" onClick={() => void runCompare()}>
          Compare
        </button>
        {compare.status === "running" && <span className="muted">running…</span>}
      </div>
      {compare.error && <div className="error-text">{compare.error}</div>}
      {compare.result && (
        <table className="sim-table" data-testid="simulator-compare">
          <thead>
            <tr>
              <th />
              <th>{labelOf(compare.result.comparison.a.policyId)}</th>
              <th>{labelOf(compare.result.comparison.b.policyId)}</th>
              <th>difference</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>compactions</td>
              <td className="num">{compare.result.comparison.a.compactions}</td>
              <td className="num">{compare.result.comparison.b.compactions}</td>
              <td className="num">{compare.result.comparison.difference.compactions}</td>
            </tr>
            <tr>
              <td>after turns</td>
              <td>{compare.result.comparison.a.compactionTurns.map((t) => `#${t}`).join(", ") || "—"}</td>
              <td>{compare.result.comparison.b.compactionTurns.map((t) => `#${t}`).join(", ") || "—"}</td>
              <td />
            </tr>
            <tr>
              <td>tokens sent</td>
              <td className="num">~{formatInt(compare.result.comparison.a.tokensSent)}</td>
              <td className="num">~{formatInt(compare.result.comparison.b.tokensSent)}</td>
              <td className="num">{formatInt(compare.result.comparison.difference.tokensSent)}</td>
            </tr>
            <tr>
              <td>est. cache reads</td>
              <td className="num">~{formatInt(compare.result.comparison.a.estimatedCacheRead)}</td>
              <td className="num">~{formatInt(compare.result.comparison.b.estimatedCacheRead)}</td>
              <td className="num">{formatInt(compare.result.comparison.difference.estimatedCacheRead)}</td>
            </tr>
          </tbody>
        </table>
      )}
    </section>
  );
}
