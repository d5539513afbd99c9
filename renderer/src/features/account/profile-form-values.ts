import { profileInput, type ProfileInput } from '../../../../shared/contract';
import type { CredentialKind, Profile } from '../../../../shared/model';
import { loginLabel, secretLabel } from './credential-labels';

export interface ProfileFormValues {
  id?: string;
  name: string;
  kind: CredentialKind;
  baseUrl: string;
  orgId: string;
  login: string;
  secret: string;
  sessionOnly: boolean;
}

export type ProfileFormField = 'name' | 'kind' | 'baseUrl' | 'orgId' | 'login' | 'secret';

export type ProfileFormResult = { ok: true; input: ProfileInput } | { ok: false; errors: Partial<Record<ProfileFormField, string>> };

export function emptyProfileForm(sessionOnly: boolean): ProfileFormValues {
  return { name: '', kind: 'service_account', baseUrl: 'https://', orgId: 'o_', login: '', secret: '', sessionOnly };
}

export function profileFormFrom(profile: Profile, sessionOnly: boolean): ProfileFormValues {
  return { id: profile.id, name: profile.name, kind: profile.kind, baseUrl: profile.baseUrl, orgId: profile.orgId, login: profile.login ?? '', secret: '', sessionOnly };
}

/**
 * Checks the form with the contract's own schema, so the messages are the ones the engine would give.
 * A blank secret while editing keeps the stored one; a new profile needs one.
 */
export function profileFormToInput(values: ProfileFormValues): ProfileFormResult {
  const errors: Partial<Record<ProfileFormField, string>> = {};
  const login = loginLabel(values.kind);
  if (login && values.login.trim() === '') errors.login = `Enter the ${lowerFirst(login)}`;
  if (!values.id && values.secret === '') errors.secret = `Enter the ${lowerFirst(secretLabel(values.kind))}`;

  const candidate = {
    ...(values.id ? { id: values.id } : {}),
    name: values.name,
    baseUrl: values.baseUrl.trim(),
    orgId: values.orgId,
    kind: values.kind,
    login: login ? values.login.trim() : null,
    ...(values.secret !== '' ? { secret: values.secret } : {}),
    ...(values.sessionOnly ? { sessionOnly: true } : {}),
  };
  const parsed = profileInput.safeParse(candidate);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (typeof field === 'string' && isFormField(field) && !errors[field]) errors[field] = issue.message;
    }
  }
  if (Object.keys(errors).length > 0 || !parsed.success) return { ok: false, errors };
  return { ok: true, input: parsed.data };
}

function isFormField(name: string): name is ProfileFormField {
  return ['name', 'kind', 'baseUrl', 'orgId', 'login', 'secret'].includes(name);
}

/** "Client secret" -> "client secret", but "API key" stays. */
function lowerFirst(label: string): string {
  return /^[A-Z][A-Z]/.test(label) ? label : label.charAt(0).toLowerCase() + label.slice(1);
}
