// Centre of the page: the session at a glance on top, then the Request, Conversation, Messages, Diff
// and Tokens tabs for a selected turn, the compaction view for a selected compaction event, the
// auxiliary request view for an opencode title/summariser request.
import { setActiveTab } from "./selection";
import { selectedItem } from "./selectors";
import { useAppStore, type CenterTab } from "./store";
import { AuxiliaryView } from "../features/auxiliary/AuxiliaryView";
import { CompactionView } from "../features/compaction/CompactionView";
import { ConversationView } from "../features/conversation/ConversationView";
import { SessionOverview } from "../features/overview/SessionOverview";
import { DiffView } from "../features/prefix/DiffView";
import { MessagesTable } from "../features/conversation/MessagesTable";
import { RequestView } from "../features/request/RequestView";
import { TokensView } from "../features/prefix/TokensView";

const TABS: { id: CenterTab; label: string }[] = [
  { id: "request", label: "Request" },
  { id: "conversation", label: "Conversation" },
  { id: "messages", label: "Messages" },
  { id: "diff", label: "Diff" },
  { id: "tokens", label: "Tokens" },
];

export function CenterPanel() {
  const activeTab = useAppStore((state) => state.activeTab);
  const item = useAppStore(selectedItem);
  // A compaction or auxiliary row has one view of its own: the turn tabs have nothing to show for it.
  const rowView = item?.kind === "compaction" ? "Compaction" : item?.kind === "auxiliary" ? "Auxiliary request" : null;
  const disabledWhy = rowView ? `Nothing to show for a ${rowView.toLowerCase()} row: select a turn to see its request, messages, diff and tokens.` : undefined;
  return (
    <section className="center-panel">
      <SessionOverview />
      <div className="tabs" role="tablist">
        {rowView && (
          <button type="button" role="tab" aria-selected className="tab active" data-testid="tab-row-view">
            {rowView}
          </button>
        )}
        {TABS.map((tab) => (
          <button
            key={tab.id}
            type="button"
            role="tab"
            aria-selected={!rowView && activeTab === tab.id}
            className={`tab${!rowView && activeTab === tab.id ? " active" : ""}`}
            data-testid={`tab-${tab.id}`}
            // aria-disabled rather than disabled: a disabled button shows no tooltip, and the tooltip says why.
            aria-disabled={rowView !== null}
            title={disabledWhy}
            onClick={() => {
              if (!rowView) setActiveTab(tab.id);
            }}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div className="tab-body">
        {item?.kind === "compaction" ? (
          <CompactionView key={item.entryId} />
        ) : item?.kind === "auxiliary" ? (
          <AuxiliaryView key={`aux-${item.index}`} />
        ) : activeTab === "request" ? (
          <RequestView />
        ) : activeTab === "conversation" ? (
          <ConversationView />
        ) : activeTab === "diff" ? (
          <DiffView />
        ) : activeTab === "tokens" ? (
          <TokensView />
        ) : (
          <MessagesTable />
        )}
      </div>
    </section>
  );
}
