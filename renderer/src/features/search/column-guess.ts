// Which column of a sheet most likely holds the values a filter wants, so the picker starts on it.

const HINTS: Record<string, RegExp[]> = {
  'jobs.company.social': [/linkedin|slug/i, /company.*(link|url|page)/i, /company|employer|organi[sz]ation/i],
  'jobs.company.name': [/company|employer|organi[sz]ation/i],
  'jobs.title': [/title|position|role/i],
  'jobs.function': [/function|department/i],
  'jobs.level': [/level|seniority/i],
  social: [/linkedin|profile|slug/i, /url|link/i],
  name: [/^(full )?name$/i, /name/i],
  location: [/location|city|country|region/i],
};

/** The first header matching the field's strongest hint, else column 0. */
export function guessColumn(headers: readonly string[], field: string): number {
  for (const hint of HINTS[field] ?? []) {
    const index = headers.findIndex((header) => hint.test(header));
    if (index >= 0) return index;
  }
  return 0;
}
