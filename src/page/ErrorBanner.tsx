// Banner for inputs that could not be read; the previous session (if any) stays usable below.
import { dismissError } from "../features/open/openSession";
import { useAppStore } from "./store";

export function ErrorBanner() {
  const error = useAppStore((state) => state.error);
  const hasSession = useAppStore((state) => state.session !== null);
  if (!error) return null;
  return (
    <div className="error-banner" role="alert" data-testid="error-banner">
      <span className="error-icon">✕</span>
      <span className="error-text">
        {error}
        {hasSession ? " — the previous session is still shown." : ""}
      </span>
      <button type="button" className="btn small" onClick={dismissError} aria-label="Dismiss error">
        Dismiss
      </button>
    </div>
  );
}
