import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { comparable, foldWhitespace, fullNameFrom, normalizeEmail, profileSlugFromUrl } from '../../../electron/engine/matching';

describe('profileSlugFromUrl', () => {
  const slugs: [string, string][] = [
    ['https://www.linkedin.com/in/jane-doe-123/', 'jane-doe-123'],
    ['linkedin.com/in/Jane-Doe?trk=x', 'jane-doe'],
    ['http://uk.linkedin.com/in/jane/en', 'jane'],
    ['https://de.linkedin.com/in/max-mustermann/de', 'max-mustermann'],
    ['https://m.linkedin.com/in/bob-smith', 'bob-smith'],
    ['m.linkedin.com/in/bob-smith/', 'bob-smith'],
    ['www.linkedin.com/in/jane-doe', 'jane-doe'],
    ['//www.linkedin.com/in/jane-doe', 'jane-doe'],
    ['HTTPS://WWW.LINKEDIN.COM/IN/JANE-DOE', 'jane-doe'],
    ['https:/www.linkedin.com/in/jane-doe', 'jane-doe'],
    ['https://www.linkedin.com/in/jane-doe/details/experience/', 'jane-doe'],
    ['https://www.linkedin.com/in/jane-doe/overlay/contact-info/', 'jane-doe'],
    ['https://www.linkedin.com:443/in/jane-doe', 'jane-doe'],
    ['https://www.linkedin.com/in/jane-doe?originalSubdomain=uk#experience', 'jane-doe'],
    ['https://linkedin.com/in/jane#fragment', 'jane'],
    ['https://www.linkedin.com/in/jane_doe', 'jane_doe'],
    // Old public form: LinkedIn redirects /pub/name/a/b/c to /in/name-cccbbba (reversed, last two padded to 3).
    ['https://www.linkedin.com/pub/jane-doe/12/345/678', 'jane-doe-67834512'],
    ['https://sy.linkedin.com/pub/krzysztof-marzec/a7/576/b50?trk=biz_employee_pub', 'krzysztof-marzec-b50576a7'],
    ['https://uk.linkedin.com/pub/abdi-ahmed/100/384/6b0', 'abdi-ahmed-6b0384100'],
    ['https://www.linkedin.com/pub/jane-doe/1/2b/3', 'jane-doe-00302b1'],
    ['https://www.linkedin.com/pub/jane-doe', 'jane-doe'],
    ['https://www.linkedin.com/in/j%C3%B6rg-m%C3%BCller', 'jörg-müller'],
    ['/in/j%C3%B6rg-m%C3%BCller', 'jörg-müller'],
    ['in/jane-doe', 'jane-doe'],
    ['https://www.linkedin.com/in/%E5%BC%A0%E4%BC%9F-123', '张伟-123'],
    ['https://www.linkedin.com/in/JÖRG-Müller', 'jörg-müller'],
    ['https://www.linkedin.com/in/jo\u0308rg', 'jörg'], // decomposed ö: NFC so one profile gives one slug
    ['https://www.linkedin.com/in/ab', 'ab'], // inside /in/ a short slug is trusted
    ['jane-doe-123', 'jane-doe-123'],
    ['Jane-Doe-123', 'jane-doe-123'],
    ['janedoe', 'janedoe'],
    ['jane_doe', 'jane_doe'],
    ['jörg-müller', 'jörg-müller'],
    ['j%C3%B6rg', 'jörg'],
    ['jane-doe/', 'jane-doe'],
    ['jane-doe#top', 'jane-doe'],
    ['  jane-doe  ', 'jane-doe'],
    ['"jane-doe"', 'jane-doe'],
    ['\u00a0<https://www.linkedin.com/in/jane-doe>\t', 'jane-doe'],
    ["'https://www.linkedin.com/in/jane-doe/'", 'jane-doe'],
    ['“https://www.linkedin.com/in/jane-doe”', 'jane-doe'],
    ['https://www.linkedin.com/in/jane-doe\u200b', 'jane-doe'],
    ['İlker-yilmaz', 'i̇lker-yilmaz'],
  ];
  it.each(slugs)('%s -> %s', (input, slug) => {
    expect(profileSlugFromUrl(input)).toEqual({ ok: true, slug });
  });

  const rejects: [string, string, string][] = [
    ['', 'empty', 'no profile link'],
    ['   ', 'empty', 'no profile link'],
    ['""', 'empty', 'no profile link'],
    ['https://www.linkedin.com/company/acme', 'company_page', 'company page, not a profile: https://www.linkedin.com/company/acme'],
    ['linkedin.com/company/acme', 'company_page', 'company page, not a profile: linkedin.com/company/acme'],
    ['https://www.linkedin.com/school/mit/', 'company_page', 'school page, not a profile: https://www.linkedin.com/school/mit/'],
    ['https://www.linkedin.com/showcase/acme-labs', 'company_page', 'showcase page, not a profile: https://www.linkedin.com/showcase/acme-labs'],
    ['/company/acme', 'company_page', 'company page, not a profile: /company/acme'],
    ['https://twitter.com/jane', 'other_host', 'not a LinkedIn link (twitter.com): https://twitter.com/jane'],
    ['https://x.com/jane', 'other_host', 'not a LinkedIn link (x.com): https://x.com/jane'],
    ['github.com/jane', 'other_host', 'not a LinkedIn link (github.com): github.com/jane'],
    ['https://notlinkedin.com/in/jane', 'other_host', 'not a LinkedIn link (notlinkedin.com): https://notlinkedin.com/in/jane'],
    ['https://linkedin.com.evil.example/in/jane', 'other_host', 'not a LinkedIn link (linkedin.com.evil.example): https://linkedin.com.evil.example/in/jane'],
    ['https://www.linkedin.com/feed/', 'not_a_profile', 'LinkedIn link without a profile (/in/...): https://www.linkedin.com/feed/'],
    ['https://www.linkedin.com/', 'not_a_profile', 'LinkedIn link without a profile (/in/...): https://www.linkedin.com/'],
    ['linkedin.com', 'not_a_profile', 'LinkedIn link without a profile (/in/...): linkedin.com'],
    ['https://www.linkedin.com/in/', 'not_a_profile', 'LinkedIn link without a profile (/in/...): https://www.linkedin.com/in/'],
    ['https://www.linkedin.com/jobs/view/123', 'not_a_profile', 'LinkedIn link without a profile (/in/...): https://www.linkedin.com/jobs/view/123'],
    ['https://www.linkedin.com/constructor/jane', 'not_a_profile', 'LinkedIn link without a profile (/in/...): https://www.linkedin.com/constructor/jane'],
    ['https://www.linkedin.com/pub/dir/jane/doe', 'not_a_profile', 'directory page, not a profile: https://www.linkedin.com/pub/dir/jane/doe'],
    ['https://www.linkedin.com/sales/people/ACwAAB,NAME', 'not_a_profile', 'Sales Navigator or Recruiter link, not a public profile: https://www.linkedin.com/sales/people/ACwAAB,NAME'],
    ['https://www.linkedin.com/profile/view?id=12345', 'not_a_profile', 'old numeric profile link without a slug: https://www.linkedin.com/profile/view?id=12345'],
    ['https://lnkd.in/abcd', 'not_a_profile', 'short link, open it and use the full profile link: https://lnkd.in/abcd'],
    ['Jane Doe', 'invalid', 'not a profile link or slug: Jane Doe'],
    ['jane doe 123', 'invalid', 'not a profile link or slug: jane doe 123'],
    ['12345', 'invalid', 'not a profile link or slug: 12345'],
    ['ab', 'invalid', 'not a profile link or slug: ab'],
    ['jane!', 'invalid', 'not a profile link or slug: jane!'],
    ['jane@acme.com', 'invalid', 'an e-mail address, not a profile link: jane@acme.com'],
    ['mailto:jane@acme.com', 'invalid', 'an e-mail address, not a profile link: mailto:jane@acme.com'],
    ['ftp://linkedin.com/in/jane', 'invalid', 'not a web link: ftp://linkedin.com/in/jane'],
    ['https://www.linkedin.com/in/%E0%A4%A', 'invalid', 'broken %-encoding in profile link: https://www.linkedin.com/in/%E0%A4%A'],
    ['https://www.linkedin.com/in/jane%20doe', 'invalid', 'profile link with an unusable slug: https://www.linkedin.com/in/jane%20doe'],
    [`jane-${'x'.repeat(100)}`, 'invalid', `not a profile link or slug: jane-${'x'.repeat(100)}`],
  ];
  it.each(rejects)('%s is %s', (input, reason, message) => {
    expect(profileSlugFromUrl(input)).toEqual({ ok: false, reason, message });
  });

  it('shortens a very long input in its message', () => {
    const result = profileSlugFromUrl(`https://example.com/${'a'.repeat(500)}`);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message.length).toBeLessThan(200);
  });

  it('never throws, and every slug is lower-case, trimmed and at most 100 characters', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.webUrl(), fc.constantFrom('https://www.linkedin.com/in/', 'linkedin.com/pub/')
        .chain((prefix) => fc.string({ unit: 'binary' }).map((s) => prefix + s))), (input) => {
        const result = profileSlugFromUrl(input);
        if (result.ok) {
          expect(result.slug).toBe(result.slug.toLowerCase());
          expect(result.slug).toBe(result.slug.trim());
          expect(result.slug.length).toBeGreaterThan(0);
          expect([...result.slug].length).toBeLessThanOrEqual(100);
          expect(result.slug).not.toMatch(/[/?#\s]/u);
        } else {
          expect(result.message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('finds the slug in any LinkedIn profile link built around it', () => {
    const slug = fc.stringMatching(/^[a-z][a-z0-9-]{2,40}$/);
    const host = fc.constantFrom('linkedin.com', 'www.linkedin.com', 'uk.linkedin.com', 'm.linkedin.com');
    const scheme = fc.constantFrom('', 'http://', 'https://', '//');
    const tail = fc.constantFrom('', '/', '/en', '?trk=abc', '#x', '/details/skills/?a=b');
    fc.assert(fc.property(scheme, host, slug, tail, (s, h, sl, t) => {
      expect(profileSlugFromUrl(`${s}${h}/in/${sl}${t}`)).toEqual({ ok: true, slug: sl });
    }));
  });
});

describe('normalizeEmail', () => {
  const good: [string, string][] = [
    ['bob@example.com', 'bob@example.com'],
    ['  Bob@Example.COM ', 'bob@example.com'],
    ['\u00a0jane.doe+crm@acme.co.uk\t', 'jane.doe+crm@acme.co.uk'],
    ['<jane@acme.com>', 'jane@acme.com'],
    ['"jane@acme.com"', 'jane@acme.com'],
    ['Jane Doe <jane@acme.com>', 'jane@acme.com'],
    ['mailto:Jane@Acme.com', 'jane@acme.com'],
    ['jane@acme.com;', 'jane@acme.com'],
    ["o'brien@acme.ie", "o'brien@acme.ie"],
    ['müller@bücher.de', 'müller@bücher.de'],
    ['a@b.xn--p1ai', 'a@b.xn--p1ai'],
    ['first_last@sub.domain-x.io', 'first_last@sub.domain-x.io'],
  ];
  it.each(good)('%s -> %s', (input, email) => {
    expect(normalizeEmail(input)).toEqual({ ok: true, email });
  });

  const bad: [string, string, string][] = [
    ['', 'empty', 'no e-mail'],
    [' \t\u00a0', 'empty', 'no e-mail'],
    ['bob@', 'invalid', "invalid e-mail 'bob@'"],
    ['@acme.com', 'invalid', "invalid e-mail '@acme.com'"],
    ['bob', 'invalid', "invalid e-mail 'bob'"],
    ['bob@acme', 'invalid', "invalid e-mail 'bob@acme'"],
    ['bob@acme.c', 'invalid', "invalid e-mail 'bob@acme.c'"],
    ['bob smith@acme.com', 'invalid', "invalid e-mail 'bob smith@acme.com'"],
    ['bob@@acme.com', 'invalid', "invalid e-mail 'bob@@acme.com'"],
    ['bob@acme..com', 'invalid', "invalid e-mail 'bob@acme..com'"],
    ['.bob@acme.com', 'invalid', "invalid e-mail '.bob@acme.com'"],
    ['bo..b@acme.com', 'invalid', "invalid e-mail 'bo..b@acme.com'"],
    ['bob@-acme.com', 'invalid', "invalid e-mail 'bob@-acme.com'"],
    ['bob@acme.com, ann@acme.com', 'invalid', "invalid e-mail 'bob@acme.com, ann@acme.com'"],
    ['https://www.linkedin.com/in/bob', 'invalid', "invalid e-mail 'https://www.linkedin.com/in/bob'"],
  ];
  it.each(bad)('%s is %s', (input, reason, message) => {
    expect(normalizeEmail(input)).toEqual({ ok: false, reason, message });
  });

  it('never throws; what it accepts is lower-case, without spaces, with one @', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.emailAddress()), (input) => {
        const result = normalizeEmail(input);
        if (result.ok) {
          expect(result.email).toBe(result.email.toLowerCase());
          expect(result.email).not.toMatch(/\s/u);
          expect(result.email.split('@')).toHaveLength(2);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('accepts generated addresses and is idempotent on them', () => {
    fc.assert(fc.property(fc.emailAddress(), (address) => {
      const once = normalizeEmail(address);
      if (!once.ok) return; // fast-check produces RFC forms (quoted locals, IP literals) we do not promise to take
      expect(normalizeEmail(once.email)).toEqual(once);
    }));
  });
});

describe('foldWhitespace', () => {
  it.each([
    ['  Jane   Doe  ', 'Jane Doe'],
    ['Jane\u00a0Doe', 'Jane Doe'],
    ['Jane\tDoe\n', 'Jane Doe'],
    ['\u2003Jane\u202fDoe\u3000', 'Jane Doe'],
    ['\ufeffJane Doe', 'Jane Doe'],
    ['Jane\u200b Doe', 'Jane Doe'],
    ['Jane \r\n Doe', 'Jane Doe'],
    ['', ''],
    [' \t ', ''],
    ['Acme, Inc.', 'Acme, Inc.'],
  ])('%j -> %j', (input, folded) => {
    expect(foldWhitespace(input)).toBe(folded);
  });

  it('keeps case and is idempotent', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => {
      const once = foldWhitespace(s);
      expect(foldWhitespace(once)).toBe(once);
      expect(once).not.toMatch(/\s\s|^\s|\s$/u);
    }));
  });
});

describe('fullNameFrom', () => {
  it.each([
    [{ fullName: ' Jane  Doe ' }, 'Jane Doe'],
    [{ fullName: 'Jane Doe', firstName: 'J', lastName: 'D' }, 'Jane Doe'],
    [{ fullName: '  ', firstName: 'Jane', lastName: 'Doe' }, 'Jane Doe'],
    [{ firstName: 'Jane\u00a0', lastName: ' Doe' }, 'Jane Doe'],
    [{ firstName: 'Jane' }, 'Jane'],
    [{ lastName: 'Doe' }, 'Doe'],
    [{}, null],
    [{ fullName: '', firstName: '', lastName: ' ' }, null],
  ])('%j -> %j', (cells, name) => {
    expect(fullNameFrom(cells)).toBe(name);
  });
});

describe('comparable', () => {
  it.each([
    ['José Müller', 'jose muller'],
    ['Łukasz Żółć', 'lukasz zolc'],
    ['Søren Ærø', 'soren aero'],
    ['Straße', 'strasse'],
    ['STRASSE', 'strasse'],
    ['Œuvre', 'oeuvre'],
    ['Đorđe', 'dorde'],
    ['Þór Guðmundsson', 'thor gudmundsson'],
    ['İstanbul', 'istanbul'],
    ['ıšık', 'isik'],
    ['François-Xavier', 'francois xavier'],
    ["O'Brien", 'obrien'],
    ['O’Brien', 'obrien'],
    ['Doe, Jane', 'doe jane'],
    ['Acme, Inc.', 'acme inc'],
    ['AT&T', 'at t'],
    ['ﬁnance', 'finance'],
    ['Ⅻ', 'xii'],
    ['Ｊａｎｅ', 'jane'],
    ['  Jane \u00a0 Doe ', 'jane doe'],
    ['Владимир Путин', 'владимир путин'],
    ['张伟', '张伟'],
    ['---', ''],
  ])('%j -> %j', (input, expected) => {
    expect(comparable(input)).toBe(expected);
  });

  it('is idempotent, lower-case and folded', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const once = comparable(s);
        expect(comparable(once)).toBe(once);
        expect(once).toBe(once.toLowerCase());
        expect(once).not.toMatch(/\s\s|^\s|\s$/u);
      }),
      { numRuns: 3000 },
    );
  });
});
