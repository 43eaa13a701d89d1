// `share`: the share link fragment (`#v2=…`) of one turn's view, as the app's Share dialog builds
// it: the branch up to the turn by default (or the full session), redacted by default. The link
// size and the masked values are reported on stderr.
import { buildShare } from "../../app/shareExport";
import { listOption } from "../args";
import { loadSession } from "../inputs";
import { CliError, type CliIo } from "../io";
import type { CliCommand, CliOptionValues } from "../registry";
import { analyzeForCommand, checkLeaf, reportFindings, requiredTurn, VIEW_OPTIONS, viewPipelineOptions } from "../viewOptions";

const NAME = "share";
const TAB = /^[a-z][a-z0-9-]{0,31}$/;

function run(positionals: string[], options: CliOptionValues, io: CliIo): number {
  const file = positionals[0]!;
  const session = loadSession(io, file);
  const pipelineOptions = viewPipelineOptions(options, io, session);
  checkLeaf(session, pipelineOptions, NAME, file);
  const analysis = analyzeForCommand(session, pipelineOptions, file);
  const turn = requiredTurn(options, NAME, analysis);
  const tab = typeof options.tab === "string" ? options.tab : "request";
  if (!TAB.test(tab)) throw new CliError(`${NAME}: --tab must be a tab id such as request, messages, diff, tokens (got "${tab}")`);
  const result = buildShare(
    session,
    pipelineOptions,
    {
      turn,
      tab,
      scope: options.scope === "full" ? "full" : "branch",
      redact: options.redact !== "off",
      unmasked: listOption(options, "unmask"),
      pageUrlChars: 0,
    },
    analysis,
  );
  reportFindings(io, result.findings);
  if (!result.fragment || !result.size) throw new CliError(`${NAME}: ${result.error ?? "the payload is too large for a link"}`);
  io.stderr(`${result.size.level === "ok" ? "" : "warning: "}${result.size.message} (fragment only; add the page URL's length)\n`);
  io.stdout(`${result.fragment}\n`);
  return 0;
}

export const shareCommand: CliCommand = {
  name: NAME,
  summary: "print the share link fragment (#v2=…) that reopens one turn's view, redacted by default",
  positionals: ["<session-file>"],
  options: [
    { name: "scope", value: "branch|full", description: "the branch up to the turn (default, smallest) or the full session", choices: ["branch", "full"] },
    { name: "tab", value: "id", description: "centre tab the link opens on (default request)" },
    ...VIEW_OPTIONS,
  ],
  details: [
    "Output: the fragment `#v2=…` (append it to the app's URL). stderr: the masked values and the",
    "link size level (ok / long / too long for browsers). See docs/share-format.md.",
  ].join("\n"),
  run,
};
