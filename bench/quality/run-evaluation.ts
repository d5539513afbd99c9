// Drives the real engine end to end on the labeled evaluation set, against the simulator on 127.0.0.1, as a
// host does: import the sheet, confirm the mapping, run with auto-accept, then read every row's decision and
// candidates through the contract (review.row). Scores the outcome against the labels, and the job change of every
// accepted row against the world's, before and (with `refresh`) after the world moves on and the project is refreshed;
// the same for every row whose top candidate is the true person, once a reviewer has accepted those left for review.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import type { CallInput, CallName, CallOutput, RowDetail } from '../../shared/contract';
import type { Mapping, Strategy } from '../../shared/model';
import { createEngine, type Engine } from '../../electron/engine/engine';
import { SessionSecretStore } from '../../electron/engine/secrets';
import { startSimulator } from '../../electron/simulator';
import { EVALUATION_CATEGORIES, buildEvaluationSet, type EvaluationCategory, type EvaluationLabel } from '../../electron/simulator/evaluation-set';
import { JobChangeTally, type JobChangeScore } from './job-change-score';
import { calibrationCheck, jobChangeCheck, qualityChecks } from './quality-targets';
import { reliability, type CandidateOutcome, type Reliability } from './reliability';
import { scoreEvaluation, type QualityScore, type RowOutcome } from './score-evaluation';
import type { TargetCheck } from '../report';
import type { Person } from '../../electron/simulator/dataset';

export interface EvaluationRunOptions {
  /** People in the simulator's dataset. */
  people: number;
  seed: number;
  rowsPerCategory: number;
  concurrency: number;
  log: (line: string) => void;
  /** Each row as the review shows it, with its label (`npm run calibrate` fits on them). */
  onRow?: (row: RowDetail, label: EvaluationLabel) => void;
  /**
   * After the run, a reviewer decides this many rows left for review (spread over the queue, each from its label), the project learns from them, and the confident rows are accepted (issue 43): scored again apart.
   */
  learn?: number;
  /**
   * Then the simulator's world moves on (this share of the current jobs end, seeded), the project is refreshed
   * (refresh.start) and the accepted rows' job changes are measured again against the moved world (issue 45).
   */
  refresh?: { share: number; seed: number };
}

/** What learning from a reviewer's decisions did, scored on the rows not decided by hand. */
export interface LearningRun {
  decided: number;
  sentences: string[];
  changes: string[];
  rowsLifted: number;
  /** Rows accepted after learning by the accept of confident rows. */
  acceptedAfter: number;
  score: QualityScore;
  checks: TargetCheck[];
  /** Every candidate listed on the rows not decided by hand, by the confidence shown after learning. */
  reliability: Reliability;
}

/** What a refresh after the world moved on found, and the job changes measured then. */
export interface RefreshRun {
  /** People the world moved and who left, as the simulator says. */
  moved: number;
  left: number;
  rowsChanged: number;
  jobChange: JobChangeScore;
  jobChangeMatched: JobChangeScore;
}

export const DEFAULT_EVALUATION: Omit<EvaluationRunOptions, 'log' | 'onRow' | 'learn' | 'refresh'> = { people: 50_000, seed: 1, rowsPerCategory: 300, concurrency: 4 };

export interface EvaluationRun {
  options: Omit<EvaluationRunOptions, 'log' | 'onRow' | 'learn' | 'refresh'>;
  rows: number;
  rowsByCategory: Record<EvaluationCategory, number>;
  score: QualityScore;
  checks: TargetCheck[];
  /** Row states as the engine left them. */
  states: Record<string, number>;
  /** Every candidate listed: its confidence against whether it is the row's person. */
  reliability: Reliability;
  mappingFixed: boolean;
  /** When `learn` was asked: the same figures after learning, on the rows not decided by hand. */
  learning: LearningRun | null;
  /** The job change of every accepted row (after learning, when asked) against the world's. */
  jobChange: JobChangeScore;
  /**
   * The same on every row matched to its true person: the accepted ones, and those left for review whose top
   * candidate is the true person, which a reviewer then accepts (stale companies among them).
   */
  jobChangeMatched: JobChangeScore;
  /** Rows left for review that the reviewer accepted so, for jobChangeMatched. */
  acceptedByReviewer: number;
  /** When `refresh` was asked: the same after the world moved on and the project was refreshed. */
  refreshed: RefreshRun | null;
  seconds: { simulator: number; sheet: number; run: number; read: number; total: number };
}

/** Every strategy, so rows with a name alone are asked too and absent people fall through to their namesakes. */
const STRATEGIES: Strategy[] = ['email', 'social', 'name+company', 'name'];
/** Where the evaluation sheet puts each field (EVALUATION_HEADERS). */
const SHEET_MAPPING: Mapping = { fullName: 0, email: 1, profile: 2, company: 3 };

class EvaluationFailure extends Error {
  override readonly name = 'EvaluationFailure';
}

async function call<K extends CallName>(engine: Engine, name: K, input: CallInput<K>): Promise<CallOutput<K>> {
  const result = await engine.call(name, input);
  if (!result.ok) throw new EvaluationFailure(`${name} failed (${result.error.kind}): ${result.error.message}`);
  return result.value as CallOutput<K>;
}

export async function runEvaluation(options: EvaluationRunOptions): Promise<EvaluationRun> {
  const { log, onRow, learn, refresh, ...params } = options;
  const started = performance.now();
  const lap = (() => {
    let last = started;
    return () => {
      const now = performance.now();
      const seconds = (now - last) / 1000;
      last = now;
      return seconds;
    };
  })();
  const sim = await startSimulator({ port: 0, people: params.people, seed: params.seed });
  const work = await mkdtemp(join(tmpdir(), 'matchdesk-eval-'));
  let engine: Engine | null = null;
  try {
    const simulatorSeconds = lap();
    const set = buildEvaluationSet(sim.dataset, { seed: params.seed, rowsPerCategory: params.rowsPerCategory });
    const file = join(work, 'evaluation.csv');
    await writeFile(file, `${Papa.unparse([set.headers, ...set.rows], { newline: '\r\n' })}\r\n`, 'utf8');
    const rowsByCategory = Object.fromEntries(EVALUATION_CATEGORIES.map((c) => [c, set.labels.filter((l) => l.category === c).length])) as Record<EvaluationCategory, number>;
    log(`  ${set.rows.length.toLocaleString('en-US')} labeled rows from ${params.people.toLocaleString('en-US')} people (seed ${params.seed}): ${EVALUATION_CATEGORIES.map((c) => `${c} ${rowsByCategory[c]}`).join(', ')}`);
    const sheetSeconds = lap();

    engine = await createEngine({ dataDir: join(work, 'data'), host: 'cli', secrets: new SessionSecretStore(), exportDir: join(work, 'exports') });
    const profile = await call(engine, 'profiles.save', {
      name: 'Evaluation simulator',
      baseUrl: sim.baseUrl,
      orgId: sim.orgId,
      kind: 'service_account',
      login: sim.demo.clientId,
      secret: sim.demo.clientSecret,
      sessionOnly: true,
    });
    await call(engine, 'profiles.select', { id: profile.id });
    await call(engine, 'settings.update', { concurrency: params.concurrency });
    const imported = await call(engine, 'projects.import', { file, name: 'Evaluation set' });
    const projectId = imported.summary.id;
    if (imported.summary.rowCount !== set.rows.length) throw new EvaluationFailure(`The engine stored ${imported.summary.rowCount} rows of ${set.rows.length}.`);
    // What detection found, with the four known columns put right if it missed one (other fields it found stay).
    const detected: Mapping = { ...imported.mapping };
    const mapping: Mapping = { ...detected, ...SHEET_MAPPING };
    const mappingFixed = JSON.stringify(Object.entries(mapping).sort()) !== JSON.stringify(Object.entries(detected).sort());
    if (mappingFixed) log(`  detected mapping ${JSON.stringify(detected)}; running with ${JSON.stringify(mapping)}`);
    await call(engine, 'mapping.save', { projectId, mapping, strategies: STRATEGIES });

    await call(engine, 'run.start', { projectId, autoAccept: true });
    const end = await engine.runSettled(projectId);
    if (end?.status !== 'done') throw new EvaluationFailure(`The run ended "${end?.status ?? 'nowhere'}": ${end?.message ?? 'no message'}`);
    log(`  run: ${end.calls} calls, ${end.errors} errors`);
    const runSeconds = lap();

    const outcomes: RowOutcome[] = [];
    const candidates: CandidateOutcome[] = [];
    const states: Record<string, number> = {};
    for (let rowIndex = 0; rowIndex < set.rows.length; rowIndex++) {
      const row = await call(engine, 'review.row', { projectId, rowIndex });
      states[row.state] = (states[row.state] ?? 0) + 1;
      const candidatePersonIds = row.candidates.map((c) => c.personId).filter((id): id is string => id !== null);
      const chosen = row.chosenRank === null ? null : row.candidates.find((c) => c.rank === row.chosenRank)?.personId ?? null;
      outcomes.push({ state: row.state, chosenPersonId: chosen, candidatePersonIds });
      const label = set.labels[rowIndex]!;
      for (const c of row.candidates) candidates.push({ category: label.category, confidence: c.confidence, right: c.personId !== null && c.personId === label.truePersonId });
      onRow?.(row, label);
    }
    const readSeconds = lap();
    const score = scoreEvaluation(set.labels, outcomes);
    const calibration = reliability(candidates);
    const learning = learn ? await learnAndScore(engine, projectId, set.labels, learn) : null;
    const people = new Map(sim.dataset.people.map((p) => [p.id, p]));
    const personOf = (id: string) => people.get(id);
    const { accepted, matched, acceptedByReviewer } = await acceptTopWhereTrue(engine, projectId, set.labels);
    const measure = () => measureJobChanges(engine!, projectId, set.labels, personOf, accepted, matched);
    const { accepted: jobChange, matched: jobChangeMatched } = await measure();
    let refreshed: RefreshRun | null = null;
    if (refresh) {
      // Jobs change in place: `people` reads the moved world from here on.
      const moves = sim.moveOn(refresh);
      await call(engine, 'refresh.start', { projectId });
      const settled = await engine.refreshSettled(projectId);
      if (settled?.status !== 'done') throw new EvaluationFailure(`The refresh ended "${settled?.status ?? 'nowhere'}": ${settled?.message ?? 'no message'}`);
      log(`  refresh after the world moved on (${moves.moved.length} moved, ${moves.left.length} left): ${settled.found} people found, ${settled.rowsChanged} rows changed`);
      const after = await measure();
      refreshed = { moved: moves.moved.length, left: moves.left.length, rowsChanged: settled.rowsChanged, jobChange: after.accepted, jobChangeMatched: after.matched };
    }
    return {
      options: params,
      rows: set.rows.length,
      rowsByCategory,
      score,
      checks: [
        ...qualityChecks(score),
        calibrationCheck(calibration),
        jobChangeCheck(jobChange, 'before'),
        ...(refreshed ? [jobChangeCheck(refreshed.jobChange, 'after')] : []),
        jobChangeCheck(jobChangeMatched, 'before', 'matched'),
        ...(refreshed ? [jobChangeCheck(refreshed.jobChangeMatched, 'after', 'matched')] : []),
      ],
      states,
      reliability: calibration,
      mappingFixed,
      learning,
      jobChange,
      jobChangeMatched,
      acceptedByReviewer,
      refreshed,
      seconds: { simulator: simulatorSeconds, sheet: sheetSeconds, run: runSeconds, read: readSeconds, total: (performance.now() - started) / 1000 },
    };
  } finally {
    await engine?.close().catch(() => undefined);
    await sim.close();
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * The rows accepted so far; then a reviewer accepts every row left for review whose top candidate is the row's true
 * person, as a careful one might (a stale company does not stop them): with the accepted rows that hold their true
 * person, the rows matched to their person.
 */
async function acceptTopWhereTrue(engine: Engine, projectId: number, labels: readonly EvaluationLabel[]): Promise<{ accepted: Set<number>; matched: Set<number>; acceptedByReviewer: number }> {
  const accepted = new Set<number>();
  const matched = new Set<number>();
  for (let rowIndex = 0; rowIndex < labels.length; rowIndex++) {
    const row = await call(engine, 'review.row', { projectId, rowIndex });
    const truth = labels[rowIndex]!.truePersonId;
    if (row.state === 'auto' || row.state === 'accepted') {
      accepted.add(rowIndex);
      if (truth !== null && row.candidates.find((c) => c.rank === row.chosenRank)?.personId === truth) matched.add(rowIndex);
    } else if (row.state === 'to_review' && truth !== null && row.candidates[0]?.personId === truth) {
      await call(engine, 'decisions.choose', { projectId, rowIndex, rank: row.candidates[0].rank, applyToIdentical: false });
      matched.add(rowIndex);
    }
  }
  return { accepted, matched, acceptedByReviewer: matched.size - [...matched].filter((i) => accepted.has(i)).length };
}

/** The stored job change of the rows accepted and of the rows matched to their person, against the world's as `personOf` reads it now. */
async function measureJobChanges(
  engine: Engine,
  projectId: number,
  labels: readonly EvaluationLabel[],
  personOf: (id: string) => Person | undefined,
  accepted: ReadonlySet<number>,
  matched: ReadonlySet<number>,
): Promise<{ accepted: JobChangeScore; matched: JobChangeScore }> {
  const tallies = { accepted: new JobChangeTally(personOf), matched: new JobChangeTally(personOf) };
  for (let rowIndex = 0; rowIndex < labels.length; rowIndex++) {
    if (!accepted.has(rowIndex) && !matched.has(rowIndex)) continue;
    const row = await call(engine, 'review.row', { projectId, rowIndex });
    if (accepted.has(rowIndex)) tallies.accepted.add(row, labels[rowIndex]!);
    if (matched.has(rowIndex)) tallies.matched.add(row, labels[rowIndex]!);
  }
  return { accepted: tallies.accepted.score(), matched: tallies.matched.score() };
}

/**
 * A reviewer decides `count` rows left for review, spread evenly over the queue in file order (a few of each kind),
 * each as its label says (the true person's candidate, or none fits), then the project learns and the confident rows are accepted. The rows
 * decided by hand are left out of the score: it says what learning did to the others.
 */
async function learnAndScore(engine: Engine, projectId: number, labels: readonly EvaluationLabel[], count: number): Promise<LearningRun> {
  const waiting: number[] = [];
  for (;;) {
    const page = await call(engine, 'review.page', { projectId, states: ['to_review'], offset: waiting.length, limit: 500 });
    waiting.push(...page.rows.map((r) => r.rowIndex));
    if (page.rows.length === 0 || waiting.length >= page.total) break;
  }
  const step = Math.max(1, waiting.length / count);
  const picked = Array.from({ length: Math.min(count, waiting.length) }, (_, i) => ({ rowIndex: waiting[Math.floor(i * step)]! }));
  const byHand = new Set<number>();
  for (const listed of picked) {
    const row = await call(engine, 'review.row', { projectId, rowIndex: listed.rowIndex });
    const truth = labels[listed.rowIndex]!.truePersonId;
    const right = truth === null ? undefined : row.candidates.find((c) => c.personId === truth);
    if (right) await call(engine, 'decisions.choose', { projectId, rowIndex: listed.rowIndex, rank: right.rank, applyToIdentical: false });
    else await call(engine, 'decisions.reject', { projectId, rowIndex: listed.rowIndex, applyToIdentical: false });
    byHand.add(listed.rowIndex);
  }
  const learned = await call(engine, 'learning.learn', { projectId });
  const accepted = await call(engine, 'decisions.acceptAtOrAbove', { projectId });
  const kept: EvaluationLabel[] = [];
  const outcomes: RowOutcome[] = [];
  const candidates: CandidateOutcome[] = [];
  for (let rowIndex = 0; rowIndex < labels.length; rowIndex++) {
    if (byHand.has(rowIndex)) continue;
    const row = await call(engine, 'review.row', { projectId, rowIndex });
    const chosen = row.chosenRank === null ? null : (row.candidates.find((c) => c.rank === row.chosenRank)?.personId ?? null);
    const label = labels[rowIndex]!;
    kept.push(label);
    outcomes.push({ state: row.state, chosenPersonId: chosen, candidatePersonIds: row.candidates.map((c) => c.personId).filter((id): id is string => id !== null) });
    for (const c of row.candidates) candidates.push({ category: label.category, confidence: c.confidence, right: c.personId !== null && c.personId === label.truePersonId });
  }
  const score = scoreEvaluation(kept, outcomes);
  const calibration = reliability(candidates);
  return {
    decided: byHand.size,
    sentences: learned.sentences,
    changes: learned.changes.map((c) => c.sentence),
    rowsLifted: learned.rowsLifted,
    acceptedAfter: accepted.changed,
    score,
    checks: [...qualityChecks(score), calibrationCheck(calibration)],
    reliability: calibration,
  };
}
