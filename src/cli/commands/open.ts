// `open`: decodes a share link (whole URL, `#v2=…` or `#v1=…` fragment, or a file holding either, or a
// reproduction bundle file) with the app's decoder and prints its version, view state and session
// as JSON. A broken, tampered, oversized or unknown-version link is a clear error (exit 1).
import { decodeBundle, isBundle } from "../../core/share/bundle";
import { decodeShareLink, isShareLink } from "../../core/share/fragment";
import { CliError, type CliIo } from "../io";
import type { CliCommand, CliOptionValues } from "../registry";
import { sessionFromPayload } from "../../app/shareExport";

const NAME = "open";

/** The argument itself when it looks like a link, else the text of the file it names. */
function inputText(argument: string, io: CliIo): string {
  if (isShareLink(argument)) return argument;
  let bytes: Uint8Array;
  try {
    bytes = io.readFile(argument);
  } catch {
    // Not a file: decode the argument and let the decoder say what is wrong with it.
    return argument;
  }
  return new TextDecoder("utf-8").decode(bytes);
}

function run(positionals: string[], _options: CliOptionValues, io: CliIo): number {
  const text = inputText(positionals[0]!, io);
  const decoded = isBundle(text) ? decodeBundle(text) : decodeShareLink(text);
  if (!decoded.ok) {
    const { code, message, detail } = decoded.error;
    throw new CliError(`${message}${detail ? ` (${detail})` : ""} [${code}]`);
  }
  const { payload, version } = decoded;
  // Read the lines with the app's reader, so reader warnings show the session opens as it would.
  const session = sessionFromPayload(payload);
  for (const warning of session.warnings) io.stderr(`warning: line ${warning.line}: ${warning.reason}\n`);
  io.stdout(
    `${JSON.stringify({ version, view: payload.view, session: { ...payload.session, format: session.formatLabel, entries: session.entries.length } }, null, 2)}\n`,
  );
  return 0;
}

export const openCommand: CliCommand = {
  name: NAME,
  summary: "decode a share link (or bundle file) and print its view state and session as JSON",
  positionals: ["<fragment-or-link>"],
  options: [],
  details: [
    "Accepts a whole link, a fragment `#v2=…` (or an older `#v1=…`), a file containing either, or a reproduction bundle file.",
    "Output: {\"version\":1,\"view\":{turn,tab,profile,provider,notes,leafId,…},\"session\":{fileName,formatId,scope,lines,format,entries}}.",
    "Errors (exit 1) name the problem: not-a-link, unknown-version, corrupted, too-large, invalid-payload.",
  ].join("\n"),
  run,
};
