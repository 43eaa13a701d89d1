// The sessions library: every session found in the opened folder as a row of a sortable,
// filterable table (agent, project, started, last active, turns, compactions, the cache breaks the
// provider reported, sub-agent threads, tokens, cost, size). Rows appear as soon as the folder is walked; the facts fill in as the workers read each
// session. A click opens the session (followed as it grows). Virtualised: a folder can hold
// thousands of sessions.
import { useMemo, useRef, useState } from "react";
import {
  createColumnHelper,
  flexRender,
  getCoreRowModel,
  getFilteredRowModel,
  getSortedRowModel,
  useReactTable,
  type SortingState,
} from "@tanstack/react-table";
import { useVirtualizer } from "@tanstack/react-virtual";
import { formatDollars } from "../../core/pricing/index";
import { openLibraryRow, pickLibraryFolder, showLibrary, useLibraryStore, type LibraryRow } from "./libraryState";
import { formatBytes, formatCompact, formatDateTime, formatInt } from "../../ui/format";
import { plural } from "../../core/util/plural";
import "./library.css";

const column = createColumnHelper<LibraryRow>();
const ROW_HEIGHT = 24;

function pendingText(row: LibraryRow): string {
  return row.status === "failed" ? "could not be read" : row.status === "reading" ? "reading…" : "waiting";
}

/** A number cell of a row whose facts may not be read yet. */
function factCell(row: LibraryRow, value: number | undefined): string {
  return row.facts && value !== undefined ? formatInt(value) : "";
}

/** Date and time to the minute: the seconds would not fit a narrow window's column. */
function toMinute(iso: string): string {
  return formatDateTime(iso).slice(0, 16);
}

/** What the breaks column counts (its header's tooltip; docs/live.md says the same). */
const REPORTED_BREAKS =
  "Cache breaks the provider reported: main-thread calls whose recorded cache verdict names a change, or whose recorded usage writes most of the previous prompt to the cache again instead of reading it. Read from the file alone; open a session for the breaks its rebuilt requests show";

/**
 * The provider's reported breaks, the same kind on every row. A row read in full (its agent has
 * no quick summary) knows the rebuilt requests' breaks too: its tooltip gives them, so the two
 * kinds are never shown as one.
 */
function breaksCell(row: LibraryRow) {
  const facts = row.facts;
  if (!facts) return "";
  if (facts.reportedBreaks === null) {
    const rebuilt = facts.rebuiltBreaks === null ? "" : ` The rebuilt requests break the prefix ${plural(facts.rebuiltBreaks, "time")}.`;
    return (
      <span className="muted" data-testid="library-breaks" title={`The file records no usage, so no break the provider reported is known.${rebuilt}`}>
        —
      </span>
    );
  }
  const title =
    facts.pass === "full" && facts.rebuiltBreaks !== null
      ? `${plural(facts.reportedBreaks, "break")} the provider reported. Read in full (this agent has no quick summary): the rebuilt requests break the prefix ${plural(facts.rebuiltBreaks, "time")}.`
      : `${plural(facts.reportedBreaks, "break")} the provider reported (read from the file in one pass; open the session for the rebuilt requests' breaks).`;
  return (
    <span data-testid="library-breaks" title={title}>
      {formatInt(facts.reportedBreaks)}
    </span>
  );
}

function costText(row: LibraryRow): string {
  const cost = row.facts?.cost;
  if (!cost) return "";
  if (cost.dollars === null) return "not priced";
  return `${formatDollars(cost.dollars)}${cost.status === "priced" ? "" : "+"}${cost.source === "predicted" ? " (predicted)" : ""}`;
}

const columns = [
  column.accessor((row) => row.facts?.agent ?? "", {
    id: "agent",
    header: "Agent",
    cell: (info) => info.getValue() || <span className={info.row.original.status === "failed" ? "failed-text" : "muted"}>{pendingText(info.row.original)}</span>,
  }),
  column.accessor((row) => row.facts?.project ?? "", { id: "project", header: "Project" }),
  column.accessor("path", { header: "File" }),
  column.accessor((row) => row.facts?.started ?? "", { id: "started", header: "Started", cell: (info) => (info.getValue() ? toMinute(info.getValue()) : "") }),
  column.accessor((row) => row.facts?.lastActive ?? new Date(row.modified).toISOString(), {
    id: "lastActive",
    header: "Last active",
    // The session's own last entry time; the file's date (a copy's, often) only where the file
    // records no time or is not read yet, and then said so.
    cell: (info) =>
      info.row.original.facts?.lastActive ? (
        toMinute(info.getValue())
      ) : (
        <span className="muted" data-testid="library-file-date" title="The file's modification date: the session records no time of its own (or is not read yet). A copied file's date is the copy's.">
          {toMinute(info.getValue())} (file date)
        </span>
      ),
  }),
  column.accessor((row) => row.facts?.turns ?? -1, { id: "turns", header: "Turns", cell: (info) => factCell(info.row.original, info.row.original.facts?.turns) }),
  column.accessor((row) => row.facts?.compactions ?? -1, {
    id: "compactions",
    header: "Compactions",
    cell: (info) => factCell(info.row.original, info.row.original.facts?.compactions),
  }),
  column.accessor((row) => row.facts?.reportedBreaks ?? -1, {
    id: "breaks",
    header: "Reported breaks",
    cell: (info) => breaksCell(info.row.original),
  }),
  column.accessor((row) => row.facts?.threads ?? -1, {
    id: "threads",
    header: "Sub-agents",
    cell: (info) => factCell(info.row.original, info.row.original.facts?.threads),
  }),
  column.accessor((row) => row.facts?.tokens ?? -1, {
    id: "tokens",
    header: "Tokens",
    cell: (info) => {
      const tokens = info.row.original.facts?.tokens;
      return tokens === undefined ? "" : tokens === null ? <span className="muted" title="No provider call of this session records its usage">—</span> : <span title={`${formatInt(tokens)} tokens`}>{formatCompact(tokens)}</span>;
    },
  }),
  column.accessor((row) => row.facts?.cost.dollars ?? -1, { id: "cost", header: "Cost", cell: (info) => costText(info.row.original) }),
  column.accessor("size", { header: "Size", cell: (info) => formatBytes(info.getValue()) }),
];

const NUMERIC = new Set(["turns", "compactions", "breaks", "threads", "tokens", "cost", "size"]);
/** Shares of the table's width: the table fits the window from 1024 px up, long paths end in "…". */
const WIDTHS: Record<string, string> = {
  agent: "8.5%",
  project: "11%",
  path: "11.5%",
  started: "10.5%",
  lastActive: "11%",
  turns: "5%",
  compactions: "9%",
  breaks: "7.5%",
  threads: "6.5%",
  tokens: "6%",
  cost: "7%",
  size: "6.5%",
};
/** What a header means, where its name alone does not say. */
const HEADER_TITLES: Record<string, string> = {
  breaks: REPORTED_BREAKS,
  threads: "Sub-agent threads of the session: those its own file holds and those in its subagents/ folder, read with it",
  tokens: "Tokens every provider call of the session recorded, sub-agents included: input, cache reads, cache writes and output",
  cost: "Every provider call of the session priced with the built-in price table, sub-agents included; \"(predicted)\": the cache simulation's figure where the file records no usage; \"+\": only partly priced",
};
const NO_ROWS: LibraryRow[] = [];

export function LibraryView() {
  const { open, folderName, rows, read, toRead, skipped, companions, error } = useLibraryStore();
  const [sorting, setSorting] = useState<SortingState>([{ id: "lastActive", desc: true }]);
  const [filter, setFilter] = useState("");
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const data = useMemo(() => (rows.length > 0 ? rows : NO_ROWS), [rows]);
  const table = useReactTable({
    data,
    columns,
    state: { sorting, globalFilter: filter },
    onSortingChange: setSorting,
    onGlobalFilterChange: setFilter,
    globalFilterFn: "includesString",
    getRowId: (row) => String(row.id),
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
  });
  const shown = table.getRowModel().rows;
  const virtualizer = useVirtualizer({ count: shown.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 20 });
  if (!open || folderName === null) return null;
  const items = virtualizer.getVirtualItems();
  const paddingTop = items[0]?.start ?? 0;
  const paddingBottom = virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0);
  const progress = toRead === 0 ? "looking for sessions…" : read < toRead ? `reading ${formatInt(read)} of ${formatInt(toRead)} files…` : "all read; watching the folder for new and growing sessions";
  return (
    <section className="library" aria-label="Sessions library" data-testid="library">
      <div className="library-head">
        <span className="library-title">{`Sessions in ${folderName}`}</span>
        <span className="library-status" data-testid="library-status">
          {`${formatInt(rows.length)} session${rows.length === 1 ? "" : "s"} · ${progress}${companions > 0 ? ` · ${formatInt(companions)} side file${companions === 1 ? "" : "s"} read with ${companions === 1 ? "its" : "their"} sessions` : ""}${skipped > 0 ? ` · ${formatInt(skipped)} other file${skipped === 1 ? "" : "s"} left out` : ""}`}
        </span>
        <input
          className="library-filter"
          type="search"
          placeholder="Filter (agent, project, file…)"
          aria-label="Filter sessions"
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
        />
        <button type="button" className="btn small" onClick={() => void pickLibraryFolder()}>
          Other folder…
        </button>
        <button type="button" className="btn small" onClick={() => showLibrary(false)} title="Back to the open session (the library stays a click away)">
          Close
        </button>
      </div>
      {error && <div className="library-empty failed-text">{error}</div>}
      <div className="library-scroll" ref={scrollRef}>
        <table className="library-table" data-testid="library-table">
          <colgroup>
            {table.getVisibleLeafColumns().map((col) => (
              <col key={col.id} style={{ width: WIDTHS[col.id] }} />
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
                      className={NUMERIC.has(header.id) ? "num" : undefined}
                      title={`${HEADER_TITLES[header.id] ?? String(header.column.columnDef.header)}: click to sort`}
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
              <tr style={{ height: paddingTop }}>
                <td colSpan={columns.length} />
              </tr>
            )}
            {items.map((item) => {
              const row = shown[item.index]!;
              return (
                <tr key={row.id} data-testid="library-row" data-status={row.original.status} data-pass={row.original.facts?.pass} onClick={() => void openLibraryRow(row.original.id)} title={row.original.error ?? `Open ${row.original.path}${row.original.subAgentFiles > 0 ? ` with its ${row.original.subAgentFiles} sub-agent file${row.original.subAgentFiles === 1 ? "" : "s"}` : ""}`}>
                  {row.getVisibleCells().map((cell) => (
                    <td key={cell.id} className={NUMERIC.has(cell.column.id) ? "num" : undefined} title={cell.column.id === "project" || cell.column.id === "path" ? String(cell.getValue()) : undefined}>
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </td>
                  ))}
                </tr>
              );
            })}
            {paddingBottom > 0 && (
              <tr style={{ height: paddingBottom }}>
                <td colSpan={columns.length} />
              </tr>
            )}
          </tbody>
        </table>
        {rows.length === 0 && toRead > 0 && read === toRead && <div className="library-empty">No session files of a supported agent in this folder.</div>}
      </div>
    </section>
  );
}
