import { MAPPED_FIELDS, type MappedField, type Mapping, type Strategy } from '../../../../shared/model';

export const FIELD_LABELS: Record<MappedField, string> = {
  fullName: 'Full name',
  firstName: 'First name',
  lastName: 'Last name',
  email: 'E-mail',
  profile: 'Profile link',
  company: 'Company',
  location: 'Location',
};

export const STRATEGY_LABELS: Record<Strategy, string> = {
  email: 'E-mail',
  social: 'Profile link',
  'name+company': 'Name and company',
  name: 'Name alone',
};

export const STRATEGY_HELP: Record<Strategy, string> = {
  email: 'Exact and cheap when the sheet has work e-mails.',
  social: 'The profile slug from a link such as linkedin.com/in/jane-doe.',
  'name+company': 'Finds most people when there is no e-mail or link.',
  name: 'A name alone is often ambiguous: expect more rows to review.',
};

function hasName(mapping: Mapping): boolean {
  return mapping.fullName !== undefined || (mapping.firstName !== undefined && mapping.lastName !== undefined);
}

/** What a strategy still lacks in this mapping, in words; null when it can run. */
export function strategyNeeds(strategy: Strategy, mapping: Mapping): string | null {
  switch (strategy) {
    case 'email':
      return mapping.email === undefined ? 'needs an e-mail column' : null;
    case 'social':
      return mapping.profile === undefined ? 'needs a profile link column' : null;
    case 'name+company':
      if (!hasName(mapping) && mapping.company === undefined) return 'needs name and company columns';
      if (!hasName(mapping)) return 'needs a full name, or first and last name columns';
      return mapping.company === undefined ? 'needs a company column' : null;
    case 'name':
      return hasName(mapping) ? null : 'needs a full name, or first and last name columns';
  }
}

/** Sets or clears one field of a mapping (-1 = not used), leaving the others as they were. */
export function withField(mapping: Mapping, field: MappedField, column: number): Mapping {
  const next: Mapping = {};
  for (const name of MAPPED_FIELDS) {
    const value = name === field ? column : mapping[name];
    if (value !== undefined && value >= 0) next[name] = value;
  }
  return next;
}
