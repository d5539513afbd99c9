import { describe, expect, it } from 'vitest';
import { evidenceFor, rowInput, type RowInput } from '../../../electron/engine/matching';
import type { EvidenceMark, PersonJson } from '../../../shared/model';

const row = (cells: { name?: string; email?: string; profile?: string; company?: string }): RowInput =>
  rowInput([cells.name ?? '', cells.email ?? '', cells.profile ?? '', cells.company ?? ''], { fullName: 0, email: 1, profile: 2, company: 3 });

const jane: PersonJson = {
  id: 'p1',
  name: 'Jane Doe',
  linkedin: 'jane-doe-123',
  jobs: [
    { title: 'Head of Sales', company: { name: 'Acme Inc.' } },
    { title: 'Account Executive', ended_at: '2021-06-30', company: { name: 'Globex Corporation' } },
  ],
};

describe('evidenceFor', () => {
  it('marks every field of a good match', () => {
    const person = { ...jane, email_address: 'Jane@Acme.com' };
    expect(evidenceFor(row({ name: 'Jane Doe', email: 'jane@acme.com', profile: 'https://www.linkedin.com/in/Jane-Doe-123/', company: 'ACME, Inc' }), person))
      .toEqual({ email: 'same', social: 'same', name: 'same', company: 'same' });
  });

  it('marks everything missing when the row has nothing', () => {
    expect(evidenceFor(row({}), jane)).toEqual({ email: 'missing', social: 'missing', name: 'missing', company: 'missing' });
  });

  it('marks everything missing when the person has nothing', () => {
    expect(evidenceFor(row({ name: 'Jane Doe', email: 'jane@acme.com', profile: 'jane-doe', company: 'Acme' }), {}))
      .toEqual({ email: 'missing', social: 'missing', name: 'missing', company: 'missing' });
  });

  it('never throws on odd person shapes', () => {
    const input = row({ name: 'Jane Doe', email: 'jane@acme.com', profile: 'jane-doe', company: 'Acme' });
    for (const odd of [null, [], 3, { jobs: 'x', emails: 'y', name: 5, linkedin: {} }, { jobs: [null, { company: [] }] }]) {
      const evidence = evidenceFor(input, odd as PersonJson);
      for (const mark of Object.values(evidence)) expect(['same', 'close', 'differs', 'missing']).toContain(mark);
    }
  });
});

describe('e-mail evidence', () => {
  const cases: [string, string, PersonJson, EvidenceMark][] = [
    ['no e-mail on the person (the usual case)', 'jane@acme.com', jane, 'missing'],
    ['no e-mail in the row', '', { email_address: 'jane@acme.com' }, 'missing'],
    ['an invalid e-mail in the row', 'jane@', { email_address: 'jane@acme.com' }, 'missing'],
    ['equal email_address', 'Jane@Acme.com', { email_address: 'jane@acme.com' }, 'same'],
    ['equal email', 'jane@acme.com', { email: ' JANE@ACME.COM ' }, 'same'],
    ['one of emails[]', 'jane@acme.com', { emails: ['j@old.com', 'jane@acme.com'] }, 'same'],
    ['one of emails[] as objects', 'jane@acme.com', { emails: [{ address: 'x@y.com' }, { email: 'jane@acme.com' }] }, 'same'],
    ['a +tag variant of the same mailbox', 'jane+crm@acme.com', { email_address: 'jane@acme.com' }, 'close'],
    ['a Gmail dot variant', 'jane.doe@gmail.com', { email_address: 'janedoe@googlemail.com' }, 'close'],
    ['another address', 'jane@acme.com', { email_address: 'jdoe@globex.com' }, 'differs'],
    ['an unreadable address on the person', 'jane@acme.com', { email_address: 'not an address' }, 'missing'],
  ];
  it.each(cases)('%s', (_label, email, person, mark) => {
    expect(evidenceFor(row({ email }), person).email).toBe(mark);
  });
});

describe('profile evidence', () => {
  const cases: [string, string, PersonJson, EvidenceMark][] = [
    ['same slug from a link', 'https://uk.linkedin.com/in/Jane-Doe-123/en', { linkedin: 'jane-doe-123' }, 'same'],
    ['same slug in social', 'jane-doe-123', { social: 'Jane-Doe-123' }, 'same'],
    ['a link stored on the person', 'jane-doe-123', { linkedin: 'https://www.linkedin.com/in/jane-doe-123' }, 'same'],
    ['same non-ASCII slug', 'https://www.linkedin.com/in/j%C3%B6rg-m%C3%BCller', { linkedin: 'jörg-müller' }, 'same'],
    ['another slug', 'jane-doe-123', { linkedin: 'jane-doe-456' }, 'differs'],
    ['the person has none', 'jane-doe-123', { name: 'Jane' }, 'missing'],
    ['the row has none', '', { linkedin: 'jane-doe-123' }, 'missing'],
    ['the row has a company page', 'linkedin.com/company/acme', { linkedin: 'acme' }, 'missing'],
  ];
  it.each(cases)('%s', (_label, profile, person, mark) => {
    expect(evidenceFor(row({ profile }), person).social).toBe(mark);
  });
});

describe('name evidence', () => {
  const cases: [string, string, PersonJson, EvidenceMark][] = [
    ['equal', 'Jane Doe', { name: 'Jane Doe' }, 'same'],
    ['equal but for case, accents, spaces', 'JOSÉ  muller', { name: 'José Müller' }, 'same'],
    ['special letters', 'Lukasz Zolc', { name: 'Łukasz Żółć' }, 'same'],
    ['reordered with a comma', 'Doe, Jane', { name: 'Jane Doe' }, 'same'],
    ['from first_name + last_name', 'Jane Doe', { first_name: 'Jane', last_name: 'Doe' }, 'same'],
    ['hyphen or space', 'Jean-Pierre Martin', { name: 'Jean Pierre Martin' }, 'same'],
    ['a middle name more', 'Jane Doe', { name: 'Jane Mary Doe' }, 'close'],
    ['a surname more', 'Maria Garcia', { name: 'Maria Garcia Lopez' }, 'close'],
    ['an initial', 'J. Doe', { name: 'Jane Doe' }, 'close'],
    ['initials only', 'J. D.', { name: 'Jane Doe' }, 'close'],
    ['a swapped-letters typo', 'Jnae Doe', { name: 'Jane Doe' }, 'close'],
    ['one letter off in short words is another name', 'Jan Deo', { name: 'Jen Dee' }, 'differs'],
    ['a typo in a long surname', 'Anna Kowalsky', { name: 'Anna Kowalski' }, 'close'],
    ['two typos in a very long name', 'Alexandra Papadopoulou', { name: 'Aleksandra Papadopolou' }, 'close'],
    ['written together', 'Maryann Smith', { name: 'Mary Ann Smith' }, 'close'],
    ['a nickname with the same surname', 'Bob Smith', { name: 'Robert Smith' }, 'close'],
    ['a changed surname', 'Jane Smith', { name: 'Jane Doe' }, 'close'],
    ['someone else', 'John Smith', { name: 'Jane Doe' }, 'differs'],
    ['only a particle in common', 'Maria de Souza', { name: 'Pedro de Lima' }, 'differs'],
    ['an initial that does not fit', 'K. Doe', { name: 'Jane Roe' }, 'differs'],
    ['the person has no name', 'Jane Doe', { id: 'x' }, 'missing'],
    ['the row has no name', '', { name: 'Jane Doe' }, 'missing'],
    ['the row name is only punctuation', '--', { name: 'Jane Doe' }, 'missing'],
  ];
  it.each(cases)('%s', (_label, name, person, mark) => {
    expect(evidenceFor(row({ name }), person).name).toBe(mark);
  });
});

describe('company evidence', () => {
  const cases: [string, string, PersonJson, EvidenceMark][] = [
    ['the current job', 'Acme', jane, 'same'],
    ['the current job, legal forms ignored', 'ACME Inc', jane, 'same'],
    ['a past job counts as the same company', 'Globex', jane, 'same'],
    ['a past job with another legal form', 'Globex Corp.', jane, 'same'],
    ['legal forms at both ends', 'The Initech Co., Ltd.', { jobs: [{ company: { name: 'Initech' } }] }, 'same'],
    ['GmbH / AG / BV / plc / SA / LLC', 'Siemens AG', { jobs: [{ company: { name: 'Siemens' } }] }, 'same'],
    ['accents ignored', 'Societe Generale SA', { jobs: [{ company: { name: 'Société Générale' } }] }, 'same'],
    ['spaces ignored', 'Face Book', { jobs: [{ company: { name: 'Facebook' } }] }, 'same'],
    ['a prefix', 'Acme', { jobs: [{ company: { name: 'Acme Robotics' } }] }, 'close'],
    ['a prefix of a past job', 'Globex', { jobs: [{ company: { name: 'Initech' } }, { ended_at: '2020', company: { name: 'Globex Systems Europe' } }] }, 'close'],
    ['a shared distinctive word', 'Stark Industries', { jobs: [{ company: { name: 'Stark Enterprises' } }] }, 'close'],
    ['a one-letter typo', 'Microsfot', { jobs: [{ company: { name: 'Microsoft' } }] }, 'close'],
    ['only a generic word in common', 'Acme Group', { jobs: [{ company: { name: 'Globex Group' } }] }, 'differs'],
    ['another company', 'Umbrella', jane, 'differs'],
    ['from the position', 'Hooli', { position: { title: 'CEO', company: { name: 'Hooli Inc' } } }, 'same'],
    ['from a top-level company string', 'Hooli', { company: 'Hooli' }, 'same'],
    ['the person has no job', 'Acme', { name: 'Jane' }, 'missing'],
    ['the person\'s jobs have no company', 'Acme', { jobs: [{ title: 'CEO' }] }, 'missing'],
    ['the row has no company', '', jane, 'missing'],
  ];
  it.each(cases)('%s', (_label, company, person, mark) => {
    expect(evidenceFor(row({ company }), person).company).toBe(mark);
  });
});
