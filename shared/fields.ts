// The person fields a criteria search can filter on (those the service's search accepts), with their
// type and a label in plain words. The renderer's filter builder and the engine's validation both read this.

export const JOB_FUNCTIONS = [
  'Engineering',
  'Information Technology',
  'Marketing and Product',
  'Sales and Support',
  'Finance and Administration',
  'Human Resources',
  'Business Management',
  'Design',
  'Data Science',
  'Customer Success',
  'Operations',
  'Legal',
  'Research',
  'Medical and Clinical',
] as const;

export const JOB_LEVELS = ['Intern', 'Entry Level', 'Staff', 'Senior Staff', 'Manager', 'Director', 'VP', 'C-Team'] as const;

export type FieldType = 'text' | 'slug' | 'date' | 'enum';
export type MatchType = 'fuzzy' | 'exact' | 'exists';

export interface FieldInfo {
  path: string;
  label: string;
  type: FieldType;
  /** The vocabulary of an enum field. */
  values?: readonly string[];
  /** A field of one job entry: may take part in a `job_group`. */
  job: boolean;
  matchTypes: readonly MatchType[];
}

const TEXT: readonly MatchType[] = ['fuzzy', 'exact', 'exists'];
const EXACT: readonly MatchType[] = ['exact', 'exists'];
// Date filters carry bounds (date_from / date_to) whatever their match type; the builder sends "exact".
const DATE: readonly MatchType[] = ['exact', 'fuzzy', 'exists'];

export const SEARCH_FIELDS: readonly FieldInfo[] = [
  { path: 'name', label: 'Name', type: 'text', job: false, matchTypes: TEXT },
  { path: 'social', label: 'Profile slug', type: 'slug', job: false, matchTypes: EXACT },
  { path: 'location', label: 'Location', type: 'text', job: false, matchTypes: TEXT },
  { path: 'jobs.company.name', label: 'Company name', type: 'text', job: true, matchTypes: TEXT },
  { path: 'jobs.company.social', label: 'Company profile slug', type: 'slug', job: true, matchTypes: EXACT },
  { path: 'jobs.title', label: 'Job title', type: 'text', job: true, matchTypes: TEXT },
  { path: 'jobs.function', label: 'Job function', type: 'enum', values: JOB_FUNCTIONS, job: true, matchTypes: EXACT },
  { path: 'jobs.level', label: 'Job level', type: 'enum', values: JOB_LEVELS, job: true, matchTypes: EXACT },
  { path: 'jobs.started_at', label: 'Job started', type: 'date', job: true, matchTypes: DATE },
  { path: 'jobs.ended_at', label: 'Job ended', type: 'date', job: true, matchTypes: DATE },
];

export function fieldInfo(path: string): FieldInfo | undefined {
  return SEARCH_FIELDS.find((f) => f.path === path);
}
