// The catalogue of secret patterns, as data: vendor API keys with a recognisable prefix, tokens
// in Authorization headers and URLs, passwords in connection strings, private key blocks, JWTs,
// and assignments whose name says "secret" (`.env`, shell, YAML, JSON). Order is priority: when
// two patterns find overlapping ranges, the earlier one names the merged finding.
//
// Regex design rules (checked by test/core/redact/catalogue-design.test.ts): `g` and `d` flags;
// every quantifier bounded (`{m,n}`, `?`); no quantified group that itself contains a quantifier;
// token patterns start with a lookbehind `(?<![…])` over the same characters their body accepts, so
// a match attempt can only start at the beginning of a run of token characters. Together these
// keep matching linear in the length of the text (no catastrophic backtracking).
import { gitleaksSet } from "./gitleaks";
import { isSecretName } from "./names";
import { isPlaceholderValue } from "./placeholders";
import { scanPrivateKeyBlocks } from "./private-key";
import type { SecretPattern } from "./types";

/** Lookbehind: not preceded by a token character (start of a run of `[A-Za-z0-9_-]`). */
const START = "(?<![A-Za-z0-9_-])";
/** Lookahead: not followed by a token character (end of the run). */
const END = "(?![A-Za-z0-9_-])";

function tokenRegex(body: string, flags = ""): RegExp {
  return new RegExp(`${START}${body}${END}`, `gd${flags}`);
}

/**
 * A token whose prefix is distinctive (`sk-ant-`, `ghp_`, `AKIA`, `glpat-`): found even glued to
 * the word before it, as in a compaction summary whose messages run together. No lookbehind is
 * needed to keep matching linear: an attempt can only start at the literal prefix.
 */
function prefixedRegex(body: string, flags = ""): RegExp {
  return new RegExp(`${body}${END}`, `gd${flags}`);
}

const hasDigit = (value: string): boolean => /[0-9]/.test(value);
const hasLetter = (value: string): boolean => /[A-Za-z]/.test(value);
const notPlaceholder = (secret: string): boolean => !isPlaceholderValue(secret);

/**
 * A random token of 20+ characters almost always mixes letters and digits; words do not. Checked
 * on the part after the vendor prefix (`sk-ant-api03-` has digits of its own).
 */
const looksRandom = (secret: string, groups: Readonly<Record<string, string | undefined>>): boolean => {
  const body = secret.slice(groups.prefix?.length ?? 0);
  return hasDigit(body) && hasLetter(body) && notPlaceholder(secret);
};

/** Authorization schemes kept visible in front of a masked credential. */
const AUTH_SCHEME = /^(?:Bearer|Basic|Token|bearer|basic)$/;

/** Our vendor patterns: ranked before gitleaks' rules, so a kind both find keeps our name and mask. */
const OWN_VENDOR_PATTERNS: readonly SecretPattern[] = [
  {
    id: "private-key",
    label: "Private key block",
    mask: "full",
    scan: scanPrivateKeyBlocks,
  },
  {
    id: "anthropic-api-key",
    label: "Anthropic API key",
    mask: "edges",
    anchors: ["sk-ant-"],
    regex: prefixedRegex("(?<secret>(?<prefix>sk-ant-(?:[a-z]{2,8}[0-9]{2}-)?)[A-Za-z0-9_-]{20,400})"),
    validate: looksRandom,
  },
  {
    id: "openrouter-api-key",
    label: "OpenRouter API key",
    mask: "edges",
    anchors: ["sk-or-v1-"],
    regex: prefixedRegex("(?<secret>(?<prefix>sk-or-v1-)[a-f0-9]{64})"),
  },
  {
    id: "openai-api-key",
    label: "OpenAI API key",
    mask: "edges",
    anchors: ["sk-"],
    regex: tokenRegex("(?<secret>(?<prefix>sk-(?:proj-|svcacct-|admin-|None-)?)(?!ant-|or-v1-)[A-Za-z0-9_-]{20,400})"),
    validate: looksRandom,
  },
  {
    id: "google-api-key",
    label: "Google API key",
    mask: "edges",
    anchors: ["AIza"],
    regex: tokenRegex("(?<secret>(?<prefix>AIza)[0-9A-Za-z_-]{35})"),
  },
  {
    id: "google-oauth-token",
    label: "Google OAuth access token",
    mask: "edges",
    anchors: ["ya29."],
    regex: new RegExp("(?<![A-Za-z0-9_.-])(?<secret>(?<prefix>ya29\\.)[0-9A-Za-z_-]{20,2048})(?![A-Za-z0-9_-])", "gd"),
  },
  {
    id: "aws-access-key-id",
    label: "AWS access key id",
    mask: "edges",
    anchors: ["AKIA", "ASIA", "ABIA", "ACCA"],
    regex: prefixedRegex("(?<secret>(?<prefix>AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16})"),
  },
  {
    id: "aws-secret-access-key",
    label: "AWS secret access key",
    mask: "edges",
    // Only in context: 40 base64 characters alone are too common to flag.
    regex: new RegExp(
      "(?<![A-Za-z0-9_])(?:aws_?secret_?(?:access_?)?key|secret_?access_?key)[\"']?[ \\t]{0,4}[:=][ \\t]{0,4}[\"']?(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])",
      "gdi",
    ),
  },
  {
    id: "github-token",
    label: "GitHub token",
    mask: "edges",
    anchors: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"],
    regex: prefixedRegex("(?<secret>(?<prefix>gh[pousr]_)[A-Za-z0-9]{36,255})"),
  },
  {
    id: "github-fine-grained-token",
    label: "GitHub fine-grained token",
    mask: "edges",
    anchors: ["github_pat_"],
    regex: prefixedRegex("(?<secret>(?<prefix>github_pat_)[A-Za-z0-9_]{22,255})"),
  },
  {
    id: "gitlab-token",
    label: "GitLab token",
    mask: "edges",
    anchors: ["gl"],
    regex: prefixedRegex("(?<secret>(?<prefix>gl(?:pat|dt|rt|ptt|soat)-)[A-Za-z0-9_-]{20,64})"),
  },
  {
    id: "slack-token",
    label: "Slack token",
    mask: "edges",
    anchors: ["xox"],
    regex: prefixedRegex("(?<secret>(?<prefix>xox[abprse]-)[A-Za-z0-9-]{10,250})"),
    validate: hasDigit,
  },
  {
    id: "slack-webhook",
    label: "Slack webhook URL",
    mask: "full",
    anchors: ["https://hooks.slack.com/"],
    regex: new RegExp("https://hooks\\.slack\\.com/(?:services|workflows)/(?<secret>[A-Za-z0-9/_-]{20,200})", "gd"),
  },
  {
    id: "stripe-key",
    label: "Stripe key",
    mask: "edges",
    anchors: ["_live_", "_test_", "whsec_"],
    regex: tokenRegex("(?<secret>(?<prefix>(?:sk|rk)_(?:live|test)_|whsec_)[A-Za-z0-9]{10,247})"),
  },
  {
    id: "npm-token",
    label: "npm access token",
    mask: "edges",
    anchors: ["npm_"],
    regex: tokenRegex("(?<secret>(?<prefix>npm_)[A-Za-z0-9]{36})"),
  },
  {
    id: "huggingface-token",
    label: "Hugging Face token",
    mask: "edges",
    anchors: ["hf_"],
    // Older tokens are letters only, newer ones mix in digits.
    regex: tokenRegex("(?<secret>(?<prefix>hf_)[A-Za-z0-9]{30,40})"),
    validate: (secret) => hasLetter(secret.slice(3)) && notPlaceholder(secret),
  },
  {
    id: "groq-api-key",
    label: "Groq API key",
    mask: "edges",
    anchors: ["gsk_"],
    regex: prefixedRegex("(?<secret>(?<prefix>gsk_)[A-Za-z0-9]{48,56})"),
  },
  {
    id: "xai-api-key",
    label: "xAI API key",
    mask: "edges",
    anchors: ["xai-"],
    regex: tokenRegex("(?<secret>(?<prefix>xai-)[A-Za-z0-9]{70,90})"),
  },
  {
    id: "perplexity-api-key",
    label: "Perplexity API key",
    mask: "edges",
    anchors: ["pplx-"],
    regex: prefixedRegex("(?<secret>(?<prefix>pplx-)[A-Za-z0-9]{40,56})"),
  },
  {
    id: "sendgrid-api-key",
    label: "SendGrid API key",
    mask: "edges",
    anchors: ["SG."],
    regex: new RegExp("(?<![A-Za-z0-9_.-])(?<secret>(?<prefix>SG\\.)[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])", "gd"),
  },
  {
    id: "digitalocean-token",
    label: "DigitalOcean token",
    mask: "edges",
    anchors: ["_v1_"],
    regex: prefixedRegex("(?<secret>(?<prefix>do[opr]_v1_)[a-f0-9]{64})"),
  },
  {
    id: "shopify-token",
    label: "Shopify token",
    mask: "edges",
    anchors: ["shp"],
    regex: tokenRegex("(?<secret>(?<prefix>shp(?:at|ca|pa|ss)_)[a-fA-F0-9]{32})"),
  },
  {
    id: "twilio-api-key",
    label: "Twilio API key",
    mask: "edges",
    anchors: ["SK"],
    regex: tokenRegex("(?<secret>(?<prefix>SK)[0-9a-fA-F]{32})"),
    validate: (secret) => hasDigit(secret.slice(2)) && hasLetter(secret.slice(2)),
  },
  {
    id: "mailgun-api-key",
    label: "Mailgun API key",
    mask: "edges",
    anchors: ["key-"],
    regex: tokenRegex("(?<secret>(?<prefix>key-)[0-9a-f]{32})"),
    validate: (secret) => hasDigit(secret.slice(4)) && hasLetter(secret.slice(4)),
  },
  {
    id: "atlassian-api-token",
    label: "Atlassian API token",
    mask: "edges",
    anchors: ["ATATT3"],
    regex: new RegExp("(?<secret>(?<prefix>ATATT3)[A-Za-z0-9_=-]{40,400})(?![A-Za-z0-9_=-])", "gd"),
  },
  {
    id: "azure-storage-key",
    label: "Azure account or access key",
    mask: "full",
    anchors: ["AccountKey=", "SharedAccessKey=", "accountkey=", "sharedaccesskey="],
    // Inside a connection string (`…;AccountKey=…;`), whatever quotes or assignment it stands in.
    regex: new RegExp("(?<![A-Za-z0-9_])(?:AccountKey|SharedAccessKey)=(?<secret>[A-Za-z0-9+/]{16,1024}={0,2})", "gdi"),
  },
  {
    id: "discord-webhook",
    label: "Discord webhook URL",
    mask: "full",
    anchors: ["/api/webhooks/"],
    regex: new RegExp("https://(?:ptb\\.|canary\\.)?discord(?:app)?\\.com/api/webhooks/(?<secret>[0-9]{17,20}/[A-Za-z0-9_-]{60,100})", "gd"),
  },
  {
    id: "docker-hub-token",
    label: "Docker Hub access token",
    mask: "edges",
    anchors: ["dckr_"],
    regex: prefixedRegex("(?<secret>(?<prefix>dckr_(?:pat|oat)_)[A-Za-z0-9_-]{24,64})"),
  },
  {
    id: "telegram-bot-token",
    label: "Telegram bot token",
    mask: "edges",
    anchors: [":AA"],
    // `<bot id>:AA…`: the id is 8–10 digits, the secret 33 more token characters after `AA`.
    regex: new RegExp("(?:(?<=/bot)|(?<![A-Za-z0-9_:-]))(?<secret>[0-9]{8,10}:AA[A-Za-z0-9_-]{33})(?![A-Za-z0-9_-])", "gd"),
  },
  {
    id: "okta-api-token",
    label: "Okta API token",
    mask: "edges",
    anchors: ["SSWS"],
    // Okta's own Authorization scheme: `SSWS 00…` (42 characters).
    regex: new RegExp("(?<![A-Za-z0-9_])SSWS[ \\t]{1,4}(?<secret>[A-Za-z0-9_-]{40,44})(?![A-Za-z0-9_-])", "gd"),
  },
  {
    id: "connection-string-key-password",
    label: "Password in a connection string",
    mask: "full",
    anchors: ["assword", "ASSWORD", "wd", "WD"],
    // SQL Server / ADO.NET / ODBC `key=value;` strings: `Password=…;`, `Pwd={…}`, up to the next
    // `;` (or a braced value whole); the key stands after `;` or at the start of the string.
    regex: new RegExp(
      "(?<=(?:^|[;\\n\"'`])[ \\t]{0,8})(?:Password|Pwd)[ \\t]{0,4}=[ \\t]{0,4}(?:\\{(?<secret>[^}\\n]{1,256})\\}|(?<secret2>[^;\\n\"'`{ \\t][^;\\n\"'`]{0,255}))",
      "gdi",
    ),
    validate: (secret) => notPlaceholder(secret.trim()),
  },
];

/** Our patterns by shape and name (JWTs, headers, URLs, assignments): ranked after every vendor rule. */
const OWN_GENERIC_PATTERNS: readonly SecretPattern[] = [
  {
    id: "jwt",
    label: "JSON Web Token",
    mask: "edges",
    anchors: ["eyJ"],
    regex: tokenRegex("(?<secret>eyJ[A-Za-z0-9_-]{8,4096}\\.eyJ[A-Za-z0-9_-]{8,8192}\\.[A-Za-z0-9_-]{0,4096})"),
  },
  {
    id: "authorization-header",
    label: "Authorization header credential",
    mask: "edges",
    anchors: ["Bearer", "bearer", "BEARER", "Basic", "basic", "Token"],
    regex: new RegExp(
      "(?<![A-Za-z0-9_])(?:Bearer|bearer|BEARER|Basic|basic|Token)[ \\t]{1,4}(?<secret>[A-Za-z0-9._~+/-]{8,4096}={0,2})(?![A-Za-z0-9._~+/=-])",
      "gd",
    ),
    // "Bearer tokens", "Basic configuration": prose, not credentials.
    validate: (secret) => (hasDigit(secret) || secret.length >= 20) && notPlaceholder(secret),
  },
  {
    id: "connection-string-password",
    label: "Password in a connection string",
    mask: "full",
    anchors: ["://"],
    regex: new RegExp(
      "(?<![A-Za-z0-9+.-])(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\\+srv)?|rediss?|amqps?|mssql|sqlserver|clickhouse|cockroachdb|nats|kafka|ldaps?|couchdb|neo4j(?:\\+s)?|cassandra)://[^\\s:/@?#\"'<>]{0,256}:(?<secret>[^\\s/?#\"'<>]{1,256})@",
      "gdi",
    ),
    validate: notPlaceholder,
  },
  {
    id: "url-password",
    label: "Password in a URL",
    mask: "full",
    anchors: ["://"],
    regex: new RegExp(
      "(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,31}://[^\\s:/@?#\"'<>]{0,256}:(?<secret>[^\\s/?#\"'<>]{1,256})@",
      "gd",
    ),
    validate: notPlaceholder,
  },
  {
    id: "url-token-parameter",
    label: "Token in a URL parameter",
    mask: "edges",
    anchors: ["="],
    regex: new RegExp(
      "[?&](?:access_token|refresh_token|id_token|auth_token|token|api_key|apikey|api-key|key|sig|signature|secret|client_secret|password|passwd|pwd|auth|code|X-Amz-Signature|X-Amz-Credential|X-Amz-Security-Token|X-Goog-Signature|X-Goog-Credential)=(?<secret>[^&#\\s\"'<>\\\\]{1,4096})",
      "gdi",
    ),
    validate: notPlaceholder,
  },
  {
    id: "command-user-password",
    label: "Password after -u user: (curl, wget)",
    mask: "full",
    anchors: ["-u", "--user"],
    regex: new RegExp("(?<![A-Za-z0-9_-])(?:-u|--user|--proxy-user)(?:[ \\t]{1,4}|=)[\"']?[^\\s:\"'@/]{1,256}:(?<secret>[^\\s\"'@]{1,256})", "gd"),
    validate: notPlaceholder,
  },
  {
    id: "mysql-password-option",
    label: "Password after -p (mysql, mariadb)",
    mask: "full",
    anchors: ["-p"],
    // The client takes the password glued to -p; a word-bounded client name earlier on the line says which -p it is.
    regex: new RegExp("(?<![A-Za-z0-9_-])(?<=(?<![A-Za-z0-9_-])(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mysqlcheck|mariadb|mariadb-dump)(?![A-Za-z0-9_-])[^\\n]{0,512}[ \\t])-p(?<secret>[^\\s\"'`]{1,256})", "gd"),
    validate: notPlaceholder,
  },
  {
    id: "secret-option",
    label: "Secret-named command-line option",
    mask: "edges",
    anchors: ["-"],
    // `--token VALUE`, `--password 'VALUE'`: the option's name says secret; the value is the next word.
    regex: new RegExp(
      "(?<![A-Za-z0-9_.-])--?(?<name>[A-Za-z][A-Za-z0-9_-]{0,63})[ \\t]{1,4}(?:\"(?<secret>(?:[^\"\\\\\\n]|\\\\.){1,4096})\"|'(?<secret2>[^'\\n]{1,4096})'|(?<secret3>[^\\s\"'`{}\\[\\]()<>,;=-][^\\s\"'`]{0,4095}))",
      "gd",
    ),
    validate: (secret, groups) => isSecretName(groups.name ?? "") && notPlaceholder(secret) && !AUTH_SCHEME.test(secret),
  },
  {
    id: "secret-json-field",
    label: "Secret-named JSON field",
    mask: "edges",
    anchors: ['"'],
    regex: new RegExp(
      '"(?<name>[A-Za-z_][A-Za-z0-9_.-]{0,127})"[ \\t]{0,8}:[ \\t]{0,8}"(?:(?:Bearer|Basic|Token|bearer|basic) )?(?<secret>(?:[^"\\\\\\n]|\\\\.){1,8192})"',
      "gd",
    ),
    validate: (secret, groups) => isSecretName(groups.name ?? "") && notPlaceholder(secret) && !AUTH_SCHEME.test(secret),
  },
  {
    id: "secret-assignment",
    label: "Secret-named assignment",
    mask: "edges",
    anchors: ["=", ":"],
    regex: new RegExp(
      "(?<![A-Za-z0-9_.-])(?:export[ \\t]{1,4}|--?)?(?<name>[A-Za-z_][A-Za-z0-9_.-]{0,127})[ \\t]{0,8}(?:=|:)[ \\t]{0,8}(?:\"(?<secret>(?:[^\"\\\\\\n]|\\\\.){1,4096})\"|'(?<secret2>[^'\\n]{1,4096})'|(?<secret3>[^\\s\"'`{}\\[\\]()<>,;=][^\\s\"'`\\[\\]()<>,;]{0,4095}))",
      "gd",
    ),
    validate: (secret, groups) => isSecretName(groups.name ?? "") && notPlaceholder(secret) && !AUTH_SCHEME.test(secret),
  },
  {
    id: "secret-assignment-after-label",
    label: "Secret-named assignment",
    mask: "edges",
    anchors: ["="],
    // `note: DB_PASSWORD=…`: an assignment that is itself the value of a label, which the pattern
    // above reads as one value of a name that says nothing.
    regex: new RegExp(
      "(?<![A-Za-z0-9_.-])(?<=[A-Za-z0-9_-]:[ \\t]{1,8})(?:export[ \\t]{1,4})?(?<name>[A-Za-z_][A-Za-z0-9_.-]{0,127})=(?:\"(?<secret>(?:[^\"\\\\\\n]|\\\\.){1,4096})\"|'(?<secret2>[^'\\n]{1,4096})'|(?<secret3>[^\\s\"'`{}\\[\\]()<>,;=][^\\s\"'`\\[\\]()<>,;]{0,4095}))",
      "gd",
    ),
    validate: (secret, groups) => isSecretName(groups.name ?? "") && notPlaceholder(secret) && !AUTH_SCHEME.test(secret),
  },
];

/** Our own patterns, each with its cases in test/core/redact/catalogue.test.ts. */
export const OWN_SECRET_PATTERNS: readonly SecretPattern[] = [...OWN_VENDOR_PATTERNS, ...OWN_GENERIC_PATTERNS];

let gitleaks: ReturnType<typeof gitleaksSet> | null = null;
let catalogue: readonly SecretPattern[] | null = null;

/**
 * gitleaks' rules used beside ours, and those left out with the reason. Translated on first use,
 * not when the module loads: a third of a second that every worker and command importing the
 * core would pay, most of them never redacting.
 */
export function gitleaksRules(): ReturnType<typeof gitleaksSet> {
  return (gitleaks ??= gitleaksSet(new Set(OWN_SECRET_PATTERNS.map((pattern) => pattern.id))));
}

/**
 * The catalogue: our vendor patterns, then gitleaks' maintained rules (./gitleaks.ts), then our
 * patterns by shape and name. Order is priority when finds overlap. Made once, on first use.
 */
export function secretCatalogue(): readonly SecretPattern[] {
  return (catalogue ??= [...OWN_VENDOR_PATTERNS, ...gitleaksRules().patterns, ...OWN_GENERIC_PATTERNS]);
}
