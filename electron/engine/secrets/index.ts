export { KEYCHAIN_SERVICE, type SecretStore } from './secret-store';
export { KeychainUnavailable, type KeychainOperation } from './errors';
export { KeychainSecretStore } from './keychain-secret-store';
export { SessionSecretStore } from './session-secret-store';
export { probeKeychain, type KeychainProbe } from './probe-keychain';
export { openSecretStore } from './open-secret-store';
