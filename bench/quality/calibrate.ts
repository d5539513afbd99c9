// `npm run calibrate`: fits the confidence calibration (electron/engine/matching/calibration.ts) on one seed of the
// labeled evaluation set, so anyone can regenerate it. Runs the real engine on the set as `npm run eval` does,
// works out every listed candidate's raw share and its row's kind from the evidence the review shows, and fits one
// isotonic map per kind. `npm run eval` then measures it on another seed (held out).
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ROW_KINDS, fitMap, type Calibration, type CalibrationMap, type Observation, type RowKind } from '../../electron/engine/matching/calibrate';
import { rowObservations } from './row-observations';
import { DEFAULT_EVALUATION, runEvaluation } from './run-evaluation';

/** The seed the maps are fitted on: not `npm run eval`'s, nor any test's. */
const CALIBRATION_SEED = 43;
const DEFAULTS = { people: DEFAULT_EVALUATION.people, seed: CALIBRATION_SEED, rowsPerCategory: 600, concurrency: DEFAULT_EVALUATION.concurrency };
/** A kind with fewer candidates than this in the set gets no map of its own (calibrated() then leans on `guarded`). */
const MIN_CANDIDATES_FOR_A_MAP = 100;
const TARGET = fileURLToPath(new URL('../../electron/engine/matching/calibration.ts', import.meta.url));

const USAGE = `Usage: npm run calibrate -- [options]

Fits the confidence calibration on the labeled evaluation set and writes electron/engine/matching/calibration.ts.

Options:
  --people N             people in the simulator (default ${DEFAULTS.people})
  --seed S               seed of the people and of the sheet (default ${DEFAULTS.seed}; npm run eval uses ${DEFAULT_EVALUATION.seed})
  --rows-per-category N  labeled rows per category (default ${DEFAULTS.rowsPerCategory})
  --dry-run              print the maps without writing them
  -h, --help             show this help
`;

function whole(flag: string, text: string | undefined, fallback: number, min: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (text.trim() === '' || !Number.isInteger(value) || value < min) throw new Error(`${flag} must be a whole number of ${min} or more, got "${text}".`);
  return value;
}

/** A long text as a sum of quoted lines that fit the file's width. */
function wrapped(text: string): string {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines[lines.length - 1];
    if (last !== undefined && last.length + word.length < 100) lines[lines.length - 1] = `${last}${word} `;
    else lines.push(`${word} `);
  }
  const quote = (line: string) => `'${line.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
  return lines.map((line, i) => `    ${quote(i === lines.length - 1 ? line.trimEnd() : line)}`).join(' +\n');
}

function source(calibration: Calibration): string {
  const map = (m: CalibrationMap) => {
    const pairs = m.blocks.map((block) => `[${block.join(', ')}]`);
    const lines: string[] = [];
    for (let i = 0; i < pairs.length; i += 4) lines.push(`        ${pairs.slice(i, i + 4).join(', ')},`);
    return `{\n      candidates: ${m.candidates},\n      blocks: [\n${lines.join('\n')}\n      ],\n      allRightFrom: ${m.allRightFrom},\n    }`;
  };
  const maps = Object.entries(calibration.maps).map(([kind, m]) => `    ${kind}: ${map(m!)},`);
  const { seed, people, rowsPerCategory } = calibration.fittedOn;
  return `// Written by \`npm run calibrate\` (bench/quality/calibrate.ts); run it again rather than edit by hand.
import type { Calibration } from './calibrate';

export const CALIBRATION: Calibration = {
  why:
${wrapped(calibration.why)},
  fittedOn: { seed: ${seed}, people: ${people}, rowsPerCategory: ${rowsPerCategory} },
  maps: {
${maps.join('\n')}
  },
};
`;
}

async function main(argv: string[]): Promise<number> {
  let options;
  try {
    const { values } = parseArgs({
      args: argv,
      options: { people: { type: 'string' }, seed: { type: 'string' }, 'rows-per-category': { type: 'string' }, 'dry-run': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    });
    if (values.help) {
      process.stdout.write(USAGE);
      return 0;
    }
    options = {
      people: whole('--people', values.people, DEFAULTS.people, 100),
      seed: whole('--seed', values.seed, DEFAULTS.seed, 0),
      rowsPerCategory: whole('--rows-per-category', values['rows-per-category'], DEFAULTS.rowsPerCategory, 1),
      dryRun: values['dry-run'] ?? false,
    };
  } catch (error) {
    process.stderr.write(`calibrate: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const log = (line: string) => process.stdout.write(`${line}\n`);
  log('Calibrating the confidence on the simulator\'s labeled evaluation set');
  const byKind = new Map<RowKind, Observation[]>(ROW_KINDS.map((k) => [k, []]));
  const guarded: Observation[] = [];
  await runEvaluation({
    people: options.people,
    seed: options.seed,
    rowsPerCategory: options.rowsPerCategory,
    concurrency: DEFAULTS.concurrency,
    log,
    onRow: (row, label) => {
      const seen = rowObservations(row, label);
      if (!seen) return;
      byKind.get(seen.kind)!.push(...seen.observations);
      if (seen.kind !== 'clear') guarded.push(...seen.observations);
    },
  });
  const maps: Calibration['maps'] = { guarded: fitMap(guarded) };
  for (const [kind, observations] of byKind) {
    const right = observations.filter((o) => o.right).length;
    const fitted = observations.length >= MIN_CANDIDATES_FOR_A_MAP;
    if (fitted) maps[kind] = fitMap(observations);
    log(`  ${kind.padEnd(16)} ${String(observations.length).padStart(6)} candidates, ${String(right).padStart(5)} right: ${fitted ? `${maps[kind]!.blocks.length} blocks` : 'too few: no more than its share nor the guarded map'}`);
  }
  log(`  ${'guarded'.padEnd(16)} ${String(guarded.length).padStart(6)} candidates (every guarded row): ${maps.guarded.blocks.length} blocks`);
  const calibration: Calibration = {
    why:
      'Isotonic regression of being the row\'s person on the raw share, per kind of row, on the labeled evaluation ' +
      'set: a confidence is the share of such candidates that were the person there. Where the set had no ' +
      'candidate, the raw share, held between the neighbouring probabilities: no claim beyond the data.',
    fittedOn: { seed: options.seed, people: options.people, rowsPerCategory: options.rowsPerCategory },
    maps,
  };
  if (options.dryRun) {
    log(source(calibration));
    return 0;
  }
  await writeFile(TARGET, source(calibration));
  log(`Wrote ${TARGET}. Measure it on a held-out seed: npm run eval (seed ${DEFAULT_EVALUATION.seed}).`);
  return 0;
}

let code = 1;
try {
  code = await main(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`\ncalibrate failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  code = 1;
}
process.exit(code);
