// Public surface of libs/auth: credential headers and declared access rules.
export { checkCredentials, type Credentials, type CredentialCheckDeps } from './credentials.ts';
export { CredentialRefused, AccessRefused, type RefusalReason } from './refusal.ts';
export {
  createCredentialAuth,
  credentialsOf,
  licenceOf,
  fromParam,
  type AccessRule,
  type CommunityRef,
  type CredentialAuth,
} from './rules.ts';
