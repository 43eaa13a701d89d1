// The scripted conversation the drift harness drives every agent through: the user's prompts, and
// for each the assistant's steps — shell commands the model asks for (the scripted provider answers
// them as tool calls in the agent's own tool vocabulary) and the closing text. The answers never
// depend on tool output, so a run is reproducible. It covers what breaks request builders: two
// languages (a reply-language switch), a single and two parallel tool calls, a failing tool, a file
// written, a manual compaction where the agent has one, and an automatic one provoked by the usage
// the provider reports (see each agent's driver).

/** One response of the model: shell commands to run (in parallel when several), or the turn's closing text. */
type ScriptedStep = { kind: "shell"; commands: string[] } | { kind: "text"; text: string };

export interface ScriptedTurn {
  /** A short name, used in the harness's report. */
  name: string;
  prompt: string;
  steps: ScriptedStep[];
}

export const SCRIPTED_TURNS: ScriptedTurn[] = [
  {
    name: "ko-readme",
    prompt: "이 디렉터리의 파일을 확인하고 README를 요약해줘",
    steps: [
      { kind: "shell", commands: ["ls -la"] },
      { kind: "shell", commands: ["cat README.md"] },
      { kind: "text", text: "Lighthouse Notes는 작은 Node.js 메모 앱입니다. 메모를 JSON 파일에 저장하고 명령줄에서 추가, 검색, 삭제할 수 있습니다." },
    ],
  },
  {
    name: "ko-english-please",
    prompt: "앞으로 답변은 영어로 해줘",
    steps: [{ kind: "text", text: "Understood: I will answer in English from now on." }],
  },
  {
    name: "architecture",
    prompt: "Show me the architecture document and explain the main components.",
    steps: [
      { kind: "shell", commands: ["cat docs/architecture.md"] },
      { kind: "text", text: "The app has three parts: a command-line entry point (src/index.js), a store module that reads and writes notes.json (src/store.js), and the documentation." },
    ],
  },
  {
    name: "wordcount-changelog",
    prompt: "Count the words in every Markdown file and show me the changelog.",
    steps: [
      { kind: "shell", commands: ["wc -w *.md docs/*.md", "cat CHANGELOG.md"] },
      { kind: "text", text: "The Markdown files hold a few hundred words together; the changelog lists three releases, the last one adding search." },
    ],
  },
  {
    name: "failing-tool",
    prompt: "Print docs/roadmap.md if there is one.",
    steps: [
      { kind: "shell", commands: ["cat docs/roadmap.md"] },
      { kind: "text", text: "There is no docs/roadmap.md in this project; the changelog is the closest thing to a plan." },
    ],
  },
  {
    name: "write-summary",
    prompt: "Write a file SUMMARY.md with a three-line summary of the project.",
    steps: [
      { kind: "shell", commands: ["printf '%s\\n' 'Lighthouse Notes: a small note-taking CLI.' 'Notes live in notes.json via src/store.js.' 'Commands: add, list, search, remove.' > SUMMARY.md"] },
      { kind: "text", text: "I wrote SUMMARY.md with three lines: what the app is, where notes are stored, and its commands." },
    ],
  },
  {
    name: "files-so-far",
    prompt: "What files have we looked at so far in this session?",
    steps: [{ kind: "text", text: "We looked at README.md, docs/architecture.md, CHANGELOG.md and the Markdown word counts, tried docs/roadmap.md, and wrote SUMMARY.md." }],
  },
  {
    name: "ko-structure",
    prompt: "마지막으로 프로젝트 구조를 한 문단으로 정리해줘",
    steps: [{ kind: "text", text: "The project is a Node.js CLI: src/index.js parses commands, src/store.js keeps notes in notes.json, and docs/ explains the design." }],
  },
  {
    name: "improvement-idea",
    prompt: "Thanks! Give me one improvement idea for the store module.",
    steps: [{ kind: "text", text: "Write notes.json atomically (to a temporary file, then rename) so a crash never leaves half a file." }],
  },
];

/** What a summariser, title or other request without the conversation's tools is answered with. */
export const SUMMARY_TEXT =
  "Summary of the conversation so far: the user asked about the Lighthouse Notes project (a Node.js note-taking CLI). " +
  "We read README.md, docs/architecture.md and CHANGELOG.md, counted Markdown words, found no docs/roadmap.md, and wrote SUMMARY.md. " +
  "The user asked for answers in English.";
