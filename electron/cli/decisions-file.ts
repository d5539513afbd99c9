import { readFile } from 'node:fs/promises';
import Papa from 'papaparse';
import { CliError } from './cli-error';

/** One decision of a decisions file: the sheet's row number, and the person chosen (null: none of the candidates). */
export interface DecisionEntry {
  line: number;
  row: number;
  personId: string | null;
}

const COLUMNS = ['row', 'person_id'];

/**
 * Reads a decisions file (matchdesk decide): a CSV with exactly the columns `row` and `person_id`, in either order.
 * Any bad line refuses the whole file, naming the line and what to do; nothing is sent before all of it is read.
 */
export async function readDecisionsFile(path: string): Promise<DecisionEntry[]> {
  let text: string;
  try {
    text = (await readFile(path, 'utf8')).replace(/^\uFEFF/u, '');
  } catch (err) {
    throw new CliError(`Cannot read the decisions file ${path}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'it does not exist' : (err as Error).message}.`);
  }
  // Line by line, so each refusal names the line a text editor shows.
  const lines = text.split(/\r\n|\n|\r/u);
  const refuse = (line: number, why: string) => new CliError(`${path}, line ${line}: ${why}. Nothing was recorded.`);
  const cellsOf = (line: number): string[] => {
    const parsed = Papa.parse<string[]>(lines[line - 1]!, { header: false });
    if (parsed.errors.length > 0 || parsed.data.length !== 1) throw refuse(line, 'not one CSV record (a quoted cell may not span lines)');
    return parsed.data[0]!.map((c) => c.trim());
  };
  const header = cellsOf(1).map((c) => c.toLowerCase());
  if (header.length !== COLUMNS.length || !COLUMNS.every((c) => header.includes(c))) {
    throw refuse(1, `the columns must be exactly "row" and "person_id" (person_id blank when none of the candidates fits), not "${header.join('", "')}"`);
  }
  const rowAt = header.indexOf('row');
  const personAt = header.indexOf('person_id');
  const entries: DecisionEntry[] = [];
  for (let line = 2; line <= lines.length; line++) {
    if (lines[line - 1]!.trim() === '') continue;
    const cells = cellsOf(line);
    if (cells.length !== COLUMNS.length) throw refuse(line, `${cells.length} cells where the header has ${COLUMNS.length}`);
    const rowText = cells[rowAt]!;
    if (!/^[1-9]\d{0,8}$/u.test(rowText)) throw refuse(line, `row "${rowText}" is not a row number as the app shows it (2 for the first row under the header)`);
    entries.push({ line, row: Number(rowText), personId: cells[personAt] === '' ? null : cells[personAt]! });
  }
  if (entries.length === 0) throw refuse(lines.length, 'the file has no decisions under its header');
  return entries;
}
