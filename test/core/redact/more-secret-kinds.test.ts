// Secret kinds an earlier probe found unmasked in every output: an AccountKey inside a quoted
// connection string, Twilio `curl -u SID:token` and bare API keys, Hugging Face tokens with digits,
// `--token VALUE` / `--password VALUE`, `mysql -pPASS`, `curl -u user:pass`, Discord webhooks,
// Mailgun keys, Atlassian tokens, a gzip-then-base64 `.env`, and `label: NAME=value` lines. Each is
// seeded into a pi session (tool call and tool result) and into a hermes session snapshot, then
// exported in every provider shape as JSON and curl and shared as a link; and into a Claude Code
// sub-agent file, whose thread's requests are exported and shared: no seeded value may appear in any of them.
import { gzipSync, strToU8 } from "fflate";
import { describe, expect, it } from "vitest";
import { buildShare, exportRequest } from "../../../src/app/shareExport";
import { API_IDS, type PipelineOptions, type Session } from "../../../src/core/model";
import { analyzeSession } from "../../../src/core/session/pipeline";
import { ownedSideFile, readSessionText, readSideFiles } from "../../../src/core/session/index";
import { redactText } from "../../../src/core/redact";
import { decodeShareLink, encodeBase64Url } from "../../../src/core/share";
import { linkSessions, threadSessionOf } from "../../../src/core/session/threads";
import { assistant, readClaude, toText, user } from "../agents/claude-code/helpers";
import { itKeepsPlantedSecretsOut } from "../../support/plantedSecretOutputs";
import { B64, HEX, URLSAFE, fake } from "./helpers";

const azureKey = `${fake(86, B64, 101)}==`;
const twilioToken = fake(32, HEX, 102);
const twilioKey = `S${"K"}${fake(32, HEX, 103)}`;
const hfToken = `h${"f_"}${fake(34, undefined, 104)}`;
const optionToken = fake(24, undefined, 105);
const optionPassword = `Pw${fake(14, undefined, 106)}`;
const mysqlPassword = `My${fake(14, undefined, 107)}`;
const curlPassword = `Cu${fake(14, undefined, 108)}`;
const discordPath = `1234567890${fake(8, "0123456789", 109)}/${fake(68, URLSAFE, 110)}`;
const mailgunKey = `ke${"y-"}${fake(32, HEX, 111)}`;
const atlassianToken = `ATA${"TT3"}${fake(180, URLSAFE, 112)}=${fake(8, HEX, 113)}`;
const envPassword = `Ev${fake(18, undefined, 114)}`;
const labelPassword = `Lb${fake(14, undefined, 115)}`;
const envGzip = encodeBase64Url(gzipSync(strToU8(`DB_PASSWORD=${envPassword}\nLOG_LEVEL=debug\n`))).replace(/-/g, "+").replace(/_/g, "/");

const SEEDED: Record<string, string> = {
  azureKey, twilioToken, twilioKey, hfToken, optionToken, optionPassword, mysqlPassword, curlPassword,
  discordPath, mailgunKey, atlassianToken, envGzip, labelPassword,
};

/** One shell transcript holding every kind. */
const TRANSCRIPT = [
  `conn = "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${azureKey};EndpointSuffix=core.windows.net"`,
  `curl -X POST https://api.twilio.com/2010-04-01/Accounts -u AC${fake(32, HEX, 116)}:${twilioToken}`,
  `twilio api key ${twilioKey}`,
  `HF_TOKEN is ${hfToken}`,
  `gh auth login --token ${optionToken}`,
  `vault login --password ${optionPassword} --verbose`,
  `mysql -u root -p${mysqlPassword} shop`,
  `curl -u alice:${curlPassword} https://example.com`,
  `webhook https://discord.com/api/webhooks/${discordPath}`,
  `mailgun ${mailgunKey}`,
  `jira ${atlassianToken}`,
  `$ gzip -c .env | base64`,
  envGzip,
  `note: DB_PASSWORD=${labelPassword}`,
].join("\n");

function leaked(text: string): string[] {
  return Object.entries(SEEDED)
    .filter(([, value]) => text.includes(value) || text.includes(JSON.stringify(value).slice(1, -1)) || text.includes(value.slice(0, 30)))
    .map(([name]) => name);
}

const line = (value: unknown): string => JSON.stringify(value);
const PI_SESSION = [
  line({ type: "session", version: 3, id: "s1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" }),
  line({ type: "model_change", id: "m1", parentId: null, timestamp: "2026-01-01T00:00:00.000Z", provider: "openai", modelId: "gpt-4o" }),
  line({ type: "message", id: "u1", parentId: "m1", timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: [{ type: "text", text: "set it up" }], timestamp: 1 } }),
  line({
    type: "message", id: "a1", parentId: "u1", timestamp: "2026-01-01T00:00:02.000Z",
    message: {
      role: "assistant",
      content: [{ type: "toolCall", id: "call_1", name: "bash", arguments: { command: TRANSCRIPT } }],
      api: "openai-completions", provider: "openai", model: "gpt-4o",
      usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15 }, stopReason: "toolUse", timestamp: 2,
    },
  }),
  line({
    type: "message", id: "r1", parentId: "a1", timestamp: "2026-01-01T00:00:03.000Z",
    message: { role: "toolResult", toolCallId: "call_1", toolName: "bash", content: [{ type: "text", text: TRANSCRIPT }], isError: false, timestamp: 3 },
  }),
  line({
    type: "message", id: "a2", parentId: "r1", timestamp: "2026-01-01T00:00:04.000Z",
    message: { role: "assistant", content: [{ type: "text", text: "done" }], api: "openai-completions", provider: "openai", model: "gpt-4o", stopReason: "stop", timestamp: 4 },
  }),
].join("\n");

const HERMES_SNAPSHOT = JSON.stringify({
  session_id: "20260101_000000_aa0001",
  model: "openai/gpt-5",
  session_start: "2026-01-01T00:00:00.000000",
  system_prompt: "You are Hermes Agent.",
  messages: [
    { role: "user", content: "set it up" },
    { role: "assistant", content: "", tool_calls: [{ id: "c1", type: "function", function: { name: "terminal", arguments: JSON.stringify({ command: TRANSCRIPT }) } }] },
    { role: "tool", tool_call_id: "c1", content: TRANSCRIPT },
    { role: "assistant", content: "done" },
  ],
});

function hermesSession(): Session {
  const file = ownedSideFile({ name: "session_20260101_000000_aa0001.json", text: HERMES_SNAPSHOT }, "session-store");
  expect(file, "the snapshot is a hermes side file").not.toBeNull();
  return readSideFiles([file!], null, 1)!;
}

describe("more secret kinds, masked in every output", () => {
  it("each kind alone is masked by redactText", () => {
    for (const text of TRANSCRIPT.split("\n")) {
      const redacted = redactText(text).text;
      expect(leaked(redacted), text.slice(0, 60)).toEqual([]);
    }
  });

  const sessions: [string, () => Session, PipelineOptions][] = [
    ["pi", () => readSessionText(PI_SESSION, "seeded.jsonl"), { profile: "pi" }],
    ["hermes", hermesSession, {}],
  ];
  for (const [name, load, pipeline] of sessions) {
    describe(name, () => {
      itKeepsPlantedSecretsOut({ session: load(), pipeline, leaked, unredactedHolds: (found) => expect(found.length).toBeGreaterThanOrEqual(12) });
    });
  }

  it("no seeded value in the requests of a sub-agent thread, exported or shared", () => {
    const taskCall = { type: "tool_use", id: "t1", name: "Task", input: { description: "Set up", prompt: "set it up", subagent_type: "general-purpose" } };
    const main = readClaude([
      user("u1", null, "delegate"),
      assistant("a1", "u1", "msg_1", [taskCall]),
      user("r1", "a1", [{ type: "tool_result", tool_use_id: "t1", content: "launched" }], { toolUseResult: { isAsync: true, status: "async_launched", agentId: "agent1", description: "Set up" } }),
      assistant("a2", "r1", "msg_2", [{ type: "text", text: "started" }]),
    ]);
    const sidechain = { isSidechain: true, agentId: "agent1" };
    const sub = readSessionText(
      toText([
        user("f1", null, "set it up", sidechain),
        assistant("f2", "f1", "msg_f1", [{ type: "tool_use", id: "b1", name: "Bash", input: { command: TRANSCRIPT } }], undefined, sidechain),
        user("f3", "f2", [{ type: "tool_result", tool_use_id: "b1", content: TRANSCRIPT }], sidechain),
        assistant("f4", "f3", "msg_f2", [{ type: "text", text: "done" }], undefined, sidechain),
      ]),
      "subagents/agent-agent1.jsonl",
    );
    const linked = linkSessions([main, sub]).session;
    const thread = threadSessionOf(linked, "agent1");
    expect(analyzeSession(thread, { profile: "pi" }).turns).toHaveLength(2);
    const plain = exportRequest(thread, { profile: "pi" }, { target: { kind: "turn", turn: 2 }, format: "json", redact: false, unmasked: [] });
    expect(leaked(plain.text).length, "the thread's request holds the secrets").toBeGreaterThanOrEqual(12);
    for (const api of API_IDS) {
      for (const format of ["json", "curl"] as const) {
        const result = exportRequest(thread, { profile: "pi", api }, { target: { kind: "turn", turn: 2 }, format, redact: true, unmasked: [] });
        expect(leaked(result.text), `${api} ${format}`).toEqual([]);
      }
    }
    const share = buildShare(linked, { profile: "pi" }, { turn: 2, tab: "request", scope: "full", redact: true, unmasked: [], pageUrlChars: 30 });
    const decoded = decodeShareLink(share.fragment!);
    expect(decoded.ok).toBe(true);
    if (decoded.ok) expect(leaked(JSON.stringify(decoded.payload))).toEqual([]);
  });
});
