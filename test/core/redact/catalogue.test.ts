// Every catalogue pattern: positive cases (the secret is found, with that kind and exactly that
// range) and negative cases (near-misses: wrong prefix, too short, inside a longer word,
// placeholders, non-secret names). A pattern added to the catalogue without cases fails here.
import { describe, expect, it } from "vitest";
import { exportCurl, exportRequestJson } from "../../../src/core/export";
import type { Session } from "../../../src/core/model";
import { findSecrets, redactJson, redactText } from "../../../src/core/redact";
import { OWN_SECRET_PATTERNS } from "../../../src/core/redact/catalogue";
import { buildSharePayload, decodeShareLink, encodeShareFragment } from "../../../src/core/share";
import { B64, HEX, LETTERS, URLSAFE, UPPER_DIGITS, fake } from "./helpers";

interface Positive {
  /** Text containing the secret. */
  text: string;
  /** The exact secret range expected (as a substring of text). */
  secret: string;
}
interface Cases {
  positive: Positive[];
  negative: string[];
}

const dockerPat = `dc${"kr_pat_"}${fake(27, URLSAFE, 130)}`;
const telegram = `${fake(10, "0123456789", 131)}:A${"A"}${fake(33, URLSAFE, 134)}`;
const okta = `00${fake(40, URLSAFE, 136)}`;
const sqlPassword = `Sq${fake(14, undefined, 137)}!`;
const openaiProj = `sk-${"proj-"}${fake(156, URLSAFE, 1)}`;
const openaiLegacy = `sk-${fake(48, undefined, 2)}`;
const anthropic = `sk-${"ant-"}api03-${fake(93, URLSAFE, 3)}AA`;
const google = `AI${"za"}${fake(35, URLSAFE, 4)}`;
const akia = `AK${"IA"}${fake(16, UPPER_DIGITS, 5)}`;
const asia = `AS${"IA"}${fake(16, UPPER_DIGITS, 6)}`;
const awsSecret = fake(40, B64, 7);
const ghp = `gh${"p_"}${fake(36, undefined, 8)}`;
const ghs = `gh${"s_"}${fake(36, undefined, 9)}`;
const githubPat = `github${"_pat_"}${fake(22, undefined, 10)}_${fake(59, undefined, 11)}`;
const glpat = `gl${"pat-"}${fake(20, URLSAFE, 12)}`;
const slack = `xo${"xb-"}1234567890-${fake(24, undefined, 13)}`;
const slackHookPath = `T${fake(10, UPPER_DIGITS, 14)}/B${fake(10, UPPER_DIGITS, 15)}/${fake(24, undefined, 16)}`;
const stripe = `sk${"_live_"}${fake(24, undefined, 17)}`;
const stripeRestricted = `rk${"_live_"}${fake(24, undefined, 18)}`;
const npm = `np${"m_"}${fake(36, undefined, 19)}`;
const hf = `h${"f_"}${fake(34, LETTERS, 20)}`;
const groq = `gs${"k_"}${fake(52, undefined, 21)}`;
const xai = `xa${"i-"}${fake(80, undefined, 22)}`;
const pplx = `ppl${"x-"}${fake(48, undefined, 23)}`;
const sendgrid = `S${"G."}${fake(22, URLSAFE, 24)}.${fake(43, URLSAFE, 25)}`;
const openrouter = `sk-${"or-v1-"}${fake(64, HEX, 26)}`;
const ya29 = `ya${"29."}${fake(100, URLSAFE, 27)}`;
const digitalocean = `do${"p_v1_"}${fake(64, HEX, 28)}`;
const shopify = `shp${"at_"}${fake(32, HEX, 29)}`;
const jwt = `eyJ${fake(30, URLSAFE, 30)}.eyJ${fake(60, URLSAFE, 31)}.${fake(43, URLSAFE, 32)}`;
const bearer = fake(40, URLSAFE, 33);
const basic = "dXNlcjpwYXNzd29yZDEyMw==";
const pem = `MIIEowIBAAKCAQEA${fake(64, B64, 34)}\n${fake(64, B64, 35)}\n${fake(20, B64, 36)}==`;
const randomPassword = `Xk9${fake(13, undefined, 37)}`;
const hfWithDigits = `h${"f_"}${fake(34, undefined, 38)}`;
const twilioKey = `S${"K"}${fake(32, HEX, 39)}`;
const twilioAuthToken = fake(32, HEX, 40);
const mailgun = `ke${"y-"}${fake(32, HEX, 41)}`;
const atlassian = `ATA${"TT3"}${fake(180, URLSAFE, 42)}=${fake(8, HEX, 43)}`;
const azureKey = `${fake(86, B64, 44)}==`;
const discordHook = `${"1234567890"}${fake(8, "0123456789", 45)}/${fake(68, URLSAFE, 46)}`;
const optionToken = fake(24, undefined, 47);

const CASES: Record<string, Cases> = {
  "private-key": {
    positive: [
      { text: `key:\n-----BEGIN RSA PRIVATE KEY-----\n${pem}\n-----END RSA PRIVATE KEY-----\n`, secret: pem },
      { text: `-----BEGIN PRIVATE KEY-----\n${pem}\n-----END PRIVATE KEY-----`, secret: pem },
      { text: `-----BEGIN OPENSSH PRIVATE KEY-----\n${pem}\n-----END OPENSSH PRIVATE KEY-----`, secret: pem },
      { text: `-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n${pem}\n-----END PGP PRIVATE KEY BLOCK-----`, secret: pem },
      // JSON-escaped newlines, as printed in a service-account file.
      { text: `-----BEGIN PRIVATE KEY-----\\n${pem.replace(/\n/g, "\\n")}\\n-----END PRIVATE KEY-----\\n`, secret: pem.replace(/\n/g, "\\n") },
      // Cut short: no END line; the body run is masked.
      { text: `$ cat id_rsa | head\n-----BEGIN EC PRIVATE KEY-----\n${pem}`, secret: pem },
    ],
    negative: [
      `-----BEGIN PUBLIC KEY-----\n${pem}\n-----END PUBLIC KEY-----`,
      `-----BEGIN CERTIFICATE-----\n${pem}\n-----END CERTIFICATE-----`,
      "the PRIVATE KEY block starts with -----BEGIN and ends with -----END",
    ],
  },
  "anthropic-api-key": {
    positive: [
      { text: `ANTHROPIC_API_KEY=${anthropic}`, secret: anthropic },
      { text: `key ${anthropic}.`, secret: anthropic },
      // Glued to the word before it (a compaction summary whose messages run together): the
      // prefix is distinctive enough to be found anywhere.
      { text: `mysk-${"ant-"}api03-${fake(40, URLSAFE, 99)}`, secret: `sk-${"ant-"}api03-${fake(40, URLSAFE, 99)}` },
    ],
    negative: [`sk-${"ant-"}short`, `sk-${"ant-"}api03-${"x".repeat(40)}`],
  },
  "openrouter-api-key": {
    positive: [{ text: `OPENROUTER: ${openrouter}`, secret: openrouter }],
    negative: [`sk-${"or-v1-"}${fake(20, HEX, 98)}`],
  },
  "openai-api-key": {
    positive: [
      { text: `client = OpenAI(api_key="${openaiProj}")`, secret: openaiProj },
      { text: `legacy ${openaiLegacy} key`, secret: openaiLegacy },
      { text: `sk-${"svcacct-"}${fake(60, URLSAFE, 40)}`, secret: `sk-${"svcacct-"}${fake(60, URLSAFE, 40)}` },
    ],
    negative: [
      "sk-learn-compatibility-layer-and-more",
      `task-${fake(30, undefined, 41)}`,
      `sk-${fake(10, undefined, 42)}`,
      `risk-${fake(30, undefined, 43)}`,
    ],
  },
  "google-api-key": {
    positive: [{ text: `https://maps.googleapis.com/x?callback=f&libs=${google}`, secret: google }, { text: `"${google}"`, secret: google }],
    negative: [`AI${"za"}${fake(20, URLSAFE, 44)}`, `xAI${"za"}${fake(35, URLSAFE, 45)}`, `AI${"za"}${fake(40, URLSAFE, 46)}`],
  },
  "google-oauth-token": {
    positive: [{ text: `token: ${ya29}`, secret: ya29 }],
    negative: ["ya29.short", `ya${"28."}${fake(60, URLSAFE, 47)}`],
  },
  "aws-access-key-id": {
    positive: [
      { text: `aws_access_key_id = ${akia}`, secret: akia },
      { text: `"AccessKeyId": "${asia}"`, secret: asia },
      { text: `the key wasAK${"IA"}${fake(16, UPPER_DIGITS, 50)}`, secret: `AK${"IA"}${fake(16, UPPER_DIGITS, 50)}` },
    ],
    negative: [`AK${"IA"}${fake(10, UPPER_DIGITS, 48)}`, `AK${"IA"}${fake(16, UPPER_DIGITS, 49).toLowerCase()}`],
  },
  "aws-secret-access-key": {
    positive: [
      { text: `aws_secret_access_key = ${awsSecret}`, secret: awsSecret },
      { text: `"SecretAccessKey": "${awsSecret}"`, secret: awsSecret },
    ],
    negative: [`random ${awsSecret} alone`, `aws_secret_access_key = ${fake(30, B64, 51)}`],
  },
  "github-token": {
    positive: [
      { text: `git clone https://${ghp}@github.com/o/r`, secret: ghp },
      { text: `GITHUB_TOKEN=${ghs}`, secret: ghs },
      { text: `gh${"o_"}${fake(36, undefined, 52)}`, secret: `gh${"o_"}${fake(36, undefined, 52)}` },
      { text: `pushed.sigh${"p_"}${fake(36, undefined, 55)}`, secret: `gh${"p_"}${fake(36, undefined, 55)}` },
    ],
    negative: [`gh${"p_"}${fake(20, undefined, 53)}`, `gh${"x_"}${fake(36, undefined, 54)}`],
  },
  "github-fine-grained-token": {
    positive: [{ text: `token ${githubPat}`, secret: githubPat }],
    negative: [`github${"_pat_"}short`],
  },
  "gitlab-token": {
    positive: [{ text: `PRIVATE-TOKEN: ${glpat}`, secret: glpat }],
    negative: [`gl${"pat-"}short`, `gl${"xyz-"}${fake(20, URLSAFE, 56)}`],
  },
  "slack-token": {
    positive: [{ text: `SLACK_BOT=${slack}`, secret: slack }],
    negative: [`xo${"xb-"}abc`, `xo${"xz-"}1234567890-${fake(24, undefined, 57)}`, `xo${"xb-"}abcdefghijklmnop`],
  },
  "slack-webhook": {
    positive: [{ text: `POST https://hooks.slack.com/services/${slackHookPath}`, secret: slackHookPath }],
    negative: ["https://hooks.slack.com/services/", "https://api.slack.com/services/docs"],
  },
  "stripe-key": {
    positive: [
      { text: `Stripe.api_key = '${stripe}'`, secret: stripe },
      { text: `restricted ${stripeRestricted}`, secret: stripeRestricted },
    ],
    negative: [`sk${"_live_"}short`, `pk${"_live_"}${fake(24, undefined, 58)}`],
  },
  "npm-token": {
    positive: [{ text: `//registry.npmjs.org/:_authToken=${npm}`, secret: npm }],
    negative: [`np${"m_"}${fake(20, undefined, 59)}`, `npm_config_cache=/tmp/x`],
  },
  "huggingface-token": {
    positive: [
      { text: `huggingface-cli login --token ${hf}`, secret: hf },
      { text: `HF_TOKEN is ${hfWithDigits}`, secret: hfWithDigits },
    ],
    negative: [`h${"f_"}${fake(10, LETTERS, 60)}`, "hf_hub_download_from_cache_function_name_here"],
  },
  "twilio-api-key": {
    positive: [{ text: `TWILIO_KEY_SID ${twilioKey} in use`, secret: twilioKey }],
    negative: [`S${"K"}${"0".repeat(32)}`, `S${"K"}${"abcdef".repeat(5)}ab`, "SKIPPED_TESTS_IN_THE_SUITE_ARE_LISTED"],
  },
  "mailgun-api-key": {
    positive: [{ text: `mailgun: ${mailgun}`, secret: mailgun }],
    negative: [`ke${"y-"}${fake(20, HEX, 62)}`, "the key-value store"],
  },
  "docker-hub-token": {
    positive: [
      { text: `docker login -u me --password-stdin <<< ${dockerPat}`, secret: dockerPat },
      { text: `token:${dockerPat}`, secret: dockerPat },
    ],
    negative: [`dc${"kr_pat_"}short`, "the dckr_pat_ prefix"],
  },
  "telegram-bot-token": {
    positive: [{ text: `curl https://api.telegram.org/bot${telegram}/getMe`, secret: telegram }, { text: `bot ${telegram}`, secret: telegram }],
    negative: [`12345678:AB${fake(33, URLSAFE, 132)}`, `at 10:AA${fake(33, URLSAFE, 133)}`],
  },
  "okta-api-token": {
    positive: [{ text: `Authorization: SS${"WS"} ${okta}`, secret: okta }],
    negative: ["SSWS tokens are Okta's", `SSWS ${fake(20, URLSAFE, 135)}`],
  },
  "connection-string-key-password": {
    positive: [
      { text: `Server=tcp:db.example.net,1433;Database=shop;User ID=sa;Password=${sqlPassword};Encrypt=True;`, secret: sqlPassword },
      { text: `"Driver={ODBC Driver 18};Server=db;Uid=sa;Pwd={${sqlPassword};x}"`, secret: `${sqlPassword};x` },
      { text: `Data Source=db;User Id=sa; password = ${sqlPassword}`, secret: sqlPassword },
    ],
    negative: ["Server=db;User ID=sa;Password=;", "Password=$DB_PASSWORD;", "the Password= field of the string"],
  },
  "atlassian-api-token": {
    positive: [{ text: `JIRA_API_TOKEN is ${atlassian}`, secret: atlassian }],
    negative: [`ATA${"TT3"}short`],
  },
  "azure-storage-key": {
    positive: [
      { text: `conn = "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${azureKey};EndpointSuffix=core.windows.net"`, secret: azureKey },
      { text: `Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=${azureKey}`, secret: azureKey },
    ],
    negative: ["AccountKey=short", "SharedAccessKeyName=RootManageSharedAccessKey"],
  },
  "discord-webhook": {
    positive: [{ text: `post to https://discord.com/api/webhooks/${discordHook}`, secret: discordHook }],
    negative: ["https://discord.com/api/webhooks/123/abc", "https://example.com/api/webhooks/12345678901234567/x"],
  },
  "groq-api-key": {
    positive: [{ text: `GROQ=${groq}`, secret: groq }],
    negative: [`gs${"k_"}${fake(20, undefined, 61)}`],
  },
  "xai-api-key": {
    positive: [{ text: `XAI: ${xai}`, secret: xai }],
    negative: [`xa${"i-"}${fake(20, undefined, 62)}`],
  },
  "perplexity-api-key": {
    positive: [{ text: `pplx ${pplx}`, secret: pplx }],
    negative: [`ppl${"x-"}${fake(20, undefined, 63)}`],
  },
  "sendgrid-api-key": {
    positive: [{ text: `SENDGRID=${sendgrid}`, secret: sendgrid }],
    negative: [`S${"G."}${fake(10, URLSAFE, 64)}.${fake(10, URLSAFE, 65)}`],
  },
  "digitalocean-token": {
    positive: [{ text: `DO ${digitalocean}`, secret: digitalocean }],
    negative: [`do${"p_v1_"}${fake(20, HEX, 66)}`],
  },
  "shopify-token": {
    positive: [{ text: `X-Shopify-Access-Token ${shopify}`, secret: shopify }],
    negative: [`shp${"at_"}${fake(20, HEX, 67)}`],
  },
  jwt: {
    positive: [{ text: `cookie session=${jwt}; Path=/`, secret: jwt }],
    negative: [`eyJ${fake(30, URLSAFE, 68)}`, `eyJabc.eyJdef.ghi`, `xeyJ${fake(30, URLSAFE, 69)}.eyJ${fake(30, URLSAFE, 70)}.sig`],
  },
  "authorization-header": {
    positive: [
      { text: `curl -H "Authorization: Bearer ${bearer}" https://api.example.com`, secret: bearer },
      { text: `authorization: Basic ${basic}`, secret: basic },
      { text: `Authorization: Token ${fake(24, HEX, 71)}`, secret: fake(24, HEX, 71) },
    ],
    negative: ["the Bearer tokens are rotated daily", "Basic configuration is fine", 'Authorization: Bearer $OPENAI_API_KEY', "Bearer ${TOKEN}"],
  },
  "connection-string-password": {
    positive: [
      { text: `DATABASE_URL=postgres://app:${randomPassword}@db.internal:5432/app`, secret: randomPassword },
      { text: `mongodb+srv://admin:p4ss@word@cluster0.example.net/test`, secret: "p4ss@word" },
      { text: `redis://:${randomPassword}@cache:6379/0`, secret: randomPassword },
      { text: `amqp://guest:guest123@rabbit:5672/`, secret: "guest123" },
      { text: `mysql://root:hunter2@localhost/db`, secret: "hunter2" },
    ],
    negative: ["postgres://db.internal:5432/app", "postgres://app@db.internal/app", "postgres://app:${DB_PASSWORD}@db/app"],
  },
  "url-password": {
    positive: [
      { text: `git remote add origin https://deploy:${randomPassword}@git.example.com/r.git`, secret: randomPassword },
      { text: `ftp://user:pw12345@files.example.com/`, secret: "pw12345" },
    ],
    negative: ["https://example.com:8080/path", "https://user@example.com/", "see https://x.com/a:b@c"],
  },
  "url-token-parameter": {
    positive: [
      { text: `GET https://api.example.com/v1/items?access_token=${fake(32, undefined, 72)}&page=2`, secret: fake(32, undefined, 72) },
      { text: `https://s3.amazonaws.com/b/k?X-Amz-Signature=${fake(64, HEX, 73)}`, secret: fake(64, HEX, 73) },
      { text: `https://x.test/cb?code=abc123&state=xyz`, secret: "abc123" },
      { text: `https://x.test/?sig=${fake(20, URLSAFE, 74)}#frag`, secret: fake(20, URLSAFE, 74) },
    ],
    negative: ["https://example.com/?page=2&sort=asc", "https://example.com/?monkey=banana", "token=abc without a URL ? or &"],
  },
  "command-user-password": {
    positive: [
      { text: `curl -u alice:${randomPassword} https://example.com`, secret: randomPassword },
      { text: `curl -X POST https://api.twilio.com/x -u AC${fake(32, HEX, 63)}:${twilioAuthToken}`, secret: twilioAuthToken },
      { text: `wget --user=bob:${randomPassword} https://example.com`, secret: randomPassword },
    ],
    negative: ["curl -u alice https://example.com", "curl -u user:$PASSWORD https://x", "ps -u root:"],
  },
  "mysql-password-option": {
    positive: [
      { text: `mysql -u root -p${randomPassword} shop`, secret: randomPassword },
      { text: `$ mysqldump --single-transaction -p'${randomPassword}' db > dump.sql`.replace(`'${randomPassword}'`, randomPassword), secret: randomPassword },
    ],
    negative: ["mysql -u root -p shop", "ssh -p2222 host", "grep -pattern file"],
  },
  "secret-option": {
    positive: [
      { text: `gh auth login --token ${optionToken} now`, secret: optionToken },
      { text: `tool --password ${randomPassword} --verbose`, secret: randomPassword },
      { text: `tool --api-key "${optionToken}"`, secret: optionToken },
    ],
    negative: ["tool --token $GITHUB_TOKEN", "run --max-tokens 4096", "tool --password --verbose", "git log --author alice"],
  },
  "secret-assignment-after-label": {
    positive: [
      { text: `note: DB_PASSWORD=${randomPassword}`, secret: randomPassword },
      { text: `status: SECRET_KEY=${optionToken}`, secret: optionToken },
    ],
    negative: ["note: LOG_LEVEL=debug", "note: DB_PASSWORD=$DB_PASSWORD"],
  },
  "secret-json-field": {
    positive: [
      { text: `{"password": "${randomPassword}", "user": "bob"}`, secret: randomPassword },
      { text: `{"client_secret":"${fake(30, undefined, 75)}"}`, secret: fake(30, undefined, 75) },
      { text: `{"headers": {"x-api-key": "${fake(30, undefined, 76)}"}}`, secret: fake(30, undefined, 76) },
      { text: `{"Authorization": "Basic Zm9v"}`, secret: "Zm9v" },
    ],
    negative: [
      '{"prompt_cache_key": "session-1234", "max_tokens": "100"}',
      '{"password": "", "token": "<your-token>", "apiKey": "${API_KEY}"}',
      '{"public_key": "ssh-ed25519 AAAAC3Nza", "tokens": "12"}',
    ],
  },
  "secret-assignment": {
    positive: [
      { text: `DB_PASSWORD=${randomPassword}\nDEBUG=1`, secret: randomPassword },
      { text: `export STRIPE_WEBHOOK_SECRET="${fake(20, undefined, 78)}"`, secret: fake(20, undefined, 78) },
      { text: `password: 'correct horse battery'`, secret: "correct horse battery" },
      { text: `spring.datasource.password=${randomPassword}`, secret: randomPassword },
      { text: `mytool --token=${fake(24, undefined, 79)} --verbose`, secret: fake(24, undefined, 79) },
      { text: `PGPASSWORD=abc#123 psql`, secret: "abc#123" },
      { text: `SENTRY_DSN=https://${fake(32, HEX, 80)}@o1.ingest.sentry.io/1`, secret: `https://${fake(32, HEX, 80)}@o1.ingest.sentry.io/1` },
    ],
    negative: [
      "PASSWORD_MIN_LENGTH=8\nMAX_TOKENS=4096\nPRIMARY_KEY=id",
      "const password: string;\nlet token: number,",
      "API_KEY=$API_KEY\nSECRET=${SECRET}\nTOKEN=<token>\npassword=changeme",
      'apiKey: process.env.OPENAI_API_KEY, secret: os.getenv("X")',
      "key: value\nmonkey: banana\nhotkey=ctrl+k",
      "Authorization: Bearer",
    ],
  },
};

describe("secret catalogue", () => {
  it("has positive and negative cases for every pattern", () => {
    for (const pattern of OWN_SECRET_PATTERNS) {
      const cases = CASES[pattern.id];
      expect(cases, pattern.id).toBeDefined();
      expect(cases?.positive.length, pattern.id).toBeGreaterThan(0);
      expect(cases?.negative.length, pattern.id).toBeGreaterThan(0);
    }
    expect(Object.keys(CASES).sort()).toEqual(OWN_SECRET_PATTERNS.map((pattern) => pattern.id).sort());
  });

  for (const pattern of OWN_SECRET_PATTERNS) {
    const cases = CASES[pattern.id] as Cases;
    describe(pattern.id, () => {
      cases.positive.forEach(({ text, secret }, index) => {
        it(`finds positive case ${index + 1}`, () => {
          const start = text.indexOf(secret);
          expect(start, "test case secret is in its text").toBeGreaterThanOrEqual(0);
          const found = findSecrets(text).find((match) => match.start <= start && match.end >= start + secret.length);
          expect(found, `${pattern.id} in ${JSON.stringify(text.slice(0, 80))}`).toBeDefined();
          expect(found?.kind).toBe(pattern.id);
          expect(found?.value).toBe(secret);
          // Redacted text no longer holds the secret (and at most 4+4 of its characters show).
          const redacted = redactText(text).text;
          expect(redacted).not.toContain(secret);
          expect(redacted).toContain("[redacted ");
        });
      });
      cases.negative.forEach((text, index) => {
        it(`ignores negative case ${index + 1}`, () => {
          expect(findSecrets(text).filter((match) => match.kind === pattern.id)).toEqual([]);
        });
      });
    });
  }

  it("negatives of the assignment patterns produce no finding at all", () => {
    for (const text of [...CASES["secret-assignment"]!.negative, ...CASES["secret-json-field"]!.negative]) {
      expect(findSecrets(text), text).toEqual([]);
    }
  });
});

describe("a session seeded with one secret of each kind", () => {
  const positives = Object.values(CASES).flatMap((cases) => cases.positive);
  const session: Session = {
    formatId: "pi",
    formatLabel: "pi",
    fileName: "seeded.jsonl",
    formatVersion: 3,
    header: { type: "session", version: 3, id: "s", cwd: "/w" },
    entries: positives.map(({ text }, index) => ({
      id: `e${index}`,
      parentId: index === 0 ? null : `e${index - 1}`,
      type: "message",
      timestamp: null,
      line: index + 2,
      raw: { type: "message", id: `e${index}`, parentId: index === 0 ? null : `e${index - 1}`, message: { role: "toolResult", content: [{ type: "text", text }] } },
    })),
    warnings: [],
    lineCount: positives.length + 1,
  };

  it("shares a link holding none of the secrets", () => {
    const last = session.entries.at(-1)!.id;
    const { payload, findings } = buildSharePayload({
      session,
      scope: "branch",
      leafEntryId: last,
      view: { turn: null, tab: "request", profile: "pi", provider: null, notes: false, leafId: last },
    });
    expect(findings.length).toBeGreaterThanOrEqual(positives.length);
    const decoded = decodeShareLink(encodeShareFragment(payload));
    expect(decoded.ok).toBe(true);
    const shared = decoded.ok ? JSON.stringify(decoded.payload) : "";
    for (const { secret } of positives) expect(shared.includes(secret), secret.slice(0, 30)).toBe(false);
  });

  it("exports a request (JSON and curl) holding none of the secrets", () => {
    const body = { model: "m", messages: positives.map(({ text }) => ({ role: "user", content: text })) };
    const redacted = redactJson(body).value;
    const json = exportRequestJson(redacted);
    const curl = exportCurl("openai-completions", redacted).command;
    for (const { secret } of positives) {
      expect(json.includes(JSON.stringify(secret).slice(1, -1)), secret.slice(0, 30)).toBe(false);
      expect(curl.includes(secret), secret.slice(0, 30)).toBe(false);
    }
  });
});
