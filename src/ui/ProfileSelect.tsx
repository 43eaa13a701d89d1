// Pipeline profile: which agent's conversion steps rebuild the requests (pi or senpi).
import type { ProfileId } from "../core/model";
import { setProfile } from "../state/actions";
import { useAppStore } from "../state/store";

export function ProfileSelect() {
  const profile = useAppStore((state) => state.options.profile);
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
