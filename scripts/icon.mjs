#!/usr/bin/env node
// Draws the extension icon, media/icon.png (128×128 RGBA), with Node alone: a white "Z" on a rounded square
// shading from light to dark blue. Deterministic (same bytes on every run), so the PNG in the repository can be
// checked against this script: `node scripts/icon.mjs --check`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'media', 'icon.png');
const SIZE = 128;
const SS = 4; // supersamples per axis (anti-aliasing)

/** Signed distance from (x, y) to the segment a–b, minus half the stroke width (≤ 0 is inside). */
function segment(x, y, [ax, ay], [bx, by], width) {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(x - (ax + t * dx), y - (ay + t * dy)) - width / 2;
}

/** Inside the rounded square (radius r) that fills the icon with a margin m. */
function inRoundedSquare(x, y, m, r) {
  const cx = Math.min(Math.max(x, m + r), SIZE - m - r);
  const cy = Math.min(Math.max(y, m + r), SIZE - m - r);
  return Math.hypot(x - cx, y - cy) <= r;
}

const STROKE = 15;
const Z = [
  [[36, 36], [92, 36]],
  [[92, 36], [36, 92]],
  [[36, 92], [92, 92]],
];

function pixel(px, py) {
  let bg = 0;
  let fg = 0;
  for (let sy = 0; sy < SS; sy++) {
    for (let sx = 0; sx < SS; sx++) {
      const x = px + (sx + 0.5) / SS;
      const y = py + (sy + 0.5) / SS;
      if (!inRoundedSquare(x, y, 4, 22)) continue;
      bg++;
      if (Z.some(([a, b]) => segment(x, y, a, b, STROKE) <= 0)) fg++;
    }
  }
  const n = SS * SS;
  if (bg === 0) return [0, 0, 0, 0];
  // Background: a diagonal blend from #2b5fd9 (top left) to #0e2a66 (bottom right).
  const t = (px + py) / (2 * SIZE);
  const base = [0x2b + (0x0e - 0x2b) * t, 0x5f + (0x2a - 0x5f) * t, 0xd9 + (0x66 - 0xd9) * t];
  const f = fg / bg;
  const rgb = base.map((c) => Math.round(c * (1 - f) + 255 * f));
  return [...rgb, Math.round((255 * bg) / n)];
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** The icon as PNG bytes. */
export function iconPng() {
  const raw = Buffer.alloc(SIZE * (SIZE * 4 + 1));
  for (let y = 0; y < SIZE; y++) {
    raw[y * (SIZE * 4 + 1)] = 0; // filter: none
    for (let x = 0; x < SIZE; x++) Buffer.from(pixel(x, y)).copy(raw, y * (SIZE * 4 + 1) + 1 + x * 4);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(SIZE, 0);
  ihdr.writeUInt32BE(SIZE, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const png = iconPng();
  if (process.argv.includes('--check')) {
    const same = fs.existsSync(OUT) && fs.readFileSync(OUT).equals(png);
    console.log(same ? `${path.relative(ROOT, OUT)} is up to date` : `${path.relative(ROOT, OUT)} differs from scripts/icon.mjs: run it`);
    process.exit(same ? 0 : 1);
  }
  fs.writeFileSync(OUT, png);
  console.log(`${path.relative(ROOT, OUT)} (${png.length} bytes)`);
}
