// Webhooks per community and by id, kept until a change notification (or the ttl) drops them.
import type { DispatchWebhook, WebhookReader } from './webhookReader.ts';

interface Entry<T> {
  value: Promise<T>;
  at: number;
}

export class WebhookCache {
  private readonly communities = new Map<string, Entry<DispatchWebhook[]>>();
  private readonly byIds = new Map<string, Entry<DispatchWebhook | undefined>>();

  constructor(
    private readonly reader: WebhookReader,
    private readonly ttlMs: number,
  ) {}

  private cached<T>(map: Map<string, Entry<T>>, key: string, load: () => Promise<T>): Promise<T> {
    const hit = map.get(key);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.value;
    const value = load();
    map.set(key, { value, at: Date.now() });
    value.catch(() => map.delete(key));
    return value;
  }

  ofCommunity(tenantId: string, communityId: string): Promise<DispatchWebhook[]> {
    return this.cached(this.communities, `${tenantId}/${communityId}`, () =>
      this.reader.ofCommunity(tenantId, communityId),
    );
  }

  byId(id: string): Promise<DispatchWebhook | undefined> {
    return this.cached(this.byIds, id, () => this.reader.byId(id));
  }

  /** A webhook changed: forget it and its community's list. */
  invalidate(change: { id: string; communityId: string }): void {
    this.byIds.delete(change.id);
    for (const key of this.communities.keys())
      if (key.endsWith(`/${change.communityId}`)) this.communities.delete(key);
  }

  /** Notifications may have been missed (the listening connection dropped). */
  clear(): void {
    this.communities.clear();
    this.byIds.clear();
  }
}
