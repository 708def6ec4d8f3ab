// Public surface of libs/crypto: the ECDSA/AES scheme of DESIGN 2.1, at-rest sealing, signatures.
export {
  CURVE,
  InvalidKeyError,
  generateKeyPair,
  publicKeyFromPrivate,
  privateKeyBytes,
  publicKeyPoint,
  type KeyPair,
} from './keys.ts';
export { deriveSharedKey, KeyAgreement } from './sharedKey.ts';
export { encrypt, decrypt, DecryptError } from './cipher.ts';
export { ECDSA_SIGNERS, signMessage, toLowS, verifyMessage, type Signer } from './ecdsa.ts';
export { createSecretBox, hashLicenceKey, randomToken, type SecretBox } from './secretBox.ts';
export { DataKey, DATA_KEY_BYTES, dataKeyIdOf, unwrapDataKey, wrapDataKey } from './envelope.ts';
export {
  LocalKeyProvider,
  localKeyId,
  UnknownKeyError,
  WithLocalKeys,
  type KeyProvider,
} from './keyProvider.ts';
export { Pkcs11KeyProvider, type Pkcs11Options } from './pkcs11Provider.ts';
export {
  signCallback,
  verifyCallback,
  generateWebhookSecret,
  type CallbackToSign,
  type CallbackToVerify,
  type CallbackVerdict,
} from './callbackSignature.ts';
export {
  connectorCallbackSignature,
  CONNECTOR_CALLBACK_WINDOW_S,
  type SignedConnectorCallback,
} from './connectorCallback.ts';
