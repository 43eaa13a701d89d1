// Opens a share link or a reproduction bundle inside the worker: decode and validate
// the payload (size-capped, strict shape, no `__proto__`, src/core/share), then read its session
// lines with the reader the payload names, exactly like a file. The UI thread never parses a
// payload or a session; it receives the summary and the view to restore. A broken, tampered,
// oversized or unknown-version link becomes a clear error message (shown in the banner).
import type { Session } from "../../core/model";
import { decodeBundle, DEFAULT_MAX_BUNDLE_CHARS } from "../../core/share/bundle";
import type { ShareError } from "../../core/share/errors";
import { decodeShareLink } from "../../core/share/fragment";
import type { OpenSource, SharedOpenInfo } from "../open/protocol";
import { sessionFromPayload } from "../../app/shareExport";

type SharedSource = Extract<OpenSource, { kind: "share-link" | "share-bundle" }>;

export function isSharedSource(source: OpenSource): source is SharedSource {
  return source.kind === "share-link" || source.kind === "share-bundle";
}

/** The user-facing sentence of a decode error, with its technical detail. */
function shareErrorText(error: ShareError): string {
  return error.detail ? `${error.message} (${error.detail})` : error.message;
}

export async function readShared(source: SharedSource): Promise<{ session: Session; byteLength: number; shared: SharedOpenInfo }> {
  let decoded;
  let byteLength: number;
  if (source.kind === "share-link") {
    decoded = decodeShareLink(source.link);
    byteLength = source.link.length;
  } else {
    const data = source.data;
    // UTF-8 needs at least one byte per character: a larger file cannot be under the cap.
    if (typeof data !== "string" && data.size > DEFAULT_MAX_BUNDLE_CHARS * 4) {
      throw new Error(`"${source.name}" is too large for a reproduction bundle (${data.size} bytes).`);
    }
    const text = typeof data === "string" ? data : await data.text();
    decoded = decodeBundle(text);
    byteLength = typeof data === "string" ? text.length : data.size;
  }
  if (!decoded.ok) throw new Error(shareErrorText(decoded.error));
  const payload = decoded.payload;
  const session = sessionFromPayload(payload);
  if (session.entries.length === 0) throw new Error("This share link holds no session entries.");
  return {
    session,
    byteLength,
    shared: { from: source.kind === "share-link" ? "link" : "bundle", version: decoded.version, scope: payload.session.scope, view: payload.view },
  };
}
