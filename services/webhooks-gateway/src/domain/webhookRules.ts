// Rules of a webhook beyond its schema: known event names and the api members each authType needs.
import { isEventName, type ValidationIssue, type WebhookApi } from '@idv/contracts';

const NEEDS: Record<WebhookApi['authType'], string[]> = {
  none: [],
  basic: ['username', 'password'],
  bearer: ['token'],
  api_key: ['keyName', 'keyValue'],
  oauth2: ['oauth2'],
};

export function apiIssues(api: WebhookApi, prefix = '/api'): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (api.authType === 'oauth2') {
    if (!api.oAuthGrantType)
      issues.push({ path: `${prefix}/oAuthGrantType`, message: 'is required for oauth2' });
    if (!api.oAuthTokenUrl)
      issues.push({ path: `${prefix}/oAuthTokenUrl`, message: 'is required for oauth2' });
  }
  const credential = (api.credential ?? {}) as Record<string, unknown>;
  for (const member of NEEDS[api.authType]) {
    if (credential[member] === undefined)
      issues.push({
        path: `${prefix}/credential/${member}`,
        message: `is required for authType ${api.authType}`,
      });
  }
  return issues;
}

export function eventNameIssues(eventNames: readonly string[]): ValidationIssue[] {
  return eventNames.flatMap((name, i) =>
    isEventName(name) ? [] : [{ path: `/eventNames/${i}`, message: `unknown event ${name}` }],
  );
}
