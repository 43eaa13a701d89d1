// `export --format sts`: the session's main thread as a Hugging Face session trace (STS JSONL),
// written to standard output or a file (`--out`, written whole or not at all). Redacted unless
// `--redact off`; the masked values are listed on stderr as for every export.
import { exportStsFile } from "../app/stsTrace";
import { listOption } from "./args";
import { loadAnySession } from "./inputs";
import type { CliIo } from "./io";
import type { CliOptionValues } from "./registry";
import { checkLeaf, reportFindings, viewPipelineOptions } from "./viewOptions";
import { writeWhole } from "./writeWhole";

export async function runStsExport(file: string, options: CliOptionValues, io: CliIo): Promise<number> {
  const session = await loadAnySession(io, file, (options.session as string | undefined) ?? null);
  const pipeline = viewPipelineOptions(options, io, session);
  checkLeaf(session, pipeline, "export", file);
  // The page's Export panel offers this same file.
  const written = exportStsFile(session, pipeline, { redact: options.redact !== "off", unmasked: listOption(options, "unmask") });
  reportFindings(io, written.findings);
  if (typeof options.out === "string") writeWhole(options.out, written.text);
  else io.stdout(written.text);
  return 0;
}
