// The redaction review pane (docs/redaction.md): every value masked in a share link or
// an export, by kind, location (JSON path and range) and masked preview. Unmasking one is a
// conscious two-step action (Unmask… then confirm); an unmasked value can be masked again.
// Everything shown is text (the previews come from session content).
import { useState } from "react";
import type { RedactionFinding } from "../../core/redact/types";

interface RedactionReviewProps {
  findings: readonly RedactionFinding[];
  /** Redaction switched off: nothing is masked, say so instead of listing. */
  redact: boolean;
  onUnmask(id: string, unmasked: boolean): void;
  /** What the values end up in ("link", "export"), for the confirmation sentence. */
  target: string;
}

function FindingRow({ finding, onUnmask, target }: { finding: RedactionFinding; onUnmask: RedactionReviewProps["onUnmask"]; target: string }) {
  const [confirming, setConfirming] = useState(false);
  return (
    <li className={`redaction-item${finding.unmasked ? " unmasked" : ""}`} data-testid="redaction-item" data-kind={finding.kind} data-unmasked={finding.unmasked}>
      <div className="redaction-line">
        <span className="chip" title={finding.kind}>
          {finding.label}
        </span>
        <code className="redaction-path" title={`${finding.path} characters ${finding.start}–${finding.end}`}>
          {finding.path}:{finding.start}–{finding.end}
        </code>
      </div>
      <div className="redaction-line">
        <code className="redaction-masked">{finding.unmasked ? `shown as is (${finding.length} chars)` : finding.masked}</code>
        <span className="spacer" />
        {finding.unmasked ? (
          <button type="button" className="btn small" data-testid="redaction-remask" onClick={() => onUnmask(finding.id, false)}>
            Mask again
          </button>
        ) : confirming ? (
          <span className="redaction-confirm">
            <span className="warning-text">Put this value in the {target} unmasked?</span>
            <button
              type="button"
              className="btn small danger"
              data-testid="redaction-unmask-confirm"
              onClick={() => {
                setConfirming(false);
                onUnmask(finding.id, true);
              }}
            >
              Yes, unmask
            </button>
            <button type="button" className="btn small" data-testid="redaction-unmask-cancel" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </span>
        ) : (
          <button type="button" className="btn small" data-testid="redaction-unmask" onClick={() => setConfirming(true)}>
            Unmask…
          </button>
        )}
      </div>
    </li>
  );
}

export function RedactionReview({ findings, redact, onUnmask, target }: RedactionReviewProps) {
  const masked = findings.filter((finding) => !finding.unmasked).length;
  return (
    <div className="redaction-review" data-testid="redaction-review" data-count={findings.length}>
      <div className="redaction-summary">
        {!redact
          ? `Redaction is off: the ${target} holds the session as read, secrets included.`
          : findings.length === 0
            ? "No secret found by the catalogue. Redaction is a safety net: read what you share."
            : `${masked} value${masked === 1 ? "" : "s"} masked${findings.length > masked ? `, ${findings.length - masked} unmasked by you` : ""}.`}
      </div>
      {redact && findings.length > 0 && (
        <ul className="redaction-list">
          {findings.map((finding) => (
            <FindingRow key={finding.id} finding={finding} onUnmask={onUnmask} target={target} />
          ))}
        </ul>
      )}
    </div>
  );
}
