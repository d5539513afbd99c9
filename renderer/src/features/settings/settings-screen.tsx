import { useId, useState, type FormEvent } from 'react';
import type { ContractError } from '../../../../shared/contract';
import { DEFAULT_SETTINGS, type Settings } from '../../../../shared/model';
import { api } from '../../api';
import { useAppData } from '../../app-data';
import { Button } from '../../ui/button';
import { toContractError } from '../../ui/contract-error';
import { ErrorBanner } from '../../ui/error-banner';
import { useToast } from '../../ui/toasts';
import { CachePanel } from './cache-panel';
import { CONFIDENCE_PERCENT, settingsFromForm, settingsToForm, type SettingsField, type SettingsForm } from './settings-form';
import { BreakableText } from '../../ui/breakable-text';

export function SettingsScreen() {
  const data = useAppData();
  return (
    <div className="screen settings-screen">
      <header className="screen__header">
        <h1 tabIndex={-1}>Settings</h1>
      </header>
      <ErrorBanner error={data.error} onRetry={data.refresh} />
      {data.settings ? <SettingsEditor key={JSON.stringify(data.settings)} settings={data.settings} onSaved={data.setSettings} /> : !data.error && <p className="muted">Loading…</p>}
      <CachePanel />
      <section className="card" aria-labelledby="data-heading">
        <h2 id="data-heading">Where your data lives</h2>
        <p>
          Projects, decisions and the cache of fetched answers are kept in one file in this folder.{' '}
          {data.info?.secrets === 'session' ? 'Secrets are not written anywhere: they stay in memory until Matchdesk closes.' : 'Secrets are not: they live in the system keychain.'}
        </p>
        <p className="mono selectable" data-testid="data-dir">
          {data.info ? <BreakableText text={data.info.dataDir} /> : '…'}
        </p>
        {data.info && (
          <p className="muted">
            Matchdesk {data.info.version} · {data.info.host === 'web' ? 'in the browser' : data.info.host === 'electron' ? 'desktop app' : 'command line'}
          </p>
        )}
      </section>
    </div>
  );
}

function SettingsEditor({ settings, onSaved }: { settings: Settings; onSaved: (settings: Settings) => void }) {
  const [form, setForm] = useState<SettingsForm>(() => settingsToForm(settings));
  const [errors, setErrors] = useState<Partial<Record<SettingsField, string>>>({});
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<ContractError | null>(null);
  const toast = useToast();
  const id = useId();
  const set = <K extends keyof SettingsForm>(name: K, value: SettingsForm[K]) => setForm((current) => ({ ...current, [name]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = settingsFromForm(form);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    setSaving(true);
    setSaveError(null);
    try {
      onSaved(await api.callOrThrow('settings.update', result.patch));
      toast('Settings saved.', 'success');
    } catch (thrown) {
      setSaveError(toContractError(thrown));
    } finally {
      setSaving(false);
    }
  };

  const numberField = (name: SettingsField, label: string, help: string, props: React.InputHTMLAttributes<HTMLInputElement>) => (
    <div className={`field ${errors[name] ? 'field--invalid' : ''}`}>
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <input
        id={`${id}-${name}`}
        inputMode="decimal"
        value={form[name]}
        onChange={(event) => set(name, event.target.value)}
        aria-invalid={Boolean(errors[name])}
        aria-describedby={`${id}-${name}-note`}
        {...props}
      />
      <p className={errors[name] ? 'field__error' : 'field__help'} id={`${id}-${name}-note`}>
        {errors[name] ?? help}
      </p>
    </div>
  );

  return (
    <form className="card settings-form" onSubmit={submit} aria-labelledby={`${id}-heading`} noValidate>
      <h2 id={`${id}-heading`}>Runs</h2>
      <div className="form-grid">
        {numberField('concurrency', 'Requests at the same time', '1 to 16. Fewer is gentler on the service and on rate limits.', { type: 'number', min: 1, max: 16, step: 1 })}
        {numberField('cacheTtlDays', 'Keep fetched answers for (days)', 'Answers younger than this are reused without a call. 0 always fetches again.', {
          type: 'number',
          min: 0,
          max: 3650,
        })}
      </div>
      <h2>Accept automatically</h2>
      <p className="field__help">
        Matchdesk weighs the evidence of each candidate (name, company now and before, e-mail, profile link, e-mail domain, location) into a confidence: the chance that it is the row's person. A row is accepted
        without review when its best candidate is at least this confident. Namesakes at one company, a name without a company, a nickname or typo, and an e-mail
        whose owner has another name are always left for you. The review screen shows how many rows each threshold would accept before you apply one.
      </p>
      <div className="field field--check">
        <label>
          <input type="checkbox" checked={form.autoAccept} onChange={(event) => set('autoAccept', event.target.checked)} data-testid="settings-auto-accept" /> Accept
          confident matches while a run goes
        </label>
      </div>
      <div className="form-grid">
        {numberField(
          'minConfidencePercent',
          'When the best candidate is at least (% confident)',
          `${CONFIDENCE_PERCENT.min} to ${CONFIDENCE_PERCENT.max}. ${Math.round(DEFAULT_SETTINGS.autoAccept.minConfidence * 100)} keeps wrong matches rare; lower accepts more.`,
          {
            type: 'number',
            min: CONFIDENCE_PERCENT.min,
            max: CONFIDENCE_PERCENT.max,
            step: 1,
          },
        )}
        {numberField('minLeadPercent', '… and ahead of the runner-up by at least (%)', 'How clearly the best candidate must beat the next one.', {})}
      </div>
      <ErrorBanner error={saveError} title="Could not save the settings" onDismiss={() => setSaveError(null)} />
      <div className="form-actions">
        <Button type="submit" variant="primary" busy={saving} data-testid="settings-save">
          Save settings
        </Button>
      </div>
    </form>
  );
}
