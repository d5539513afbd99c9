import { describe, expect, it } from 'vitest';
import { openSheet } from '../../../electron/engine/sheets';
import { allRows, sheetFile } from './sheet-files';

describe('openSheet on text sheets', () => {
  it.each([
    ['comma', ','],
    ['tab', '\t'],
    ['semicolon', ';'],
    ['pipe', '|'],
  ])('sniffs the %s delimiter', async (_name, d) => {
    const text = ['Name', 'Email', 'Company'].join(d) + '\n' + ['Ann Lee', 'ann@example.com', 'Acme'].join(d) + '\n' + ['Bo Chen', 'bo@example.com', 'Initech'].join(d) + '\n';
    const sheet = await openSheet(sheetFile('people.txt', text));
    expect(sheet.info).toEqual({ format: 'csv', delimiter: d, encoding: 'utf-8' });
    expect(sheet.headers).toEqual(['Name', 'Email', 'Company']);
    expect(await allRows(sheet)).toEqual([
      ['Ann Lee', 'ann@example.com', 'Acme'],
      ['Bo Chen', 'bo@example.com', 'Initech'],
    ]);
    expect(sheet.warnings).toEqual([]);
  });

  it('prefers the delimiter that splits every row alike, not the most frequent character', async () => {
    // Decimal commas and a comma inside names: the semicolon is the consistent one.
    const text = 'Name;Amount;City\nLee, Ann;1,5;Paris\nChen, Bo;2,25;Lyon\nKim;3;Nice\n';
    const sheet = await openSheet(sheetFile('amounts.csv', text));
    expect(sheet.info.delimiter).toBe(';');
    expect(await allRows(sheet)).toEqual([
      ['Lee, Ann', '1,5', 'Paris'],
      ['Chen, Bo', '2,25', 'Lyon'],
      ['Kim', '3', 'Nice'],
    ]);
  });

  it('ignores delimiters inside quotes when sniffing', async () => {
    const text = 'Name\tNote\n"Lee, Ann"\t"a, b, c"\n"Chen, Bo"\t"d, e"\n';
    const sheet = await openSheet(sheetFile('notes.tsv', text));
    expect(sheet.info.delimiter).toBe('\t');
    expect(await allRows(sheet)).toEqual([
      ['Lee, Ann', 'a, b, c'],
      ['Chen, Bo', 'd, e'],
    ]);
  });

  it('reads quoted multi-line cells, doubled quotes and delimiters inside quotes', async () => {
    const text = 'Name,Address,Note\r\n"Ann","1 Main St\r\nApt 2\r\nSpringfield","She said ""hi"", twice"\r\n"Bo","Line1\nLine2",""\r\n';
    const sheet = await openSheet(sheetFile('multi.csv', text));
    expect(await allRows(sheet)).toEqual([
      ['Ann', '1 Main St\r\nApt 2\r\nSpringfield', 'She said "hi", twice'],
      ['Bo', 'Line1\nLine2', ''],
    ]);
  });

  it.each([
    ['CRLF', '\r\n'],
    ['LF', '\n'],
    ['CR', '\r'],
  ])('ends a cell opened by a quoted word and going on after it on its own line, not rows later (%s)', async (_name, nl) => {
    // `"Bob" Smith Jr` is Bob Smith Jr, as a spreadsheet app reads it; a later quoted cell does not pull the rows
    // between into one cell, nor does the end of the file.
    const rows = Array.from({ length: 20 }, (_, i) => [`Person ${i}`, 'Globex Inc.', `p${i}@globex.example`, `note ${i}`]);
    rows[2] = ['"Bob" Smith Jr', 'Globex Inc.', 'bob@globex.example', 'note 2'];
    rows[15] = ['Carol Quoted', '"Acme, Inc."', 'carol@acme.example', 'note 15'];
    rows[19] = ['Dan', 'Initech', 'dan@initech.example', '"Big" deal'];
    const text = ['Name,Company,Email,Notes', ...rows.map((r) => r.join(','))].join(nl) + nl;
    for (const file of [text, text.replace(rows[15]!.join(','), 'Carol Plain,Acme,carol@acme.example,note 15')]) {
      const sheet = await openSheet(sheetFile('quote-then-text.csv', file));
      const read = await allRows(sheet);
      expect(read).toHaveLength(20);
      expect(read[2]).toEqual(['Bob Smith Jr', 'Globex Inc.', 'bob@globex.example', 'note 2']);
      expect(read[3]).toEqual(['Person 3', 'Globex Inc.', 'p3@globex.example', 'note 3']);
      expect(read[19]).toEqual(['Dan', 'Initech', 'dan@initech.example', 'Big deal']);
      expect(sheet.warnings).toEqual([]);
    }
    // Across the reader's chunks: every row whole, wherever a chunk ends.
    const many = Array.from({ length: 6000 }, (_, i) => `"Nick ${i}" Name ${i},"x ""${i}"" y" z,${i}`);
    const big = await openSheet(sheetFile('many.csv', ['Name,Note,N', ...many].join(nl) + nl));
    const all = await allRows(big);
    expect(all).toHaveLength(6000);
    expect(all.every((r, i) => r[0] === `Nick ${i} Name ${i}` && r[1] === `x "${i}" y z` && r[2] === `${i}`)).toBe(true);
    // Within its line, a quoted cell's own quotes stay text, as before: the closing quote is the one before the comma.
    const sheet = await openSheet(sheetFile('said.csv', `Name,Note${nl}Ann,"He said "hi" to me"${nl}Bo,"ok"${nl}`));
    expect(await allRows(sheet)).toEqual([
      ['Ann', 'He said "hi" to me'],
      ['Bo', 'ok'],
    ]);
  });

  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ])('reads %s line ends, with or without a final line end', async (_name, nl) => {
    for (const ending of [nl, '']) {
      const sheet = await openSheet(sheetFile('lines.csv', `a,b${nl}1,2${nl}3,4${ending}`));
      expect(sheet.headers).toEqual(['a', 'b']);
      expect(await allRows(sheet)).toEqual([
        ['1', '2'],
        ['3', '4'],
      ]);
      expect(sheet.warnings).toEqual([]);
    }
  });

  it.each([
    ['a CRLF header with LF rows', 'Name,Email\r\n', '\n'],
    ['an LF header with CRLF rows', 'Name,Email\n', '\r\n'],
    ['a CR header with CRLF rows', 'Name,Email\r', '\r\n'],
  ])('reads %s (files joined from several exports) as a spreadsheet app does, with no stray CR', async (_name, header, nl) => {
    const rows = Array.from({ length: 600 }, (_, i) => [`Row ${i + 1}`, `row${i + 1}@example.com`]);
    const sheet = await openSheet(sheetFile('joined.csv', header + rows.map((r) => r.join(',')).join(nl) + nl));
    expect(sheet.headers).toEqual(['Name', 'Email']);
    expect(await allRows(sheet)).toEqual(rows);
    expect(sheet.warnings).toEqual([]);
  });

  it('ends records at any mix of CRLF, LF and CR outside quotes, and keeps every line break inside quotes as it is', async () => {
    const text = 'Name,Note\r\nAnn,"one\r\ntwo"\nBo,"three\nfour"\rCy,"five\rsix"\r\nDi,plain\n\rEd,"""q"""\r';
    const sheet = await openSheet(sheetFile('mixed.csv', text));
    expect(await allRows(sheet)).toEqual([
      ['Ann', 'one\r\ntwo'],
      ['Bo', 'three\nfour'],
      ['Cy', 'five\rsix'],
      ['Di', 'plain'],
      [],
      ['Ed', '"q"'],
    ]);
  });

  it('reads a CRLF cut in two by a read chunk as one line break', async () => {
    // The first chunk of text parsed ends between the CR and the LF of a record's end.
    const first = 'Name,Email\r\n' + 'x'.repeat(64 * 1024 - 'Name,Email\r\n'.length - 4) + ',a\r';
    const sheet = await openSheet(sheetFile('cut.csv', first + '\nBo,b\r\n'));
    const rows = await allRows(sheet);
    expect(rows).toEqual([['x'.repeat(64 * 1024 - 'Name,Email\r\n'.length - 4), 'a'], ['Bo', 'b']]);
  });

  it('keeps a long quoted cell whole across read and parse chunk boundaries', async () => {
    const big = 'x'.repeat(150_000) + '\n"quoted"\n' + 'é'.repeat(200_000) + ',' + 'y'.repeat(100_000);
    const rows = [
      ['1', 'short'],
      ['2', big],
      ['3', 'after'],
    ];
    const text = 'id,text\n' + rows.map(([id, t]) => `${id},"${t.replace(/"/g, '""')}"`).join('\n') + '\n';
    const sheet = await openSheet(sheetFile('long.csv', text));
    expect(await allRows(sheet)).toEqual(rows);
  });

  describe('encodings', () => {
    const text = 'Name,City\nRenée,Zürich\n李雷,Москва\n';
    const expected = [
      ['Renée', 'Zürich'],
      ['李雷', 'Москва'],
    ];

    it('reads UTF-8 without a BOM', async () => {
      const sheet = await openSheet(sheetFile('utf8.csv', Buffer.from(text, 'utf8')));
      expect(sheet.info.encoding).toBe('utf-8');
      expect(sheet.headers).toEqual(['Name', 'City']);
      expect(await allRows(sheet)).toEqual(expected);
    });

    it('reads UTF-8 with a BOM and keeps the BOM out of the first header', async () => {
      const sheet = await openSheet(sheetFile('utf8bom.csv', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')])));
      expect(sheet.info.encoding).toBe('utf-8');
      expect(sheet.headers).toEqual(['Name', 'City']);
      expect(await allRows(sheet)).toEqual(expected);
    });

    it('reads UTF-16 LE with a BOM', async () => {
      const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
      const sheet = await openSheet(sheetFile('utf16le.csv', bytes));
      expect(sheet.info.encoding).toBe('utf-16le');
      expect(sheet.headers).toEqual(['Name', 'City']);
      expect(await allRows(sheet)).toEqual(expected);
    });

    it('reads UTF-16 BE with a BOM', async () => {
      const le = Buffer.from(text, 'utf16le');
      const be = Buffer.from(le).swap16();
      const sheet = await openSheet(sheetFile('utf16be.csv', Buffer.concat([Buffer.from([0xfe, 0xff]), be])));
      expect(sheet.info.encoding).toBe('utf-16be');
      expect(sheet.headers).toEqual(['Name', 'City']);
      expect(await allRows(sheet)).toEqual(expected);
    });

    it('reads UTF-16 LE written without a BOM (Excel "Unicode text" from some tools)', async () => {
      const sheet = await openSheet(sheetFile('utf16-nobom.txt', Buffer.from('Name\tCity\nAnn\tParis\n', 'utf16le')));
      expect(sheet.info).toMatchObject({ encoding: 'utf-16le', delimiter: '\t' });
      expect(await allRows(sheet)).toEqual([['Ann', 'Paris']]);
    });

    it('reads Windows-1252 when the bytes are not valid UTF-8', async () => {
      // "Renée,Zürich" and "Müller;Straße" as Excel's "CSV" save writes them on Western Windows.
      const bytes = Buffer.from([
        ...Buffer.from('Name,City,Note\nRen'), 0xe9, ...Buffer.from('e,Z'), 0xfc, ...Buffer.from('rich,'), 0x80, ...Buffer.from('5 '), 0x93, ...Buffer.from('ok'), 0x94, 0x0a,
      ]);
      const sheet = await openSheet(sheetFile('cp1252.csv', bytes));
      expect(sheet.info.encoding).toBe('windows-1252');
      expect(await allRows(sheet)).toEqual([['Renée', 'Zürich', '€5 “ok”']]);
    });

    it('names the first row past the sampled megabyte whose bytes are not UTF-8, and no row for a � the file holds', async () => {
      const rows = Array.from({ length: 20_000 }, (_, i) => `Person ${i},person.${i}.${'x'.repeat(30)}@example.com`);
      const head = Buffer.from(`Name,Email\n${rows.slice(0, 19_990).join('\n')}\n`);
      expect(head.length).toBeGreaterThan(1024 * 1024);
      // Row 19,992 (the header is row 1) holds "Renée" as Windows-1252 writes it; a row before it a real �, as UTF-8.
      const late = Buffer.concat([head, Buffer.from('Ren'), Buffer.from([0xe9]), Buffer.from(`e,renee@example.com\n${rows.slice(19_991).join('\n')}\n`)]);
      const sheet = await openSheet(sheetFile('cp1252-late.csv', late));
      expect(sheet.info.encoding).toBe('utf-8');
      const read = await allRows(sheet);
      expect(read).toHaveLength(20_000);
      expect(read[19_990]).toEqual(['Ren\uFFFDe', 'renee@example.com']);
      expect(sheet.warnings).toEqual([expect.objectContaining({ code: 'not_utf8', message: expect.stringMatching(/^Row 19992 holds bytes that are not UTF-8/) })]);

      const honest = Buffer.from(`Name,Note\n${'x,y\n'.repeat(300_000)}Ann,a real \uFFFD sign\n`, 'utf8');
      const fine = await openSheet(sheetFile('replacement.csv', honest));
      expect((await allRows(fine)).at(-1)).toEqual(['Ann', 'a real \uFFFD sign']);
      expect(fine.warnings).toEqual([]);
    });

    it('checks UTF-8 validity on a sample cut in the middle of a character without calling it invalid', async () => {
      // 1 MiB sample boundary falls inside a 3-byte character: the file is still UTF-8.
      const filler = 'a'.repeat(1024 * 1024 - 'Name\n'.length - 1);
      const text = `Name\n${filler}€\nlast\n`;
      const sheet = await openSheet(sheetFile('boundary.csv', Buffer.from(text, 'utf8')));
      expect(sheet.info.encoding).toBe('utf-8');
      const rows = await allRows(sheet);
      expect(rows.at(-2)?.[0].endsWith('€')).toBe(true);
      expect(rows.at(-1)).toEqual(['last']);
    });
  });

  it('keeps ragged rows as they are and counts them', async () => {
    const sheet = await openSheet(sheetFile('ragged.csv', 'a,b,c\n1,2,3\n4,5\n6,7,8,9\n10,11,12\n'));
    expect(await allRows(sheet)).toEqual([
      ['1', '2', '3'],
      ['4', '5'],
      ['6', '7', '8', '9'],
      ['10', '11', '12'],
    ]);
    expect(sheet.warnings).toEqual([{ code: 'ragged_rows', count: 2, message: '2 rows have more or fewer cells than the header row; they were kept as they are.' }]);
  });

  it('keeps blank rows between data rows in place (as []), drops the trailing ones, and numbers rows from the header', async () => {
    const sheet = await openSheet(sheetFile('gaps.csv', '\n\na,b\n1,2\n\n,\n  ,\t\n3,4\n\n\n'));
    expect(sheet.headers).toEqual(['a', 'b']);
    // The header is the file's row 3, so the rows below it are rows 4 to 8.
    expect(sheet.firstRow).toBe(4);
    expect(await allRows(sheet)).toEqual([['1', '2'], [], [], [], ['3', '4']]);
    expect(sheet.warnings).toEqual([
      { code: 'blank_rows_kept', count: 3, message: '3 blank rows between the data rows were kept in place, so the rows keep their numbers; they are not looked up.' },
    ]);
  });

  it('reads the file again on each rows() call and recounts instead of adding up', async () => {
    const sheet = await openSheet(sheetFile('twice.csv', 'a,b\n1,2\n3\n'));
    const first = await allRows(sheet);
    const second = await allRows(sheet);
    expect(second).toEqual(first);
    expect(sheet.warnings).toEqual([expect.objectContaining({ code: 'ragged_rows', count: 1 })]);
  });

  it('stops reading cleanly when the consumer stops early, and close() releases an unread sheet', async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `${i},name ${i}`).join('\n');
    const path = sheetFile('early.csv', `id,name\n${lines}\n`);
    const sheet = await openSheet(path);
    let seen = 0;
    for await (const row of sheet.rows()) {
      seen++;
      if (row[0] === '9') break;
    }
    expect(seen).toBe(10);
    const unread = await openSheet(path);
    await unread.close();
    await unread.close();
    expect((await allRows(unread)).length).toBe(5000);
  });

  it('warns when a quote is opened and never closed', async () => {
    const sheet = await openSheet(sheetFile('open-quote.csv', 'a,b\n1,2\n3,"never closed\n4,5\n'));
    const rows = await allRows(sheet);
    expect(rows).toEqual([
      ['1', '2'],
      ['3', 'never closed\n4,5\n'],
    ]);
    expect(sheet.warnings).toEqual([expect.objectContaining({ code: 'unclosed_quote' })]);
  });

  it('keeps cells exactly as written: spaces, leading zeros, formulas and numbers stay strings', async () => {
    const sheet = await openSheet(sheetFile('exact.csv', 'zip,phone,formula,note\n02134, +1 555 0100 ,=SUM(A1),"  padded  "\n'));
    expect(await allRows(sheet)).toEqual([['02134', ' +1 555 0100 ', '=SUM(A1)', '  padded  ']]);
  });

  it('reads a single-column file', async () => {
    const sheet = await openSheet(sheetFile('emails.csv', 'Email\nann@example.com\nbo@example.com\n'));
    expect(sheet.info.delimiter).toBe(',');
    expect(await allRows(sheet)).toEqual([['ann@example.com'], ['bo@example.com']]);
  });

  it('decides the format by content: a CSV named .xlsx is read as CSV', async () => {
    const sheet = await openSheet(sheetFile('really-text.xlsx', 'a;b\n1;2\n'));
    expect(sheet.info.format).toBe('csv');
    expect(await allRows(sheet)).toEqual([['1', '2']]);
  });
});

describe('warnings on a second read', () => {
  it('replaces the unclosed-quote warning instead of adding another', async () => {
    const sheet = await openSheet(sheetFile('open-quote.csv', 'a,b\n1,2\n3,"never closed\n'));
    await allRows(sheet);
    await allRows(sheet);
    expect(sheet.warnings.filter((w) => w.code === 'unclosed_quote')).toHaveLength(1);
  });
});
