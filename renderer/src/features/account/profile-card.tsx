import { useState } from 'react';
import type { ContractError, ProfileTestResult } from '../../../../shared/contract';
import type { Profile } from '../../../../shared/model';
import { api } from '../../api';
import { Button } from '../../ui/button';
import { toContractError } from '../../ui/contract-error';
import { ErrorBanner } from '../../ui/error-banner';
import { kindLabel, loginLabel } from './credential-labels';

interface ProfileCardProps {
  profile: Profile;
  active: boolean;
  /** Set when the card was just saved: test it straight away. */
  testResult?: ProfileTestResult | null;
  onSelect: () => Promise<void>;
  onEdit: () => void;
  onRemove: () => Promise<void>;
}

export function ProfileCard({ profile, active, testResult = null, onSelect, onEdit, onRemove }: ProfileCardProps) {
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<ProfileTestResult | null>(testResult);
  const [error, setError] = useState<ContractError | null>(null);
  const [busy, setBusy] = useState<'select' | 'remove' | null>(null);
  const login = loginLabel(profile.kind);

  const test = async () => {
    setTesting(true);
    setError(null);
    setResult(null);
    try {
      setResult(await api.callOrThrow('profiles.test', { id: profile.id }));
    } catch (thrown) {
      setError(toContractError(thrown));
    } finally {
      setTesting(false);
    }
  };

  const run = async (which: 'select' | 'remove', action: () => Promise<void>) => {
    setBusy(which);
    setError(null);
    try {
      await action();
    } catch (thrown) {
      setError(toContractError(thrown));
    } finally {
      setBusy(null);
    }
  };

  return (
    <li className={`card profile-card ${active ? 'profile-card--active' : ''}`} aria-label={`Profile ${profile.name}${active ? ', in use' : ''}`} data-testid="profile-card">
      <div className="profile-card__head">
        <h3>{profile.name}</h3>
        {active && <span className="badge badge--accent">In use</span>}
      </div>
      <dl className="facts">
        <dt>Sign in with</dt>
        <dd>{kindLabel(profile.kind)}</dd>
        <dt>Service</dt>
        <dd className="mono">{profile.baseUrl}</dd>
        <dt>Organization</dt>
        <dd className="mono">{profile.orgId}</dd>
        {login && (
          <>
            <dt>{login}</dt>
            <dd className="mono">{profile.login}</dd>
          </>
        )}
      </dl>
      <div role="status" className="profile-card__test">
        {testing && 'Testing the connection…'}
        {result?.ok && <span className="text-success">✓ The connection works.</span>}
        {result && !result.ok && <span className="text-danger">✗ {result.reason ?? 'The connection failed.'}</span>}
      </div>
      <ErrorBanner error={error} onDismiss={() => setError(null)} />
      <div className="form-actions">
        {!active && (
          <Button variant="primary" small busy={busy === 'select'} onClick={() => run('select', onSelect)}>
            Use this profile
          </Button>
        )}
        <Button small busy={testing} onClick={test} aria-label={`Test profile ${profile.name}`}>
          Test
        </Button>
        <Button small onClick={onEdit} aria-label={`Edit profile ${profile.name}`}>
          Edit
        </Button>
        <Button small variant="danger" busy={busy === 'remove'} onClick={() => run('remove', onRemove)} aria-label={`Remove profile ${profile.name}`}>
          Remove
        </Button>
      </div>
    </li>
  );
}
