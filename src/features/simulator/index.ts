// The simulator's page-side surface: the Simulate button and panel, and what the page's mount hands
// to other features (a link's simulator settings, the replay's compactions for the timeline).
export { SimulateButton, SimulatorPanel } from "./SimulatorPanel";
export { linkSimulation, watchReplayCompactions } from "./simulatorState";
