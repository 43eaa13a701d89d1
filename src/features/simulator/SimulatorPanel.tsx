// The Simulate panel: a right-hand panel that asks "what would this
// agent's compaction do at the selected turn?". Controls on top, then the result in the order of
// compaction-policies.md CP-0-2, then a policy's spiral run (opencode's) and the whole-session replay.
// Re-simulates whenever the turn, the settings or the pipeline options change; the work runs in the
// worker and only the latest answer is shown.
import { useEffect } from "react";
import { selectedTurnNumber } from "../../page/selectors";
import { inferenceKeyOf, inferenceSettled, loadInference, runSimulation, simulatorSettings, toggleSimulator, toggleSimulatorWidth, closeSimulator, useSimulatorStore } from "./simulatorState";
import { SimulatorInferred } from "./SimulatorInferred";
import { useAppStore } from "../../page/store";
import { SimulatorControls } from "./SimulatorControls";
import { SimulatorResult } from "./SimulatorResult";
import { SimulatorReplay, SimulatorSpiral } from "./SimulatorRuns";
import "./simulator.css";

/** Top-bar button that opens and closes the panel. */
export function SimulateButton() {
  const open = useSimulatorStore((state) => state.open);
  const hasSession = useAppStore((state) => state.analysis !== null);
  return (
    <button
      type="button"
      className={`btn${open ? " active" : ""}`}
      data-testid="simulate-button"
      aria-expanded={open}
      disabled={!hasSession}
      title="Compaction simulator: what would each agent's compaction do at the selected turn?"
      onClick={toggleSimulator}
    >
      Simulate compaction
    </button>
  );
}

export function SimulatorPanel() {
  const open = useSimulatorStore((state) => state.open);
  const wide = useSimulatorStore((state) => state.wide);
  const turn = useAppStore(selectedTurnNumber);
  const options = useAppStore((state) => state.options);
  const analysisReady = useAppStore((state) => state.analysis !== null);
  const policies = useSimulatorStore((state) => state.policies);
  const policyId = useSimulatorStore((state) => state.policyId);
  // The settings as a key: any change re-simulates (latest wins, in the worker).
  const settingsKey = useSimulatorStore((state) => (turn === null ? "" : JSON.stringify(simulatorSettings(turn, state))));
  const supported = policies?.find((policy) => policy.id === policyId)?.supported ?? false;

  // With inferred settings in use, the simulation waits for the inference of the current settings
  // (one run with them, not a first run with the defaults).
  const waitingForInference = useSimulatorStore((state) => state.useInferred && state.sharedInferred?.policyId !== state.policyId && !inferenceSettled(state));
  useEffect(() => {
    if (!open || turn === null || !analysisReady || !supported || waitingForInference) return;
    runSimulation(turn);
  }, [open, turn, settingsKey, options, analysisReady, supported, waitingForInference]);

  // The settings the recorded compactions bound, once per policy and options.
  const inferenceKey = useSimulatorStore(inferenceKeyOf);
  useEffect(() => {
    if (!open || !analysisReady || !supported) return;
    loadInference();
  }, [open, inferenceKey, options, analysisReady, supported]);

  if (!open) return null;
  const policy = policies?.find((p) => p.id === policyId) ?? null;
  return (
    <aside className={`simulator-panel ${wide ? "wide" : "docked"}`} data-testid="simulator-panel" data-width={wide ? "whole" : "beside"} aria-label="Compaction simulator">
      <div className="panel-title">
        <span title="Simulate compaction">Simulate compaction</span>
        <span className="muted" title={turn === null ? "select a turn" : `after turn #${turn}`}>{turn === null ? "select a turn" : `after turn #${turn}`}</span>
        <span className="spacer" />
        <button
          type="button"
          className="btn small"
          data-testid="simulator-width"
          aria-pressed={wide}
          title={wide ? "Put the simulator back beside the request (the timeline and the request stay visible)" : "Let the simulator take the whole width (the timeline still selects the turn with j/k)"}
          onClick={toggleSimulatorWidth}
        >
          {wide ? "Beside the request" : "Whole width"}
        </button>
        <button type="button" className="btn small" aria-label="Close the simulator" onClick={closeSimulator}>
          ✕
        </button>
      </div>
      <div className="simulator-body">
        <SimulatorControls />
        {supported && <SimulatorInferred />}
        {policy && !policy.supported && (
          <div className="explain warning-text" data-testid="simulator-unsupported">
            {policy.unsupported}
          </div>
        )}
        {turn === null ? (
          <div className="muted pad">Select a turn in the timeline: the simulation runs after that turn's answer.</div>
        ) : (
          supported && <SimulatorResult turn={turn} />
        )}
        {supported && policy?.spiral && turn !== null && <SimulatorSpiral turn={turn} labels={policy.spiral} />}
        {supported && <SimulatorReplay />}
      </div>
    </aside>
  );
}
