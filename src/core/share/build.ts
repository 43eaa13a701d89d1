// Builds the payload of a share link or bundle from what the app holds: the session, the view
// state, and the user's redaction choices. Redaction is on unless switched off; it runs on what is
// actually shared (the branch, when the scope is "branch") and on the attached request header.
// Review paths use the entry indexes of the original session, so the ids the user unmasked stay
// valid when they switch between full and branch scope.
import { CURRENT_SHARE_VERSION } from "./versions";
import type { Session } from "../model";
import { redactJson } from "../redact/json";
import { redactSession } from "../redact/session";
import { secretDetector } from "../check/secretDetector";
import type { RedactionFinding } from "../redact/types";
import type { ShareViewV1 } from "./payload-v1";
import { branchSession, fileOrderSession, sessionLines } from "./session-lines";
import type { SharePayload } from "./versions";

export interface BuildShareInput {
  session: Session;
  view: ShareViewV1;
  /** "branch": only the path to `leafEntryId` (the selected turn's entry); "full": every entry. */
  scope: "full" | "branch";
  /** Required for the branch scope: the entry the cut ends at (usually the selected turn's). */
  leafEntryId?: string;
  /**
   * How the branch is cut: "path" (default), the entries on the parent path to the leaf; "file",
   * every entry up to the leaf in file order (when the path alone does not reproduce the turn).
   */
  cut?: "path" | "file";
  /** Mask secrets (default true). */
  redact?: boolean;
  /** Finding ids the user chose to keep visible. */
  unmasked?: Iterable<string>;
}

export interface BuiltShare {
  payload: SharePayload;
  /** Review list: every masked (or consciously unmasked) value. Empty when redaction is off. */
  findings: RedactionFinding[];
}

export function buildSharePayload(input: BuildShareInput): BuiltShare {
  const { session, scope } = input;
  let shared = session;
  if (scope === "branch") {
    if (input.leafEntryId === undefined) throw new RangeError("a branch share needs leafEntryId");
    shared = input.cut === "file" ? fileOrderSession(session, input.leafEntryId) : branchSession(session, input.leafEntryId);
  }
  let view = input.view;
  const findings: RedactionFinding[] = [];
  if (input.redact !== false) {
    const unmasked = [...(input.unmasked ?? [])];
    const originalIndex = new Map(session.entries.map((entry, index) => [entry, index]));
    const redacted = redactSession(shared, { unmasked, catalogue: secretDetector(), entryIndexOf: (entry, index) => originalIndex.get(entry) ?? index });
    shared = redacted.value;
    findings.push(...redacted.findings);
    if (view.header) {
      const header = redactJson(view.header, { unmasked, catalogue: secretDetector(), path: "view.header" });
      view = { ...view, header: header.value };
      findings.push(...header.findings);
    }
    // Instruction texts from captures are the user's files too: masked as the header is.
    if (view.instructions) {
      const instructions = redactJson(view.instructions, { unmasked, path: "view.instructions" });
      view = { ...view, instructions: instructions.value };
      findings.push(...instructions.findings);
    }
  }
  const payload: SharePayload = {
    v: CURRENT_SHARE_VERSION,
    session: { fileName: session.fileName, formatId: session.formatId, scope, lines: sessionLines(shared) },
    view,
  };
  return { payload, findings };
}
