// The page URL reflects the file-less view state (design §4) in its query string:
//   ?sample=<id>&thread=<id>&turn=<N>&tab=<id>&profile=<id>&provider=<api>&notes=on&leaf=<entryId>
// Nothing of the session is in it, so a reload (or a bookmark) reopens the same sample at the same
// view, and a dropped file's view state can be reapplied to the same file. A share link's
// `#v1=…` fragment is different: it carries the session itself and stays in the URL only while
// the session it opened is shown (a reload then reopens it; the query, newer, wins over the
// payload's view). See docs/share-format.md, "How the app uses links".
import { API_IDS, type ApiId, type ProfileId, type RequestHeader } from "../core/model";
import type { CompactionInstructions } from "../core/session/index";
import { selectedTurnNumber } from "./selectors";
import { useAppStore, type AppState, type CenterTab } from "./store";

/** A view to restore once a session is open: from the URL query, a share link, or both. */

/** What a profile id looks like ("pi", "senpi"): lower-case letters, digits and hyphens. */
const PROFILE_ID_SHAPE = /^[a-z][a-z0-9-]{0,31}$/;
export interface RequestedView {
  turn?: number | null;
  tab?: CenterTab;
  profile?: ProfileId;
  provider?: ApiId | null;
  notes?: boolean;
  leafId?: string | null;
  /** The sub-agent thread shown (its turn numbers are the thread's own); null: the main thread. */
  thread?: string | null;
  header?: RequestHeader | null;
  /** Summariser instruction texts from captures (a share link carries them). */
  instructions?: CompactionInstructions | null;
}

/** Centre tabs the app knows; a link or URL naming another tab falls back to the default one. */
const CENTER_TABS: readonly string[] = ["request", "conversation", "messages", "diff", "tokens"];

export function centerTab(tab: string | null | undefined): CenterTab | undefined {
  return tab && CENTER_TABS.includes(tab) ? (tab as CenterTab) : undefined;
}

/** The view state written in a query string (unknown or malformed values are ignored). */
export function readQueryView(search: string): RequestedView {
  const query = new URLSearchParams(search);
  const view: RequestedView = {};
  const turn = query.get("turn");
  if (turn && /^[1-9][0-9]{0,8}$/.test(turn)) view.turn = Number(turn);
  const tab = centerTab(query.get("tab"));
  if (tab) view.tab = tab;
  const profile = query.get("profile");
  // An id's shape only: the page's main thread holds no agent list (the worker checks the profile against the agent's).
  if (profile && PROFILE_ID_SHAPE.test(profile)) view.profile = profile;
  const provider = query.get("provider");
  if (provider && (API_IDS as readonly string[]).includes(provider)) view.provider = provider as ApiId;
  const notes = query.get("notes");
  if (notes === "on" || notes === "off") view.notes = notes === "on";
  const leaf = query.get("leaf");
  if (leaf && leaf.length <= 256) view.leafId = leaf;
  const thread = query.get("thread");
  if (thread && thread.length <= 256) view.thread = thread;
  return view;
}

/** `base` with the fields `override` sets replacing its own. */
export function mergeViews(base: RequestedView | null, override: RequestedView | null | undefined): RequestedView | null {
  if (!base) return override ?? null;
  return override ? { ...base, ...override } : base;
}

// ---------------------------------------------------------------------------------------------
// Writing the URL

/** What the open session came from, for the URL: a sample id, or the share link's fragment. */
let origin: { sampleId: string | null; shareHash: string | null } = { sampleId: null, shareHash: null };

export function noteSessionOrigin(sampleId: string | null, shareHash: string | null): void {
  origin = { sampleId, shareHash };
}

/** `watchdog`: the address's `?watchdog=<seconds>` (slow machines, tests), kept as it is. */
function queryFor(state: AppState, watchdog: string | null = null): string {
  const query = new URLSearchParams();
  // `?sample=none` (open nothing at first) is not written back: once a file is open, a reload
  // reopens that file (the kept session), not the empty page.
  if (origin.sampleId) query.set("sample", origin.sampleId);
  if (watchdog !== null) query.set("watchdog", watchdog);
  if (state.session) {
    if (state.options.thread !== null) query.set("thread", state.options.thread);
    const turn = selectedTurnNumber(state);
    if (turn !== null) query.set("turn", String(turn));
    if (state.activeTab !== "request") query.set("tab", state.activeTab);
    const { profile, api, notes, leafId } = state.options;
    // Only a profile other than the one opening the file picks (the one the file shows it was written
    // with, else the agent's first): pi's senpi on a pi file, pi on a senpi file.
    const offered = state.session.agent?.profiles ?? [];
    const picked = state.session.agent?.sessionProfile ?? offered[0]?.id;
    if (profile !== undefined && offered.length > 0 && profile !== picked) query.set("profile", profile);
    if (api) query.set("provider", api);
    if (notes) query.set("notes", "on");
    if (leafId) query.set("leaf", leafId);
  }
  const text = query.toString();
  return text ? `?${text}` : "";
}

/** Keeps `location` in step with the view (replaceState: no history entry per click). */
export function startUrlSync(): void {
  let last = "";
  useAppStore.subscribe((state) => {
    // Until a session is open and analysed the URL keeps what the page was opened with (its view,
    // the turn included, is pending).
    if (state.loadStatus === "loading" || !state.session || !state.analysis) return;
    const watchdog = new URLSearchParams(window.location.search).get("watchdog");
    const url = `${window.location.pathname}${queryFor(state, watchdog)}${state.session?.shared?.from === "link" && origin.shareHash ? origin.shareHash : ""}`;
    if (url === last) return;
    last = url;
    if (url !== `${window.location.pathname}${window.location.search}${window.location.hash}`) {
      window.history.replaceState(window.history.state, "", url);
    }
  });
}
