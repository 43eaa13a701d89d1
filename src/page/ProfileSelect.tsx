// Pipeline profile: which of the agent's profiles rebuilds each request. An agent with several
// (pi: pi and senpi) offers the choice; any other has exactly one, its own pipeline (shown, not
// choosable).
import type { ProfileId } from "../core/model";
import { setProfile } from "./options";
import { useAppStore } from "./store";

export function ProfileSelect() {
  const profile = useAppStore((state) => state.options.profile);
  const agent = useAppStore((state) => state.session?.agent ?? null);
  if (agent && agent.profiles.length < 2) {
    return (
      <label className="field" title={`Requests are rebuilt with ${agent.label}'s own pipeline`}>
        <span className="field-label">Profile</span>
        <select data-testid="profile-select" value={agent.id} disabled>
          <option value={agent.id}>{agent.label}</option>
        </select>
      </label>
    );
  }
  // No session yet: only the current profile, until a file says which profiles its agent has.
  const profiles = agent?.profiles ?? [{ id: profile, label: profile }];
  return (
    <label className="field" title="Pipeline profile used to rebuild each request">
      <span className="field-label">Profile</span>
      <select data-testid="profile-select" value={profile} onChange={(event) => setProfile(event.target.value as ProfileId)}>
        {profiles.map((option) => (
          <option key={option.id} value={option.id}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}
