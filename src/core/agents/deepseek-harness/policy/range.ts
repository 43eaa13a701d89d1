// deepseek-harness range selection (CP-DH-5): walk the surface nodes from the newest, summing
// their prices until the retain budget is reached; that node starts the kept tail; then move the
// boundary toward older nodes until no assistant tool call is separated from its results.
// Node prices are chars/4 here ("estimated", [INF]); the harness's own meter is not specified.
export interface SurfaceNode {
  tokens: number;
  /** Tool call ids this node (an assistant message) makes. */
  toolCallIds: string[];
  /** Tool call id this node (a tool result) answers, if any. */
  toolResultFor: string | null;
}

export type RangeSelection =
  | { kind: "nothing-to-compact"; reason: string; retainStart: number | null }
  | { kind: "range"; /** first kept node */ boundary: number; /** where the retain walk stopped */ retainStart: number; movedForPairing: boolean };

/** Is cutting before `boundary` tool-pairing balanced? */
function balanced(nodes: readonly SurfaceNode[], boundary: number): boolean {
  const before = new Set<string>();
  for (let i = 0; i < boundary; i++) for (const id of nodes[i]!.toolCallIds) before.add(id);
  for (let i = boundary; i < nodes.length; i++) {
    const id = nodes[i]!.toolResultFor;
    if (id !== null && before.has(id)) return false;
  }
  return true;
}

export function selectRange(nodes: readonly SurfaceNode[], retainTokens: number): RangeSelection {
  if (nodes.length === 0) return { kind: "nothing-to-compact", reason: "empty surface", retainStart: null };
  let sum = 0;
  let start = 0;
  for (let i = nodes.length - 1; i >= 0; i--) {
    sum += nodes[i]!.tokens;
    start = i;
    if (sum >= retainTokens) break;
  }
  if (start === 0) return { kind: "nothing-to-compact", reason: "the retained tail starts at the first node", retainStart: 0 };
  let boundary = start;
  while (boundary > 0 && !balanced(nodes, boundary)) boundary--;
  if (boundary === 0) return { kind: "nothing-to-compact", reason: "the tool-pairing boundary reached the first node", retainStart: start };
  return { kind: "range", boundary, retainStart: start, movedForPairing: boundary !== start };
}
