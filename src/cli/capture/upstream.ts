// Where the recording proxy sends a request, and what of it may be written down. The upstream is
// the one given (a gateway, a test server) or the provider's own address chosen by the request
// path; credentials — auth headers and keys in the query — are replaced before anything is written.

/** The provider a path belongs to, by the wire APIs the agents use; null when none is known. */
function providerOrigin(pathname: string): string | null {
  if (/^\/v1\/(messages|complete)(\/|$)/.test(pathname)) return "https://api.anthropic.com";
  if (/^\/v1(beta|alpha)?\/(models|tunedModels|cachedContents)\/[^/]*:/.test(pathname) || /^\/v1(beta|alpha)\//.test(pathname)) return "https://generativelanguage.googleapis.com";
  if (/^\/v1\//.test(pathname)) return "https://api.openai.com";
  return null;
}

/** The full upstream URL of a request (`requestUrl` is the path and query the agent sent), or null when no upstream is known for it. */
export function upstreamUrl(requestUrl: string, upstream: string | null): URL | null {
  const pathname = requestUrl.split("?")[0] ?? "";
  if (upstream !== null) {
    const base = new URL(upstream);
    return new URL(`${base.pathname.replace(/\/+$/, "")}${requestUrl}`, base.origin);
  }
  const origin = providerOrigin(pathname);
  return origin === null ? null : new URL(requestUrl, origin);
}

const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|x-goog-api-key|api-key)$|(^|-)(key|token|secret)$/i;
const SECRET_QUERY = /^(key|api[-_]?key|access[-_]?token|token|secret)$/i;
const REDACTED = "<redacted>";

/** Request headers as they may be written: every credential replaced. */
export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = SECRET_HEADER.test(name) ? REDACTED : Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

/** A request path as it may be written: the value of every key-like query parameter replaced. */
export function redactPath(requestUrl: string): string {
  const at = requestUrl.indexOf("?");
  if (at < 0) return requestUrl;
  const query = requestUrl
    .slice(at + 1)
    .split("&")
    .map((part) => {
      const eq = part.indexOf("=");
      const name = decodeURIComponent(eq < 0 ? part : part.slice(0, eq));
      return eq >= 0 && SECRET_QUERY.test(name) ? `${part.slice(0, eq)}=${REDACTED}` : part;
    })
    .join("&");
  return `${requestUrl.slice(0, at)}?${query}`;
}
