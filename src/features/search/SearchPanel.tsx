// The session search (`/`): a query box over every turn's messages (text, tool names and
// arguments, file paths). The worker searches each distinct message once and hands hits out slice
// by slice, so the first ones show while the rest of a long session is still being searched.
// ↑/↓ pick a hit, Enter (or a click) jumps to its turn and the Request view highlights the match.
import { memo, useEffect, useRef } from "react";
import type { SearchHit } from "../../core/search/index";
import { closeSearch, jumpToHit, moveActiveHit, setSearchQuery, useSearchStore, type SearchState } from "./searchState";
import { useAppStore } from "../../page/store";

const HitRow = memo(function HitRow({ hit, active }: { hit: SearchHit; active: boolean }) {
  const ref = useRef<HTMLLIElement | null>(null);
  useEffect(() => {
    if (active) ref.current?.scrollIntoView({ block: "nearest" });
  }, [active]);
  const before = hit.snippet.slice(0, hit.snippetOffset);
  const match = hit.snippet.slice(hit.snippetOffset, hit.snippetOffset + hit.match.length);
  const after = hit.snippet.slice(hit.snippetOffset + hit.match.length);
  return (
    <li
      ref={ref}
      className={`search-hit${active ? " active" : ""}`}
      data-testid="search-hit"
      data-turn={hit.turn}
      data-index={hit.index}
      onMouseDown={(event) => {
        event.preventDefault();
        jumpToHit(hit);
      }}
    >
      <span className="turn-number">#{hit.turn}</span> <span className="chip">{hit.kind}</span>{" "}
      <span className="muted">
        msg {hit.index}
        {hit.toolName ? ` · ${hit.toolName}` : ""}
        {hit.count > 1 ? ` · ${hit.count}×` : ""}
      </span>{" "}
      <span className="search-snippet">
        {before}
        <mark>{match}</mark>
        {after}
      </span>
    </li>
  );
});

/** The background index's state, in words (its build time is read by the benchmark). */
function indexStatus(index: SearchState["index"]): string {
  if (!index) return "index: not built yet";
  const size = `${index.messages.toLocaleString("en-US")} distinct messages of ${index.turns.toLocaleString("en-US")} turns`;
  return index.complete ? `index: ${size}, built in ${index.buildMs} ms` : `indexing… ${size} so far`;
}

export function SearchPanel() {
  const search = useSearchStore();
  const turns = useAppStore((state) => state.analysis?.turns.length ?? 0);
  if (!search.open) return null;
  const status = search.error
    ? `search failed: ${search.error}`
    : search.query.length === 0
      ? "type to search every turn's messages"
      : `${search.hits.length}${search.truncated ? "+" : ""} ${search.hits.length === 1 ? "message" : "messages"}${search.running ? ` · searching… turn ${search.turn} of ${turns}` : " · done"}${search.firstHitMs !== null ? ` · first result in ${search.firstHitMs} ms` : ""}`;
  return (
    <div className="overlay-backdrop" onMouseDown={(event) => event.target === event.currentTarget && closeSearch()}>
      <div className="overlay-box search-panel" role="dialog" aria-label="Search the session" data-testid="search-panel">
        <input
          autoFocus
          className="search-input"
          data-testid="search-input"
          placeholder="Search messages, tool calls, file paths…"
          value={search.query}
          onChange={(event) => setSearchQuery(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === "ArrowDown" || event.key === "ArrowUp") {
              event.preventDefault();
              moveActiveHit(event.key === "ArrowDown" ? 1 : -1);
            } else if (event.key === "Enter") {
              event.preventDefault();
              const hit = search.hits[search.active];
              if (hit) jumpToHit(hit);
            }
          }}
        />
        <div className="muted search-status" data-testid="search-status" data-done={search.done}>
          {status}
        </div>
        <div className="muted search-index" data-testid="search-index" data-complete={search.index?.complete ?? false}>
          {indexStatus(search.index)}
        </div>
        <ol className="search-hits">
          {search.hits.map((hit, i) => (
            <HitRow key={`${hit.turn}-${hit.index}`} hit={hit} active={i === search.active} />
          ))}
        </ol>
      </div>
    </div>
  );
}
