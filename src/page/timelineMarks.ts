// Marks the timeline shows on its rows that other features compute: the turns where the
// Simulate panel's whole-session replay would fire automatic compaction, and each turn's verdict
// against its captured request ("equal to the wire"). The page's mount (./App.tsx) fills these
// slots from the simulator and the captures feature, so the timeline reads the frame, not them.
import { create } from "zustand";
import type { WireVerification } from "../app/captureVerify";

interface TimelineMarks {
  /** Turns where a simulated automatic compaction fires, null without a replay. */
  simulatedCompactions: readonly number[] | null;
  /** The session verified against its attached captures, null when none is attached. */
  wire: WireVerification | null;
}

export const useTimelineMarks = create<TimelineMarks>()(() => ({ simulatedCompactions: null, wire: null }));

export function setWireVerification(wire: WireVerification | null): void {
  useTimelineMarks.setState({ wire });
}

export function setSimulatedCompactions(turns: readonly number[] | null): void {
  useTimelineMarks.setState({ simulatedCompactions: turns });
}
