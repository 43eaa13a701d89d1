// One positive example per kind of our own secret rules (docs/redaction.md; gitleaks' rules have
// theirs in test/core/redact/kinds.ts), built like the catalogue's
// own test cases (test/core/redact/catalogue.test.ts) from deterministic fake characters, so no
// file holds a literal a secret scanner would flag. Used by the CLI tests and the browser tests
// (share and export of a seeded session), plus a pi session text that carries them all.
import { B64, HEX, LETTERS, UPPER_DIGITS, URLSAFE, fake } from "../core/redact/helpers";

export interface SecretExample {
  kind: string;
  /** Text containing the secret. */
  text: string;
  /** The secret itself: must appear nowhere in a redacted link or export. */
  secret: string;
}

const dockerPat = `dc${"kr_pat_"}${fake(27, URLSAFE, 230)}`;
const telegram = `${fake(10, "0123456789", 231)}:A${"A"}${fake(33, URLSAFE, 232)}`;
const okta = `00${fake(40, URLSAFE, 233)}`;
const sqlPassword = `Sq${fake(14, undefined, 234)}!`;
const pem = `MIIEowIBAAKCAQEA${fake(64, B64, 34)}\n${fake(64, B64, 35)}\n${fake(20, B64, 36)}==`;
const randomPassword = `Xk9${fake(13, undefined, 37)}`;
const anthropic = `sk-${"ant-"}api03-${fake(93, URLSAFE, 3)}AA`;
const openrouter = `sk-${"or-v1-"}${fake(64, HEX, 26)}`;
const openaiProj = `sk-${"proj-"}${fake(156, URLSAFE, 1)}`;
const google = `AI${"za"}${fake(35, URLSAFE, 4)}`;
const ya29 = `ya${"29."}${fake(100, URLSAFE, 27)}`;
const akia = `AK${"IA"}${fake(16, UPPER_DIGITS, 5)}`;
const awsSecret = fake(40, B64, 7);
const ghp = `gh${"p_"}${fake(36, undefined, 8)}`;
const githubPat = `github${"_pat_"}${fake(22, undefined, 10)}_${fake(59, undefined, 11)}`;
const glpat = `gl${"pat-"}${fake(20, URLSAFE, 12)}`;
const slack = `xo${"xb-"}1234567890-${fake(24, undefined, 13)}`;
const slackHookPath = `T${fake(10, UPPER_DIGITS, 14)}/B${fake(10, UPPER_DIGITS, 15)}/${fake(24, undefined, 16)}`;
const stripe = `sk${"_live_"}${fake(24, undefined, 17)}`;
const npm = `np${"m_"}${fake(36, undefined, 19)}`;
const hf = `h${"f_"}${fake(34, LETTERS, 20)}`;
const groq = `gs${"k_"}${fake(52, undefined, 21)}`;
const xai = `xa${"i-"}${fake(80, undefined, 22)}`;
const pplx = `ppl${"x-"}${fake(48, undefined, 23)}`;
const sendgrid = `S${"G."}${fake(22, URLSAFE, 24)}.${fake(43, URLSAFE, 25)}`;
const digitalocean = `do${"p_v1_"}${fake(64, HEX, 28)}`;
const shopify = `shp${"at_"}${fake(32, HEX, 29)}`;
const jwt = `eyJ${fake(30, URLSAFE, 30)}.eyJ${fake(60, URLSAFE, 31)}.${fake(43, URLSAFE, 32)}`;
const bearer = fake(40, URLSAFE, 33);
const accessToken = fake(32, undefined, 72);
const clientSecret = fake(30, undefined, 75);
const webhookSecret = fake(20, undefined, 78);
const twilioKey = `S${"K"}${fake(32, HEX, 120)}`;
const mailgun = `ke${"y-"}${fake(32, HEX, 121)}`;
const atlassian = `ATA${"TT3"}${fake(180, URLSAFE, 122)}=${fake(8, HEX, 123)}`;
const azureKey = `${fake(86, B64, 124)}==`;
const discordHook = `1234567890${fake(8, "0123456789", 125)}/${fake(68, URLSAFE, 126)}`;
const curlPassword = `Cu${fake(14, undefined, 127)}`;
const mysqlPassword = `My${fake(14, undefined, 128)}`;
const optionToken = fake(24, undefined, 129);
const labelPassword = `Lb${fake(14, undefined, 130)}`;

export const SECRET_EXAMPLES: readonly SecretExample[] = [
  { kind: "private-key", text: `key:\n-----BEGIN RSA PRIVATE KEY-----\n${pem}\n-----END RSA PRIVATE KEY-----\n`, secret: pem },
  { kind: "anthropic-api-key", text: `ANTHROPIC_API_KEY=${anthropic}`, secret: anthropic },
  { kind: "openrouter-api-key", text: `OPENROUTER: ${openrouter}`, secret: openrouter },
  { kind: "openai-api-key", text: `client = OpenAI(api_key="${openaiProj}")`, secret: openaiProj },
  { kind: "google-api-key", text: `https://maps.googleapis.com/x?callback=f&libs=${google}`, secret: google },
  { kind: "google-oauth-token", text: `token: ${ya29}`, secret: ya29 },
  { kind: "aws-access-key-id", text: `aws_access_key_id = ${akia}`, secret: akia },
  { kind: "aws-secret-access-key", text: `aws_secret_access_key = ${awsSecret}`, secret: awsSecret },
  { kind: "github-token", text: `git clone https://${ghp}@github.com/o/r`, secret: ghp },
  { kind: "github-fine-grained-token", text: `token ${githubPat}`, secret: githubPat },
  { kind: "gitlab-token", text: `PRIVATE-TOKEN: ${glpat}`, secret: glpat },
  { kind: "slack-token", text: `SLACK_BOT=${slack}`, secret: slack },
  { kind: "slack-webhook", text: `POST https://hooks.slack.com/services/${slackHookPath}`, secret: slackHookPath },
  { kind: "stripe-key", text: `STRIPE ${stripe}`, secret: stripe },
  { kind: "npm-token", text: `//registry.npmjs.org/:_authToken=${npm}`, secret: npm },
  { kind: "huggingface-token", text: `huggingface-cli login --token ${hf}`, secret: hf },
  { kind: "twilio-api-key", text: `TWILIO_KEY_SID ${twilioKey}`, secret: twilioKey },
  { kind: "mailgun-api-key", text: `mailgun ${mailgun}`, secret: mailgun },
  { kind: "atlassian-api-token", text: `jira ${atlassian}`, secret: atlassian },
  { kind: "azure-storage-key", text: `conn = "DefaultEndpointsProtocol=https;AccountName=a;AccountKey=${azureKey};EndpointSuffix=core.windows.net"`, secret: azureKey },
  { kind: "discord-webhook", text: `https://discord.com/api/webhooks/${discordHook}`, secret: discordHook },
  { kind: "groq-api-key", text: `GROQ=${groq}`, secret: groq },
  { kind: "xai-api-key", text: `XAI: ${xai}`, secret: xai },
  { kind: "perplexity-api-key", text: `pplx ${pplx}`, secret: pplx },
  { kind: "sendgrid-api-key", text: `SENDGRID=${sendgrid}`, secret: sendgrid },
  { kind: "digitalocean-token", text: `DO ${digitalocean}`, secret: digitalocean },
  { kind: "shopify-token", text: `X-Shopify-Access-Token ${shopify}`, secret: shopify },
  { kind: "jwt", text: `cookie session=${jwt}; Path=/`, secret: jwt },
  { kind: "authorization-header", text: `curl -H "Authorization: Bearer ${bearer}" https://api.example.com`, secret: bearer },
  { kind: "connection-string-password", text: `DATABASE_URL=postgres://app:${randomPassword}@db.internal:5432/app`, secret: randomPassword },
  { kind: "url-password", text: `git remote add origin https://deploy:${randomPassword}@git.example.com/r.git`, secret: randomPassword },
  { kind: "url-token-parameter", text: `GET https://api.example.com/v1/items?access_token=${accessToken}&page=2`, secret: accessToken },
  { kind: "command-user-password", text: `curl -u alice:${curlPassword} https://example.com`, secret: curlPassword },
  { kind: "mysql-password-option", text: `mysql -u root -p${mysqlPassword} shop`, secret: mysqlPassword },
  { kind: "secret-option", text: `gh auth login --token ${optionToken}`, secret: optionToken },
  { kind: "secret-assignment-after-label", text: `note: DB_PASSWORD=${labelPassword}`, secret: labelPassword },
  { kind: "secret-json-field", text: `{"client_secret":"${clientSecret}"}`, secret: clientSecret },
  { kind: "secret-assignment", text: `export STRIPE_WEBHOOK_SECRET="${webhookSecret}"`, secret: webhookSecret },
  { kind: "docker-hub-token", text: `docker login -u me --password-stdin <<< ${dockerPat}`, secret: dockerPat },
  { kind: "telegram-bot-token", text: `curl https://api.telegram.org/bot${telegram}/getMe`, secret: telegram },
  { kind: "okta-api-token", text: `Authorization: SS${"WS"} ${okta}`, secret: okta },
  { kind: "connection-string-key-password", text: `Server=tcp:db.example.net,1433;Database=shop;User ID=sa;Password=${sqlPassword};Encrypt=True;`, secret: sqlPassword },
];

const TIME = "2026-01-01T00:00:00.000Z";

/**
 * A small pi session (format v3, gpt-4.1 over Chat Completions) whose first user message holds
 * every example (one text block each), and a second turn. Turn 1's request carries them all.
 */
export function seededSessionText(examples: readonly SecretExample[] = SECRET_EXAMPLES): string {
  const usage = { input: 10, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 12, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
  const assistant = (id: string, parentId: string, text: string) => ({
    type: "message",
    id,
    parentId,
    timestamp: TIME,
    message: { role: "assistant", content: [{ type: "text", text }], api: "openai-completions", provider: "openai", model: "gpt-4.1", usage, stopReason: "stop", timestamp: 2 },
  });
  const lines: unknown[] = [
    { type: "session", version: 3, id: "seeded-session", timestamp: TIME, cwd: "/work/app" },
    { type: "model_change", id: "m0", parentId: null, timestamp: TIME, provider: "openai", modelId: "gpt-4.1" },
    {
      type: "message",
      id: "u1",
      parentId: "m0",
      timestamp: TIME,
      message: { role: "user", content: examples.map((example) => ({ type: "text", text: example.text })), timestamp: 1 },
    },
    assistant("a1", "u1", "I looked at the configuration."),
    { type: "message", id: "u2", parentId: "a1", timestamp: TIME, message: { role: "user", content: [{ type: "text", text: "Thanks." }], timestamp: 3 } },
    assistant("a2", "u2", "You're welcome."),
  ];
  return `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;
}
