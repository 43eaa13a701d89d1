// Messages tab: one row per context message of the selected request (after every pipeline step),
// sortable, virtualized. "kind" is the provenance rule: `entry` or the step that synthesised it.
// Clicking a row selects it; the Details panel then explains it (e.g. a reply-language note).
import { plural, provenanceWords } from "../../ui/words";
import {
  createColumnHelper,
  flexRender,
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
  type SortingState,
} from "@tanstack/react-table";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useRef, useState } from "react";
import { selectMessage } from "../../page/selection";
import { setThread } from "../../page/options";
import { useAppStore } from "../../page/store";
import type { MessageRow } from "../request/protocol";
import { formatInt } from "../../ui/format";
import { inferredTooltip } from "../../ui/InferredBadge";

const column = createColumnHelper<MessageRow>();
const columns = [
  column.accessor("index", { header: "#", size: 44 }),
  column.accessor("role", { header: "role", size: 84 }),
  column.accessor("rule", {
    header: "kind",
    size: 170,
    cell: (info) => {
      const row = info.row.original;
      const title = row.noteExplanation ?? [row.rule, row.ruleId, row.explanation, row.inferredRule ? inferredTooltip(row.inferredRule) : null].filter(Boolean).join("\n");
      return (
        <span className={`kind ${row.rule === "entry" ? "kind-entry" : "kind-synth"}`} title={title || undefined}>
          {provenanceWords(row.rule)}
          {row.note && row.rule !== "note:reply-language" ? " + note" : ""}
          {row.inferred ? " ⓘ" : ""}
        </span>
      );
    },
  }),
  column.accessor("entryId", { header: "source entry", size: 96, cell: (info) => info.getValue() ?? "—", sortUndefined: "last" }),
  column.accessor("chars", { header: "chars", size: 80, cell: (info) => formatInt(info.getValue()) }),
  column.accessor("tokens", { header: "~tokens", size: 72, cell: (info) => formatInt(info.getValue()) }),
  column.accessor("preview", {
    header: "preview",
    size: 600,
    enableSorting: false,
    cell: (info) => (
      <>
        {(info.row.original.threads ?? []).map((link) => (
          <button
            type="button"
            key={`${link.toolCallId}:${link.threadId}`}
            className="link-button thread-call-link"
            data-testid="message-thread-link"
            data-thread-id={link.threadId}
            title={`${link.toolCallId} started the sub-agent thread ${link.label}: show its turns and requests`}
            onClick={(event) => {
              event.stopPropagation();
              void setThread(link.threadId);
            }}
          >
            → {link.label}
          </button>
        ))}
        <span className="preview">{info.getValue()}</span>
      </>
    ),
  }),
];

const ROW_HEIGHT = 24;

/**
 * The rows while no request is shown (a thread or turn being built). One array for every render:
 * the table resets its internal state whenever `data` is a new array, and that reset renders the
 * table again, so a fresh `[]` per render would loop in microtasks and hang the page.
 */
const NO_ROWS: MessageRow[] = [];

export function MessagesTable() {
  const result = useAppStore((state) => state.request.result);
  const selectedMessage = useAppStore((state) => state.selectedMessage);
  const [sorting, setSorting] = useState<SortingState>([]);
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const table = useReactTable({
    data: result?.rows ?? NO_ROWS,
    columns,
    state: { sorting },
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
  });
  const rows = table.getRowModel().rows;
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 16,
  });

  // A row selected from elsewhere (a link back to a sub-agent's tool call) is scrolled into view.
  const selectedPosition = selectedMessage && result && selectedMessage.turn === result.turn ? rows.findIndex((row) => row.original.index === selectedMessage.index) : -1;
  useEffect(() => {
    if (selectedPosition >= 0) virtualizer.scrollToIndex(selectedPosition, { align: "auto" });
  }, [selectedPosition, virtualizer]);

  if (!result) return <div className="center-message muted">Select a turn.</div>;
  const items = virtualizer.getVirtualItems();
  const paddingTop = items[0]?.start ?? 0;
  const paddingBottom = virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0);
  const synthesized = result.rows.filter((row) => row.rule !== "entry").length;
  const totalTokens = result.rows.reduce((sum, row) => sum + row.tokens, 0);

  return (
    <div className="messages-view">
      <div className="view-toolbar">
        <span className="strong">Turn {result.turn}</span>
        <span className="muted">
          {plural(result.rows.length, "message")} · {formatInt(synthesized)} synthesised · ~{formatInt(totalTokens)} tokens · {formatInt(result.built.dropped.length)} dropped
        </span>
      </div>
      <div className="table-scroll" ref={scrollRef}>
        <table className="messages-table" data-testid="messages-table">
          <colgroup>
            {table.getVisibleLeafColumns().map((col) => (
              <col key={col.id} style={{ width: col.getSize() }} />
            ))}
          </colgroup>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const sorted = header.column.getIsSorted();
                  return (
                    <th
                      key={header.id}
                      className={header.column.getCanSort() ? "sortable" : undefined}
                      aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : "none"}
                      onClick={header.column.getToggleSortingHandler()}
                    >
                      {flexRender(header.column.columnDef.header, header.getContext())}
                      {sorted === "asc" ? " ▲" : sorted === "desc" ? " ▼" : ""}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {paddingTop > 0 && (
              <tr aria-hidden="true">
                <td colSpan={columns.length} style={{ height: paddingTop, padding: 0, border: 0 }} />
              </tr>
            )}
            {items.map((item) => {
              const row = rows[item.index];
              if (!row) return null;
              const selected = selectedMessage?.turn === result.turn && selectedMessage.index === row.original.index;
              const classes = [row.original.rule === "entry" ? "" : "synth-row", row.original.note ? "note-row" : "", selected ? "selected-row" : ""]
                .filter(Boolean)
                .join(" ");
              return (
                <tr
                  key={row.id}
                  className={classes || undefined}
                  data-role={row.original.role}
                  data-rule={row.original.rule}
                  data-testid="message-row"
                  aria-selected={selected}
                  onClick={() => selectMessage(result.turn, selected ? null : row.original.index)}
                >
                  {row.getVisibleCells().map((cell) => (
                    <td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</td>
                  ))}
                </tr>
              );
            })}
            {paddingBottom > 0 && (
              <tr aria-hidden="true">
                <td colSpan={columns.length} style={{ height: paddingBottom, padding: 0, border: 0 }} />
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}
