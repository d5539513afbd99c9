import type { AutoAcceptRule, Mapping, Strategy } from '../../../shared/model';
import { MAX_CANDIDATES, answerPeople, assessRow, autoAccepts, jobChange, readStoredFacts, rowFacts, rowInput, type CandidateFacts, type RowAssessment } from '../matching';
import type { AnswerPeople, StoredPerson } from '../store';
import { blockNewPeople, type RecordBlock } from '../store/person-blocks';
import type { PackedRecord } from '../store/packed-record';
import { parseFindReply, readPeople } from '../api/find-reply';
import { replyBytesJson } from '../api/reply-ascii';
import { LIFTED_REASON, learnedVerdict, type LearnedState } from '../matching/learned-model';
import { parseCells } from '../rows/row-cells';
import { storedJobChangeReason } from '../rows/job-change-reason';
import type { ChosenPerson } from '../rows/row-status';

// What a row's answer makes of it, with nothing but the row and the answer: pure, so the verdict worker
// (verdict-worker.ts) runs it beside the engine, and the engine itself when there is no worker.

/**
 * What every verdict of one run shares: the sheet's columns, the rule for accepting alone, what the project learned
 * from its decisions (null when nothing), and when the run settles.
 */
export interface VerdictContext {
  mapping: Mapping;
  rule: AutoAcceptRule;
  learned?: LearnedState | null;
  /** ISO time an accepted row is decided at. */
  at: string;
  /**
   * The answer is stored as its people's ids (store/lookups.ts): an accepted row names its person by the position in
   * them, which row-resolution.ts turns into the `people` id. Unless said, it is when every candidate was read with
   * its `people` id; otherwise the decision is also made whole, as JSON, kept so where the answer names no people (one
   * stored before migration 25).
   */
  byPeople?: boolean;
}

/**
 * What row-resolution.ts's found statement writes of a row: outcome state, candidate count, the decision when the
 * model accepts alone (chosen rank; the chosen person whole, only where the answer may not be stored as people, and
 * its position in the answer; its score, confidence, reason where not the row's, source, decided at, job change, its
 * date and why, as rows/job-change-reason.ts stores it), then the verdict (confidence, runner-up, best rank, reason,
 * guard).
 */
export type VerdictValues = unknown[];

/** A candidate as a decision keeps it: who, how sure the model was and why, and where they are now against the sheet's company. */
export function chosenFrom(assessment: RowAssessment, facts: readonly CandidateFacts[], rank: number, sheetCompany: string | null): ChosenPerson | null {
  const judged = assessment.candidates.find((c) => c.rank === rank);
  const person = facts.find((f) => f.rank === rank);
  if (!judged || !person) return null;
  return {
    rank,
    score: person.score,
    summary: person.summary,
    confidence: judged.confidence,
    reason: judged === assessment.candidates[0] ? assessment.reason : judged.reason,
    jobChange: jobChange(sheetCompany, person.jobs),
    ...(person.personId === undefined ? {} : { personId: person.personId }),
  };
}

/** One row against its answer's candidates (at least one): the model's verdict, and the decision when it accepts. */
export function rowVerdict(cells: string, strategy: Strategy, facts: readonly CandidateFacts[], { mapping, rule, learned, at, byPeople }: VerdictContext): VerdictValues {
  const input = rowInput(parseCells(cells), mapping);
  const assessment = assessRow(rowFacts(input), facts, strategy, 'best');
  const bestRank = assessment.candidates[0]!.rank;
  // What the project learned settles the row as it does the rows waiting for review (matching/learned-model.ts).
  const v = learned ? learnedVerdict(assessment, learned) : unlearned(assessment);
  const reason = v.learned ? `${assessment.reason}${LIFTED_REASON}` : assessment.reason;
  const count = Math.min(facts.length, MAX_CANDIDATES);
  if (!autoAccepts(v, rule)) return ['to_review', count, null, null, null, null, null, null, null, null, null, null, null, v.confidence, v.runnerUp, bestRank, reason, v.guard];
  const chosen = chosenFrom(assessment, facts, bestRank, input.company)!;
  const { personId: _id, ...kept } = v.learned ? { ...chosen, confidence: v.confidence, reason } : chosen;
  // The person by position in the answer's people; and whole, for an answer that may have none (row-resolution.ts).
  const position = facts.findIndex((f) => f.rank === bestRank);
  const whole = (byPeople ?? facts.every((f) => f.personId !== undefined)) ? null : JSON.stringify(kept);
  const keptReason = kept.reason === reason ? null : (kept.reason ?? null);
  const { status = null, date = null, reason: why = null } = kept.jobChange ?? {};
  return ['auto', count, bestRank, whole, position, kept.score, kept.confidence ?? null, keptReason, 'auto', at, status, date, storedJobChangeReason(why, kept.reason), v.confidence, v.runnerUp, bestRank, reason, v.guard];
}

/** The verdict as the model gave it, for a project that learned nothing: the assessment's own figures, not a copy of it. */
function unlearned({ confidence, runnerUp, guard }: RowAssessment): { confidence: number; runnerUp: number; guard: string | null; learned: false } {
  return { confidence, runnerUp, guard, learned: false };
}

/** Each row's values for one answer. Rows asking one query usually hold the same cells (a sheet's duplicates): those are assessed once. */
export function verdictsFor(cells: readonly string[], strategy: Strategy, facts: readonly CandidateFacts[], context: VerdictContext): VerdictValues[] {
  const values: VerdictValues[] = [];
  let lastCells: string | null = null;
  let last: VerdictValues = [];
  for (const rowCells of cells) {
    if (rowCells !== lastCells) {
      last = rowVerdict(rowCells, strategy, facts, context);
      lastCells = rowCells;
    }
    values.push(last);
  }
  return values;
}

/** A cached answer as stored (its facts' JSON, store/lookups.ts) and the cells of the rows waiting on it. */
export interface VerdictJob {
  strategy: Strategy;
  facts: string;
  cells: string[];
}

/**
 * The values for each row of the job, reading the stored facts first; null when they do not read (made by another
 * version, or damaged) or hold nobody: the engine then reads the answer whole itself.
 */
export function jobVerdicts(job: VerdictJob, context: VerdictContext): VerdictValues[] | null {
  const facts = readStoredFacts(job.facts)?.slice(0, MAX_CANDIDATES);
  if (!facts || facts.length === 0) return null;
  return verdictsFor(job.cells, job.strategy, facts, context);
}

/**
 * A landed call's answers as the engine stores them, and the values of the rows that waited on each. What crosses
 * between threads is copied on both (structured clone): nothing is sent that the engine can make again.
 */
export interface PreparedAnswers {
  /**
   * Each answer's people and their ranks (matching/candidate-facts.ts answerPeople; its facts are answerFacts of
   * them). A person put in a block here is sent without their record, which is in the block.
   */
  stored: AnswerPeople[];
  /** How many candidates each answer holds (0: it found nobody). */
  counts: number[];
  /** For each answer with candidates, the values of the rows given, in order; null for one without. */
  values: (VerdictValues[] | null)[];
}

/**
 * Prepared answers as the worker sends them, in a few strings and typed arrays: a structured clone costs by the object
 * (a reply's hundred answers and their people, as objects, took 0.3-0.5 ms to copy and as long to make again), a
 * string or an array by its bytes. Every answer's people in order, `counts` saying how many each holds; the rows'
 * values as one JSON text, read in less time than a clone of their many small arrays takes. Lines split the texts:
 * each is JSON, which never holds a raw line break.
 */
export interface SentAnswers {
  counts: number[];
  /** Each answer's ranks (AnswerPeople.ranks), a line each. */
  ranks: string;
  /** Each person's facts (StoredPerson.facts), a line each, with their digests and versions by the same position. */
  facts: string;
  digests: BigInt64Array;
  factsVersions: Int32Array;
  /** The blocks the reply's reading made: a person's (`blockOf`, -1 for none) and their position in it. */
  blocks: RecordBlock[];
  blockOf: Int32Array;
  positions: Int32Array;
  /** The records of the people sent with theirs (not in a block of this reply's), by `recordOf` (-1 for none). */
  records: PackedRecord[];
  recordOf: Int32Array;
  values: string;
}

export function sentAnswers({ stored, counts, values }: PreparedAnswers): SentAnswers {
  let total = 0;
  for (const count of counts) total += count;
  const sent: SentAnswers = {
    counts,
    ranks: stored.map((a) => a.ranks).join('\n'),
    facts: '',
    digests: new BigInt64Array(total),
    factsVersions: new Int32Array(total),
    blocks: [],
    blockOf: new Int32Array(total),
    positions: new Int32Array(total),
    records: [],
    recordOf: new Int32Array(total),
    values: JSON.stringify(values),
  };
  const facts: string[] = [];
  const blockIds = new Map<RecordBlock, number>();
  let at = 0;
  for (const { people } of stored) {
    for (const { digest, factsVersion, facts: personFacts, inBlock, record } of people) {
      sent.digests[at] = digest;
      sent.factsVersions[at] = factsVersion;
      facts.push(personFacts);
      let block = -1;
      if (inBlock) {
        block = blockIds.get(inBlock.block) ?? -1;
        if (block < 0) blockIds.set(inBlock.block, (block = sent.blocks.push(inBlock.block) - 1));
        sent.positions[at] = inBlock.position;
      }
      sent.blockOf[at] = block;
      sent.recordOf[at] = record ? sent.records.push(record) - 1 : -1;
      at++;
    }
  }
  sent.facts = facts.join('\n');
  return sent;
}

export function receivedAnswers(sent: SentAnswers): PreparedAnswers {
  const ranks = sent.ranks.split('\n');
  const facts = sent.facts.split('\n');
  let at = 0;
  const stored = sent.counts.map((count, i): AnswerPeople => {
    const people: StoredPerson[] = [];
    for (const end = at + count; at < end; at++) {
      const digest = sent.digests[at]!;
      const factsVersion = sent.factsVersions[at]!;
      const block = sent.blockOf[at]!;
      const record = sent.recordOf[at]!;
      // In the shapes withoutCopies makes them, as the run's thread does without a worker.
      if (block >= 0) people.push({ digest, factsVersion, facts: facts[at]!, inBlock: { block: sent.blocks[block]!, position: sent.positions[at]! } });
      else if (record >= 0) people.push({ digest, record: sent.records[record]!, factsVersion, facts: facts[at]! });
      else people.push({ digest, factsVersion, facts: facts[at]! });
    }
    return { people, ranks: ranks[i]! };
  });
  return { stored, counts: sent.counts, values: JSON.parse(sent.values) as PreparedAnswers['values'] };
}

/**
 * A find call's reply as the service sent it (its body's bytes: decoding them is the reading thread's work), with
 * each of its queries' strategy and the cells of the rows waiting on it.
 */
export interface LandedReply {
  bytes: Uint8Array;
  strategies: Strategy[];
  cells: string[][];
  context: VerdictContext;
}

/**
 * A find reply read and made ready to store: on the verdict worker's thread, or the run's own when there is no
 * worker. Throws as the service client's own reading does: ReplyNotJson for a cut-off reply (the client sends the
 * call again), MalformedReplyError for bytes that are not UTF-8, a shape that is not a find reply's, or a reply over
 * the limits (api/reply-limits.ts).
 */
export function preparedReply({ bytes, strategies, cells, context }: LandedReply): PreparedAnswers {
  const answers = readPeople(() => parseFindReply(replyBytesJson(bytes, 'find reply'), strategies.length).map(answerPeople));
  blockNewPeople(answers.flatMap((a) => a.people));
  return {
    stored: answers.map(({ people, ranks }) => ({ people: people.map(withoutCopies), ranks })),
    counts: answers.map((a) => a.people.length),
    values: answers.map(({ ranked }, i) => (ranked.length > 0 ? verdictsFor(cells[i]!, strategies[i]!, ranked, { ...context, byPeople: true }) : null)),
  };
}

/**
 * A person as a reply's preparing sends them: without their record when it is in a block made for the reply, and
 * never with its bytes (the engine encodes the few it blocks itself again).
 */
function withoutCopies(person: StoredPerson): StoredPerson {
  const { digest, factsVersion, facts, inBlock, record } = person;
  if (inBlock) return { digest, factsVersion, facts, inBlock };
  return record ? { digest, record: { values: record.values, shapes: record.shapes }, factsVersion, facts } : person;
}
