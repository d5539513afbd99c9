// The parts of an .xlsx (Office Open XML, ECMA-376) that Matchdesk's export writes: one worksheet, its header row bold,
// frozen and with a filter on each column, strings inline, numbers as numbers. Everything but the worksheet is a few
// hundred bytes, written whole.

import { columnLetter } from '../sheets/sheet-error';

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELATIONSHIPS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE_RELATIONSHIPS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** The fixed parts, by their path in the zip, for a workbook of one sheet named `sheetName`. */
export function workbookParts(sheetName: string): [path: string, xml: string][] {
  return [
    [
      '[Content_Types].xml',
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
        '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
        '</Types>',
    ],
    [
      '_rels/.rels',
      `${XML_HEAD}<Relationships xmlns="${PACKAGE_RELATIONSHIPS}">` +
        `<Relationship Id="rId1" Type="${RELATIONSHIPS}/officeDocument" Target="xl/workbook.xml"/>` +
        '</Relationships>',
    ],
    [
      'xl/workbook.xml',
      `${XML_HEAD}<workbook xmlns="${MAIN}" xmlns:r="${RELATIONSHIPS}">` +
        `<bookViews><workbookView/></bookViews><sheets><sheet name="${xmlText(sheetName)}" sheetId="1" r:id="rId1"/></sheets>` +
        '</workbook>',
    ],
    [
      'xl/_rels/workbook.xml.rels',
      `${XML_HEAD}<Relationships xmlns="${PACKAGE_RELATIONSHIPS}">` +
        `<Relationship Id="rId1" Type="${RELATIONSHIPS}/worksheet" Target="worksheets/sheet1.xml"/>` +
        `<Relationship Id="rId2" Type="${RELATIONSHIPS}/styles" Target="styles.xml"/>` +
        '</Relationships>',
    ],
    [
      'xl/styles.xml',
      // Style 0 is every cell's; style 1 (the header's) is the same font in bold. Excel wants two fills at least.
      `${XML_HEAD}<styleSheet xmlns="${MAIN}">` +
        '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
        '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
        '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
        '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
        '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>' +
        '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
        '</styleSheet>',
    ],
  ];
}

/** The worksheet's XML before its rows: the first row frozen. */
export const SHEET_HEAD =
  `${XML_HEAD}<worksheet xmlns="${MAIN}" xmlns:r="${RELATIONSHIPS}">` +
  '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' +
  '<sheetData>';
/**
 * The worksheet's XML after its rows: a filter button on each header cell, over every row written (`rows` counts the
 * header), so the sheet opens ready to filter by match_status or any other column.
 */
export function sheetTail(columns: number, rows: number): string {
  const filter = columns > 0 ? `<autoFilter ref="A1:${columnLetter(columns)}${Math.max(1, rows)}"/>` : '';
  return `</sheetData>${filter}</worksheet>`;
}

/** Column letters of the first `count` columns, worked out once for every row: A, B, ..., Z, AA, ... */
export function columnLetters(count: number): string[] {
  return Array.from({ length: count }, (_, i) => columnLetter(i + 1));
}

/**
 * One row's XML: `r` its number (1 for the header), a cell per value that is not null, `style` 1 for bold. A string
 * is an inline string (never a formula, whatever it starts with), a number a number.
 */
export function rowXml(r: number, values: readonly (string | number | null)[], letters: readonly string[], style = 0): string {
  const s = style === 0 ? '' : ` s="${style}"`;
  let xml = `<row r="${r}">`;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value === null || value === undefined) continue;
    if (typeof value === 'number') xml += `<c r="${letters[i]}${r}"${s}><v>${value}</v></c>`;
    else {
      const space = keepsSpace(value) ? ' xml:space="preserve"' : '';
      xml += `<c r="${letters[i]}${r}"${s} t="inlineStr"><is><t${space}>${xmlText(value)}</t></is></c>`;
    }
  }
  return `${xml}</row>`;
}

/**
 * Whether a string's spaces must be kept as they are (xml:space="preserve"): it starts or ends with a space (a tab,
 * a no-break space...) or breaks a line, where a reader may otherwise trim or fold it. exceljs asked the same.
 */
function keepsSpace(value: string): boolean {
  if (value.length === 0) return false;
  return isSpace(value.charCodeAt(0)) || isSpace(value.charCodeAt(value.length - 1)) || value.includes('\n');
}

/** JavaScript's \s, by code: looked at for two characters a cell, where a regular expression was a noticeable cost. */
function isSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  return code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}

/** Characters XML 1.0 does not allow (and DEL, as exceljs dropped it). */
// eslint-disable-next-line no-control-regex -- these control characters are what it finds
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFE\uFFFF]/g;
/** Half a surrogate pair: not a character, and not UTF-8 either. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** Excel reads _xHHHH_ in a string as the character HHHH: a literal one keeps its underscore as _x005F_. */
const EXCEL_ESCAPE = /_(x[0-9A-Fa-f]{4}_)/g;

/** Text as XML element or attribute content. */
export function xmlText(text: string): string {
  let out = text;
  // eslint-disable-next-line no-control-regex -- one test for everything below, control characters included
  if (/[&<>"\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uD800-\uDFFF\uFFFE\uFFFF]|_x[0-9A-Fa-f]{4}_/.test(out)) {
    out = out
      .replace(LONE_SURROGATE, '\uFFFD')
      .replace(NOT_XML, '')
      .replace(EXCEL_ESCAPE, '_x005F_$1')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;');
  }
  return out;
}
