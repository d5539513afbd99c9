/**
 * Renders a stored cell number the way a spreadsheet app shows it, for the number formats people's sheets
 * carry: dates and times, fixed decimals, thousands, percentages, zero-padded codes (ZIP "00000"), phone and
 * ID masks ("(000) 000-0000"), currency literals and scientific notation. Fractions, conditions and locale
 * calendars fall back to the plain number.
 */
export function formatNumber(value: number, format: string | undefined, date1904 = false): string {
  if (!Number.isFinite(value)) return '';
  const code = format?.trim();
  if (!code || /^general$/i.test(code) || code === '@') return plainNumber(value);
  const sections = splitSections(code);
  let section = sections[0];
  let number = value;
  let signShown = false;
  if (value < 0 && sections.length >= 2 && sections[1].trim() !== '') {
    section = sections[1];
    number = -value;
    signShown = true;
  } else if (value === 0 && sections.length >= 3) {
    section = sections[2];
  }
  if (isDateFormat(section)) return formatDateSerial(value + (date1904 ? 1462 : 0), section);
  return formatWithSection(number, section, signShown) ?? plainNumber(value);
}

/** What Excel's General format and formula bar show: up to 15 significant digits, so no binary float noise. */
export function plainNumber(value: number): string {
  if (!Number.isFinite(value)) return '';
  if (Object.is(value, -0)) return '0';
  if (Number.isInteger(value) && Math.abs(value) < 1e21) return String(value);
  return String(Number(value.toPrecision(15))).replace(/e([+-])(\d)$/, 'e$10$2').replace('e', 'E');
}

/** Whether a number format shows a date or time (quoted text, escapes and [brackets] do not count). */
export function isDateFormat(section: string): boolean {
  const bare = stripLiterals(section).replace(/am\/pm|a\/p/gi, '');
  if (/general/i.test(bare)) return false;
  return /[dyhs]/i.test(bare) || (/m/i.test(bare) && !/[0#?]/.test(bare)) || /\[(h+|m+|s+)\]/i.test(section);
}

/**
 * Dates as YYYY-MM-DD, with " HH:MM" (":SS" when the format shows seconds) when the format has a time; time-only
 * formats as HH:MM[:SS]; elapsed-time formats ([h]:mm) as total hours. Serials count days from 1899-12-30.
 */
export function formatDateSerial(serial: number, format: string): string {
  const bare = stripLiterals(format).replace(/am\/pm|a\/p/gi, 'T');
  const hasSeconds = /s/i.test(bare);
  const hasTime = /[hsT]/i.test(bare) || /\[(h+|m+|s+)\]/i.test(format);
  const hasDate = /[dy]/i.test(bare) || (/m/i.test(bare) && !/[hs]/i.test(bare));
  let seconds = Math.round(serial * 86400);
  if (/\[(h+|m+|s+)\]/i.test(format)) {
    const sign = seconds < 0 ? '-' : '';
    seconds = Math.abs(seconds);
    const hours = Math.floor(seconds / 3600);
    const time = `${sign}${hours}:${pad2(Math.floor(seconds / 60) % 60)}`;
    return hasSeconds ? `${time}:${pad2(seconds % 60)}` : time;
  }
  let days = Math.floor(seconds / 86400);
  seconds -= days * 86400;
  // Excel counts 1900-02-29, which never existed: serials before it are one day later than plain arithmetic says.
  if (days > 0 && days < 60) days += 1;
  const time = `${pad2(Math.floor(seconds / 3600))}:${pad2(Math.floor(seconds / 60) % 60)}${hasSeconds ? `:${pad2(seconds % 60)}` : ''}`;
  if (!hasDate) return time;
  const date = new Date(Date.UTC(1899, 11, 30) + days * 86400000);
  const ymd = `${String(date.getUTCFullYear()).padStart(4, '0')}-${pad2(date.getUTCMonth() + 1)}-${pad2(date.getUTCDate())}`;
  return hasTime ? `${ymd} ${time}` : ymd;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

function stripLiterals(section: string): string {
  return section.replace(/"[^"]*"/g, '').replace(/\\./g, '').replace(/[_*]./g, '').replace(/\[[^\]]*\]/g, '');
}

function splitSections(code: string): string[] {
  const sections: string[] = [];
  let current = '';
  for (let i = 0; i < code.length; i++) {
    const ch = code[i];
    if (ch === '"') {
      const end = code.indexOf('"', i + 1);
      const stop = end < 0 ? code.length : end;
      current += code.slice(i, stop + 1);
      i = stop;
    } else if (ch === '\\' || ch === '_' || ch === '*') {
      current += code.slice(i, i + 2);
      i++;
    } else if (ch === '[') {
      const end = code.indexOf(']', i);
      const stop = end < 0 ? code.length : end;
      current += code.slice(i, stop + 1);
      i = stop;
    } else if (ch === ';') {
      sections.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  sections.push(current);
  return sections;
}

type Token = { kind: 'digit'; ch: string } | { kind: 'point' } | { kind: 'comma' } | { kind: 'percent' } | { kind: 'exp'; sign: string } | { kind: 'text'; text: string } | { kind: 'general' };

function tokenize(section: string): Token[] | null {
  const tokens: Token[] = [];
  for (let i = 0; i < section.length; i++) {
    const ch = section[i];
    if (ch === '"') {
      const end = section.indexOf('"', i + 1);
      const stop = end < 0 ? section.length : end;
      tokens.push({ kind: 'text', text: section.slice(i + 1, stop) });
      i = stop;
    } else if (ch === '\\') {
      tokens.push({ kind: 'text', text: section[i + 1] ?? '' });
      i++;
    } else if (ch === '_') {
      tokens.push({ kind: 'text', text: ' ' });
      i++;
    } else if (ch === '*') {
      i++;
    } else if (ch === '[') {
      const end = section.indexOf(']', i);
      const inner = section.slice(i + 1, end < 0 ? section.length : end);
      if (inner.startsWith('$')) tokens.push({ kind: 'text', text: inner.slice(1).split('-')[0] });
      i = end < 0 ? section.length : end;
    } else if (ch === '0' || ch === '#' || ch === '?') {
      tokens.push({ kind: 'digit', ch });
    } else if (ch === '.') {
      tokens.push({ kind: 'point' });
    } else if (ch === ',') {
      tokens.push({ kind: 'comma' });
    } else if (ch === '%') {
      tokens.push({ kind: 'percent' });
    } else if ((ch === 'E' || ch === 'e') && (section[i + 1] === '+' || section[i + 1] === '-')) {
      tokens.push({ kind: 'exp', sign: section[i + 1] });
      i++;
    } else if (ch === '/') {
      return null;
    } else if (section.slice(i, i + 7).toLowerCase() === 'general') {
      tokens.push({ kind: 'general' });
      i += 6;
    } else if (ch === '@') {
      continue;
    } else {
      tokens.push({ kind: 'text', text: ch });
    }
  }
  return tokens;
}

function formatWithSection(value: number, section: string, signShown: boolean): string | null {
  const tokens = tokenize(section);
  if (!tokens) return null;
  const negative = value < 0 && !signShown;
  let number = Math.abs(value);
  const digitAt = tokens.flatMap((t, i) => (t.kind === 'digit' ? [i] : []));
  if (digitAt.length === 0) {
    const text = tokens.map((t) => (t.kind === 'text' ? t.text : t.kind === 'general' ? plainNumber(number) : t.kind === 'percent' ? '%' : '')).join('');
    return (negative ? '-' : '') + text.trim();
  }
  for (const t of tokens) if (t.kind === 'percent') number *= 100;
  const expAt = tokens.findIndex((t) => t.kind === 'exp');
  const pointAt = tokens.findIndex((t, i) => t.kind === 'point' && (expAt < 0 || i < expAt));
  const integerEnd = pointAt >= 0 ? pointAt : expAt >= 0 ? expAt : digitAt[digitAt.length - 1] + 1;
  const lastIntegerDigit = digitAt.filter((i) => i < integerEnd).pop() ?? -1;
  // Commas right after the last integer digit scale by a thousand each ("#,##0," shows thousands).
  let scaleCommas = 0;
  for (let i = lastIntegerDigit + 1; i < tokens.length && tokens[i].kind === 'comma'; i++) scaleCommas++;
  number /= 1000 ** scaleCommas;
  const grouping = tokens.some((t, i) => t.kind === 'comma' && i > digitAt[0] && i < lastIntegerDigit);
  const decimalTokens = digitAt.filter((i) => i > integerEnd && (expAt < 0 || i < expAt));
  const decimals = pointAt >= 0 ? decimalTokens.length : 0;
  const minDecimals = decimalTokens.filter((i) => (tokens[i] as { ch: string }).ch === '0').length;

  let intDigits: string;
  let fracDigits: string;
  let exponent = '';
  if (expAt >= 0) {
    const [mantissa, exp] = number.toExponential(decimals).split('e');
    [intDigits, fracDigits = ''] = mantissa.split('.');
    const expDigits = digitAt.filter((i) => i > expAt).length;
    const expValue = Number(exp);
    const sign = expValue < 0 ? '-' : (tokens[expAt] as { sign: string }).sign === '+' ? '+' : '';
    exponent = `E${sign}${String(Math.abs(expValue)).padStart(expDigits, '0')}`;
  } else {
    const fixed = roundFixed(number, decimals);
    [intDigits, fracDigits = ''] = fixed.split('.');
  }
  while (fracDigits.length > minDecimals && fracDigits.endsWith('0')) fracDigits = fracDigits.slice(0, -1);
  const integerTokens = digitAt.filter((i) => i < integerEnd);
  const minInteger = integerTokens.filter((i) => (tokens[i] as { ch: string }).ch === '0').length;
  if (intDigits === '0' && minInteger === 0) intDigits = '';
  intDigits = intDigits.padStart(minInteger, '0');
  if (grouping) intDigits = intDigits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

  // Integer digits fill the placeholders from the right; the leftmost placeholder takes any overflow, so
  // literals between placeholders (phone and ID masks) land where the format puts them.
  const filled = new Map<number, string>();
  let remaining = intDigits;
  const placeholders = grouping ? integerTokens.slice(-1) : integerTokens;
  for (let k = placeholders.length - 1; k >= 0; k--) {
    if (k === 0) filled.set(placeholders[k], remaining);
    else {
      filled.set(placeholders[k], remaining.slice(-1));
      remaining = remaining.slice(0, -1);
    }
  }
  for (const i of grouping ? integerTokens.slice(0, -1) : []) filled.set(i, '');
  decimalTokens.forEach((i, k) => filled.set(i, fracDigits[k] ?? ''));
  let out = '';
  tokens.forEach((t, i) => {
    if (t.kind === 'digit') out += expAt >= 0 && i > expAt ? '' : (filled.get(i) ?? '');
    else if (t.kind === 'point') out += i === pointAt && fracDigits.length > 0 ? '.' : '';
    else if (t.kind === 'exp') out += exponent;
    else if (t.kind === 'percent') out += '%';
    else if (t.kind === 'text') out += t.text;
    else if (t.kind === 'general') out += plainNumber(number);
  });
  out = out.trim();
  const isZero = !/[1-9]/.test(intDigits + fracDigits);
  return negative && !isZero ? `-${out}` : out;
}

/** toFixed rounds the binary value (1.005 -> "1.00"); Excel rounds the decimal it shows (1.01). */
function roundFixed(value: number, decimals: number): string {
  if (value >= 1e21) return plainNumber(value);
  const shown = Number(value.toPrecision(15));
  const scaled = Math.round(Number(`${shown}e${decimals}`));
  if (!Number.isFinite(scaled) || scaled >= 1e21) return shown.toFixed(decimals);
  return Number(`${scaled}e-${decimals}`).toFixed(decimals);
}
