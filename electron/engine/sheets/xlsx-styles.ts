import { elements } from './xml-elements';

/**
 * The number formats Excel does not write into styles.xml, by id (ECMA-376 18.8.30), as exceljs listed them: the
 * locale-dependent ids (27-36, 50-81) are left out, so their cells show the plain number, as they did with exceljs.
 */
const BUILT_IN: Record<number, string> = {
  1: '0',
  2: '0.00',
  3: '#,##0',
  4: '#,##0.00',
  9: '0%',
  10: '0.00%',
  11: '0.00E+00',
  12: '# ?/?',
  13: '# ??/??',
  14: 'mm-dd-yy',
  15: 'd-mmm-yy',
  16: 'd-mmm',
  17: 'mmm-yy',
  18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM',
  20: 'h:mm',
  21: 'h:mm:ss',
  22: 'm/d/yy "h":mm',
  37: '#,##0 ;(#,##0)',
  38: '#,##0 ;[Red](#,##0)',
  39: '#,##0.00 ;(#,##0.00)',
  40: '#,##0.00 ;[Red](#,##0.00)',
  45: 'mm:ss',
  46: '[h]:mm:ss',
  47: 'mmss.0',
  48: '##0.0E+0',
  49: '@',
};

/**
 * Each cell style's number format code (a cell's `s` attribute indexes the list), undefined for General, read from
 * styles.xml: the `<numFmt>` codes the workbook defines, and the `<xf>` entries of its `<cellXfs>`.
 */
export function numberFormats(stylesXml: string): (string | undefined)[] {
  const codes = new Map<number, string>();
  for (const numFmt of elements(stylesXml, 'numFmt')) {
    const id = Number(numFmt.numFmtId);
    if (Number.isInteger(id) && numFmt.formatCode !== undefined) codes.set(id, numFmt.formatCode);
  }
  // <cellStyleXfs> holds <xf> entries too: only those of <cellXfs> are what `s` counts.
  const cellXfs = /<(?:[\w.-]+:)?cellXfs\b[^>]*>([\s\S]*?)<\/(?:[\w.-]+:)?cellXfs>/.exec(stylesXml)?.[1] ?? '';
  return elements(cellXfs, 'xf').map((xf) => {
    const id = Number(xf.numFmtId);
    if (!Number.isInteger(id) || id === 0) return undefined;
    return codes.get(id) ?? BUILT_IN[id];
  });
}
