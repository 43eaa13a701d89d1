// Conversation tab: the selected turn's request as a conversation to read — the user's words, the
// assistant's replies, its thinking and tool calls, and the tool results — in the order sent.
// Tool calls, tool results and thinking are folded (a click opens them); messages a pipeline step
// inserted or rewrote are marked, with the step and why on hover. Session text is rendered as
// text, never as HTML. The list is virtualized: only the messages on screen are in the page.
import { plural, provenanceWords } from "../../ui/words";
import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useEffect, useRef } from "react";
import { useAppStore } from "../../page/store";
import type { ConversationBlock, ConversationMessage } from "./protocol";
import { formatInt } from "../../ui/format";
import "../../styles/views.css";

const ROLE_NAMES: Record<ConversationMessage["role"], string> = { user: "User", assistant: "Assistant", toolResult: "Tool result" };

/** What a block weighs in the toolbar's counts. */
const isToolCall = (block: ConversationBlock) => block.kind === "tool-call";

/** One line of a folded block's summary: the start of its text, on one line. */
function firstLine(text: string, limit = 140): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > limit ? `${line.slice(0, limit - 1)}…` : line;
}

function CutNote({ cut }: { cut: number }) {
  if (cut === 0) return null;
  return <div className="conversation-cut">… {formatInt(cut)} more characters (the Request tab shows the whole text)</div>;
}

function Fold({ kind, className, summary, text, cut, testId }: { kind: string; className: string; summary: string; text: string; cut: number; testId: string }) {
  return (
    <details className={`conversation-fold ${className}`} data-testid={testId}>
      <summary>
        <span className="conversation-fold-kind">{kind}</span> {summary}
      </summary>
      <pre className="conversation-code">{text}</pre>
      <CutNote cut={cut} />
    </details>
  );
}

function Block({ block }: { block: ConversationBlock }) {
  switch (block.kind) {
    case "text":
      return (
        <>
          <pre className="conversation-text">{block.text}</pre>
          <CutNote cut={block.cut} />
        </>
      );
    case "image":
      return <div className="muted">[image, {block.mimeType}]</div>;
    case "thinking":
      return (
        <Fold
          kind={block.redacted ? "Thinking (redacted by the provider)" : "Thinking"}
          className="thinking"
          summary={firstLine(block.text) || "(no readable text: the file holds it encrypted or not at all)"}
          text={block.text}
          cut={block.cut}
          testId="conversation-thinking"
        />
      );
    case "tool-result":
      return (
        <Fold
          kind={`${block.isError ? "Failed: " : ""}Output of ${block.name ?? "a tool"}`}
          className={`tool-result${block.isError ? " error" : ""}`}
          summary={firstLine(block.text) || "(empty)"}
          text={block.text}
          cut={block.cut}
          testId="conversation-tool-result"
        />
      );
    case "tool-call":
      return <Fold kind={`Tool call ${block.name}`} className="tool-call" summary={firstLine(block.arguments)} text={block.arguments} cut={block.cut} testId="conversation-tool-call" />;
  }
}

/** A tool result is one fold; its text blocks are joined. */
function ToolResult({ message }: { message: ConversationMessage }) {
  const text = message.blocks.map((block) => (block.kind === "text" ? block.text : block.kind === "image" ? `[image, ${block.mimeType}]` : "")).join("\n");
  const cut = message.blocks.reduce((sum, block) => sum + ("cut" in block ? block.cut : 0), 0);
  const tool = message.tool;
  return (
    <Fold
      kind={`${tool?.isError ? "Failed: " : ""}Output of ${tool?.name || "a tool"}`}
      className={`tool-result${tool?.isError ? " error" : ""}`}
      summary={firstLine(text) || "(empty)"}
      text={text}
      cut={cut}
      testId="conversation-tool-result"
    />
  );
}

const MessageItem = memo(function MessageItem({ message }: { message: ConversationMessage }) {
  const marked = message.origin === "pipeline" ? " synthesized" : message.origin === "note" ? " note" : "";
  return (
    <div className={`conversation-message${marked}`} data-testid="conversation-message" data-role={message.role} data-origin={message.origin} data-rule={message.rule}>
      <div className="conversation-head">
        <span className={`conversation-role role-${message.role}`}>{ROLE_NAMES[message.role]}</span>
        <span className="muted">#{message.index}</span>
        {message.origin !== "session" && (
          <span
            className={`badge ${message.origin === "note" ? "badge-note" : "conversation-inserted"}`}
            data-testid="conversation-inserted"
            title={[message.explanation, message.rule].filter(Boolean).join("\n") || undefined}
          >
            {message.origin === "note" ? "note inserted by the pipeline" : `inserted by the pipeline: ${provenanceWords(message.rule)}`}
          </span>
        )}
        {message.model && <span className="muted">{message.model}</span>}
        {message.stopReason && message.stopReason !== "stop" && message.stopReason !== "toolUse" && <span className="muted">ended: {message.stopReason}</span>}
        {message.tool && <span className="muted" title={`Result of tool call ${message.tool.callId}`}>{message.tool.callId}</span>}
      </div>
      {message.role === "toolResult" ? <ToolResult message={message} /> : message.blocks.map((block, index) => <Block key={index} block={block} />)}
      {message.errorMessage && <div className="error-text">{message.errorMessage}</div>}
    </div>
  );
});

export function ConversationView() {
  const conversation = useAppStore((state) => state.conversation);
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const messages = conversation.result?.messages ?? [];
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 72,
    overscan: 6,
  });
  // Another turn starts at its first message.
  const shownTurn = conversation.result?.turn ?? null;
  useEffect(() => {
    if (shownTurn !== null) virtualizer.scrollToOffset(0);
  }, [shownTurn, virtualizer]);
  if (conversation.status === "error") return <div className="center-message error-text">Could not show turn {conversation.turn}: {conversation.error}</div>;
  if (!conversation.result) return <div className="center-message muted">{conversation.status === "loading" ? `Reading turn ${conversation.turn}…` : "Select a turn."}</div>;
  const inserted = messages.filter((message) => message.origin !== "session").length;
  const toolCalls = messages.reduce((sum, message) => sum + message.blocks.filter(isToolCall).length, 0);
  return (
    <div className="conversation-view" data-testid="conversation-view">
      <div className="view-toolbar">
        <span className="strong">Turn {conversation.result.turn}</span>
        <span className="muted" title="The system prompt and the tool definitions are not messages: the Request tab shows them (or that the file does not hold them)">
          {plural(messages.length, "message")} sent · {plural(toolCalls, "tool call")} · {formatInt(inserted)} inserted by the pipeline
        </span>
      </div>
      <div className="conversation-scroll" ref={scrollRef} data-testid="conversation-scroll">
        <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {virtualizer.getVirtualItems().map((item) => {
            const message = messages[item.index];
            if (!message) return null;
            return (
              <div key={item.key} data-index={item.index} ref={virtualizer.measureElement} style={{ position: "absolute", top: 0, left: 0, right: 0, transform: `translateY(${item.start}px)` }}>
                <MessageItem message={message} />
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
