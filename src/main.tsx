// Browser entry: mounts the app, publishes the test view and starts loading the sample list.
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { loadSamples } from "./state/actions";
import { installTestHook } from "./state/testHook";
import { App } from "./ui/App";
import "./styles/app.css";

installTestHook();

const root = document.getElementById("root");
if (!root) throw new Error("Missing #root element");
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// `?sample=none` skips the automatic first sample (useful for tests that open their own file).
const sampleParam = new URLSearchParams(window.location.search).get("sample");
void loadSamples(sampleParam !== "none", sampleParam && sampleParam !== "none" ? sampleParam : null);
