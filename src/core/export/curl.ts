// The curl export: a command that sends a rebuilt request to its provider, with the API key read
// from an environment variable (a placeholder, never a real key). The body is the same text as the
// JSON export, passed with --data-raw in single quotes (see shell-quote.ts) so no character of it
// is interpreted by the shell and a leading `@` is never read as a file name.
//   openai-completions    POST {base}/chat/completions        Authorization: Bearer $OPENAI_API_KEY
//   openai-responses      POST {base}/responses               Authorization: Bearer $OPENAI_API_KEY
//   anthropic-messages    POST {base}/v1/messages             x-api-key: $ANTHROPIC_API_KEY, anthropic-version
//   google-generative-ai  POST {base}/models/{model}:streamGenerateContent?alt=sse   x-goog-api-key: $GEMINI_API_KEY
// Base URLs follow pi's model `baseUrl` convention (OpenAI and Google include the version path).
import type { ApiId } from "../model";
import { findNotRecorded, notRecordedWarning } from "./not-recorded";
import { formatRequestJson } from "./request-json";
import { isEnvVariableName, shellQuote } from "./shell-quote";

const ANTHROPIC_VERSION = "2023-06-01";

interface ApiEndpoint {
  baseUrl: string;
  /** Path after the base URL; `{model}` is replaced by the model id. */
  path: string;
  keyVariable: string;
  /** Header carrying the key; `{key}` is replaced by the variable reference. */
  keyHeader: string;
  fixedHeaders: readonly string[];
}

const API_ENDPOINTS: Readonly<Record<ApiId, ApiEndpoint>> = {
  "openai-completions": {
    baseUrl: "https://api.openai.com/v1",
    path: "/chat/completions",
    keyVariable: "OPENAI_API_KEY",
    keyHeader: "Authorization: Bearer {key}",
    fixedHeaders: [],
  },
  "openai-responses": {
    baseUrl: "https://api.openai.com/v1",
    path: "/responses",
    keyVariable: "OPENAI_API_KEY",
    keyHeader: "Authorization: Bearer {key}",
    fixedHeaders: [],
  },
  "anthropic-messages": {
    baseUrl: "https://api.anthropic.com",
    path: "/v1/messages",
    keyVariable: "ANTHROPIC_API_KEY",
    keyHeader: "x-api-key: {key}",
    fixedHeaders: [`anthropic-version: ${ANTHROPIC_VERSION}`],
  },
  "google-generative-ai": {
    baseUrl: "https://generativelanguage.googleapis.com/v1beta",
    path: "/models/{model}:streamGenerateContent?alt=sse",
    keyVariable: "GEMINI_API_KEY",
    keyHeader: "x-goog-api-key: {key}",
    fixedHeaders: [],
  },
};

/** Model id written in a Google URL when none is known. */
const MODEL_PLACEHOLDER = "MODEL_ID";

export interface CurlOptions {
  /** Replaces the API's default base URL (e.g. a proxy or a compatible provider). */
  baseUrl?: string;
  /** Model id for URLs that carry it (Google); defaults to the body's `model` field. */
  model?: string;
  /** Environment variable holding the key (default per API, e.g. OPENAI_API_KEY). */
  keyVariable?: string;
  /** Extra headers, e.g. `{"anthropic-beta": "…"}`. */
  headers?: Readonly<Record<string, string>>;
}

export interface CurlExport {
  /** The command, lines joined with ` \` continuations, no trailing newline. */
  command: string;
  url: string;
  /** Labels of `$notRecorded` markers found in the body. */
  notRecorded: string[];
  /** Things the user must know before running it (markers, missing model, …). */
  warnings: string[];
}

const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/;

export function exportCurl(api: ApiId, body: unknown, options: CurlOptions = {}): CurlExport {
  const endpoint = API_ENDPOINTS[api];
  const warnings: string[] = [];
  const keyVariable = options.keyVariable ?? endpoint.keyVariable;
  if (!isEnvVariableName(keyVariable)) throw new RangeError(`${JSON.stringify(keyVariable)} is not an environment variable name`);

  let path = endpoint.path;
  if (path.includes("{model}")) {
    const bodyModel = typeof body === "object" && body !== null && typeof (body as Record<string, unknown>).model === "string"
      ? ((body as Record<string, unknown>).model as string)
      : undefined;
    const model = options.model ?? bodyModel;
    if (!model) warnings.push(`No model id is known: replace ${MODEL_PLACEHOLDER} in the URL.`);
    path = path.replace("{model}", encodeURIComponent(model ?? MODEL_PLACEHOLDER).replace(/%2F/gi, "/"));
  }
  const url = `${(options.baseUrl ?? endpoint.baseUrl).replace(/\/+$/, "")}${path}`;

  const notRecorded = findNotRecorded(body);
  const markerWarning = notRecordedWarning(notRecorded);
  if (markerWarning) warnings.push(markerWarning);

  const streaming = api === "google-generative-ai" || (typeof body === "object" && body !== null && (body as Record<string, unknown>).stream === true);
  const args: string[] = [];
  if (streaming) args.push("--no-buffer");
  args.push(`-H ${shellQuote("Content-Type: application/json")}`);
  // The key header is double-quoted so the shell expands the variable; the name was checked above.
  args.push(`-H "${endpoint.keyHeader.replace("{key}", `$${keyVariable}`)}"`);
  for (const header of endpoint.fixedHeaders) args.push(`-H ${shellQuote(header)}`);
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (!HEADER_NAME.test(name) || /[\r\n]/.test(value)) throw new RangeError(`invalid header ${JSON.stringify(name)}`);
    args.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  }
  args.push(`--data-raw ${shellQuote(formatRequestJson(body))}`);
  const command = [`curl ${shellQuote(url)}`, ...args.map((arg) => `  ${arg}`)].join(" \\\n");
  return { command, url, notRecorded, warnings };
}
