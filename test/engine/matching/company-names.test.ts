import { describe, expect, it } from 'vitest';
import { atCompany, companyAgreement, compareCompanyNames, companyKey, domainBelongsTo, domainCompanyKey } from '../../../electron/engine/matching/company-names';

describe('compareCompanyNames', () => {
  it.each([
    ['Globex', 'Globex Inc.'],
    ['GLOBEX', 'Globex, Inc.'],
    ['The Globex Company', 'Globex'],
    ['Globex Corporation', 'globex corp'],
    ['Müller & Söhne', 'Mueller and Soehne GmbH'],
    ['Blue Harbor Systems', 'Blueharbor Systems Ltd'],
    ['Smith & Jones', 'Smith and Jones LLP'],
    ['Société Générale', 'Societe Generale SA'],
  ])('%s and %s are one company', (a, b) => {
    expect(compareCompanyNames(a, b)).toBe('same');
  });

  it.each([
    // A short name, in capitals or not, for the name with what the company does after it.
    ['CYBERDYNE', 'Cyberdyne Systems'],
    ['Acme', 'Acme Robotics'],
    ['Blueharbor', 'Blue Harbor Labs GmbH'],
    ['Tesla', 'Tesla Motors, Inc.'],
    // A name with descriptive words added, after its legal form or "&" too.
    ['Sterling Cooper & Partners', 'Sterling Cooper'],
    ['Sterling Cooper and Partners LLP', 'Sterling Cooper Inc.'],
    ['Black Mesa Research', 'Black Mesa'],
    ['Globex Group International', 'GLOBEX'],
    ['Nova Analytics', 'Nova Bio Analytics'],
    // One distinctive word for a name it begins: the first partner of a firm, a brand before its other words.
    ['Pereira', 'Pereira & Karlsson'],
    ['Meridian', 'Meridian Bridge Logistics AG'],
    ['Meridianbridge', 'Meridian Bridge Logistics'],
    // A typo in a longer name; an acronym written in capitals.
    ['Initech Solutions', 'Initech Sulutions'],
    ['IBM', 'International Business Machines Corporation'],
    ['BOA', 'Bank of America'],
    ['KPMG LLP', 'Klynveld Peat Marwick Goerdeler'],
  ])('%s and %s are close', (a, b) => {
    expect(compareCompanyNames(a, b)).toBe('close');
    expect(compareCompanyNames(b, a)).toBe('close');
  });

  it.each([
    ['Globex', 'Hooli'],
    ['Acme Systems', 'Initech Systems'],
    ['Bank of America', 'Bank of Ireland'],
    ['', 'Globex'],
    // Different companies that share a word, common or not: one word in common is not one company.
    ['Stone Analytics', 'Blue Stone Capital'],
    ['Nova Analytics', 'Nova Robotics'],
    ['Nova Analytics', 'Nova Peak Analytics'],
    ['Urban Path Security SA', 'Urban Energy'],
    ['Copper Pharma', 'Meridian Ridge Pharma'],
    ['Dupont & Söhne', 'Campbell & Söhne'],
    ['Sterling Cooper', 'Sterling Draper'],
    // A name that only begins the other's first word is another name.
    ['Nørre Ltd', 'Nørrebridge Ventures'],
    ['Acme', 'Acmecorp'],
    // Two words are not one: a first word that a longer first word begins, or a short or descriptive one.
    ['Karlsson', 'Pereira & Karlsson'],
    ['Red', 'Red Ridge Analytics'],
    ['Data', 'Data Harbor Systems'],
    // Descriptive words alone name no company; a lower-case or long word is no acronym.
    ['Data Systems', 'Data Cloud Systems'],
    ['Research', 'Black Mesa Research'],
    ['ibm', 'International Business Machines'],
    ['Ace', 'Apex Cloud Energy'],
  ])('%s and %s differ', (a, b) => {
    expect(compareCompanyNames(a, b)).toBe('differs');
    expect(compareCompanyNames(b, a)).toBe('differs');
  });

  it('says how far apart two close names are: the words one has beyond the other', () => {
    expect(companyAgreement('Globex', 'Globex Inc.')).toEqual({ match: 'same', apart: 0 });
    expect(companyAgreement('Granite Group International', 'Granite Group LLC')).toEqual({ match: 'close', apart: 1 });
    expect(companyAgreement('Granite Group International', 'Granite Inc.')).toEqual({ match: 'close', apart: 2 });
  });

  it('finds the items at a company: the same name first, else the closest of the close ones', () => {
    const name = (n: string) => n;
    expect(atCompany('Globex', ['Globex Robotics', 'Hooli', 'Globex Inc.'], name)).toEqual({ match: 'same', items: ['Globex Inc.'] });
    expect(atCompany('Granite Group International', ['Granite Inc.', 'Granite Group LLC', 'Granite Group'], name)).toEqual({ match: 'close', items: ['Granite Group LLC', 'Granite Group'] });
    expect(atCompany('Stone Analytics', ['Blue Stone Capital', null], (n) => n)).toEqual({ match: 'differs', items: [] });
  });

  it('keeps a name made only of legal words whole', () => {
    expect(companyKey('The Company')).toBe('the company');
    expect(companyKey('The Acme Co., Ltd.')).toBe('acme');
  });
});

describe('e-mail domains and companies', () => {
  it('names the company in a domain, under any public suffix', () => {
    expect(domainCompanyKey('globex.com')).toBe('globex');
    expect(domainCompanyKey('mail.globex.co.uk')).toBe('globex');
    expect(domainCompanyKey('blue-harbor.io')).toBe(domainCompanyKey('blueharbor.com'));
  });

  it('matches a domain to the company\'s own domain or to its name', () => {
    expect(domainBelongsTo('globex.com', { name: 'Globex Inc.', domain: null })).toBe(true);
    expect(domainBelongsTo('eu.globex.com', { name: null, domain: 'globex.com' })).toBe(true);
    expect(domainBelongsTo('hooli.com', { name: 'Globex Inc.', domain: 'globex.com' })).toBe(false);
    expect(domainBelongsTo('ab.com', { name: 'AB', domain: null })).toBe(false);
  });
});
