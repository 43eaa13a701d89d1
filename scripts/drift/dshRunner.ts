// How the drift harness drives deepseek-harness (dsh) one prompt at a time. Its shipped headless
// runner (`dsh --profile headless "<task>"`) answers one task in a fresh session and cannot
// continue one, so the driver swaps that runner for this small plugin by a home-level patch layer
// (`$DSH_HOME/cordis.patch.yml`): the same shipped task parser (`headless-startup`) hands it the
// prompt; it creates the session on the first invocation and resumes it through the agent
// registry on every later one (the session id is kept in a file under $DSH_HOME), sends the prompt
// as an ordinary user message — or, for a line starting with "/", runs it as a command the way the
// web and ACP composers do (`/compact`) — waits until the agent is idle, flushes the session and
// exits. It does what the headless runner does, with the harness's own calls only; it is written
// into the profile's node_modules, where the launcher's module fallback lets it import the
// installed harness packages.

/** The plugin's package folder under `$DSH_HOME/profiles/headless/node_modules/`. */
export const DSH_RUNNER_PACKAGE = "dsh-drift-runner";

/** package.json of the plugin. */
export const DSH_RUNNER_MANIFEST = { name: DSH_RUNNER_PACKAGE, version: "0.0.0", private: true, type: "module", main: "index.js" };

/** The plugin (an ES module, run by the harness's Node). */
export const DSH_RUNNER_SOURCE = `// Written by Contextscope's drift harness (scripts/drift/dshRunner.ts); see there.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { installModelSelection } from '@deepseek-ai/dsh-agent'
import { createUserMessage } from '@deepseek-ai/dsh-llm'

export const name = '${DSH_RUNNER_PACKAGE}'
export const inject = ['agentDefaultModel', 'agents', 'sessions', 'commands']

async function run(ctx, task, exit) {
  await ctx.get('loader')?.await()
  const agents = ctx.get('agents')
  const sessions = ctx.get('sessions')
  const commands = ctx.get('commands')
  const selection = ctx.get('agentDefaultModel').currentSelection()
  const stateFile = join(process.env.DSH_HOME, 'drift-session-id')
  const setup = (agentCtx) => { installModelSelection(agentCtx, { current: selection, assembled: undefined }) }
  const agentOptions = { provider: selection.provider, model: selection.model }
  let handle
  if (existsSync(stateFile)) {
    handle = await agents.resume({ resumeSessionId: readFileSync(stateFile, 'utf8').trim(), agentOptions, setup })
  } else {
    const sessionId = 'session-' + randomUUID()
    handle = await agents.create({ sessionId, meta: { cwd: process.cwd() }, agentOptions, setup })
    writeFileSync(stateFile, sessionId + '\\n')
  }
  const agent = handle.agent
  await agent.whenIdle()
  if (task.startsWith('/')) {
    const result = await commands.execute(agent, task, [], new AbortController().signal)
    process.stdout.write((result?.result?.text ?? 'unknown command') + '\\n')
  } else {
    agent.followup(createUserMessage({ content: [{ type: 'text', text: task }], source: { kind: 'user' } }))
  }
  await agent.whenIdle()
  await sessions.flush(agent.session)
  exit(0)
}

export function apply(ctx, config) {
  const exit = ctx.get('appExit')
  run(ctx, config.task, exit).catch((error) => {
    process.stderr.write('drift runner: ' + (error instanceof Error ? error.stack : String(error)) + '\\n')
    exit(1)
  })
}
`;

/**
 * The home-level patch layer: the shipped headless runner off, this plugin in its place; and the
 * automatic compaction's verbatim tail cut to 500 tokens (by default 16% of the model's 1,000,000,
 * more than the whole scripted conversation), so the pressure the provider's inflated usage
 * reports finds history to summarise.
 */
export const DSH_RUNNER_PATCH = [
  "# Written by Contextscope's drift harness: the one-shot runner replaced by one that continues a session.",
  "- id: compaction-basic",
  "  config:",
  "    retainTokens: 500",
  "- id: headless-runner",
  "  disabled: true",
  "- insert:",
  "    - id: drift-runner",
  `      name: ${DSH_RUNNER_PACKAGE}`,
  "      inject: [headlessStartup]",
  "      config:",
  "        task: !!js ctx.headlessStartup.task",
  "",
].join("\n");
