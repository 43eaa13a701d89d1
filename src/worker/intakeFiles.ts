// The workers' side of the intake: the first bytes of each file, as many as the intake asks for,
// handed to it as sources (src/core/intake/). What the files are is the intake's answer, not ours.
// Shared by the pipeline worker's open and the sessions library's workers.
import { intakeHeadLength, type IntakeContext, type IntakeSource } from "../core/intake/index";

/** Each file as an intake source: its name, size and the first bytes the intake needs. */
export async function intakeSources(files: readonly File[], context: IntakeContext): Promise<IntakeSource[]> {
  return Promise.all(
    files.map(async (file) => ({
      name: file.name,
      size: file.size,
      head: new Uint8Array(await file.slice(0, intakeHeadLength(file.name, file.size, context)).arrayBuffer()),
    })),
  );
}
