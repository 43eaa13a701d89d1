// Browser entry: mounts the app, publishes the test view and starts loading the sample list.
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { loadSamples, openKeptSession, openShareLink } from "./features/open/openSession";
import { startKeptViewSync } from "./features/open/keptSession";
import { startPipeline } from "./page/workerBridge";
import { installTestHook } from "./page/testHook";
import { installLiveTestHook } from "./features/live/liveTestHook";
import { readQueryView, startUrlSync } from "./page/urlState";
import { App } from "./page/App";
import { installCompositionLoader } from "./features/prefix/compositionState";
import { installSessionPricesLoader } from "./features/prices/pricesState";
import { installSearchReset } from "./features/search/searchState";
import { installTheme } from "./page/settings";
import "./styles/app.css";
import "./styles/insights.css";

installTestHook();
installLiveTestHook();
startUrlSync();
startKeptViewSync();
installTheme();
installCompositionLoader();
installSessionPricesLoader();
installSearchReset();
startPipeline();

const root = document.getElementById("root");
if (!root) throw new Error("Missing #root element");
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// The query holds file-less view state (?turn=…&tab=…, src/page/urlState.ts), restored on open.
// `?sample=none` skips the automatic first sample (useful for tests that open their own file).
const queryView = readQueryView(window.location.search);
const sampleParam = new URLSearchParams(window.location.search).get("sample");
// A share link (`#v2=…`, or any `#v<n>=`) opens its session instead of a sample. Only this cheap
// prefix test runs here: decoding and validation happen in the worker; a bad link shows an error
// banner and the app stays usable (the sample list loads, nothing opens).
const shareLink = /^#v[0-9]{1,9}=/.test(window.location.hash) ? window.location.hash : null;
if (shareLink) void openShareLink(shareLink, queryView);
// A link pasted into the address bar of an open page changes only the fragment (no reload).
window.addEventListener("hashchange", () => {
  if (/^#v[0-9]{1,9}=/.test(window.location.hash)) void openShareLink(window.location.hash);
});
// An address naming neither a sample nor a share link reopens the session kept from the last
// visit, when there is one (src/features/open/keptSession.ts); the first sample opens otherwise.
if (!shareLink && sampleParam === null) {
  void openKeptSession(queryView).then((opened) => loadSamples(!opened, null, queryView));
} else {
  void loadSamples(!shareLink && sampleParam !== "none", sampleParam && sampleParam !== "none" ? sampleParam : null, queryView);
}
