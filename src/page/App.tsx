// The page's mount: the layout (top bar, banners, then timeline | centre tabs | details), page-wide
// drag and drop and the timeline keyboard shortcuts, and the wiring between features that must not
// know each other (installFeatures). The simulator, the live file, the sessions library and
// sharing are known here only: the top bar takes their controls as slots, the open feature hands
// followed files and dropped folders to live and the library through its seam, the library opens
// a row through live, a share link carries the simulator's settings through share's view parts,
// and the timeline shows the simulator's replay marks and the captures' verdicts through frame slots.
import { useAppStore } from "./store";
import { setSimulatedCompactions, setWireVerification } from "./timelineMarks";
import { watchWireVerification } from "../features/captures/index";
import {
  openDroppedFiles,
  openDroppedFolder,
  provideFollowedOpeners,
  DropOverlay,
  EmptyState,
  LoadProgressBar,
  PasteDialog,
  useFileDrop,
} from "../features/open/index";
import { CenterPanel } from "./CenterPanel";
import { CompareView, useCompareStore } from "../features/compare/index";
import { DetailsPanel } from "../features/details/index";
import { ErrorBanner } from "./ErrorBanner";
import { linkSimulation, watchReplayCompactions, SimulateButton, SimulatorPanel } from "../features/simulator/index";
import { Timeline } from "../features/timeline/index";
import { TopBar } from "./TopBar";
import { useKeyboardNavigation } from "./useKeyboardNavigation";
import {
  installLiveTestHook,
  openDroppedLive,
  openFollowedDatabaseSession,
  openLiveHandles,
  FollowControl,
  WalBanner,
  WatchFileButton,
} from "../features/live/index";
import { libraryTestState, openLibraryFolder, provideRowOpener, showLibrary, LibraryButton, LibraryView } from "../features/library/index";
import { provideLinkViewPart, ShareButton } from "../features/share/index";
import { WarningsPanel } from "./WarningsPanel";
import { KeyboardOverlays } from "./KeyboardOverlays";
import { LazyPricesPanel } from "../features/prices/index";
import { SearchPanel } from "../features/search/index";

/** Wires the features to each other; called once, before the first render and the first open. */
export function installFeatures(): void {
  installLiveTestHook({ openLibraryFolder, openDroppedFolder, library: libraryTestState });
  provideFollowedOpeners({
    followDropped: openDroppedLive,
    listFolder: openLibraryFolder,
    followFolderSession: (handles) => {
      showLibrary(false);
      return openLiveHandles(handles);
    },
    openDatabaseSession: openFollowedDatabaseSession,
  });
  provideRowOpener((handles) => openLiveHandles(handles));
  provideLinkViewPart("simulation", linkSimulation);
  watchReplayCompactions(setSimulatedCompactions);
  watchWireVerification(setWireVerification);
}

export function App() {
  const hasAnalysis = useAppStore((state) => state.analysis !== null);
  const comparing = useCompareStore((state) => state.open);
  const dragging = useFileDrop(openDroppedFiles);
  useKeyboardNavigation(hasAnalysis);
  return (
    <div className="app">
      <TopBar
        followInputs={
          <>
            <WatchFileButton />
            <LibraryButton />
          </>
        }
        share={<ShareButton />}
        simulate={<SimulateButton />}
      />
      <LoadProgressBar />
      <ErrorBanner />
      <WalBanner />
      <FollowControl />
      <div className="main-area">
        {hasAnalysis && comparing ? (
          <CompareView />
        ) : hasAnalysis ? (
          <div className="workspace">
            <Timeline />
            <CenterPanel />
            <DetailsPanel />
          </div>
        ) : (
          <EmptyState />
        )}
        {hasAnalysis && <SimulatorPanel />}
        <LibraryView />
        <WarningsPanel />
      </div>
      <PasteDialog />
      <LazyPricesPanel />
      <SearchPanel />
      <KeyboardOverlays />
      <DropOverlay visible={dragging} />
    </div>
  );
}
