// Errors of the share codec as plain data (they cross the worker boundary and reach the UI and
// the CLI as clear messages, never as a blank page).

export type ShareErrorCode =
  /** The text is not a Contextscope share link or bundle at all. */
  | "not-a-link"
  /** A Contextscope link or bundle of a version this build does not know. */
  | "unknown-version"
  /** The data is damaged: bad base64url, truncated or tampered compression, not JSON. */
  | "corrupted"
  /** A v2 link whose checksum does not match its content: altered after it was made. */
  | "tampered"
  /** The data would inflate past the size cap, or nests deeper than the payload's cap. */
  | "too-large"
  /** The data decodes but does not have the shape of a share payload. */
  | "invalid-payload";

export interface ShareError {
  code: ShareErrorCode;
  /** One sentence for the user, saying what is wrong and, when useful, what to do. */
  message: string;
  /** Technical detail (decoder message, field path), for the CLI and bug reports. */
  detail?: string;
  /** For `too-large`: bytes inflated before decoding stopped (never much more than the cap). */
  inflatedBytes?: number;
}

export type ShareDecodeResult<P> = { ok: true; version: number; payload: P } | { ok: false; error: ShareError };

export const SHARE_ERROR_MESSAGES: Readonly<Record<ShareErrorCode, string>> = {
  "not-a-link": "This is not a Contextscope share link (expected a link whose fragment starts with #v2= or #v1=).",
  "unknown-version": "This share link was made by a newer version of Contextscope; update the app to open it.",
  corrupted: "This share link is damaged (cut short or altered); ask for the link again or for a reproduction bundle.",
  tampered: "This share link was changed after it was made (its checksum does not match its content), so it is not opened; ask for the link again.",
  "too-large": "This share link holds more data than Contextscope accepts; ask for a reproduction bundle instead.",
  "invalid-payload": "This share link does not contain a valid Contextscope view.",
};

function shareError(code: ShareErrorCode, detail?: string, extra: Partial<ShareError> = {}): ShareError {
  return { code, message: SHARE_ERROR_MESSAGES[code], ...(detail !== undefined ? { detail } : {}), ...extra };
}

/** Thrown inside the decoder and turned into a ShareError result at its boundary. */
export class ShareDecodeFailure extends Error {
  readonly error: ShareError;
  constructor(error: ShareError) {
    super(error.detail ? `${error.message} (${error.detail})` : error.message);
    this.name = "ShareDecodeFailure";
    this.error = error;
  }
}

export function fail(code: ShareErrorCode, detail?: string, extra: Partial<ShareError> = {}): never {
  throw new ShareDecodeFailure(shareError(code, detail, extra));
}
