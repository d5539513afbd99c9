// ZIPs written by hand, so a test controls exactly which parts there are, in which order, and what the directory
// says of them: the readers under test meet parts exceljs would never write.
import { crc32, deflateRawSync } from 'node:zlib';

/** One stored part: its deflated bytes, and the CRC-32 and size of what they inflate to (or claim to). */
export interface ZipPart {
  name: string;
  packed: Buffer;
  crc: number;
  size: number;
}

/** Every part dated 2024-01-01, so a file written again is the same to the byte. */
const DOS_TIME = 0;
const DOS_DATE = ((2024 - 1980) << 9) | (1 << 5) | 1;

/** A ZIP of deflated parts, in the order given; sizes past 4 GiB (ZIP64) are refused. */
export function zipParts(parts: ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    if (part.size >= 0xffffffff) throw new Error(`${part.name} would need ZIP64`);
    const name = Buffer.from(part.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(part.crc, 14);
    local.writeUInt32LE(part.packed.length, 18);
    local.writeUInt32LE(part.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(DOS_TIME, 12);
    central.writeUInt16LE(DOS_DATE, 14);
    central.writeUInt32LE(part.crc, 16);
    central.writeUInt32LE(part.packed.length, 20);
    central.writeUInt32LE(part.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, part.packed);
    centrals.push(central, name);
    offset += local.length + name.length + part.packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A ZIP of these entries, each deflated, in the order given. */
export function zip(entries: { name: string; data: string | Buffer }[]): Buffer {
  return zipParts(
    entries.map((entry) => {
      const raw = typeof entry.data === 'string' ? Buffer.from(entry.data, 'utf8') : entry.data;
      return { name: entry.name, packed: deflateRawSync(raw), crc: crc32(raw), size: raw.length };
    }),
  );
}
