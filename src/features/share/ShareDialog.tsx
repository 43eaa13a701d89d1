// Share: a button in the top bar and the dialog it opens. The worker builds the
// `#v2=` link of the current view (branch up to the selected turn by default, or the full
// session), redacted by default; the dialog shows the link, its size and level as it is built,
// the redaction review, and offers a reproduction bundle file (needed above what browsers accept).
import { useEffect } from "react";
import {
  closeShareDialog,
  copyShareLink,
  downloadShareBundle,
  openShareDialog,
  setShareRedact,
  setShareScope,
  setShareUnmasked,
  useShareStore,
} from "./shareState";
import { useAppStore } from "../../page/store";
import { RedactionReview } from "./RedactionReview";
import "./share.css";

export function ShareButton() {
  const hasSession = useAppStore((state) => state.session !== null && state.analysis !== null);
  return (
    <>
      <button
        type="button"
        className="btn"
        data-testid="share-button"
        disabled={!hasSession}
        title="A link that reopens this view (the session travels in the link's fragment; nothing is uploaded)"
        onClick={openShareDialog}
      >
        Share…
      </button>
      <ShareDialog />
    </>
  );
}

function ShareDialog() {
  const state = useShareStore();
  useEffect(() => {
    if (!state.shareOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") closeShareDialog();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [state.shareOpen]);
  if (!state.shareOpen) return null;
  const share = state.share;
  const size = share?.size ?? null;
  const level = size?.level ?? (share && !share.fragment ? "too-long" : "pending");
  const building = state.shareStatus === "building";
  return (
    <div
      className="modal-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) closeShareDialog();
      }}
    >
      <div className="modal share-dialog" role="dialog" aria-modal="true" aria-labelledby="share-title" data-testid="share-dialog" data-status={state.shareStatus}>
        <div className="modal-title" id="share-title">
          Share this view
        </div>
        <div className="share-options">
          <label className="field">
            <input type="radio" name="share-scope" data-testid="share-scope-branch" checked={state.scope === "branch"} onChange={() => setShareScope("branch")} />
            <span>Branch up to the selected turn (smallest)</span>
          </label>
          <label className="field">
            <input type="radio" name="share-scope" data-testid="share-scope-full" checked={state.scope === "full"} onChange={() => setShareScope("full")} />
            <span>Full session</span>
          </label>
          <label className="field" title="Mask API keys, tokens, passwords and private keys before they go into the link">
            <input type="checkbox" data-testid="share-redact-toggle" checked={state.shareRedact} onChange={(event) => setShareRedact(event.target.checked)} />
            <span>Redact secrets</span>
          </label>
        </div>
        <textarea
          className="share-link"
          data-testid="share-link"
          readOnly
          spellCheck={false}
          rows={3}
          value={state.shareLink ?? (building ? "Building the link…" : "")}
          onFocus={(event) => event.currentTarget.select()}
        />
        <div className={`share-size level-${level}`} data-testid="share-size" data-level={level} aria-live="polite">
          {building && !share
            ? "Building the link…"
            : state.shareError
              ? state.shareError
              : share?.error
                ? `${share.error} Download a reproduction bundle instead.`
                : size
                  ? `${size.message}${building ? " (updating…)" : ""}`
                  : ""}
        </div>
        <div className="modal-actions">
          <span className="hint">{state.notice ?? "Nothing is uploaded: the session is in the link's fragment, which browsers never send."}</span>
          <button type="button" className="btn" data-testid="share-bundle-download" disabled={!share} onClick={() => void downloadShareBundle()}>
            Download bundle
          </button>
          <button type="button" className="btn primary" data-testid="share-copy" disabled={!state.shareLink || building} onClick={() => void copyShareLink()}>
            Copy link
          </button>
          <button type="button" className="btn" onClick={closeShareDialog}>
            Close
          </button>
        </div>
        {share && <RedactionReview findings={share.findings} redact={state.shareRedact} onUnmask={setShareUnmasked} target="link" />}
      </div>
    </div>
  );
}
