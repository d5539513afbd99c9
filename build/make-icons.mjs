#!/usr/bin/env node
// Draws the app icon (two overlapping rings on a blue tile: two records that match) and writes it as PNGs for
// electron-builder: build/icon.png (1024, macOS and Windows) and build/icons/<size>x<size>.png (Linux), plus the
// browser tab's icon, renderer/public/icon.png.
// Plain Node (zlib for the PNG's deflate stream), so the icons can be regenerated anywhere:
//   npx node build/make-icons.mjs
import { Buffer } from 'node:buffer';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { stdout } from 'node:process';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const SAMPLES = 4; // per axis: 16 samples a pixel smooth the edges

/** Colour (RGBA, 0..1) of the icon at a point of the unit square. */
function shade(x, y) {
  // The tile: a rounded square with a margin, as desktop icon guidelines ask.
  const margin = 0.06;
  const radius = 0.2;
  if (!insideRoundedSquare(x, y, margin, radius)) return [0, 0, 0, 0];
  const t = (x + y) / 2;
  let colour = mix([0.2, 0.45, 0.95], [0.13, 0.27, 0.72], t);
  // Two rings: the person in the sheet and the person in the service.
  const ring = (cx, cy) => Math.abs(Math.hypot(x - cx, y - cy) - 0.2) < 0.045;
  const left = ring(0.39, 0.5);
  const right = ring(0.61, 0.5);
  if (left || right) colour = [1, 1, 1];
  // Where they overlap, the match: a filled lens in a light accent.
  else if (Math.hypot(x - 0.39, y - 0.5) < 0.2 && Math.hypot(x - 0.61, y - 0.5) < 0.2) colour = [0.55, 0.85, 1];
  return [...colour, 1];
}

function insideRoundedSquare(x, y, margin, radius) {
  const lo = margin + radius;
  const hi = 1 - margin - radius;
  const dx = Math.max(lo - x, 0, x - hi);
  const dy = Math.max(lo - y, 0, y - hi);
  return x >= margin && x <= 1 - margin && y >= margin && y <= 1 - margin && Math.hypot(dx, dy) <= radius;
}

function mix(a, b, t) {
  return a.map((v, i) => v + (b[i] - v) * t);
}

function render(size) {
  const pixels = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const [cr, cg, cb, ca] = shade((px + (sx + 0.5) / SAMPLES) / size, (py + (sy + 0.5) / SAMPLES) / size);
          // Premultiplied, so transparent samples do not darken the edge.
          r += cr * ca; g += cg * ca; b += cb * ca; a += ca;
        }
      }
      const o = (py * size + px) * 4;
      const n = SAMPLES * SAMPLES;
      pixels[o] = a ? Math.round((r / a) * 255) : 0;
      pixels[o + 1] = a ? Math.round((g / a) * 255) : 0;
      pixels[o + 2] = a ? Math.round((b / a) * 255) : 0;
      pixels[o + 3] = Math.round((a / n) * 255);
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buffer) {
  let c = 0xffffffff;
  for (const byte of buffer) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

function png(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bits per channel
  header[9] = 6; // RGBA
  // Each row starts with filter type 0 (none); zlib does the compressing.
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) rgba.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function write(path, size) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, png(size, render(size)));
  stdout.write(`wrote ${path}\n`);
}

write(join(here, 'icon.png'), 1024);
for (const size of [512, 256, 128, 64, 32]) write(join(here, 'icons', `${size}x${size}.png`), size);
write(join(here, '..', 'renderer', 'public', 'icon.png'), 64);
