import type { CredentialKind } from '../../../../shared/model';

export function kindLabel(kind: CredentialKind): string {
  switch (kind) {
    case 'service_account':
      return 'Service account';
    case 'password':
      return 'Username and password';
    case 'api_key':
      return 'API key';
  }
}

/** The login's name for this kind of credential, or null when the kind has none (an API key). */
export function loginLabel(kind: CredentialKind): string | null {
  switch (kind) {
    case 'service_account':
      return 'Client id';
    case 'password':
      return 'Username';
    case 'api_key':
      return null;
  }
}

export function secretLabel(kind: CredentialKind): string {
  switch (kind) {
    case 'service_account':
      return 'Client secret';
    case 'password':
      return 'Password';
    case 'api_key':
      return 'API key';
  }
}
