// Fuzzing the edges where outside data comes in: the contract's input parsing and dispatch, the CSV reader, the
// profile slug normalizer and the find-reply parser. Each must answer with its own typed result or error, never
// another exception, and never hang. Iterations and time are bounded so the file stays well under 20 s.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import iconv from 'iconv-lite';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, ERROR_KINDS, type CallName, type CallResult } from '../../shared/contract';
import { ROW_STATES } from '../../shared/model';
import type { Engine } from '../../electron/engine/engine';
import { MalformedReplyError, parseFindReply } from '../../electron/engine/api';
import { normalizeEmail, profileSlugFromUrl } from '../../electron/engine/matching';
import { openSheet, SheetError, SHEET_ERROR_CODES } from '../../electron/engine/sheets';
import { callOk, openTestEngine, tempDir } from './safety-helpers';

/** fast-check's own bound on each property: whichever of runs or time comes first. */
const budget = (numRuns: number, ms = 3_000) => ({ numRuns, interruptAfterTimeLimit: ms, seed: seedFromEnv() });

/** A failing run prints its seed; FUZZ_SEED=<seed> replays it. */
function seedFromEnv(): number | undefined {
  const seed = Number(process.env.FUZZ_SEED);
  return Number.isInteger(seed) ? seed : undefined;
}

class Hung extends Error {}

/** Fails the case instead of the whole file when `work` does not settle in time. */
async function within<T>(ms: number, what: string, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Hung(`${what} did not finish within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

let tmp: ReturnType<typeof tempDir>;
let engine: Engine;

beforeAll(async () => {
  tmp = tempDir('matchdesk-fuzz-');
  engine = await openTestEngine(join(tmp.dir, 'data'), { exportDir: join(tmp.dir, 'exports') });
});
afterAll(async () => {
  await engine?.close();
  tmp?.remove();
});

// ---------- the contract ----------

const CALL_NAMES = Object.keys(calls) as CallName[];
/** Calls that would leave the test's sandbox: the demo starts a simulator and imports a bundled sheet. */
const NOT_FUZZED = new Set<CallName>(['demo.start']);

/** Keys the schemas look for, so that generated objects get past the outer layer and into the fields. */
const INPUT_KEYS = [
  'projectId', 'searchId', 'rowIndex', 'rank', 'sheet', 'name', 'id', 'mapping', 'strategies', 'offline', 'concurrency',
  'offset', 'limit', 'states', 'text', 'applyToIdentical', 'format', 'scope', 'candidates', 'bom', 'delimiter',
  'filters', 'refresh', 'valuesPerCall', 'pageSize', 'column', 'field', 'baseUrl', 'orgId', 'kind', 'login', 'secret',
  'sessionOnly', 'cacheTtlDays', 'autoAccept', 'minConfidence', 'order', 'activeProfileId', 'defaultName', 'olderThanDays',
  'jobChanges', 'changedAtLastRefresh', 'everyDays', 'weekday', 'creditCeiling', 'since', 'rows', 'important', '__proto__', 'constructor',
];
const fieldValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.integer({ min: -3, max: 5 }),
  fc.constantFrom('', 'email', 'name+company', 'csv', 'xlsx', 'all', ',', 'o_demo', 'http://127.0.0.1:9', 'to_review', 'Name', NaN, Infinity, -0, 2 ** 53),
  fc.dictionary(fc.constantFrom('email', 'social', 'fullName', 'company', 'x'), fc.integer({ min: -1, max: 9 })),
  fc.array(fc.constantFrom('email', 'social', 'name+company', 'name', 'x'), { maxLength: 5 }),
);
const nearInput = fc.dictionary(fc.constantFrom(...INPUT_KEYS), fieldValue, { maxKeys: 6 });
const anyInput = fc.oneof(fc.anything({ maxDepth: 3 }), nearInput, fc.constant(undefined), fc.constant(null));

/**
 * A valid input for each call, which the fuzzer mutates field by field. Paths only ever point into the test's
 * temp folder, so no generated input writes or reads elsewhere.
 */
function templates(dir: string, sheet: string): Record<CallName, Record<string, unknown>> {
  const filter = { field: 'jobs.title', type: 'must', match_type: 'fuzzy', string_values: ['Engineer'] };
  const project = { projectId: 1 };
  return {
    'app.info': {}, 'profiles.list': {}, 'demo.start': {}, 'projects.list': {}, 'search.list': {}, 'settings.get': {},
    'app.startup': {},
    'cache.stats': {}, 'cache.clear': {}, 'dialog.openSheet': {},
    'profiles.save': { name: 'Fuzz', baseUrl: 'http://127.0.0.1:9', orgId: 'o_fuzz', kind: 'api_key', login: null, secret: 'fuzz-secret' },
    'profiles.test': { id: 'p_none' }, 'profiles.remove': { id: 'p_none' }, 'profiles.select': { id: null },
    'projects.sheets': { file: sheet }, 'projects.import': { file: sheet, name: 'Fuzzed' },
    'projects.get': project, 'projects.rename': { ...project, name: 'Renamed' }, 'projects.delete': { projectId: 2 },
    'mapping.preview': { ...project, mapping: { email: 1 }, strategies: ['email'] },
    'mapping.save': { ...project, mapping: { email: 1, fullName: 0 }, strategies: ['email', 'name+company'] },
    'run.preview': project, 'run.start': project, 'run.pause': project, 'run.resume': project,
    'run.status': project, 'run.failures': project,
    'review.page': { ...project, offset: 0, limit: 10 }, 'review.row': { ...project, rowIndex: 0 }, 'review.counts': { ...project },
    'decisions.choose': { ...project, rowIndex: 0, rank: 1 }, 'decisions.reject': { ...project, rowIndex: 0 },
    'decisions.skip': { ...project, rowIndex: 0 }, 'decisions.clear': { ...project, rowIndex: 0 }, 'decisions.undo': project,
    'decisions.acceptPreview': project, 'decisions.acceptAtOrAbove': { ...project, minConfidence: 0.9 }, 'job.list': project, 'job.cancel': { ...project, kind: 'run' },
    'decisions.record': { ...project, entries: [{ line: 2, row: 2, personId: null }] }, 'learning.learn': project, 'learning.summary': project, 'learning.sources': project, 'learning.reset': project, 'review.groups': project,
    'refresh.preview': { ...project, olderThanDays: 30 }, 'refresh.start': project, 'refresh.pause': project,
    'refresh.resume': project, 'refresh.status': project,
    'watch.set': { ...project, everyDays: 30, creditCeiling: 100 }, 'watch.clear': project, 'watch.list': {}, 'watch.runDue': project,
    'watch.changes': { ...project, since: '2026-01-01' }, 'watch.exportChanges': { ...project, since: '2026-01-01', format: 'csv', destination: join(dir, 'changes.csv') },
    'watch.markImportant': { ...project, rows: [0] }, 'watch.importantMarks': project, 'watch.inbox': project, 'watch.inboxCount': project, 'watch.markSeen': project,
    'export.run': { ...project, format: 'csv', scope: 'all', destination: join(dir, 'out.csv') },
    'search.run': { filters: [filter], offline: true }, 'search.status': { searchId: 1 },
    'search.resume': { searchId: 1 }, 'search.get': { searchId: 1 }, 'search.results': { searchId: 1, offset: 0, limit: 5 },
    'search.delete': { searchId: 1 }, 'search.export': { searchId: 1, format: 'csv', destination: join(dir, 'search.csv') },
    'search.columnValues': { file: sheet, column: 'Email' },
    'settings.update': { concurrency: 2 },
    'dialog.saveExport': { defaultName: 'x', format: 'csv' },
  };
}

const PATH_KEYS = new Set(['file', 'destination', 'candidatesDestination']);

/** Keeps, drops or replaces each field of a valid input, and sometimes adds one. */
function mutated(template: Record<string, unknown>, safePaths: string[]) {
  const entries = Object.entries(template).map(([key, value]) =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constant([key, value] as const) },
      { weight: 1, arbitrary: fc.constant(null) },
      { weight: 2, arbitrary: (PATH_KEYS.has(key) ? fc.constantFrom<unknown>(...safePaths, null, '', 7) : fieldValue).map((v) => [key, v] as const) },
    ),
  );
  return fc.tuple(fc.tuple(...entries), fc.option(fc.tuple(fc.constantFrom(...INPUT_KEYS.filter((k) => !(k in template))), fieldValue))).map(([kept, extra]) => {
    const input: Record<string, unknown> = {};
    for (const entry of kept) if (entry) input[entry[0]] = entry[1];
    if (extra) input[extra[0]] = extra[1];
    return input;
  });
}

describe('the contract', () => {
  it('parses any input with every call schema without throwing', () => {
    fc.assert(
      fc.property(fc.constantFrom(...CALL_NAMES), anyInput, (name, input) => {
        const parsed = calls[name].input.safeParse(input);
        expect(typeof parsed.success).toBe('boolean');
        if (!parsed.success) expect(parsed.error.issues.length).toBeGreaterThan(0);
      }),
      budget(3_000),
    );
  });

  it('dispatches any name and any input to a typed result: a value, or a plain ContractError that is not "internal"', async () => {
    const sheet = join(tmp.dir, 'people.csv');
    writeFileSync(sheet, 'Name,Email,Company\r\nAnn Lee,ann.lee@example.com,Acme\r\nBo Chen,bo@example.com,Globex\r\n');
    for (const name of ['First', 'Second']) {
      const imported = await engine.call('projects.import', { file: sheet, name });
      if (!imported.ok) throw new Error(imported.error.message);
    }
    const safePaths = [sheet, tmp.dir, join(tmp.dir, 'missing.csv'), join(tmp.dir, 'out.xlsx'), join(tmp.dir, 'no-such-folder', 'out.csv')];
    const valid = templates(tmp.dir, sheet);
    const fuzzed = CALL_NAMES.filter((n) => !NOT_FUZZED.has(n));
    const named = fc.constantFrom(...fuzzed).chain((name) => fc.tuple(fc.constant<unknown>(name), fc.oneof(anyInput, mutated(valid[name], safePaths))));
    const unnamed = fc.tuple(fc.oneof(fc.string({ maxLength: 30 }), fc.anything({ maxDepth: 1 })), anyInput);

    const seen = { ok: new Set<string>(), failed: new Map<string, number>() };
    await fc.assert(
      fc.asyncProperty(fc.oneof({ weight: 9, arbitrary: named }, { weight: 1, arbitrary: unnamed }), async ([name, input]) => {
        const result = (await within(5_000, label(name), () => engine.call(name as CallName, input))) as CallResult<CallName>;
        expect(typeof result.ok).toBe('boolean');
        if (result.ok) {
          expect(result).toHaveProperty('value');
          seen.ok.add(label(name));
          return;
        }
        const { error } = result;
        expect(ERROR_KINDS).toContain(error.kind);
        expect(typeof error.message).toBe('string');
        expect(error.message.length).toBeGreaterThan(0);
        // An "internal" error is an exception nobody typed: exactly what this suite is here to find.
        expect(error.kind, `${label(name)} ${JSON.stringify(input)?.slice(0, 300)}: ${error.message}`).not.toBe('internal');
        expect(JSON.parse(JSON.stringify(error))).toEqual(error);
        seen.failed.set(error.kind, (seen.failed.get(error.kind) ?? 0) + 1);
      }),
      budget(1_500, 8_000),
    );
    // The inputs must reach the handlers, not all stop at the schema.
    expect(seen.ok.size).toBeGreaterThan(10);
    expect(seen.failed.get('invalid_input') ?? 0).toBeGreaterThan(0);
    expect(seen.failed.get('not_found') ?? 0).toBeGreaterThan(0);
  });
});

// ---------- the CSV reader ----------

let caseNumber = 0;
function caseFile(bytes: Buffer | Uint8Array, ext = 'csv'): string {
  const path = join(tmp.dir, `case-${++caseNumber}.${ext}`);
  writeFileSync(path, bytes);
  return path;
}

/** Rows, or the SheetError: anything else thrown fails the property. */
async function readOrRefuse(path: string): Promise<string[][] | SheetError> {
  return within(5_000, `reading ${path}`, async () => {
    try {
      const sheet = await openSheet(path);
      const rows: string[][] = [sheet.headers];
      for await (const row of sheet.rows()) rows.push(row);
      return rows;
    } catch (err) {
      if (err instanceof SheetError) return err;
      throw err;
    }
  });
}

function checkOutcome(outcome: string[][] | SheetError): void {
  if (outcome instanceof SheetError) {
    expect(SHEET_ERROR_CODES).toContain(outcome.code);
    expect(outcome.message).toMatch(/“case-\d+\.\w+”/);
    return;
  }
  expect(outcome.length).toBeGreaterThanOrEqual(2);
  for (const row of outcome) for (const cell of row) expect(typeof cell).toBe('string');
}

const TEXT_TOKENS = ['a', 'Z', '7', ' ', 'é', '李', '😀', ',', ';', '\t', '|', '"', '""', '\r', '\n', '\r\n', '=', "'", '\\', '\u00a0', '\0', '\uFEFF'];
const textish = fc.array(fc.constantFrom(...TEXT_TOKENS), { maxLength: 400 }).map((t) => t.join(''));
const ENCODINGS = ['utf8', 'utf8-bom', 'utf16le-bom', 'utf16be-bom', 'windows-1252'] as const;

function encode(text: string, encoding: (typeof ENCODINGS)[number]): Buffer {
  switch (encoding) {
    case 'utf8':
      return Buffer.from(text, 'utf8');
    case 'utf8-bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
    case 'utf16le-bom':
      return Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(text, 'utf-16le')]);
    case 'utf16be-bom':
      return Buffer.concat([Buffer.from([0xfe, 0xff]), iconv.encode(text, 'utf-16be')]);
    case 'windows-1252':
      return iconv.encode(text, 'windows-1252');
  }
}

describe('the CSV reader', () => {
  it('reads arbitrary bytes to rows or a SheetError', async () => {
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 2_000 }),
      // Known signatures followed by noise: the sniffer's branches.
      fc.tuple(fc.constantFrom([0x50, 0x4b, 0x03, 0x04], [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], [0xef, 0xbb, 0xbf], [0xff, 0xfe], [0xfe, 0xff], [0x89, 0x50, 0x4e, 0x47]), fc.uint8Array({ maxLength: 600 })).map(
        ([head, rest]) => Buffer.concat([Buffer.from(head), Buffer.from(rest)]),
      ),
    );
    await fc.assert(
      fc.asyncProperty(bytes, async (b) => checkOutcome(await readOrRefuse(caseFile(b)))),
      budget(300, 5_000),
    );
  });

  it('reads arbitrary text of delimiters, quotes, line ends, NULs and BOMs, in every encoding, to rows or a SheetError', async () => {
    await fc.assert(
      fc.asyncProperty(textish, fc.constantFrom(...ENCODINGS), async (text, encoding) => checkOutcome(await readOrRefuse(caseFile(encode(text, encoding))))),
      budget(300, 5_000),
    );
  });

  it('gives back exactly the cells of any well-formed sheet, whatever the delimiter and encoding', async () => {
    const CELL_TOKENS = ['a', 'Z', '7', ' ', 'é', '李', '😀', ',', ';', '\t', '|', '"', '\r', '\n', '\r\n', '=', '\u00a0'];
    const cell = fc.array(fc.constantFrom(...CELL_TOKENS), { maxLength: 12 }).map((t) => t.join(''));
    const table = fc.integer({ min: 1, max: 5 }).chain((width) =>
      fc.array(
        fc.array(cell, { minLength: width, maxLength: width }).map((row) => [`x${row[0]}`, ...row.slice(1)]),
        { minLength: 1, maxLength: 8 },
      ).map((rows) => ({ headers: Array.from({ length: width }, (_, i) => `h${i + 1}`), rows })),
    );
    await fc.assert(
      fc.asyncProperty(table, fc.constantFrom(',', ';', '\t', '|'), fc.constantFrom('\r\n', '\n'), fc.constantFrom('utf8', 'utf8-bom', 'utf16le-bom', 'utf16be-bom' as const), async (t, delimiter, newline, encoding) => {
        const text = Papa.unparse([t.headers, ...t.rows], { delimiter, newline, quotes: true });
        const outcome = await readOrRefuse(caseFile(encode(text, encoding)));
        if (outcome instanceof SheetError) throw outcome;
        expect(outcome).toEqual([t.headers, ...t.rows]);
      }),
      budget(300, 5_000),
    );
  });
});

// ---------- rows in, rows out ----------

describe('import and export keep every row at its place', () => {
  it('reads records joined with any mix of CRLF, LF and CR and blank rows between them, and exports them row for row', async () => {
    const CELL_TOKENS = ['a', 'Z', '7', ' ', 'é', ',', ';', '"', '\r', '\n', '\r\n'];
    // Not starting with a CR, which the export guards against formulas with a leading ' (neutralize-formula.ts).
    const cell = fc.array(fc.constantFrom(...CELL_TOKENS), { maxLength: 8 }).map((t) => (t[0]?.startsWith('\r') ? ['a', ...t] : t).join(''));
    const NEWLINES = ['\r\n', '\n', '\r'];
    // A blank row as a file may hold it: an empty line, a row of empty cells, or of spaces.
    const BLANKS = ['', ',', ',,', '  ', ' , '];
    const record = fc.record({
      // null: a blank row; otherwise a data row (its first cell never blank), ragged or not.
      cells: fc.option(fc.array(cell, { minLength: 0, maxLength: 3 }).map((rest) => [`x${rest[0] ?? ''}`, ...rest.slice(1)]), { freq: 4, nil: null }),
      blank: fc.constantFrom(...BLANKS),
      newline: fc.constantFrom(...NEWLINES),
    });
    const sheet = fc.record({
      headerNewline: fc.constantFrom(...NEWLINES),
      records: fc.array(record, { minLength: 1, maxLength: 12 }),
      last: fc.array(cell, { minLength: 1, maxLength: 3 }).map((rest) => [`y${rest[0]}`, ...rest.slice(1)]),
      trailing: fc.array(fc.constantFrom(...NEWLINES, ...BLANKS.map((b) => `${b}\n`)), { maxLength: 3 }),
      finalNewline: fc.boolean(),
    });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(sheet, async (s) => {
        const rows: (string[] | null)[] = [...s.records.map((r) => r.cells), s.last];
        const unparse = (cells: string[]) => Papa.unparse([cells], { quotes: true, newline: '' });
        let text = `h1,h2,h3${s.headerNewline}`;
        let previous = s.headerNewline;
        for (const r of s.records) {
          const line = r.cells ? unparse(r.cells) : r.blank;
          // An empty line's LF after a CR would make one CRLF of the two: that LF is written as CRLF.
          const newline = line === '' && previous === '\r' && r.newline === '\n' ? '\r\n' : r.newline;
          text += line + newline;
          previous = newline;
        }
        text += unparse(s.last) + (s.finalNewline || s.trailing.length > 0 ? '\n' : '') + s.trailing.join('');
        const path = join(tmp.dir, `aligned-${run++}.csv`);
        writeFileSync(path, text);

        const project = await callOk(engine, 'projects.import', { file: path });
        const blank = rows.filter((r) => r === null).length;
        expect(project.summary).toMatchObject({ rowCount: rows.length - blank, blankRows: blank });
        const out = join(tmp.dir, `aligned-${run}-out.csv`);
        await callOk(engine, 'export.run', { projectId: project.summary.id, format: 'csv', scope: 'all', destination: out, bom: false });
        const exported = Papa.parse<string[]>(readFileSync(out, 'utf8'), { delimiter: ',', newline: '\r\n' }).data.filter((r) => r.length > 1 || r[0] !== '');
        // The header, then one record per row below it down to the last data row, each at its place.
        expect(exported).toHaveLength(1 + rows.length);
        const status = exported[0]!.indexOf('match_status');
        const width = status;
        rows.forEach((cells, i) => {
          const line = exported[i + 1]!;
          const original = cells ?? [];
          expect(line.slice(0, width)).toEqual([...original, ...Array<string>(width - original.length).fill('')]);
          if (cells) expect(ROW_STATES).toContain(line[status]);
          else expect(line.slice(status)).toEqual(['blank', ...Array<string>(line.length - status - 1).fill('')]);
        });
        // A data row is named by its number in the file: the header is row 1.
        const page = await callOk(engine, 'review.page', { projectId: project.summary.id, offset: 0, limit: 100 });
        expect(page.rows.map((r) => r.rowNumber)).toEqual(rows.flatMap((r, i) => (r ? [i + 2] : [])));
        await callOk(engine, 'projects.delete', { projectId: project.summary.id });
      }),
      budget(40, 10_000),
    );
  });
});

// ---------- the profile slug normalizer ----------

const SLUG_TOKENS = ['https://', 'http://', '//', 'www.', 'uk.', 'm.', 'linkedin.com', 'lnkd.in', 'example.com', '/in/', '/pub/', '/company/', '/', '?trk=x', '#top', '%', '%20', '%C3%A9', '%E2', '@', ':', '.', '-', '_', ' ', '\t', '"', '<', '>', 'é', 'İ', 'ß', '😀', 'jane', 'Doe', '123', 'a7', '\u200b', 'mailto:'];
const slugish = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 100 }),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.array(fc.constantFrom(...SLUG_TOKENS), { maxLength: 40 }).map((t) => t.join('')),
);
const SLUG_REASONS = ['empty', 'company_page', 'other_host', 'not_a_profile', 'invalid'];

describe('the profile slug normalizer', () => {
  // A pattern that backtracks without end on some input would hang here: the test's timeout catches a hang, with no
  // clock read that a loaded machine could trip.
  it('answers any string with a slug or a reason', () => {
    fc.assert(
      fc.property(slugish, (input) => {
        const result = profileSlugFromUrl(input);
        if (result.ok) {
          expect(result.slug.length).toBeGreaterThanOrEqual(2);
          expect(result.slug.length).toBeLessThanOrEqual(100);
          expect(result.slug).toMatch(/^[\p{L}\p{N}\p{M}_-]+$/u);
        } else {
          expect(SLUG_REASONS).toContain(result.reason);
          expect(typeof result.message).toBe('string');
        }
      }),
      budget(5_000),
    );
  });

  it('finds the same slug in every way of writing the link, and a found slug is a fixed point', () => {
    const slug = fc
      .array(fc.constantFrom('a', 'b', 'z', 'J', 'é', 'ü', '0', '9', '-', '_'), { minLength: 3, maxLength: 40 })
      .map((t) => t.join(''))
      .filter((s) => /\p{L}/u.test(s));
    const link = fc.constantFrom(
      (s: string) => `https://www.linkedin.com/in/${s}/`,
      (s: string) => `  linkedin.com/in/${s}?trk=x  `,
      (s: string) => `http://uk.linkedin.com/in/${s}/en`,
      (s: string) => `m.linkedin.com/in/${encodeURIComponent(s)}`,
      (s: string) => `<https://linkedin.com/in/${s}#about>`,
      (s: string) => s,
    );
    fc.assert(
      fc.property(slug, link, (s, write) => {
        const result = profileSlugFromUrl(write(s));
        expect(result).toEqual({ ok: true, slug: s.toLowerCase().normalize('NFC') });
        if (result.ok) expect(profileSlugFromUrl(result.slug)).toEqual(result);
      }),
      budget(2_000),
    );
  });

  // unwrap() in matching/normalize.ts once stripped wrappers with a /^[...]+|[...]+$/ regex, quadratic on a long
  // inner whitespace run: a 1 MiB cell of spaces would have blocked the engine for about half an hour, far past the
  // test's timeout, which catches it without a clock read a loaded machine could trip.
  it('stays linear on a long run of inner whitespace', () => {
    const input = `a${' '.repeat(1_000_000)}b`;
    expect(profileSlugFromUrl(input).ok).toBe(false);
    expect(normalizeEmail(input)).not.toContain('  ');
  });
});

// ---------- the find-reply parser ----------

const person = fc.dictionary(
  fc.constantFrom('id', 'name', 'full_name', 'email_address', 'linkedin', 'score', '_score', 'match_score', 'jobs', 'location'),
  fc.oneof(fc.string({ maxLength: 20 }), fc.double(), fc.constant(null), fc.constantFrom('0.93', '', 'x')),
  { maxKeys: 5 },
);
const personEntry = fc.oneof(person, fc.record({ person, score: fc.oneof(fc.double(), fc.constant(null), fc.constant('0.5')) }));
const item = fc.oneof(
  fc.constant(null),
  fc.array(personEntry, { maxLength: 4 }),
  fc.record({ people: fc.oneof(fc.array(personEntry, { maxLength: 4 }), fc.constant(null)) }),
  fc.record({ results: fc.array(personEntry, { maxLength: 4 }) }),
  fc.record({ matches: fc.array(personEntry, { maxLength: 4 }) }),
  fc.record({ persons: fc.array(personEntry, { maxLength: 4 }) }),
  fc.constant({ found: false }),
  fc.record({ person, score: fc.double() }),
  fc.constant({}),
);
/** Replies in every find shape the parser accepts. */
const wellFormed = fc.array(item, { maxLength: 6 }).chain((items) => fc.constantFrom({ items, reply: items as unknown }, { items, reply: { matches: items } as unknown }));

function checkCandidates(result: ReturnType<typeof parseFindReply>, queryCount: number): void {
  expect(Array.isArray(result)).toBe(true);
  expect(result).toHaveLength(queryCount);
  for (const candidates of result) {
    candidates.forEach((c, i) => {
      expect(c.rank).toBe(i + 1);
      expect(c.score === null || Number.isFinite(c.score)).toBe(true);
      expect(typeof c.person).toBe('object');
      expect(c.person).not.toBeNull();
    });
  }
}

describe('the find-reply parser', () => {
  it('turns any value into one candidate list per query, or a MalformedReplyError', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.anything({ maxDepth: 3 }), wellFormed.map((w) => w.reply)), fc.integer({ min: 0, max: 6 }), (json, queryCount) => {
        let result: ReturnType<typeof parseFindReply>;
        try {
          result = parseFindReply(json, queryCount);
        } catch (err) {
          expect(err).toBeInstanceOf(MalformedReplyError);
          return;
        }
        checkCandidates(result, queryCount);
      }),
      budget(5_000),
    );
  });

  it('reads every accepted shape, aligned with its queries', () => {
    fc.assert(
      fc.property(wellFormed, ({ items, reply }) => {
        const result = parseFindReply(JSON.parse(JSON.stringify(reply)), items.length);
        checkCandidates(result, items.length);
      }),
      budget(3_000),
    );
  });
});

/** A fuzzed call name as text: it may be any value, even one whose toString is not a function. */
function label(name: unknown): string {
  return typeof name === 'string' ? name : `(${name === null ? 'null' : typeof name})`;
}
