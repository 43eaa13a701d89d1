// Whether dropped `.json` files are sessions, told in the worker (where the readers are; the
// page's own code holds none of them): each file's head, as much as the intake asks for, and the
// intake's answer (`jsonRole`: a session a reader recognises, an agent's side file, or neither — a
// captured request).
import { jsonRole, type JsonRole } from "../../core/intake/index";
import { intakeSources } from "../../worker/intakeFiles";

/** What a dropped `.json` file is: a session a reader recognises, an agent's side file, or neither (a capture). */
export type SniffedKind = JsonRole;

/** For each file, in order, what it is: a session a reader recognises, an agent's side file, or neither. */
export async function sniffSessions(files: readonly File[]): Promise<SniffedKind[]> {
  const found: SniffedKind[] = [];
  // One at a time: a folder of large captures is not read into memory at once.
  for (const file of files) {
    const [source] = await intakeSources([file], { together: true });
    found.push(jsonRole(source!));
  }
  return found;
}
