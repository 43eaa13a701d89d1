// Marks the timeline shows on its rows that other features compute: today the turns where the
// Simulate panel's whole-session replay would fire automatic compaction. The page's mount
// (./App.tsx) fills this slot from the simulator, so the timeline reads the frame, not the simulator.
import { create } from "zustand";

interface TimelineMarks {
  /** Turns where a simulated automatic compaction fires, null without a replay. */
  simulatedCompactions: readonly number[] | null;
}

export const useTimelineMarks = create<TimelineMarks>()(() => ({ simulatedCompactions: null }));

export function setSimulatedCompactions(turns: readonly number[] | null): void {
  useTimelineMarks.setState({ simulatedCompactions: turns });
}
