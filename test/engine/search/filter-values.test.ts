import { describe, expect, it } from 'vitest';
import { companySlugFromText, normalizeFilters, normalizeValue, normalizeValues } from '../../../electron/engine/search';

describe('company slugs (jobs.company.social)', () => {
  it('strips a company page link down to its slug, whatever the host form, trailing path or query', () => {
    for (const link of [
      'https://www.linkedin.com/company/acme-robotics/',
      'http://linkedin.com/company/Acme-Robotics/about/?trk=x',
      'uk.linkedin.com/company/acme-robotics',
      '<https://www.linkedin.com/company/acme-robotics>',
      ' "linkedin.com/company/acme-robotics/people" ',
      '/company/acme-robotics',
      'company/acme-robotics',
    ]) {
      expect(companySlugFromText(link), link).toEqual({ ok: true, value: 'acme-robotics' });
    }
  });

  it('keeps a bare slug (lower-cased), decodes percent-encoded letters and keeps school and showcase pages', () => {
    expect(companySlugFromText('ACME')).toEqual({ ok: true, value: 'acme' });
    expect(companySlugFromText('https://www.linkedin.com/company/caf%C3%A9-nova')).toEqual({ ok: true, value: 'café-nova' });
    expect(companySlugFromText('https://www.linkedin.com/school/eth-zurich/')).toEqual({ ok: true, value: 'eth-zurich' });
    expect(companySlugFromText('https://www.linkedin.com/company/1035/')).toEqual({ ok: true, value: '1035' });
  });

  it('says why a value is not a company slug', () => {
    expect(companySlugFromText('https://www.linkedin.com/in/jane-doe')).toMatchObject({ ok: false, message: expect.stringMatching(/person's profile link/) });
    expect(companySlugFromText('https://acme.com/about')).toMatchObject({ ok: false, message: expect.stringMatching(/not a LinkedIn company link/) });
    expect(companySlugFromText('Acme Robotics Inc')).toMatchObject({ ok: false, message: expect.stringMatching(/has spaces/) });
    expect(companySlugFromText('https://www.linkedin.com/feed/')).toMatchObject({ ok: false, message: expect.stringMatching(/without a company page/) });
    expect(companySlugFromText('   ')).toEqual({ ok: false, message: 'empty' });
  });
});

describe('values by field type', () => {
  it('reads person profile slugs with the matching module and refuses a company page there', () => {
    expect(normalizeValue('social', 'https://www.linkedin.com/in/Jane-Doe-123/en')).toEqual({ ok: true, value: 'jane-doe-123' });
    expect(normalizeValue('social', 'https://www.linkedin.com/company/acme')).toMatchObject({ ok: false, message: expect.stringMatching(/company page/) });
  });

  it('spells enum values as the vocabulary does and folds whitespace in text', () => {
    expect(normalizeValue('jobs.function', '  engineering ')).toEqual({ ok: true, value: 'Engineering' });
    expect(normalizeValue('jobs.level', 'c-team')).toEqual({ ok: true, value: 'C-Team' });
    expect(normalizeValue('jobs.title', ' Data \u00a0 Scientist ')).toEqual({ ok: true, value: 'Data Scientist' });
  });

  it('drops blanks, keeps each value once after normalizing (text case-insensitively) and reports unusable ones', () => {
    const companies = normalizeValues('jobs.company.social', ['acme', '', 'https://linkedin.com/company/acme/', 'Globex', 'https://x.com/acme', 'globex']);
    expect(companies.values).toEqual(['acme', 'globex']);
    expect(companies.given).toBe(5);
    expect(companies.problems).toHaveLength(1);
    expect(normalizeValues('jobs.title', ['CTO', 'cto', 'Cto ']).values).toEqual(['CTO']);
  });
});

describe('normalizeFilters', () => {
  it('normalizes every list, trims dates and keeps groups; problems name the filter', () => {
    const { filters, problems } = normalizeFilters([
      { field: 'jobs.company.social', type: 'must', match_type: 'exact', string_values: ['linkedin.com/company/acme', 'https://www.linkedin.com/in/bob'], job_group: 2 },
      { field: 'jobs.ended_at', type: 'must', match_type: 'exact', date_from: ' 2024-01-01 ', job_group: 2 },
    ]);
    expect(filters).toEqual([
      { field: 'jobs.company.social', type: 'must', match_type: 'exact', string_values: ['acme'], job_group: 2 },
      { field: 'jobs.ended_at', type: 'must', match_type: 'exact', date_from: '2024-01-01', job_group: 2 },
    ]);
    expect(problems).toEqual([{ index: 0, message: expect.stringMatching(/^Filter 1 \(jobs.company.social\): a person's profile link/) }]);
  });
});
