// `npm run eval`: the engine on the simulator's labeled evaluation set, scored per category against the
// match-quality targets of issue 10, its confidences against what happened (issue 43), and the job change of every
// accepted row, and of every row whose top candidate is the person once a reviewer accepts it, against the world's,
// before and after the world moves on and the project is refreshed (issue 45).
// Prints figures; never fails on a missed target (exit 1 only when it cannot run).
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { CONFIDENCE_MODEL } from '../../electron/engine/matching';
import { consoleTable } from '../report';
import { jobChangeLine, jobChangeMissLines, type JobChangeScore } from './job-change-score';
import { qualityConsoleTable } from './quality-table';
import { QUALITY_TARGETS } from './quality-targets';
import { reliabilityConsoleTable } from './reliability';
import { DEFAULT_EVALUATION, runEvaluation } from './run-evaluation';

const DEFAULT_MOVE_ON = 0.2;

const USAGE = `Usage: npm run eval -- [options]

Runs the engine with auto-accept on a labeled sheet the simulator makes from its own people, and scores it.

Options:
  --people N             people in the simulator (default ${DEFAULT_EVALUATION.people})
  --seed S               seed of the people and of the sheet (default ${DEFAULT_EVALUATION.seed})
  --rows-per-category N  labeled rows per category (default ${DEFAULT_EVALUATION.rowsPerCategory})
  --concurrency C        the engine's calls in flight (default ${DEFAULT_EVALUATION.concurrency})
  --learn N              then a reviewer decides N rows spread over those left for review (from labels), the project
                         learns from them and its confident rows are accepted; scored again on the others
  --move-on S            then the world moves on (share S of the current jobs end; 0 skips it) and the project is
                         refreshed: the job changes are measured again (default ${DEFAULT_MOVE_ON})
  --verbose              list the job changes that are wrong, by kind, with a few rows each (also when missed)
  --json FILE            also write every figure as JSON
  -h, --help             show this help
`;

function share(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (text.trim() === '' || !(value >= 0 && value <= 1)) throw new Error(`${flag} must be a share between 0 and 1, got "${text}".`);
  return value;
}

function whole(flag: string, text: string | undefined, fallback: number, min: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (text.trim() === '' || !Number.isInteger(value) || value < min) throw new Error(`${flag} must be a whole number of ${min} or more, got "${text}".`);
  return value;
}

async function main(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        people: { type: 'string' },
        seed: { type: 'string' },
        'rows-per-category': { type: 'string' },
        concurrency: { type: 'string' },
        json: { type: 'string' },
        learn: { type: 'string' },
        'move-on': { type: 'string' },
        verbose: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
    if (values.help) {
      process.stdout.write(USAGE);
      return 0;
    }
    values = {
      ...values,
      people: whole('--people', values.people, DEFAULT_EVALUATION.people, 100),
      seed: whole('--seed', values.seed, DEFAULT_EVALUATION.seed, 0),
      rowsPerCategory: whole('--rows-per-category', values['rows-per-category'], DEFAULT_EVALUATION.rowsPerCategory, 1),
      concurrency: whole('--concurrency', values.concurrency, DEFAULT_EVALUATION.concurrency, 1),
      learn: whole('--learn', values.learn, 0, 1),
      moveOn: share('--move-on', values['move-on'], DEFAULT_MOVE_ON),
    };
  } catch (error) {
    process.stderr.write(`eval: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const log = (line: string) => process.stdout.write(`${line}\n`);
  log('Match quality on the simulator\'s labeled evaluation set');
  const refresh = values.moveOn > 0 ? { share: values.moveOn, seed: values.seed } : undefined;
  const run = await runEvaluation({ people: values.people, seed: values.seed, rowsPerCategory: values.rowsPerCategory, concurrency: values.concurrency, log, learn: values.learn, refresh });
  log(`  row states: ${Object.entries(run.states).map(([k, n]) => `${k} ${n}`).join(', ')}`);
  log(`  took ${run.seconds.total.toFixed(1)} s (simulator ${run.seconds.simulator.toFixed(1)} s, sheet ${run.seconds.sheet.toFixed(1)} s, run ${run.seconds.run.toFixed(1)} s, reading decisions ${run.seconds.read.toFixed(1)} s)`);
  log('');
  log(qualityConsoleTable(run.score));
  log('');
  const fitted = CONFIDENCE_MODEL.calibration.fittedOn.seed;
  log(`Reliability: every candidate listed, by the confidence shown, against the share that are the row's person (${values.seed === fitted ? `seed ${fitted} is the one the calibration was fitted on: not held out` : `held out: the calibration was fitted on seed ${fitted}`})`);
  log(reliabilityConsoleTable(run.reliability));
  log('');
  const jobChanges = (when: string, score: JobChangeScore) => {
    log(`${when}: ${jobChangeLine(score)}${score.unmarked.length ? `; ${score.unmarked.length} known job changes whose card marks no job at the sheet's company (rows ${score.unmarked.slice(0, 5).join(', ')})` : ''}`);
    if (values.verbose || (score.share ?? 0) < QUALITY_TARGETS.jobChangeRight) log(jobChangeMissLines(score).join('\n') || '  (none wrong)');
  };
  jobChanges(`Accepted rows${run.learning ? ' (after learning)' : ''}`, run.jobChange);
  jobChanges(`Rows whose top candidate is the person (${run.acceptedByReviewer} of them then accepted by a reviewer)`, run.jobChangeMatched);
  if (run.refreshed) {
    const world = `After the world moved on (${run.refreshed.moved} moved, ${run.refreshed.left} left) and a refresh`;
    jobChanges(`${world}, accepted rows`, run.refreshed.jobChange);
    jobChanges(`${world}, rows whose top candidate is the person`, run.refreshed.jobChangeMatched);
  }
  log('');
  log(consoleTable(run.checks));
  const missed = run.checks.filter((c) => !c.pass);
  log(`${run.checks.length - missed.length} of ${run.checks.length} quality targets met${missed.length ? `; missed: ${missed.map((c) => c.label).join(', ')}` : ''}.`);
  if (run.learning) {
    const { learning } = run;
    log('');
    log(`After a reviewer decided ${learning.decided} rows and the project learned from them (${learning.rowsLifted} rows lifted, ${learning.acceptedAfter} accepted), on the other rows:`);
    for (const sentence of [...learning.sentences, ...learning.changes]) log(`  ${sentence}`);
    log('Reliability after learning, on the rows not decided by hand:');
    log(reliabilityConsoleTable(learning.reliability));
    log(consoleTable(learning.checks));
  }
  if (values.json) {
    await writeFile(values.json, `${JSON.stringify(run, null, 2)}\n`);
    log(`Wrote ${values.json}`);
  }
  return 0;
}

let code = 1;
try {
  code = await main(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`\neval failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  code = 1;
}
process.exit(code);
