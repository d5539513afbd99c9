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
