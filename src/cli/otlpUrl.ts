// The OTLP/HTTP protocols `export --endpoint` offers and the traces URL of an endpoint: apart from
// the exporters (otlpSend.ts) so that parsing the options does not load the OpenTelemetry packages.
import { CliError } from "./io";

export const OTLP_PROTOCOLS = ["http/protobuf", "http/json"] as const;

/** The traces URL of an endpoint: a URL without a path gets the OTLP traces path, as OTEL_EXPORTER_OTLP_ENDPOINT does. */
export function tracesUrl(endpoint: string): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new CliError(`export: --endpoint ${endpoint}: not a URL (expected http://host:port or https://host/v1/traces)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new CliError(`export: --endpoint ${endpoint}: only http and https are supported (OTLP/HTTP)`);
  if (url.pathname === "/" || url.pathname === "") url.pathname = "/v1/traces";
  return url.toString();
}
