// hermes-agent's strict redaction at the compaction boundary (compaction-policies.md CP-HA-27):
// it runs even when the user turned redaction off, and URL credentials are masked too. The
// categories are those of hermes' agent/redact.py as the spec lists them; the expressions here are
// ours. Masking (CP-HA-27, [INF] for the characters): values shorter than 18 code points become
// `***`, longer ones keep their first 6 and last 4 code points: `<first6>...<last4>`.
//
// Every quantifier is bounded or runs over a class that cannot overlap its neighbour, so matching
// stays linear in the text length. Matches of all categories are collected first and masked in
// one pass (overlapping matches are merged), so one category never re-masks another's output.
import { cpHead, cpLength, cpTail } from "./codepoints";

export interface RedactionSpan {
  /** Category, e.g. "vendor-key", "db-password". */
  kind: string;
  /** UTF-16 range in the input text, end exclusive. */
  start: number;
  end: number;
  /** What replaced it. */
  masked: string;
}

export interface RedactedText {
  text: string;
  spans: RedactionSpan[];
}

/** CP-HA-27 mask rendering. */
export function hermesMask(value: string): string {
  if (cpLength(value) < 18) return "***";
  return `${cpHead(value, 6)}...${cpTail(value, 4)}`;
}

const TOKEN_START = "(?<![A-Za-z0-9_-])";

/** Vendor-prefixed keys (CP-HA-27 first category). */
const VENDOR_PREFIXES: readonly string[] = [
  "sk-[A-Za-z0-9_-]{10,}",
  "ghp_[A-Za-z0-9]{10,}",
  "github_pat_[A-Za-z0-9_]{10,}",
  "gh[ousr]_[A-Za-z0-9]{10,}",
  "xox[baprs]-[A-Za-z0-9-]{10,}",
  "xapp-[0-9]{1,20}-[A-Za-z0-9-]{10,}",
  "AIza[A-Za-z0-9_-]{30,}",
  "AKIA[A-Z0-9]{16}",
  "sk_live_[A-Za-z0-9]{10,}",
  "sk_test_[A-Za-z0-9]{10,}",
  "rk_live_[A-Za-z0-9]{10,}",
  "SG\\.[A-Za-z0-9_-]{10,}",
  "hf_[A-Za-z0-9]{10,}",
  "r8_[A-Za-z0-9]{10,}",
  "npm_[A-Za-z0-9]{10,}",
  "pypi-[A-Za-z0-9_-]{10,}",
  "dop_v1_[A-Za-z0-9]{10,}",
  "gl(?:pat|oas|dt|rt|rtr|cbt|ptt|ft|imt|agent|soat|ffct|wt)-[A-Za-z0-9_.-]{10,}",
  "xai-[A-Za-z0-9]{30,}",
  "gsk_[A-Za-z0-9]{10,}",
  "tvly-[A-Za-z0-9]{10,}",
  "exa_[A-Za-z0-9]{10,}",
  "pplx-[A-Za-z0-9]{10,}",
  "fal_[A-Za-z0-9_-]{10,}",
  "fc-[A-Za-z0-9]{10,}",
  "gAAAA[A-Za-z0-9_=-]{20,}",
];

interface Rule {
  kind: string;
  regex: RegExp;
  /** Name of the group to mask; the whole match when absent. */
  group?: string;
}

const SECRET_WORDS = "(?:api[ _.-]?key|token|secret|passwd|password|credential|auth)";
const YAML_WORDS = "(?:api[ _.-]?key|token|secret|passwd|password|credential)";
const JSON_KEYS =
  "(?:api_?key|token|secret|password|access_token|refresh_token|auth_token|bearer|secret_value|raw_secret|secret_input|key_material|client_secret|id_token)";
const REPR_KEYS =
  "(?:access_token|refresh_token|id_token|auth_token|token|api_key|apikey|client_secret|secret|password|passwd|private_key|credentials?|authorization|bearer)";
const QUERY_KEYS =
  "(?:access_token|refresh_token|id_token|token|api_key|apikey|client_secret|password|auth|jwt|session|secret|key|code|signature|x-amz-signature|x-goog-signature|sig)";

const RULES: readonly Rule[] = [
  { kind: "private-key", regex: /-----BEGIN[A-Z ]{0,40}PRIVATE KEY-----[\s\S]*?-----END[A-Z ]{0,40}PRIVATE KEY-----/g },
  { kind: "vendor-key", regex: new RegExp(`${TOKEN_START}(?:${VENDOR_PREFIXES.join("|")})`, "g") },
  {
    kind: "db-password",
    regex: /(?:postgres(?:ql)?|mysql|mongodb(?:\+srv)?|redis|amqp):\/\/[^:\s/@]{1,256}:(?<secret>[^@\s]{1,512})@/gi,
    group: "secret",
  },
  {
    kind: "url-token",
    regex: /(?:https?|wss?|git|ssh|ftps?|sftp):\/\/(?<secret>[^\s:@/]{8,512})@/gi,
    group: "secret",
  },
  { kind: "query-param", regex: new RegExp(`[?&]${QUERY_KEYS}=(?<secret>[^&#\\s]{1,2048})`, "gi"), group: "secret" },
  {
    kind: "authorization-header",
    regex: /(?:Proxy-)?Authorization:[ \t]*(?:[A-Za-z][\w.+-]{0,30}[ \t]+)?(?<secret>[^\s"']{1,4096})/gi,
    group: "secret",
  },
  {
    kind: "api-key-header",
    regex: /(?:x-api-key|x-goog-api-key|api-key|apikey|x-api-token|x-auth-token|x-access-token)[ \t]*:[ \t]*(?<secret>[^\s"']{1,4096})/gi,
    group: "secret",
  },
  { kind: "telegram-token", regex: /(?<![0-9])(?:bot)?[0-9]{8,12}:(?<secret>[-A-Za-z0-9_]{30,})/g, group: "secret" },
  { kind: "jwt", regex: /eyJ[A-Za-z0-9_-]{10,}(?:\.[A-Za-z0-9_=-]{4,}){0,2}/g },
  {
    kind: "env-assignment",
    regex: /(?<![A-Za-z0-9_])[A-Z0-9_]{0,50}(?:API_?KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|PW|CREDENTIAL|AUTH)[A-Z0-9_]{0,50}[ \t]*=[ \t]*(['"]?)(?<secret>[^\s'"]{1,4096})\1/g,
    group: "secret",
  },
  {
    kind: "env-assignment",
    regex: /(?<![A-Za-z0-9_])[a-z0-9_]{0,50}_(?:key|pass|pw|token|secret|password|passwd|credential|auth)(?![a-z0-9_])[ \t]*=[ \t]*(['"]?)(?<secret>[^\s'"]{1,4096})\1/gi,
    group: "secret",
  },
  {
    kind: "config-key",
    regex: new RegExp(`(?<![A-Za-z0-9_.-])[A-Za-z0-9_-]{1,80}\\.[A-Za-z0-9_.-]{0,80}${SECRET_WORDS}[A-Za-z0-9_.-]{0,80}=(['"]?)(?<secret>[^\\s&'"]{1,4096})\\1`, "gi"),
    group: "secret",
  },
  {
    kind: "config-key",
    regex: new RegExp(`^[ \\t]{0,40}(?:export[ \\t]+)?[A-Za-z0-9_-]{0,80}${SECRET_WORDS}[A-Za-z0-9_-]{0,80}=(['"]?)(?<secret>[^\\s&'"]{1,4096})\\1`, "gim"),
    group: "secret",
  },
  {
    kind: "yaml-key",
    regex: new RegExp(`^[ \\t]{0,40}[A-Za-z0-9_.-]{0,80}${YAML_WORDS}[A-Za-z0-9_.-]{0,80}:[ \\t]{0,40}(?!['"])(?<secret>[^\\s&]{1,4096})`, "gim"),
    group: "secret",
  },
  { kind: "json-field", regex: new RegExp(`"${JSON_KEYS}"\\s{0,10}:\\s{0,10}"(?<secret>[^"]{1,4096})"`, "gi"), group: "secret" },
  {
    kind: "json-field-escaped",
    regex: new RegExp(`\\\\"${JSON_KEYS}\\\\"\\s{0,10}:\\s{0,10}\\\\"(?<secret>[^"\\\\]{1,4096})\\\\"`, "gi"),
    group: "secret",
  },
  { kind: "python-repr-field", regex: new RegExp(`'${REPR_KEYS}'\\s{0,10}:\\s{0,10}'(?<secret>[^'\\\\]{1,4096})'`, "gi"), group: "secret" },
  { kind: "phone-number", regex: /\+[1-9][0-9]{6,14}(?![A-Za-z0-9])/g },
];

function collect(text: string, vaultValues: readonly string[]): RedactionSpan[] {
  const found: RedactionSpan[] = [];
  for (const rule of RULES) {
    rule.regex.lastIndex = 0;
    for (const match of text.matchAll(rule.regex)) {
      const whole = match[0];
      const index = match.index ?? 0;
      let start = index;
      let value = whole;
      if (rule.group) {
        const groupValue = match.groups?.[rule.group];
        if (groupValue === undefined) continue;
        // The secret group is the last part of every grouped rule's match but may be followed by a
        // closing quote or `@`; locate it from the end of the match.
        const offset = whole.lastIndexOf(groupValue);
        start = index + offset;
        value = groupValue;
      }
      if (value === "***" || value.length === 0) continue;
      found.push({ kind: rule.kind, start, end: start + value.length, masked: "" });
    }
  }
  for (const secret of vaultValues) {
    if (!secret) continue;
    let at = text.indexOf(secret);
    while (at >= 0) {
      found.push({ kind: "vault-value", start: at, end: at + secret.length, masked: "" });
      at = text.indexOf(secret, at + secret.length);
    }
  }
  return found;
}

/** Merges overlapping spans; the earliest-starting span names the merged one. */
function merge(spans: RedactionSpan[]): RedactionSpan[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: RedactionSpan[] = [];
  for (const span of sorted) {
    const last = merged[merged.length - 1];
    if (last && span.start < last.end) {
      last.end = Math.max(last.end, span.end);
      continue;
    }
    merged.push({ ...span });
  }
  return merged;
}

export interface HermesRedactOptions {
  /** Exact values from the credential vault (CP-HA-27, last category). */
  vaultValues?: readonly string[];
}

/** Strict redaction of one text (CP-HA-27). */
export function hermesRedact(text: string, options: HermesRedactOptions = {}): RedactedText {
  if (text.length === 0) return { text, spans: [] };
  const spans = merge(collect(text, options.vaultValues ?? []));
  if (spans.length === 0) return { text, spans: [] };
  let out = "";
  let cursor = 0;
  const placed: RedactionSpan[] = [];
  for (const span of spans) {
    const masked = hermesMask(text.slice(span.start, span.end));
    out += text.slice(cursor, span.start) + masked;
    cursor = span.end;
    placed.push({ ...span, masked });
  }
  out += text.slice(cursor);
  return { text: out, spans: placed };
}
