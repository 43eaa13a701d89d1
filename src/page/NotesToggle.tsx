// senpi reply-language notes on/off (reply-language.md). Shown only with a profile that takes them
// (senpi): the pi profile never adds notes. Off by default because a session file does not say whether the senpi
// that wrote it had the change (NOTES_DEFAULT).
import { setNotes } from "./options";
import { useAppStore } from "./store";

export function NotesToggle() {
  const profile = useAppStore((state) => state.options.profile);
  const notes = useAppStore((state) => state.options.notes);
  const takesNotes = useAppStore((state) => state.session?.agent?.profiles.some((p) => p.id === profile && p.replyLanguageNotes) ?? false);
  if (!takesNotes) return null;
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
