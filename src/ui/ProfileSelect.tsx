// Pipeline profile: which agent's conversion steps rebuild each request. pi files choose between
// pi and senpi; every other format has exactly one profile, its agent's own (shown, not choosable).
import type { ProfileId } from "../core/model";
import { setProfile } from "../state/actions";
import { useAppStore } from "../state/store";

/** The profile of each non-pi format, by reader format id. */
const AGENT_PROFILES: Record<string, string> = {
  "claude-code": "Claude Code",
  codex: "Codex CLI",
  opencode: "opencode",
};

export function ProfileSelect() {
  const profile = useAppStore((state) => state.options.profile);
  const formatId = useAppStore((state) => state.session?.formatId ?? "pi");
  const agent = AGENT_PROFILES[formatId];
  if (agent) {
    return (
      <label className="field" title={`Requests are rebuilt with ${agent}'s own pipeline`}>
        <span className="field-label">Profile</span>
        <select data-testid="profile-select" value={formatId} disabled>
          <option value={formatId}>{agent}</option>
        </select>
      </label>
    );
  }
  return (
    <label className="field" title="Pipeline profile used to rebuild each request">
      <span className="field-label">Profile</span>
      <select data-testid="profile-select" value={profile} onChange={(event) => setProfile(event.target.value as ProfileId)}>
        <option value="pi">pi</option>
        <option value="senpi">senpi</option>
      </select>
    </label>
  );
}
