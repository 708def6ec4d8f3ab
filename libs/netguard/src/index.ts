// Public surface of libs/netguard: refusing outgoing calls to loopback, private, link-local and
// metadata addresses (SSRF), checked on the resolved address at connect time.
export { SsrfGuard, BlockedTarget, BLOCKED_TARGET_CODE, parseAllowList } from './ssrfGuard.ts';
