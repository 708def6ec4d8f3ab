// Public surface of libs/auth: credential headers and declared access rules.
export {
  checkCredentials,
  openCredentials,
  type Credentials,
  type CredentialCheckDeps,
} from './credentials.ts';
export { encryptedAnswer, type EncryptedAnswerBody } from './encryptedAnswer.ts';
export { openEncryptedBody, openEncryptedData } from './encryptedBody.ts';
export { ACCEPTED_UNTIL_HEADER, CURRENT_KEY_HEADER } from './previousKey.ts';
export {
  createImageBudget,
  createRateLimiter,
  overBudget,
  rateLimitFields,
  rateSubjectsOf,
  RefusalHold,
  type ImageBudget,
  type ImageBudgetRefusal,
  type RateLimiter,
} from './rateLimit.ts';
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
export {
  bearerOf,
  createOperatorTokens,
  enforceOperator,
  OPERATOR_ROLES,
  operatorCovers,
  operatorOf,
  operatorOrCredentials,
  requireOperator,
  StepUpRequired,
  type Operator,
  type OperatorRole,
  type OperatorRule,
  type OperatorTokens,
} from './operatorToken.ts';
