import type { FindQuery } from '../../../shared/model';

/**
 * How `queries.query` holds a query: its terms as [field_name, search_term] pairs, in order, half the bytes of the
 * FindQuery JSON. Texts stored before in that JSON were rewritten so by migration 28.
 */
export function storedQuery(query: FindQuery): string {
  const fields = query.fields;
  return JSON.stringify(fields.length === 1 ? [[fields[0]!.field_name, fields[0]!.search_term]] : fields.map((f) => [f.field_name, f.search_term]));
}

/** A query as stored by storedQuery. */
export function queryFromStored(text: string): FindQuery {
  const pairs = JSON.parse(text) as [string, string][];
  return { fields: pairs.map(([field_name, search_term]) => ({ field_name, search_term })) };
}

declare const findFields: unique symbol;
/** A query's terms as a find call's body writes them (storedQueryFields): only the spec's two fields of each. */
export type FindFields = string & { readonly [findFields]: true };

/**
 * A stored query's terms as a find call's body writes them, `{"field_name":…,"search_term":…}` for each pair, joined
 * by commas: the text JSON.stringify makes of queryFromStored's fields, made from the stored text's own JSON strings
 * (storedQuery wrote them with JSON.stringify) with no object made. A text in another form is read with JSON.parse,
 * which throws for one that is not JSON, as queryFromStored does.
 */
export function storedQueryFields(text: string): FindFields {
  const fields = pairFields(text) ?? queryFromStored(text).fields.map((f) => JSON.stringify({ field_name: f.field_name, search_term: f.search_term })).join(',');
  return fields as FindFields;
}

const OPEN = 91; // [
const CLOSE = 93; // ]
const COMMA = 44;
const QUOTE = 34;
const BACKSLASH = 92;

/** storedQueryFields of a text in storedQuery's form, `[["name","value"],…]` with no spaces; null for any other. */
function pairFields(text: string): string | null {
  if (text.charCodeAt(0) !== OPEN) return null;
  if (text === '[]') return '';
  let fields = '';
  for (let at = 1; ; at++) {
    if (text.charCodeAt(at) !== OPEN || text.charCodeAt(at + 1) !== QUOTE) return null;
    const nameEnd = closingQuote(text, at + 1);
    if (nameEnd < 0 || text.charCodeAt(nameEnd + 1) !== COMMA || text.charCodeAt(nameEnd + 2) !== QUOTE) return null;
    const termEnd = closingQuote(text, nameEnd + 2);
    if (termEnd < 0 || text.charCodeAt(termEnd + 1) !== CLOSE) return null;
    fields += `${at > 1 ? ',' : ''}{"field_name":${text.slice(at + 1, nameEnd + 1)},"search_term":${text.slice(nameEnd + 2, termEnd + 1)}}`;
    at = termEnd + 2;
    if (text.charCodeAt(at) === CLOSE) return at === text.length - 1 ? fields : null;
    if (text.charCodeAt(at) !== COMMA) return null;
  }
}

/** The index of the quote that closes the JSON string opened at `open`; -1 when none does. */
function closingQuote(text: string, open: number): number {
  for (let from = open + 1; ; ) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return -1;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}
