// E_OAUTH_LOGIN_FAILED for attempts refused before any check (a wait or a lock still running):
// at most a few per community and reason each minute, so a flood of refused requests, which
// costs the attacker nothing, does not become a flood of events for the tenant's webhooks.
import type { Community } from '@idv/platform';
import type { OauthEvents } from '../events.ts';

const PER_MINUTE = 10;
const MAX_KEYS = 10_000;

export type RefusalEvents = (
  community: Community,
  clientId: string,
  reason: string,
  sub?: string,
) => void;

export function refusalEvents(events: OauthEvents, now = Date.now): RefusalEvents {
  const windows = new Map<string, { start: number; count: number }>();
  return (community, clientId, reason, sub) => {
    const key = `${community.id}|${reason}`;
    const at = now();
    let window = windows.get(key);
    if (!window || at - window.start >= 60_000) {
      if (!window && windows.size >= MAX_KEYS) windows.clear();
      window = { start: at, count: 0 };
      windows.set(key, window);
    }
    if (++window.count > PER_MINUTE) return;
    events(community, 'E_OAUTH_LOGIN_FAILED', { clientId, reason, ...(sub ? { sub } : {}) });
  };
}
