// A hermes-agent request dump written the way hermes-agent writes one (hermes-storage.md HS-32,
// HS-33), for a turn of a session snapshot: the body is assembled here, step by step, by the
// spec's rules — HS-37 system message, HS-38 per-message copy (reasoning → reasoning_content,
// reasoning and finish_reason popped), HS-42 system_and_3 markers (Claude via OpenRouter), HS-39
// stripped strings and canonical tool-call arguments — independently of Contextscope's builder,
// so comparing the two is a real check. Used by the CLI test and the browser journey.
export type Json = Record<string, unknown>;

function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(",")}]`;
  if (value && typeof value === "object") {
    const object = value as Json;
    return `{${Object.keys(object).sort().map((key) => `${JSON.stringify(key)}:${sortedJson(object[key])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** The body hermes sends for the first `count` snapshot messages (Claude via OpenRouter). */
export function specBody(snapshot: Json, count: number): Json {
  const marker = { type: "ephemeral" };
  const api = (snapshot.messages as Json[]).slice(0, count).map((message) => {
    const copy: Json = { ...message };
    if (copy.role === "assistant" && copy.reasoning) copy.reasoning_content = copy.reasoning;
    delete copy.reasoning;
    delete copy.finish_reason;
    return copy;
  });
  let messages: Json[] = [{ role: "system", content: snapshot.system_prompt }, ...api];
  const mark = (message: Json): Json => {
    if (message.role === "tool" || message.content === "" || message.content === null) return { ...message, cache_control: marker };
    return { ...message, content: [{ type: "text", text: message.content, cache_control: marker }] };
  };
  messages = messages.map((message, index) => (index === 0 || index >= messages.length - 3 ? mark(message) : message));
  messages = messages.map((message) => {
    const out: Json = { ...message };
    if (typeof out.content === "string") out.content = out.content.trim();
    if (Array.isArray(out.tool_calls)) {
      out.tool_calls = (out.tool_calls as Json[]).map((call) => {
        const fn = call.function as Json;
        return { ...call, function: { ...fn, arguments: sortedJson(JSON.parse(fn.arguments as string)) } };
      });
    }
    return out;
  });
  return { model: snapshot.model, messages, tools: snapshot.tools, max_tokens: 16384, extra_body: { reasoning: { enabled: true } } };
}

export function dumpFile(snapshot: Json, body: Json): Json {
  return {
    timestamp: "2026-12-01T09:06:24.490000",
    session_id: snapshot.session_id,
    reason: "preflight",
    request: { method: "POST", url: `${String(snapshot.base_url)}/chat/completions`, headers: { Authorization: "Bearer sk-or-v1…masked", "Content-Type": "application/json" }, body },
  };
}

