import { describe, expect, it } from 'vitest';
import { detectMapping } from '../../../electron/engine/matching';
import type { Mapping } from '../../../shared/model';

// Realistic sample cells, by what a column holds.
const people = [
  { first: 'Jane', last: 'Doe', company: 'Acme Inc.', title: 'Head of Sales', city: 'Berlin' },
  { first: 'Jörg', last: 'Müller', company: 'Globex GmbH', title: 'CTO', city: 'München' },
  { first: 'Amélie', last: 'Dubois', company: 'Initech SA', title: 'Product Manager', city: 'Paris' },
  { first: 'Kofi', last: 'Mensah', company: 'Umbrella Corp', title: 'Software Engineer', city: 'Accra' },
  { first: 'Li', last: 'Wei', company: 'Stark Industries', title: 'VP Marketing', city: 'Shanghai' },
  { first: 'Sean', last: "O'Brien", company: 'Hooli LLC', title: 'Data Analyst', city: 'Dublin' },
];
const cell: Record<string, (p: (typeof people)[number], i: number) => string> = {
  first: (p) => p.first,
  last: (p) => p.last,
  full: (p) => `${p.first} ${p.last}`,
  email: (p, i) => `${p.first.toLowerCase().replace(/[^a-z]/g, '')}.${i}@${p.company.split(' ')[0]!.toLowerCase()}.com`,
  link: (p, i) => `https://www.linkedin.com/in/${p.first.toLowerCase()}-${p.last.toLowerCase().replace(/[^a-z]/g, '')}-${i}a2b`,
  slug: (p, i) => `${p.first.toLowerCase()}-${p.last.toLowerCase().replace(/[^a-z]/g, '')}-${i}a2b`,
  company: (p) => p.company,
  companyPlain: (p) => p.company.split(' ')[0]!,
  companyUrl: (p) => `https://www.${p.company.split(' ')[0]!.toLowerCase()}.com`,
  companyLinkedin: (p) => `https://www.linkedin.com/company/${p.company.split(' ')[0]!.toLowerCase()}`,
  title: (p) => p.title,
  city: (p) => p.city,
  status: (_p, i) => (i % 2 ? 'valid' : 'bounced'),
  bool: (_p, i) => (i % 2 ? 'TRUE' : 'FALSE'),
  phone: (_p, i) => `+49 30 1234 56${i}`,
  id: (_p, i) => String(1000 + i),
  date: (_p, i) => `2024-0${i + 1}-15`,
  manager: (_p, i) => ['Ann Lee', 'Tom Hart', 'Eva Stone', 'Raj Patel', 'Mia Chen', 'Leo Gray'][i]!,
  twitter: (p) => `https://twitter.com/${p.first.toLowerCase()}`,
  blank: () => '',
};

function sheet(columns: [header: string, kind: string][]): [string[], string[][]] {
  const headers = columns.map(([h]) => h);
  const rows = people.map((p, i) => columns.map(([, kind]) => cell[kind]!(p, i)));
  return [headers, rows];
}

const cases: [name: string, columns: [string, string][], expected: Mapping][] = [
  ['HubSpot contacts export',
    [['Record ID', 'id'], ['First Name', 'first'], ['Last Name', 'last'], ['Email', 'email'], ['Phone Number', 'phone'], ['Company Name', 'company'], ['Job Title', 'title'], ['LinkedIn URL', 'link']],
    { firstName: 1, lastName: 2, email: 3, company: 5, profile: 7 }],
  ['Apollo export with company columns that are not the person\'s',
    [['First Name', 'first'], ['Last Name', 'last'], ['Title', 'title'], ['Company', 'company'], ['Company Name for Emails', 'companyPlain'], ['Email', 'email'], ['Email Status', 'status'], ['Person Linkedin Url', 'link'], ['Website', 'companyUrl'], ['Company Linkedin Url', 'companyLinkedin'], ['City', 'city']],
    { firstName: 0, lastName: 1, company: 3, email: 5, profile: 7, location: 10 }],
  ['a city column is the location, preferred to a country; "Company Location" is nobody\'s',
    [['Name', 'full'], ['Country', 'city'], ['Company', 'company'], ['Company Location', 'city'], ['City', 'city']],
    { fullName: 0, company: 2, location: 4 }],
  ['LinkedIn connections export (links under "URL")',
    [['First Name', 'first'], ['Last Name', 'last'], ['URL', 'link'], ['Email Address', 'email'], ['Company', 'company'], ['Position', 'title'], ['Connected On', 'date']],
    { firstName: 0, lastName: 1, profile: 2, email: 3, company: 4 }],
  ['CRM with full name and account',
    [['Full Name', 'full'], ['Account Name', 'company'], ['Title', 'title'], ['Email', 'email'], ['Mailing City', 'city'], ['Account Owner', 'manager']],
    { fullName: 0, company: 1, email: 3 }],
  ['French headers: Nom beside Prénom is the surname',
    [['Prénom', 'first'], ['Nom', 'last'], ['Courriel', 'email'], ['Entreprise', 'company'], ['Poste', 'title']],
    { firstName: 0, lastName: 1, email: 2, company: 3 }],
  ['German headers',
    [['Vorname', 'first'], ['Nachname', 'last'], ['E-Mail-Adresse', 'email'], ['Firma', 'company'], ['LinkedIn-Profil', 'link']],
    { firstName: 0, lastName: 1, email: 2, company: 3, profile: 4 }],
  ['German "Name, Vorname"',
    [['Name', 'last'], ['Vorname', 'first'], ['Unternehmen', 'company']],
    { lastName: 0, firstName: 1, company: 2 }],
  ['Spanish headers: Nombre beside Apellidos is the first name',
    [['Nombre', 'first'], ['Apellidos', 'last'], ['Correo electrónico', 'email'], ['Empresa', 'company']],
    { firstName: 0, lastName: 1, email: 2, company: 3 }],
  ['look-alike columns are not taken: Manager name, Company URL, Company LinkedIn, Email status',
    [['Name', 'full'], ['Manager name', 'manager'], ['Company', 'company'], ['Company URL', 'companyUrl'], ['Company LinkedIn', 'companyLinkedin'], ['Email', 'email'], ['Email status', 'status'], ['LinkedIn', 'link']],
    { fullName: 0, company: 2, email: 5, profile: 7 }],
  ['a "Contact" column full of e-mails is the e-mail',
    [['Contact', 'email'], ['Organisation', 'company'], ['Profile', 'link']],
    { email: 0, company: 1, profile: 2 }],
  ['full name and first/last are all kept',
    [['Full Name', 'full'], ['First', 'first'], ['Last', 'last'], ['Work Email', 'email'], ['Employer', 'company']],
    { fullName: 0, firstName: 1, lastName: 2, email: 3, company: 4 }],
  ['a lone first name is not a name column',
    [['First Name', 'first'], ['Email', 'email'], ['Company', 'company']],
    { email: 1, company: 2 }],
  ['snake_case, camelCase and SHOUTING headers',
    [['first_name', 'first'], ['lastName', 'last'], ['EMAIL_ADDRESS', 'email'], ['company_name', 'company'], ['linkedin_profile_url', 'link']],
    { firstName: 0, lastName: 1, email: 2, company: 3, profile: 4 }],
  ['a header that promises e-mails but holds TRUE/FALSE loses to the cells',
    [['Contact Name', 'full'], ['Email Verified', 'bool'], ['Primary E-mail', 'email'], ['Mail', 'phone']],
    { fullName: 0, email: 2 }],
  ['"Social" with Twitter links is not a profile column; "Given name"/"Family name"',
    [['Given name', 'first'], ['Family name', 'last'], ['Social', 'twitter'], ['Organization', 'company']],
    { firstName: 0, lastName: 1, company: 3 }],
  ['a manager\'s e-mail is nobody\'s e-mail here',
    [['Name', 'full'], ['Manager Email', 'email'], ['Company', 'company']],
    { fullName: 0, company: 2 }],
  ['bare slugs under "Profile"; "Mail" and "Firma"',
    [['Name', 'full'], ['Mail', 'email'], ['Profile', 'slug'], ['Firma', 'company']],
    { fullName: 0, email: 1, profile: 2, company: 3 }],
];

describe('detectMapping on realistic headers', () => {
  it.each(cases)('%s', (_name, columns, expected) => {
    const [headers, rows] = sheet(columns);
    const { mapping, guesses } = detectMapping(headers, rows);
    expect(mapping).toEqual(expected);
    expect(guesses.map((g) => [g.field, g.column])).toEqual(Object.entries(mapping).map(([f, c]) => [f, c]));
    for (const guess of guesses) {
      expect(guess.confidence).toBeGreaterThan(0);
      expect(guess.confidence).toBeLessThanOrEqual(1);
      expect(guess.reason).not.toBe('');
    }
  });

  it('says why: the header, or the share of cells', () => {
    const [headers, rows] = sheet([['Work Email', 'email'], ['Contact', 'email'], ['Column 3', 'link']]);
    const { guesses } = detectMapping(headers, rows.map((r) => [r[0]!, r[1]!, r[2]!]));
    const email = guesses.find((g) => g.field === 'email')!;
    expect(email.column).toBe(0);
    expect(email.reason).toBe("header 'Work Email'; 100% of cells look like e-mails");
    const profile = guesses.find((g) => g.field === 'profile')!;
    expect(profile).toMatchObject({ column: 2, reason: '100% of cells look like LinkedIn profile links' });
    expect(profile.confidence).toBeGreaterThanOrEqual(0.9);
  });

  it('works from headers alone when there are no rows', () => {
    const { mapping } = detectMapping(['Name', 'E-mail', 'LinkedIn', 'Company'], []);
    expect(mapping).toEqual({ fullName: 0, email: 1, profile: 2, company: 3 });
  });

  it('puts weak headers below strong ones', () => {
    const { guesses } = detectMapping(['Account', 'Email'], []);
    const byField = Object.fromEntries(guesses.map((g) => [g.field, g.confidence]));
    expect(byField.company).toBeLessThan(byField.email!);
  });
});

describe('detectMapping on content only', () => {
  const headers = ['Column 1', 'Column 2', 'Column 3', 'Column 4'];

  it('finds e-mails, links, names and companies by their cells', () => {
    const [, rows] = sheet([['', 'full'], ['', 'email'], ['', 'link'], ['', 'company']]);
    expect(detectMapping(headers, rows).mapping).toEqual({ fullName: 0, email: 1, profile: 2, company: 3 });
  });

  it('in any column order, and with empty headers', () => {
    const [, rows] = sheet([['', 'company'], ['', 'link'], ['', 'full'], ['', 'email']]);
    expect(detectMapping(['', '', '', ''], rows).mapping).toEqual({ company: 0, profile: 1, fullName: 2, email: 3 });
  });

  it('does not take job titles or cities for names', () => {
    const [, rows] = sheet([['', 'title'], ['', 'city'], ['', 'email'], ['', 'full']]);
    expect(detectMapping(headers, rows).mapping).toEqual({ email: 2, fullName: 3 });
  });

  it('tolerates blanks and placeholders among the cells', () => {
    const [, rows] = sheet([['', 'email'], ['', 'link']]);
    rows[0]![0] = '';
    rows[1]![0] = 'n/a';
    rows[2]![1] = '-';
    expect(detectMapping(['A', 'B'], rows).mapping).toEqual({ email: 0, profile: 1 });
  });

  it('uses rows wider than the header row', () => {
    const [, rows] = sheet([['', 'full'], ['', 'email']]);
    expect(detectMapping([], rows).mapping).toEqual({ fullName: 0, email: 1 });
  });

  it('suggests nothing for columns it cannot read', () => {
    const [, rows] = sheet([['', 'id'], ['', 'date'], ['', 'phone']]);
    expect(detectMapping(['Column 1', 'Column 2', 'Column 3'], rows)).toEqual({ mapping: {}, guesses: [] });
  });

  it('survives ragged rows and odd values', () => {
    const rows = [['jane@acme.com'], [], ['bob@acme.com', 'x', 'y'], [null as unknown as string, 'z']];
    const { mapping } = detectMapping(['Email'], rows);
    expect(mapping).toEqual({ email: 0 });
  });
});
