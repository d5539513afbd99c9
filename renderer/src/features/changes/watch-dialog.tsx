import { useId, useState } from 'react';
import type { ContractError, WatchSummary } from '../../../../shared/contract';
import { api } from '../../api';
import { activeProfile, useAppData } from '../../app-data';
import { askToNotify } from '../../shell/use-work-title';
import { Button } from '../../ui/button';
import { toContractError } from '../../ui/contract-error';
import { ErrorBanner } from '../../ui/error-banner';
import { formatCount } from '../../ui/format';
import { Modal } from '../../ui/modal';
import { scheduleWords, shortDay, WEEKDAYS } from './watch-text';

interface WatchDialogProps {
  projectId: number;
  projectName: string;
  watch: WatchSummary | null;
  onClose: () => void;
  /** The watch as saved, or null once cleared. */
  onChanged: (watch: WatchSummary | null) => void;
}

type Mode = 'days' | 'weekly';

/** Watch this project: a refresh every N days or weekly on a day, at most so many people (credits) a refresh; or stop. */
export function WatchDialog({ projectId, projectName, watch, onClose, onChanged }: WatchDialogProps) {
  const data = useAppData();
  const [mode, setMode] = useState<Mode>(watch?.weekday !== null && watch?.weekday !== undefined ? 'weekly' : 'days');
  const [days, setDays] = useState(String(watch?.everyDays ?? 30));
  const [weekday, setWeekday] = useState(watch?.weekday ?? 1);
  const [ceiling, setCeiling] = useState(watch?.creditCeiling === null || watch === null ? '' : String(watch.creditCeiling));
  const [busy, setBusy] = useState<'save' | 'clear' | null>(null);
  const [error, setError] = useState<ContractError | null>(null);
  const ids = { days: useId(), weekday: useId(), ceiling: useId(), ceilingHelp: useId() };

  const everyDays = Number(days);
  const daysProblem = mode === 'days' && !(Number.isInteger(everyDays) && everyDays >= 1 && everyDays <= 366) ? 'A whole number of days from 1 to 366.' : null;
  const ceilingNumber = ceiling.trim() === '' ? null : Number(ceiling);
  const ceilingProblem = ceilingNumber !== null && !(Number.isInteger(ceilingNumber) && ceilingNumber >= 0) ? 'A whole number of credits, or empty for no ceiling.' : null;
  const profileName = watch ? (data.profiles?.find((p) => p.id === watch.profileId)?.name ?? watch.profileId) : activeProfile(data)?.name;

  const save = async () => {
    if (daysProblem || ceilingProblem) return;
    setBusy('save');
    setError(null);
    // A watch is asked for to be told: a browser asks once whether the app may notify.
    askToNotify();
    try {
      const saved = await api.callOrThrow('watch.set', {
        projectId,
        ...(mode === 'days' ? { everyDays } : { weekday }),
        creditCeiling: ceilingNumber,
        ...(watch ? { profileId: watch.profileId } : {}),
      });
      onChanged(saved);
    } catch (thrown) {
      setError(toContractError(thrown));
    } finally {
      setBusy(null);
    }
  };

  const clear = async () => {
    setBusy('clear');
    setError(null);
    try {
      await api.callOrThrow('watch.clear', { projectId });
      onChanged(null);
    } catch (thrown) {
      setError(toContractError(thrown));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Modal
      title={watch ? `Watching ${projectName}` : `Watch ${projectName}`}
      onClose={onClose}
      className="watch-dialog"
      footer={
        <>
          {watch && (
            <Button variant="danger" busy={busy === 'clear'} disabled={busy !== null} onClick={clear} data-testid="watch-clear">
              Stop watching
            </Button>
          )}
          <span className="modal__footer-spacer" />
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" busy={busy === 'save'} disabled={busy !== null || daysProblem !== null || ceilingProblem !== null} onClick={save} data-testid="watch-save">
            {watch ? 'Save' : 'Watch'}
          </Button>
        </>
      }
    >
      <p className="muted">
        Matchdesk asks the service again for the matched rows' people on a schedule, while the app runs or from the system's scheduler, and lists who moved or
        left on the Changes screen.
      </p>
      {watch && (
        <p data-testid="watch-now">
          Now: {scheduleWords(watch).toLowerCase()}, next {watch.due ? 'due now' : shortDay(watch.nextRefreshAt)}
          {watch.creditCeiling !== null ? `, at most ${formatCount(watch.creditCeiling)} credits a refresh` : ''}.
        </p>
      )}
      <fieldset>
        <legend>Refresh</legend>
        <div className="radio">
          <input type="radio" name="watch-mode" id={`${ids.days}-mode`} checked={mode === 'days'} onChange={() => setMode('days')} />
          <label htmlFor={`${ids.days}-mode`}>Every</label>
          <input
            id={ids.days}
            className="watch-dialog__days"
            type="number"
            min={1}
            max={366}
            value={days}
            disabled={mode !== 'days'}
            aria-label="Days between refreshes"
            aria-invalid={daysProblem !== null || undefined}
            onChange={(event) => setDays(event.target.value)}
            data-testid="watch-days"
          />
          <span aria-hidden="true">days</span>
        </div>
        <div className="radio">
          <input type="radio" name="watch-mode" id={`${ids.weekday}-mode`} checked={mode === 'weekly'} onChange={() => setMode('weekly')} data-testid="watch-weekly" />
          <label htmlFor={`${ids.weekday}-mode`}>Weekly on</label>
          <select id={ids.weekday} value={weekday} disabled={mode !== 'weekly'} aria-label="Day of the week" onChange={(event) => setWeekday(Number(event.target.value))} data-testid="watch-weekday">
            {WEEKDAYS.map((name, index) => (
              <option key={name} value={index}>
                {name}
              </option>
            ))}
          </select>
        </div>
        {daysProblem && <p className="field__error">{daysProblem}</p>}
      </fieldset>
      <div className="field">
        <label htmlFor={ids.ceiling}>Credit ceiling a refresh</label>
        <input
          id={ids.ceiling}
          type="number"
          min={0}
          inputMode="numeric"
          placeholder="No ceiling"
          value={ceiling}
          aria-describedby={ids.ceilingHelp}
          aria-invalid={ceilingProblem !== null || undefined}
          onChange={(event) => setCeiling(event.target.value)}
          data-testid="watch-ceiling"
        />
        <p className="field__help" id={ids.ceilingHelp}>
          A refresh that would ask more people than this (each up to a credit) is not run: the project shows it blocked, with the reason.
        </p>
        {ceilingProblem && <p className="field__error">{ceilingProblem}</p>}
      </div>
      {profileName && <p className="muted">Refreshes with the connection profile {profileName}.</p>}
      {watch?.blocked && (
        <p className="text-danger" data-testid="watch-blocked">
          Blocked: {watch.blocked}
        </p>
      )}
      <ErrorBanner error={error} title="The watch was not changed" onDismiss={() => setError(null)} />
    </Modal>
  );
}
