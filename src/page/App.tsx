// Page layout: top bar, banners, then timeline | centre tabs | details. Also wires page-wide
// drag and drop and the timeline keyboard shortcuts.
import { useAppStore } from "./store";
import { openDroppedFiles } from "../features/open/openDropped";
import { CenterPanel } from "./CenterPanel";
import { CompareView } from "../features/compare/CompareView";
import { useCompareStore } from "../features/compare/compareState";
import { DetailsPanel } from "../features/details/DetailsPanel";
import { DropOverlay } from "../features/open/DropOverlay";
import { EmptyState } from "../features/open/EmptyState";
import { ErrorBanner } from "./ErrorBanner";
import { LoadProgressBar } from "../features/open/LoadProgressBar";
import { PasteDialog } from "../features/open/PasteDialog";
import { SimulatorPanel } from "../features/simulator/SimulatorPanel";
import { Timeline } from "../features/timeline/Timeline";
import { TopBar } from "./TopBar";
import { useFileDrop } from "../features/open/useFileDrop";
import { useKeyboardNavigation } from "./useKeyboardNavigation";
import { WalBanner } from "../features/live/WalBanner";
import { FollowControl } from "../features/live/FollowControl";
import { LibraryView } from "../features/library/LibraryView";
import { WarningsPanel } from "./WarningsPanel";
import { KeyboardOverlays } from "./KeyboardOverlays";
import { LazyPricesPanel } from "../features/prices/LazyPricesPanel";
import { SearchPanel } from "../features/search/SearchPanel";

export function App() {
  const hasAnalysis = useAppStore((state) => state.analysis !== null);
  const comparing = useCompareStore((state) => state.open);
  const dragging = useFileDrop(openDroppedFiles);
  useKeyboardNavigation(hasAnalysis);
  return (
    <div className="app">
      <TopBar />
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
