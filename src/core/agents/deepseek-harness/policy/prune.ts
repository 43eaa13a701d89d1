// deepseek-harness's model-free tool-result pruner (compaction-policies.md CP-DH-3 / CP-DH-4 "prune
// tool results without a model"), as the `dsh-compaction-tool-result-pruner` package does it
// (packages/compaction/compaction-tool-result-pruner/src/{index,config}.ts; read in the
// monotykamary/deepseek-harness mirror at 295fdb87 / 8ff7ac61): every tool result on the surface
// whose text blocks hold more than `thresholdChars` code points keeps its first `headChars` and
// last `tailChars` code points, the middle replaced by one fixed marker; non-text blocks keep
// their place; text blocks left empty are dropped.
import type { ContextMessage, ToolResultMessage } from "../../../model";
import { textString } from "../../../text/text";

/** The fixed marker for the removed middle (byte-exact from config.ts). */
export const DEEPSEEK_PRUNE_MARKER = "\n\n[... tool result middle pruned ...]\n\n";

export interface DeepseekPruneConfig {
  thresholdChars: number;
  headChars: number;
  tailChars: number;
}

/** The package's defaults, also the presets' values. */
export const DEEPSEEK_PRUNE_DEFAULTS: DeepseekPruneConfig = { thresholdChars: 8192, headChars: 4096, tailChars: 1024 };

type Block = ToolResultMessage["content"][number];

const points = (text: string): string[] => Array.from(text);

function textChars(blocks: readonly Block[]): number {
  return blocks.reduce((sum, block) => sum + (block.type === "text" ? points(textString(block.text)).length : 0), 0);
}

/** The package's configuration check: head + marker + tail must fit within the threshold. */
export function deepseekPruneConfigError(config: DeepseekPruneConfig): string | null {
  const emitted = config.headChars + points(DEEPSEEK_PRUNE_MARKER).length + config.tailChars;
  if (emitted > config.thresholdChars) return `ToolResultPruneConfig: headChars + marker + tailChars (${emitted}) must be at most thresholdChars (${config.thresholdChars})`;
  return null;
}

/** Pruned content of one tool result, or null when its text is within the threshold. */
export function pruneToolResultContent(blocks: readonly Block[], config: DeepseekPruneConfig): Block[] | null {
  const total = textChars(blocks);
  if (total <= config.thresholdChars) return null;
  const removedStart = config.headChars;
  const removedEnd = total - config.tailChars;
  const out: Block[] = [];
  let consumed = 0;
  let marked = false;
  for (const block of blocks) {
    if (block.type !== "text") {
      out.push(block);
      continue;
    }
    const cps = points(textString(block.text));
    const start = consumed;
    const end = start + cps.length;
    const headEnd = Math.min(cps.length, Math.max(0, removedStart - start));
    const tailStart = Math.min(cps.length, Math.max(0, removedEnd - start));
    const marker = start < removedEnd && end > removedStart && !marked ? DEEPSEEK_PRUNE_MARKER : "";
    if (marker) marked = true;
    const text = cps.slice(0, headEnd).join("") + marker + cps.slice(tailStart).join("");
    if (text.length > 0) out.push({ ...block, text });
    consumed = end;
  }
  return out;
}

export interface DeepseekPruneResult {
  surface: ContextMessage[];
  /** Surface indices of the pruned tool results, with their code points before and after. */
  pruned: { index: number; charsBefore: number; charsAfter: number }[];
}

export function pruneSurface(surface: readonly ContextMessage[], config: DeepseekPruneConfig): DeepseekPruneResult {
  const pruned: DeepseekPruneResult["pruned"] = [];
  const out = surface.map((item, index): ContextMessage => {
    if (item.message.role !== "toolResult") return item;
    const content = pruneToolResultContent(item.message.content, config);
    if (content === null) return item;
    pruned.push({ index, charsBefore: textChars(item.message.content), charsAfter: textChars(content) });
    return {
      message: { ...item.message, content },
      provenance: { ...item.provenance, rule: "prune:tool-result-middle", ruleId: "CP-DH-3", explanation: "deepseek-harness tool-result pruner: middle replaced by the marker" },
    };
  });
  return { surface: out, pruned };
}
