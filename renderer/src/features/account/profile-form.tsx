import { useId, useState, type FormEvent } from 'react';
import type { ContractError } from '../../../../shared/contract';
import { CREDENTIAL_KINDS, type CredentialKind, type Profile } from '../../../../shared/model';
import { api } from '../../api';
import { Button } from '../../ui/button';
import { toContractError } from '../../ui/contract-error';
import { ErrorBanner } from '../../ui/error-banner';
import { TechnicalDetails } from '../../ui/technical-details';
import { kindLabel, loginLabel, secretLabel } from './credential-labels';
import { profileFormToInput, type ProfileFormField, type ProfileFormValues } from './profile-form-values';

const FIELD_ORDER: ProfileFormField[] = ['name', 'kind', 'baseUrl', 'orgId', 'login', 'secret'];

interface ProfileFormProps {
  initial: ProfileFormValues;
  /** The keychain is unusable: offer to keep the secret in memory for this session only. */
  sessionOnlyOffered: boolean;
  keychainProblem: string | null;
  onSaved: (profile: Profile) => void;
  onCancel: () => void;
}

export function ProfileForm({ initial, sessionOnlyOffered, keychainProblem, onSaved, onCancel }: ProfileFormProps) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<ProfileFormField, string>>>({});
  const [saveError, setSaveError] = useState<ContractError | null>(null);
  const [saving, setSaving] = useState(false);
  const idPrefix = useId();
  const editing = Boolean(values.id);
  const login = loginLabel(values.kind);

  const set = <K extends keyof ProfileFormValues>(name: K, value: ProfileFormValues[K]) => setValues((current) => ({ ...current, [name]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = profileFormToInput(values);
    if (!result.ok) {
      setErrors(result.errors);
      const first = FIELD_ORDER.find((name) => result.errors[name]);
      if (first) document.getElementById(`${idPrefix}-${first}`)?.focus();
      return;
    }
    setErrors({});
    setSaving(true);
    setSaveError(null);
    try {
      onSaved(await api.callOrThrow('profiles.save', result.input));
    } catch (thrown) {
      setSaveError(toContractError(thrown));
    } finally {
      setSaving(false);
    }
  };

  const field = (name: ProfileFormField, label: string, input: React.ReactNode, help?: string) => (
    <div className={`field ${errors[name] ? 'field--invalid' : ''}`}>
      <label htmlFor={`${idPrefix}-${name}`}>{label}</label>
      {input}
      {help && !errors[name] && <p className="field__help" id={`${idPrefix}-${name}-help`}>{help}</p>}
      {errors[name] && (
        <p className="field__error" id={`${idPrefix}-${name}-error`}>
          {errors[name]}
        </p>
      )}
    </div>
  );
  const describedBy = (name: ProfileFormField, hasHelp = false) =>
    errors[name] ? `${idPrefix}-${name}-error` : hasHelp ? `${idPrefix}-${name}-help` : undefined;

  return (
    <form className="card profile-form" onSubmit={submit} aria-label={editing ? `Edit profile ${initial.name}` : 'New profile'} noValidate>
      <h2>{editing ? `Edit ${initial.name}` : 'Add a profile'}</h2>
      <div className="form-grid">
        {field(
          'name',
          'Profile name',
          <input id={`${idPrefix}-name`} value={values.name} onChange={(e) => set('name', e.target.value)} aria-invalid={Boolean(errors.name)} aria-describedby={describedBy('name')} autoFocus />,
        )}
        {field(
          'kind',
          'Sign in with',
          <select id={`${idPrefix}-kind`} value={values.kind} onChange={(e) => set('kind', e.target.value as CredentialKind)}>
            {CREDENTIAL_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {kindLabel(kind)}
              </option>
            ))}
          </select>,
        )}
        {field(
          'baseUrl',
          'Service address (base URL)',
          <input id={`${idPrefix}-baseUrl`} type="url" value={values.baseUrl} onChange={(e) => set('baseUrl', e.target.value)} aria-invalid={Boolean(errors.baseUrl)} aria-describedby={describedBy('baseUrl', true)} spellCheck={false} />,
          'For example https://gotlivedata.io',
        )}
        {field(
          'orgId',
          'Organization id',
          <input id={`${idPrefix}-orgId`} value={values.orgId} onChange={(e) => set('orgId', e.target.value)} aria-invalid={Boolean(errors.orgId)} aria-describedby={describedBy('orgId', true)} spellCheck={false} />,
          'Starts with o_',
        )}
        {login &&
          field(
            'login',
            login,
            <input id={`${idPrefix}-login`} value={values.login} onChange={(e) => set('login', e.target.value)} aria-invalid={Boolean(errors.login)} aria-describedby={describedBy('login')} autoComplete="username" spellCheck={false} />,
          )}
        {field(
          'secret',
          secretLabel(values.kind),
          <input
            id={`${idPrefix}-secret`}
            type="password"
            value={values.secret}
            onChange={(e) => set('secret', e.target.value)}
            aria-invalid={Boolean(errors.secret)}
            aria-describedby={describedBy('secret', editing)}
            autoComplete={values.kind === 'password' ? 'current-password' : 'off'}
          />,
          editing ? 'Leave empty to keep the saved one.' : undefined,
        )}
      </div>
      {sessionOnlyOffered && (
        <div className="field field--check">
          <label>
            <input type="checkbox" checked={values.sessionOnly} onChange={(e) => set('sessionOnly', e.target.checked)} /> Keep for this session only
          </label>
          <p className="field__help">
            This computer's password store cannot be reached, so the secret is kept in memory until Matchdesk closes, never written to disk.
          </p>
          {keychainProblem && <TechnicalDetails text={keychainProblem} />}
        </div>
      )}
      <ErrorBanner error={saveError} title="Could not save the profile" onDismiss={() => setSaveError(null)} />
      <div className="form-actions">
        <Button type="submit" variant="primary" busy={saving}>
          {editing ? 'Save changes' : 'Save and test'}
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </form>
  );
}
