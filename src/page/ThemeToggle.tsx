// Top-bar theme switch: system (follows the OS setting) → light → dark, kept in localStorage.
import { cycleTheme, useSettingsStore } from "./settings";

const LABELS = { system: "system", light: "light", dark: "dark" } as const;

export function ThemeToggle() {
  const theme = useSettingsStore((state) => state.theme);
  const resolved = useSettingsStore((state) => state.resolved);
  return (
    <button
      type="button"
      className="btn small"
      data-testid="theme-toggle"
      data-theme-choice={theme}
      data-theme={resolved}
      title="Switch the colour theme: system (follows your OS), light, dark"
      onClick={cycleTheme}
    >
      <span aria-hidden="true">◐ </span>
      <span className="theme-word">Theme: </span>
      {LABELS[theme]}
    </button>
  );
}
