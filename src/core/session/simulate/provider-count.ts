// CP-0-5: beside each policy's own estimate (the numbers its trigger uses), the count the provider
// would give — exact o200k for OpenAI wire shapes, the o200k-based estimate otherwise (TK-1, TK-3) —
// of turn N's request, of the request after the compaction and of the summariser request(s). The
// counted text is each body's system prompt, tools and messages as JSON (`prefixText`), so the
// provider's few framing tokens per message are not in it.
import { counterForApi } from "../../tokens/counters";
import { prefixText } from "../../simulate/prefix";
import type { ProviderTokenCount, SimulationContext, SimulationResult } from "../../simulate/types";

export function providerTokenCount(result: SimulationResult, context: SimulationContext): ProviderTokenCount {
  const api = context.turnRequest.api;
  const counter = counterForApi(api);
  const before = counter.count(prefixText(context.turnRequest.body));
  const afterBody = result.after.request?.body ?? null;
  const after = afterBody ? counterForApi(result.after.request!.api).count(prefixText(afterBody)) : before;
  const summariserInput = result.summariserRequests.reduce((sum, r) => sum + counterForApi(r.api).count(prefixText(r.body)), 0);
  return { counter: counter.label, exact: counter.exact, before, after, saved: before - after, summariserInput };
}
