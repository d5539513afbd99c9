import { describe, expect, it } from 'vitest';
import { compareCompanyNames, companyKey, domainBelongsTo, domainCompanyKey } from '../../../electron/engine/matching/company-names';

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
    ['Acme', 'Acme Robotics'],
    ['Initech Solutions', 'Initech Sulutions'],
    ['Nova Analytics', 'Nova Bio Analytics'],
  ])('%s and %s are close', (a, b) => {
    expect(compareCompanyNames(a, b)).toBe('close');
  });

  it.each([
    ['Globex', 'Hooli'],
    ['Acme Systems', 'Initech Systems'],
    ['Bank of America', 'Bank of Ireland'],
    ['', 'Globex'],
  ])('%s and %s differ', (a, b) => {
    expect(compareCompanyNames(a, b)).toBe('differs');
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
