import { describe, expect, it } from 'vitest';
import { formatNumber, isDateFormat, plainNumber } from '../../../electron/engine/sheets/number-format';

describe('formatNumber shows a stored number as the sheet shows it', () => {
  it.each([
    [0.30000000000000004, undefined, '0.3'],
    [0.30000000000000004, 'General', '0.3'],
    [42, '@', '42'],
    [123456789012, 'General', '123456789012'],
    [1e-7, 'General', '1E-07'],
    [1.5e21, 'General', '1.5E+21'],
    [-0, 'General', '0'],
    [2134, '00000', '02134'],
    [0.256, '0.0%', '25.6%'],
    [0.5, '0%', '50%'],
    [1234.5, '#,##0.00', '1,234.50'],
    [-1234.5, '#,##0.00', '-1,234.50'],
    [-1234.5, '#,##0.00;(#,##0.00)', '(1,234.50)'],
    [-1234.5, '#,##0.00;[Red]-#,##0.00', '-1,234.50'],
    [1.005, '0.00', '1.01'],
    [-0.001, '0.00', '0.00'],
    [7, '0.0#', '7.0'],
    [7.125, '0.0#', '7.13'],
    [0.5, '#.##', '.5'],
    [5551234567, '(000) 000-0000', '(555) 123-4567'],
    [123456789, '000-00-0000', '123-45-6789'],
    [123450, '0.00E+00', '1.23E+05'],
    [12, '"$"#,##0', '$12'],
    [1234567, '[$€-407] #,##0.00', '€ 1,234,567.00'],
    [1500000, '#,##0,"K"', '1,500K'],
    [12.5, '# ?/?', '12.5'],
  ])('%s with %j -> %s', (value, format, shown) => {
    expect(formatNumber(value, format)).toBe(shown);
  });

  it.each([
    [33000, 'mm/dd/yyyy', '1990-05-07'],
    [33000, 'd-mmm-yy', '1990-05-07'],
    [44000, 'mmm-yy', '2020-06-18'],
    [33000.5, 'm/d/yy h:mm', '1990-05-07 12:00'],
    [45322.58691, 'yyyy-mm-dd hh:mm:ss', '2024-01-31 14:05:09'],
    [0.75, 'h:mm:ss AM/PM', '18:00:00'],
    [0.5, 'h:mm', '12:00'],
    [1.5, '[h]:mm', '36:00'],
    [1, 'yyyy-mm-dd', '1900-01-01'],
    [59, 'yyyy-mm-dd', '1900-02-28'],
    [61, 'yyyy-mm-dd', '1900-03-01'],
  ])('date serial %s with %j -> %s', (serial, format, shown) => {
    expect(formatNumber(serial, format)).toBe(shown);
  });

  it('counts serials from 1904 when the workbook does', () => {
    expect(formatNumber(0, 'yyyy-mm-dd', true)).toBe('1904-01-01');
  });

  it('tells date formats from number formats, ignoring quoted text and brackets', () => {
    expect(isDateFormat('yyyy-mm-dd')).toBe(true);
    expect(isDateFormat('[$-409]h:mm AM/PM')).toBe(true);
    expect(isDateFormat('0.00 "days"')).toBe(false);
    expect(isDateFormat('[Red]#,##0')).toBe(false);
    expect(isDateFormat('General')).toBe(false);
  });

  it('shows 15 significant digits, like the formula bar', () => {
    expect(plainNumber(1 / 3)).toBe('0.333333333333333');
    expect(plainNumber(Number.NaN)).toBe('');
  });
});
