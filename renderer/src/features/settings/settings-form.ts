import type { CallInput } from '../../../../shared/contract';
import { CONFIDENCE_THRESHOLD_RANGE, LEAD_RANGE, type Settings } from '../../../../shared/model';

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

/** A range of fractions as the percentages the form takes: 0.5..1 -> 50..100. */
function percentRange(range: { min: number; max: number }): { min: number; max: number } {
  return { min: range.min * 100, max: range.max * 100 };
}

export const CONFIDENCE_PERCENT = percentRange(CONFIDENCE_THRESHOLD_RANGE);
const LEAD_PERCENT = percentRange(LEAD_RANGE);

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
  if (minConfidence === null || minConfidence < CONFIDENCE_PERCENT.min || minConfidence > CONFIDENCE_PERCENT.max) {
    errors.minConfidencePercent = `A percentage from ${CONFIDENCE_PERCENT.min} to ${CONFIDENCE_PERCENT.max}`;
  }
  const minLead = number(form.minLeadPercent);
  if (minLead === null || minLead < LEAD_PERCENT.min || minLead > LEAD_PERCENT.max) errors.minLeadPercent = `A percentage from ${LEAD_PERCENT.min} to ${LEAD_PERCENT.max}`;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    patch: {
      concurrency: concurrency ?? 1,
      cacheTtlDays: ttl ?? 0,
      autoAccept: { enabled: form.autoAccept, minConfidence: (minConfidence ?? CONFIDENCE_PERCENT.max) / 100, minLead: (minLead ?? LEAD_PERCENT.min) / 100 },
    },
  };
}
