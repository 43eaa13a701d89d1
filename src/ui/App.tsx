// Page layout: top bar, banners, then timeline | centre tabs | details. Also wires page-wide
// drag and drop and the timeline keyboard shortcuts.
import { useAppStore } from "../state/store";
import { openDroppedFiles } from "../state/openDropped";
import { CenterPanel } from "./CenterPanel";
import { CompareView } from "./CompareView";
import { useCompareStore } from "../state/compare";
import { DetailsPanel } from "./DetailsPanel";
import { DropOverlay } from "./DropOverlay";
import { EmptyState } from "./EmptyState";
import { ErrorBanner } from "./ErrorBanner";
import { LoadProgressBar } from "./LoadProgressBar";
import { PasteDialog } from "./PasteDialog";
import { SimulatorPanel } from "./SimulatorPanel";
import { Timeline } from "./Timeline";
import { TopBar } from "./TopBar";
import { useFileDrop } from "./useFileDrop";
import { useKeyboardNavigation } from "./useKeyboardNavigation";
import { WalBanner } from "./WalBanner";
import { FollowControl } from "./FollowControl";
import { LibraryView } from "./LibraryView";
import { WarningsPanel } from "./WarningsPanel";
import { KeyboardOverlays } from "./KeyboardOverlays";
import { LazyPricesPanel } from "./LazyPricesPanel";
import { SearchPanel } from "./SearchPanel";

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
