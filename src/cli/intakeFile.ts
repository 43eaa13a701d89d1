// The CLI's side of the intake: a file's name, size and as many first bytes as the intake asks
// for (src/core/intake/). What the file is is the intake's answer, not ours.
import fs from "node:fs";
import path from "node:path";
import { intakeHeadLength, type IntakeContext, type IntakeSource } from "../core/intake/index";
import { headBytes } from "./headLines";

export function intakeSource(file: string, context: IntakeContext): IntakeSource {
  const size = fs.statSync(file).size;
  const name = path.basename(file);
  return { name, size, head: headBytes(file, intakeHeadLength(name, size, context)) };
}
