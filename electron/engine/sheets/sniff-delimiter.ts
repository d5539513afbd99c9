export const DELIMITERS = [',', '\t', ';', '|'] as const;

const MAX_RECORDS = 200;

/**
 * Picks the delimiter from the first records of a text sheet: the candidate (counted outside quotes) whose
 * count per record agrees best with the header row's, then the one splitting the header into more columns.
 * `complete` says the text is the whole file, so its last record is not cut short. CRLF, LF and CR all end a record.
 */
export function sniffLayout(text: string, complete: boolean): { delimiter: string } {
  const records: number[][] = [];
  let counts = DELIMITERS.map(() => 0);
  let nonEmpty = false;
  let inQuotes = false;
  for (let i = 0; i < text.length && records.length < MAX_RECORDS; i++) {
    const ch = text[i];
    if (ch === '"') {
      inQuotes = !inQuotes;
      nonEmpty = true;
      continue;
    }
    if (inQuotes) continue;
    if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      if (nonEmpty) records.push(counts);
      counts = DELIMITERS.map(() => 0);
      nonEmpty = false;
      continue;
    }
    const d = DELIMITERS.indexOf(ch as (typeof DELIMITERS)[number]);
    if (d >= 0) counts[d]++;
    if (ch.trim() !== '') nonEmpty = true;
  }
  if (nonEmpty && complete && records.length < MAX_RECORDS) records.push(counts);
  return { delimiter: bestDelimiter(records) };
}

function bestDelimiter(records: number[][]): string {
  if (records.length === 0) return ',';
  const [header, ...rows] = records;
  let best = { index: 0, consistency: -1, columns: 0 };
  DELIMITERS.forEach((_, d) => {
    const columns = header[d];
    if (columns === 0) return;
    const consistency = rows.length === 0 ? 1 : rows.filter((r) => r[d] === columns).length / rows.length;
    if (consistency > best.consistency || (consistency === best.consistency && columns > best.columns)) {
      best = { index: d, consistency, columns };
    }
  });
  return DELIMITERS[best.index];
}
