// The 90 secret kinds redaction must mask: the 60 of the second hostile-input probe (every
// catalogue kind and its variants: vendor keys, headers, URLs, command lines, assignments) and the
// 30 of the third (15 it found unmasked, named in its report, and 15 further vendor formats the
// gitleaks rules cover). Each kind is one line of text in the shape it is met in a session, built
// at run time from fake characters so no file of the repository holds a literal secret.
import { gzipSync, strToU8 } from "fflate";
import { encodeBase64Url } from "../../../src/core/share";
import { B64, HEX, UPPER_DIGITS, URLSAFE, fake } from "./helpers";

export interface SecretKind {
  name: string;
  round: "earlier" | "third";
  /** The line as a session holds it. */
  line: string;
  /** The value that must not come out. */
  secret: string;
}

const DIGITS = "0123456789";
const LOWER_ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789";
const BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L";

let seed = 500;
const f = (length: number, alphabet?: string): string => fake(length, alphabet, seed++);

function kind(name: string, round: SecretKind["round"], secret: string, line: (secret: string) => string): SecretKind {
  return { name, round, line: line(secret), secret };
}

const pem = (label: string): string => `${f(64, B64)}\n${f(64, B64)}\n${f(40, B64)}${label ? "" : "=="}`;
const envGzip = (password: string): string =>
  encodeBase64Url(gzipSync(strToU8(`DB_PASSWORD=${password}\nLOG_LEVEL=debug\n`))).replace(/-/g, "+").replace(/_/g, "/");


export const EARLIER_KINDS: readonly SecretKind[] = [
  kind("rsa private key", "earlier", pem("rsa"), (s) => `-----BEGIN RSA ${"PRIVATE"} KEY-----\n${s}\n-----END RSA PRIVATE KEY-----`),
  kind("openssh private key", "earlier", pem("ssh"), (s) => `-----BEGIN OPENSSH ${"PRIVATE"} KEY-----\n${s}\n-----END OPENSSH PRIVATE KEY-----`),
  kind("ec private key", "earlier", pem("ec"), (s) => `-----BEGIN EC ${"PRIVATE"} KEY-----\n${s}\n-----END EC PRIVATE KEY-----`),
  kind("anthropic api03", "earlier", `sk-${"ant-"}api03-${f(93, URLSAFE)}AA`, (s) => `key ${s}`),
  kind("anthropic admin01", "earlier", `sk-${"ant-"}admin01-${f(93, URLSAFE)}AA`, (s) => `admin key ${s}`),
  kind("openrouter", "earlier", `sk-${"or-v1-"}${f(64, HEX)}`, (s) => `OPENROUTER ${s}`),
  kind("openai project", "earlier", `sk-${"proj-"}${f(156, URLSAFE)}`, (s) => `openai ${s}`),
  kind("openai service account", "earlier", `sk-${"svcacct-"}${f(120, URLSAFE)}`, (s) => `svc ${s}`),
  kind("openai legacy", "earlier", `sk-${f(48)}`, (s) => `old key ${s}`),
  kind("google api key", "earlier", `AI${"za"}${f(35, URLSAFE)}`, (s) => `maps ${s}`),
  kind("google oauth", "earlier", `ya${"29."}${f(100, URLSAFE)}`, (s) => `access ${s}`),
  kind("aws akia", "earlier", `AK${"IA"}${f(16, UPPER_DIGITS)}`, (s) => `id ${s}`),
  kind("aws asia", "earlier", `AS${"IA"}${f(16, UPPER_DIGITS)}`, (s) => `session id ${s}`),
  kind("aws secret", "earlier", f(40, B64), (s) => `aws_secret_access_key = ${s}`),
  kind("github ghp", "earlier", `gh${"p_"}${f(36)}`, (s) => `token ${s}`),
  kind("github gho", "earlier", `gh${"o_"}${f(36)}`, (s) => `oauth ${s}`),
  kind("github ghu", "earlier", `gh${"u_"}${f(36)}`, (s) => `user-to-server ${s}`),
  kind("github ghs", "earlier", `gh${"s_"}${f(36)}`, (s) => `server ${s}`),
  kind("github fine-grained", "earlier", `github${"_pat_"}${f(22)}_${f(59)}`, (s) => `pat ${s}`),
  kind("gitlab", "earlier", `gl${"pat-"}${f(20, URLSAFE)}`, (s) => `gitlab ${s}`),
  kind("slack bot", "earlier", `xo${"xb-"}1234567890-${f(24)}`, (s) => `bot ${s}`),
  kind("slack user", "earlier", `xo${"xp-"}1234567890-${f(32)}`, (s) => `user ${s}`),
  kind("slack webhook", "earlier", `T${f(10, UPPER_DIGITS)}/B${f(10, UPPER_DIGITS)}/${f(24)}`, (s) => `https://hooks.slack.com/services/${s}`),
  kind("stripe secret", "earlier", `sk${"_live_"}${f(24)}`, (s) => `stripe ${s}`),
  kind("stripe restricted", "earlier", `rk${"_live_"}${f(24)}`, (s) => `restricted ${s}`),
  kind("stripe webhook", "earlier", `wh${"sec_"}${f(32)}`, (s) => `signing ${s}`),
  kind("npm", "earlier", `np${"m_"}${f(36)}`, (s) => `//registry.npmjs.org/:_authToken ${s}`),
  kind("hugging face", "earlier", `h${"f_"}${f(34)}`, (s) => `HF_TOKEN is ${s}`),
  kind("groq", "earlier", `gs${"k_"}${f(52)}`, (s) => `groq ${s}`),
  kind("xai", "earlier", `xa${"i-"}${f(80)}`, (s) => `grok ${s}`),
  kind("perplexity", "earlier", `ppl${"x-"}${f(48)}`, (s) => `pplx ${s}`),
  kind("sendgrid", "earlier", `S${"G."}${f(22, URLSAFE)}.${f(43, URLSAFE)}`, (s) => `mail ${s}`),
  kind("digitalocean", "earlier", `do${"p_v1_"}${f(64, HEX)}`, (s) => `doctl ${s}`),
  kind("shopify", "earlier", `shp${"at_"}${f(32, HEX)}`, (s) => `shop ${s}`),
  kind("twilio api key", "earlier", `S${"K"}${f(32, HEX)}`, (s) => `twilio api key ${s}`),
  kind("mailgun", "earlier", `ke${"y-"}${f(32, HEX)}`, (s) => `mailgun ${s}`),
  kind("atlassian", "earlier", `ATA${"TT3"}${f(180, URLSAFE)}=${f(8, HEX)}`, (s) => `jira ${s}`),
  kind("azure account key", "earlier", `${f(86, B64)}==`, (s) => `conn = "DefaultEndpointsProtocol=https;AccountName=a;AccountKey=${s};EndpointSuffix=core.windows.net"`),
  kind("azure shared access key", "earlier", `${f(43, B64)}=`, (s) => `Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=${s}`),
  kind("discord webhook", "earlier", `1234567890${f(8, DIGITS)}/${f(68, URLSAFE)}`, (s) => `https://discord.com/api/webhooks/${s}`),
  kind("jwt", "earlier", `eyJ${f(30, URLSAFE)}.eyJ${f(60, URLSAFE)}.${f(43, URLSAFE)}`, (s) => `id_token ${s}`),
  kind("bearer header", "earlier", f(40, URLSAFE), (s) => `Authorization: Bearer ${s}`),
  kind("basic header", "earlier", `${f(30, B64)}==`, (s) => `Authorization: Basic ${s}`),
  kind("postgres url password", "earlier", `Pg${f(16)}`, (s) => `postgres://app:${s}@db.internal:5432/shop`),
  kind("mongodb url password", "earlier", `Mg${f(16)}`, (s) => `mongodb+srv://app:${s}@cluster0.example.net/db`),
  kind("redis url password", "earlier", `Rd${f(16)}`, (s) => `redis://:${s}@cache:6379/0`),
  kind("https url password", "earlier", `Ht${f(16)}`, (s) => `https://deploy:${s}@git.example.com/repo.git`),
  kind("url access_token", "earlier", f(40, URLSAFE), (s) => `GET https://api.example.com/v1/me?access_token=${s}&x=1`),
  kind("url signature", "earlier", f(64, HEX), (s) => `https://bucket.s3.amazonaws.com/o?X-Amz-Signature=${s}`),
  kind("curl user password", "earlier", `Cu${f(14)}`, (s) => `curl -u alice:${s} https://example.com`),
  kind("twilio auth token", "earlier", f(32, HEX), (s) => `curl -X POST https://api.twilio.com/2010-04-01/Accounts -u AC${f(32, HEX)}:${s}`),
  kind("mysql -p", "earlier", `My${f(14)}`, (s) => `mysql -u root -p${s} shop`),
  kind("--token option", "earlier", f(24), (s) => `gh auth login --token ${s}`),
  kind("--password option", "earlier", `Pw${f(14)}`, (s) => `vault login --password '${s}' --verbose`),
  kind("json client_secret", "earlier", f(32, URLSAFE), (s) => `{"client_id": "abc", "client_secret": "${s}"}`),
  kind(".env password", "earlier", `Dp${f(18)}`, (s) => `DB_PASSWORD=${s}`),
  kind("export api key", "earlier", f(32), (s) => `export STRIPE_API_KEY="${s}"`),
  kind("yaml password", "earlier", `Ym${f(16)}`, (s) => `database:\n  password: ${s}`),
  kind("label then assignment", "earlier", `Lb${f(14)}`, (s) => `note: DB_PASSWORD=${s}`),
  kind("gzip base64 .env", "earlier", envGzip(`Ev${f(18)}`), (s) => `$ gzip -c .env | base64\n${s}`),
];

export const THIRD_KINDS: readonly SecretKind[] = [
  // Found unmasked by the third probe.
  kind("doppler", "third", `dp.${"pt."}${f(43)}`, (s) => `DOPPLER ${s}`),
  kind("vault service token", "third", `hv${"s."}${f(100, URLSAFE)}`, (s) => `vault ${s}`),
  kind("grafana service account", "third", `gls${"a_"}${f(32)}_${f(8, HEX)}`, (s) => `grafana ${s}`),
  kind("linear", "third", `lin${"_api_"}${f(40)}`, (s) => `linear ${s}`),
  kind("telegram bot", "third", `${f(10, DIGITS)}:A${"A"}${f(33, URLSAFE)}`, (s) => `bot ${s}`),
  kind("databricks", "third", `dap${"i"}${f(32, HEX)}`, (s) => `databricks ${s}`),
  kind("cloudflare origin ca", "third", `v1.${"0-"}${f(24, HEX)}-${f(146, HEX)}`, (s) => `origin ca ${s}`),
  kind("sql server password", "third", `Sq${f(14)}!`, (s) => `Server=tcp:db.example.net,1433;Database=shop;User ID=sa;Password=${s};Encrypt=True;`),
  kind("slack app-level", "third", `xap${"p-"}1-A${f(10, UPPER_DIGITS)}-${f(13, DIGITS)}-${f(64, HEX)}`, (s) => `socket ${s}`),
  kind("postman", "third", `PMA${"K-"}${f(24, HEX)}-${f(34, HEX)}`, (s) => `postman ${s}`),
  kind("pulumi", "third", `pu${"l-"}${f(40, HEX)}`, (s) => `pulumi ${s}`),
  kind("age secret key", "third", `AGE-SECRET-${"KEY-1"}${f(58, BECH32)}`, (s) => `age ${s}`),
  kind("notion", "third", `nt${"n_"}${f(11, DIGITS)}${f(35)}`, (s) => `notion ${s}`),
  kind("okta ssws", "third", `00${f(40, URLSAFE)}`, (s) => `Authorization: SS${"WS"} ${s}`),
  kind("docker hub", "third", `dck${"r_pat_"}${f(27, URLSAFE)}`, (s) => `docker ${s}`),
  // Further vendor formats of the gitleaks rules.
  kind("pypi", "third", `pyp${"i-AgEIcHlwaS5vcmc"}${f(80, URLSAFE)}`, (s) => `twine ${s}`),
  kind("sentry user", "third", `sntr${"yu_"}${f(64, HEX)}`, (s) => `sentry ${s}`),
  kind("new relic user key", "third", `NRA${"K-"}${f(27, UPPER_DIGITS)}`, (s) => `NEW_RELIC_API_KEY: ${s}`),
  kind("heroku v2", "third", `HRK${"U-AA"}${f(58, URLSAFE)}`, (s) => `heroku ${s}`),
  kind("fly.io", "third", `fo${"1_"}${f(43, URLSAFE)}`, (s) => `fly ${s}`),
  kind("planetscale password", "third", `pscal${"e_pw_"}${f(43, URLSAFE)}`, (s) => `pscale ${s}`),
  kind("1password service account", "third", `op${"s_eyJ"}${f(300, B64)}`, (s) => `op ${s}`),
  kind("prefect", "third", `pn${"u_"}${f(36)}`, (s) => `prefect ${s}`),
  kind("readme", "third", `rdm${"e_"}${f(70, LOWER_ALNUM)}`, (s) => `readme ${s}`),
  kind("rubygems", "third", `rubygem${"s_"}${f(48, HEX)}`, (s) => `gem ${s}`),
  kind("dynatrace", "third", `dt0c0${"1."}${f(24, UPPER_DIGITS)}.${f(64, UPPER_DIGITS)}`, (s) => `dynatrace ${s}`),
  kind("grafana cloud", "third", `gl${"c_"}${f(60)}`, (s) => `grafana cloud ${s}`),
  kind("alibaba access key", "third", `LTA${"I"}${f(20)}`, (s) => `aliyun ${s}`),
  kind("infracost", "third", `ic${"o-"}${f(32)}`, (s) => `infracost ${s}`),
  kind("easypost", "third", `EZA${"K"}${f(54)}`, (s) => `easypost ${s}`),
];

export const ALL_KINDS: readonly SecretKind[] = [...EARLIER_KINDS, ...THIRD_KINDS];

/** The names of the kinds whose value shows in `text` (whole, JSON-escaped, or its hidden middle). */
export function leakedKinds(text: string, kinds: readonly SecretKind[] = ALL_KINDS): string[] {
  return kinds
    .filter(({ secret }) => {
      const escaped = JSON.stringify(secret).slice(1, -1);
      const middle = secret.length >= 24 ? secret.slice(10, -10) : null;
      return text.includes(secret) || text.includes(escaped) || (middle !== null && text.includes(middle));
    })
    .map(({ name }) => name);
}
