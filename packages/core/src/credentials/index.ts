export { type Credential, createCredential, REDACTED } from './credential.js';
export type {
  CredentialAnswer,
  CredentialProvider,
  CredentialRequest,
  CredentialSubject,
} from './credential-provider.js';
export {
  type AuthorizationUrlHandler,
  type CredentialsAccess,
  credentialsAccess,
} from './credentials-access.js';
export { type StaticCredential, staticCredentials } from './static-credentials.js';
