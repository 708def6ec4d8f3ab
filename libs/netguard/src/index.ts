// Public surface of libs/netguard: refusing outgoing calls to loopback, private, link-local and
// metadata addresses (SSRF), checked on the resolved address at connect time, and the one guarded
// HTTP client over it (timeouts, a cap on the answer, pooled keep-alive sockets).
export { SsrfGuard, BlockedTarget, BLOCKED_TARGET_CODE, parseAllowList } from './ssrfGuard.ts';
export {
  ANSWER_TOO_LARGE,
  GuardedHttp,
  MAX_ANSWER_BYTES,
  OutboundHttpError,
  type GuardedRequest,
  type GuardedResponse,
} from './guardedHttp.ts';
