// Public surface of libs/auth: credential headers and declared access rules.
export { checkCredentials, type Credentials, type CredentialCheckDeps } from './credentials.ts';
export {
  createCredentialAuth,
  credentialsOf,
  licenceOf,
  fromParam,
  type AccessRule,
  type CredentialAuth,
} from './rules.ts';
