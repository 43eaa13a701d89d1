// Registry of provider serializers: one module per wire shape (pi's API names), all behind one
// interface, so the pipeline, the UI and the CLI can render any turn in any shape.
import type { ApiId, LlmMessage, ModelInfo, RequestHeader } from "../model";

export interface SerializeInput {
  model: ModelInfo;
  /** Converted messages in order (after every pipeline step). */
  messages: LlmMessage[];
  /** Captured request header, or null: then system and tools are "not recorded" markers. */
  header: RequestHeader | null;
  /** pi thinking level in force at this turn ("off", "minimal", "low", "medium", "high", "xhigh"). */
  thinkingLevel: string;
}

export interface SerializeOutput {
  body: Record<string, unknown>;
  /** Labels of the parts of the body filled with a not-recorded marker ("system", "tools", …). */
  notRecorded: string[];
}

export interface ProviderSerializer {
  id: ApiId;
  label: string;
  /** True when a parsed JSON body looks like a request of this shape. */
  detect(body: Record<string, unknown>): boolean;
  /** Builds the request body as pi sends it. */
  serialize(input: SerializeInput): SerializeOutput;
  /** Takes system prompt, tools and settings from a captured request body of this shape. */
  extractHeader(body: Record<string, unknown>, source: string): RequestHeader;
}

const serializers = new Map<ApiId, ProviderSerializer>();

export function registerSerializer(serializer: ProviderSerializer): void {
  serializers.set(serializer.id, serializer);
}

export function getSerializer(api: ApiId): ProviderSerializer {
  const found = serializers.get(api);
  if (!found) throw new Error(`No serializer registered for ${api}`);
  return found;
}

export function listSerializers(): ProviderSerializer[] {
  return [...serializers.values()];
}
