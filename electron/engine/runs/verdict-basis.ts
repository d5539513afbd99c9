import { createHash } from 'node:crypto';
import type { AutoAcceptRule, Mapping } from '../../../shared/model';
import { appVersion } from '../app-version';
import { CONFIDENCE_MODEL } from '../matching';
import type { LearnedState } from '../matching/learned-model';

/**
 * What a row's verdict is worked out by besides the row's cells and its answer (row-verdict.ts rowVerdict): the app
 * that worked it out, the confidence model whole (every weight, and its version, which assess-row.ts's logic bumps),
 * the sheet's columns, the rule for accepting alone and what the project learned from its decisions, if anything. As
 * a number (48 bits of a SHA-256), stored with every verdict the model works out (row_status.verdict_basis), so a
 * verdict is copied only where working it out again would give the same (copied-verdicts.ts). A newer app, a changed
 * weight, another mapping or rule, something learned: another basis.
 */
export function verdictBasis(mapping: Mapping, rule: AutoAcceptRule, learned: LearnedState | null = null): number {
  const text = canonicalJson(learned ? { app: appVersion(), model: CONFIDENCE_MODEL, mapping, rule, learned } : { app: appVersion(), model: CONFIDENCE_MODEL, mapping, rule });
  return createHash('sha256').update(text).digest().readUIntBE(0, 6);
}

/** JSON with every object's keys in order: two mappings that say the same are the same text, whatever order they were built in. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}
