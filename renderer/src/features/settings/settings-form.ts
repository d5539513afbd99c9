import type { CallInput } from '../../../../shared/contract';
import type { Settings } from '../../../../shared/model';

/** The settings as the form shows them: numbers as typed, confidences as percentages people read more easily. */
export interface SettingsForm {
  concurrency: string;
  cacheTtlDays: string;
  autoAccept: boolean;
  minConfidencePercent: string;
  minLeadPercent: string;
}

export type SettingsField = 'concurrency' | 'cacheTtlDays' | 'minConfidencePercent' | 'minLeadPercent';

export type SettingsFormResult = { ok: true; patch: CallInput<'settings.update'> } | { ok: false; errors: Partial<Record<SettingsField, string>> };

function percentText(fraction: number): string {
  return String(Math.round(fraction * 1000) / 10);
}

export function settingsToForm(settings: Settings): SettingsForm {
  return {
    concurrency: String(settings.concurrency),
    cacheTtlDays: String(settings.cacheTtlDays),
    autoAccept: settings.autoAccept.enabled,
    minConfidencePercent: percentText(settings.autoAccept.minConfidence),
    minLeadPercent: percentText(settings.autoAccept.minLead),
  };
}

function number(text: string): number | null {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : null;
}

export function settingsFromForm(form: SettingsForm): SettingsFormResult {
  const errors: Partial<Record<SettingsField, string>> = {};
  const concurrency = number(form.concurrency);
  if (concurrency === null || !Number.isInteger(concurrency) || concurrency < 1 || concurrency > 16) errors.concurrency = 'A whole number from 1 to 16';
  const ttl = number(form.cacheTtlDays);
  if (ttl === null || ttl < 0 || ttl > 3650) errors.cacheTtlDays = 'From 0 (always fetch again) to 3650 days';
  const minConfidence = number(form.minConfidencePercent);
  if (minConfidence === null || minConfidence < 50 || minConfidence > 100) errors.minConfidencePercent = 'A percentage from 50 to 100';
  const minLead = number(form.minLeadPercent);
  if (minLead === null || minLead < 0 || minLead > 100) errors.minLeadPercent = 'A percentage from 0 to 100';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    patch: {
      concurrency: concurrency ?? 1,
      cacheTtlDays: ttl ?? 0,
      autoAccept: { enabled: form.autoAccept, minConfidence: (minConfidence ?? 100) / 100, minLead: (minLead ?? 0) / 100 },
    },
  };
}
