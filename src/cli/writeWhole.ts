// Writing an export file whole or not at all: through a temporary file beside it, renamed into
// place, so a failure (a full disk, a missing folder) leaves no half-written file.
import fs from "node:fs";
import path from "node:path";
import { CliError } from "./io";

export function writeWhole(file: string, text: string): void {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    fs.writeFileSync(temporary, text);
    fs.renameSync(temporary, file);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw new CliError(`export: cannot write ${file}: ${(error as Error).message}`);
  }
}
