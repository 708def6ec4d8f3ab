// The default fair share of one gateway's run slots (per community, per tenant): the counting is
// @idv/platform's KeyedShare.

/** RUNS_PER_COMMUNITY or RUNS_PER_TENANT, 0 meaning a quarter of the gateway's slots (at least one). */
export function perCommunityShare(slots: number, configured: number): number {
  return configured > 0 ? configured : Math.max(1, Math.floor(slots / 4));
}
