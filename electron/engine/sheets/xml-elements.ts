/**
 * Attributes of every `<name .../>` element, with or without a namespace prefix. The small parts read whole
 * (workbook.xml, its rels, styles.xml) are flat lists of such elements, so a full XML parser would add nothing.
 */
export function elements(xml: string, name: string): Record<string, string>[] {
  const found: Record<string, string>[] = [];
  const tag = new RegExp(`<(?:[\\w.-]+:)?${name}\\b([^>]*)>`, 'g');
  for (const match of xml.matchAll(tag)) {
    const attributes: Record<string, string> = {};
    for (const attr of match[1].matchAll(/([\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
      attributes[attr[1]] = decodeXml(attr[2] ?? attr[3] ?? '');
    }
    found.push(attributes);
  }
  return found;
}

const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** XML text with its entities (`&amp;`, `&#233;`, `&#x1F600;`) decoded; one that is not well-formed is left as written. */
export function decodeXml(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]+|#\d+|lt|gt|amp|quot|apos);/gi, (whole, entity: string) => {
    const lower = entity.toLowerCase();
    if (lower.startsWith('#')) {
      const code = lower.startsWith('#x') ? parseInt(lower.slice(2), 16) : parseInt(lower.slice(1), 10);
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[lower] ?? whole;
  });
}
