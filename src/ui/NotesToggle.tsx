// senpi reply-language notes on/off (reply-language.md). Shown only with the senpi profile: the pi
// profile never adds notes. Off by default because a session file does not say whether the senpi
// that wrote it had the change (NOTES_DEFAULT).
import { setNotes } from "../state/actions";
import { useAppStore } from "../state/store";

export function NotesToggle() {
  const profile = useAppStore((state) => state.options.profile);
  const notes = useAppStore((state) => state.options.notes);
  if (profile !== "senpi") return null;
  return (
    <label
      className="field"
      title="Insert senpi's reply-language notes (and the compaction summary's carrier) into the rebuilt requests"
    >
      <input type="checkbox" data-testid="notes-toggle" checked={notes} onChange={(event) => setNotes(event.target.checked)} />
      <span className="field-label">Reply-language notes</span>
    </label>
  );
}
