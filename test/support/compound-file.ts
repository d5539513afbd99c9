// A file in Office's OLE2 container, as a password-protected workbook or a legacy .xls arrives.

/**
 * An OLE2 compound file (CFB v3, 512-byte sectors) as Office writes around a password-protected workbook:
 * a header, one FAT sector, one directory sector naming the streams. The streams are empty: no tool can open
 * it, which is what an encrypted file looks like to anything without the password.
 */
export function compoundFile(streams: string[]): Buffer {
  const SECTOR = 512;
  const FREE = 0xffffffff;
  const END_OF_CHAIN = 0xfffffffe;
  const FAT_SECTOR = 0xfffffffd;
  const NO_STREAM = 0xffffffff;
  const file = Buffer.alloc(SECTOR * 3, 0);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(file, 0);
  file.writeUInt16LE(0x003e, 0x18); // minor version
  file.writeUInt16LE(0x0003, 0x1a); // major version 3
  file.writeUInt16LE(0xfffe, 0x1c); // little-endian
  file.writeUInt16LE(9, 0x1e); // 2^9 = 512-byte sectors
  file.writeUInt16LE(6, 0x20); // 2^6 = 64-byte mini sectors
  file.writeUInt32LE(1, 0x2c); // FAT sectors
  file.writeUInt32LE(1, 0x30); // first directory sector
  file.writeUInt32LE(0x1000, 0x38); // mini stream cutoff
  file.writeUInt32LE(END_OF_CHAIN, 0x3c); // first mini FAT sector: none
  file.writeUInt32LE(END_OF_CHAIN, 0x44); // first DIFAT sector: none
  file.writeUInt32LE(0, 0x4c); // DIFAT[0]: the FAT is in sector 0
  for (let i = 1; i < 109; i++) file.writeUInt32LE(FREE, 0x4c + i * 4);
  const fat = SECTOR;
  for (let i = 0; i < SECTOR / 4; i++) file.writeUInt32LE(FREE, fat + i * 4);
  file.writeUInt32LE(FAT_SECTOR, fat);
  file.writeUInt32LE(END_OF_CHAIN, fat + 4);
  const directory = SECTOR * 2;
  const names = ['Root Entry', ...streams];
  names.forEach((name, i) => {
    const at = directory + i * 128;
    file.write(`${name}\0`, at, 'utf16le');
    file.writeUInt16LE((name.length + 1) * 2, at + 0x40);
    file[at + 0x42] = i === 0 ? 5 : 2; // root storage, else a stream
    file[at + 0x43] = 1; // black
    file.writeUInt32LE(NO_STREAM, at + 0x44); // left sibling
    file.writeUInt32LE(i > 0 && i < names.length - 1 ? i + 1 : NO_STREAM, at + 0x48); // right sibling
    file.writeUInt32LE(i === 0 && names.length > 1 ? 1 : NO_STREAM, at + 0x4c); // child
    file.writeUInt32LE(END_OF_CHAIN, at + 0x74); // start sector
  });
  for (let i = names.length; i < 4; i++) {
    const at = directory + i * 128;
    file.writeUInt32LE(NO_STREAM, at + 0x44);
    file.writeUInt32LE(NO_STREAM, at + 0x48);
    file.writeUInt32LE(NO_STREAM, at + 0x4c);
  }
  return file;
}
