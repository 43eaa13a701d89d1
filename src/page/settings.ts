// Page settings kept in localStorage (not in the URL): the colour theme. "system" follows the
// operating system's light/dark setting (prefers-color-scheme) and changes with it; the resolved
// theme is written to <html data-theme>, which the CSS and the Monaco editor follow.
import { create } from "zustand";

type ThemeChoice = "system" | "light" | "dark";
export type Theme = "light" | "dark";

const SETTINGS_KEY = "contextscope.settings";

interface Settings {
  theme: ThemeChoice;
}

function loadSettings(): Settings {
  try {
    const text = typeof localStorage === "undefined" ? null : localStorage.getItem(SETTINGS_KEY);
    const parsed = text ? (JSON.parse(text) as { theme?: unknown }) : null;
    const theme = parsed?.theme;
    return { theme: theme === "light" || theme === "dark" || theme === "system" ? theme : "system" };
  } catch {
    return { theme: "system" };
  }
}

function saveSettings(settings: Settings): void {
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
  } catch {
    // Storage unavailable: the choice lasts for this page only.
  }
}

function systemTheme(): Theme {
  return typeof matchMedia === "function" && matchMedia("(prefers-color-scheme: light)").matches ? "light" : "dark";
}

export const useSettingsStore = create<Settings & { resolved: Theme }>()(() => {
  const settings = loadSettings();
  return { ...settings, resolved: settings.theme === "system" ? systemTheme() : settings.theme };
});

function apply(): void {
  const { theme } = useSettingsStore.getState();
  const resolved = theme === "system" ? systemTheme() : theme;
  useSettingsStore.setState({ resolved });
  document.documentElement.dataset.theme = resolved;
}

function setTheme(theme: ThemeChoice): void {
  useSettingsStore.setState({ theme });
  saveSettings({ ...loadSettings(), theme });
  apply();
}

/** Light → dark → system → light …: the top bar's button. */
export function cycleTheme(): void {
  const order: ThemeChoice[] = ["system", "light", "dark"];
  const current = useSettingsStore.getState().theme;
  setTheme(order[(order.indexOf(current) + 1) % order.length]!);
}

/** Applies the saved theme and follows the system setting while the choice is "system". */
export function installTheme(): void {
  apply();
  if (typeof matchMedia === "function") matchMedia("(prefers-color-scheme: light)").addEventListener("change", apply);
}
