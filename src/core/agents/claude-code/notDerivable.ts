// Request fields of a Claude Code main request that the transcript cannot supply (docs/captures.md).
import type { NotDerivableField } from "../descriptor";

export const CLAUDE_NOT_DERIVABLE: readonly NotDerivableField[] = [
  {
    path: "$.metadata.user_id",
    reason: "the device id and account uuid inside metadata.user_id are not written to the transcript",
    fromCapture: true,
  },
];
