import { useState } from 'react';
import type { ProfileTestResult } from '../../../../shared/contract';
import type { Profile } from '../../../../shared/model';
import { api } from '../../api';
import { useAppData } from '../../app-data';
import { Button } from '../../ui/button';
import { useConfirm } from '../../ui/confirm-dialog';
import { ErrorBanner, Notice } from '../../ui/error-banner';
import { TechnicalDetails } from '../../ui/technical-details';
import { useToast } from '../../ui/toasts';
import { DemoButton } from './demo-button';
import { ProfileCard } from './profile-card';
import { ProfileForm } from './profile-form';
import { emptyProfileForm, profileFormFrom, type ProfileFormValues } from './profile-form-values';

type Editing = { form: ProfileFormValues } | null;

export function AccountScreen() {
  const data = useAppData();
  const confirm = useConfirm();
  const toast = useToast();
  const [editing, setEditing] = useState<Editing>(null);
  const [justTested, setJustTested] = useState<{ id: string; result: ProfileTestResult } | null>(null);
  const sessionOnlyOffered = data.info?.secrets === 'session';
  const profiles = data.profiles ?? [];
  const firstTime = data.profiles !== null && profiles.length === 0;

  const onSaved = async (profile: Profile, wasNew: boolean) => {
    setEditing(null);
    data.refresh();
    toast(`Saved profile ${profile.name}.`, 'success');
    if (wasNew && !data.settings?.activeProfileId) {
      const selected = await api.call('profiles.select', { id: profile.id });
      if (selected.ok) data.setSettings(selected.value);
      else toast(selected.error.message, 'error');
    }
    const result = await api.call('profiles.test', { id: profile.id });
    setJustTested({ id: profile.id, result: result.ok ? result.value : { ok: false, reason: result.error.message, error: result.error } });
  };

  const remove = async (profile: Profile) => {
    const sure = await confirm({
      title: `Remove ${profile.name}?`,
      message: 'The profile and its stored secret are deleted from this computer. Projects and cached answers stay.',
      confirmLabel: 'Remove profile',
      danger: true,
    });
    if (!sure) return;
    await api.callOrThrow('profiles.remove', { id: profile.id });
    data.refresh();
    toast(`Removed profile ${profile.name}.`);
  };

  const select = async (profile: Profile) => {
    data.setSettings(await api.callOrThrow('profiles.select', { id: profile.id }));
    toast(`Now using ${profile.name}.`, 'success');
  };

  return (
    <div className="screen account-screen">
      <header className="screen__header">
        <h1 tabIndex={-1}>Account</h1>
        <p className="screen__lead">The connections to the People Data Service that runs use.</p>
      </header>
      <ErrorBanner error={data.error} onRetry={data.refresh} />

      <section className={`card demo-card ${firstTime ? 'demo-card--first' : ''}`} aria-labelledby="demo-heading">
        <div>
          <h2 id="demo-heading">{firstTime ? 'New here? See the whole flow first' : 'Practice with demo data'}</h2>
          <p>A built-in practice service with made-up people and a sample sheet. No account needed, nothing leaves this computer.</p>
        </div>
        <DemoButton large={firstTime} />
      </section>

      {sessionOnlyOffered && (
        <Notice tone="warning">
          <strong>Matchdesk cannot reach this computer's password store.</strong> A profile's password or key can still be used, but only until
          Matchdesk closes: you will type it again after a restart.
          {data.info?.keychainProblem && <TechnicalDetails text={data.info.keychainProblem} testId="keychain-details" />}
        </Notice>
      )}

      <section aria-labelledby="profiles-heading">
        <div className="section-head">
          <h2 id="profiles-heading">Profiles</h2>
          {!editing && (
            <Button variant={firstTime ? 'secondary' : 'primary'} onClick={() => setEditing({ form: emptyProfileForm(sessionOnlyOffered) })}>
              Add a profile
            </Button>
          )}
        </div>
        {editing && (
          <ProfileForm
            key={editing.form.id ?? 'new'}
            initial={editing.form}
            sessionOnlyOffered={sessionOnlyOffered}
            keychainProblem={data.info?.keychainProblem ?? null}
            onSaved={(profile) => void onSaved(profile, !editing.form.id)}
            onCancel={() => setEditing(null)}
          />
        )}
        {data.profiles === null && !data.error && <p className="muted">Loading profiles…</p>}
        {firstTime && !editing && <p className="muted">No profiles yet. Add one with the login your organization gave you, or try the demo first.</p>}
        <ul className="profile-list">
          {profiles.map((profile) => (
            <ProfileCard
              key={`${profile.id}-${justTested?.id === profile.id ? 'tested' : ''}`}
              profile={profile}
              active={profile.id === data.settings?.activeProfileId}
              testResult={justTested?.id === profile.id ? justTested.result : null}
              onSelect={() => select(profile)}
              onEdit={() => setEditing({ form: profileFormFrom(profile, sessionOnlyOffered) })}
              onRemove={() => remove(profile)}
            />
          ))}
        </ul>
      </section>
    </div>
  );
}
