// Draws the extension's toolbar/store icons (16, 32, 48, 128 px PNG) without any image library:
// an indigo rounded square with a white pointer arrow, 4x4 supersampled. No state is drawn into the icon
// (it once had a green "live" dot, shown also when not paired): the toolbar badge says the state
// (extension/src/background/panel/action-badge.ts).
// Run: node scripts/make-icons.mjs  (writes extension/icons/icon<N>.png; rollup copies them).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const OUT = 'extension/icons';
const BG = [59, 63, 182];
const FG = [255, 255, 255];

// Shapes in a 0..1 unit square.
const ARROW = [
  [0.3, 0.2],
  [0.3, 0.78],
  [0.44, 0.64],
  [0.54, 0.86],
  [0.63, 0.82],
  [0.53, 0.6],
  [0.72, 0.6],
];
const inPoly = (x, y, poly) => {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i];
    const [xj, yj] = poly[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
};
const inRoundRect = (x, y, r) => {
  const cx = Math.min(Math.max(x, r), 1 - r);
  const cy = Math.min(Math.max(y, r), 1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
};

function pixel(x, y) {
  if (!inRoundRect(x, y, 0.2)) return null;
  if (inPoly(x, y, ARROW)) return FG;
  return BG;
}

function render(size) {
  const S = 4;
  const rgba = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0,
        g = 0,
        b = 0,
        a = 0;
      for (let sy = 0; sy < S; sy++) {
        for (let sx = 0; sx < S; sx++) {
          const c = pixel((px + (sx + 0.5) / S) / size, (py + (sy + 0.5) / S) / size);
          if (!c) continue;
          r += c[0];
          g += c[1];
          b += c[2];
          a += 1;
        }
      }
      const o = (py * size + px) * 4;
      if (a) {
        rgba[o] = Math.round(r / a);
        rgba[o + 1] = Math.round(g / a);
        rgba[o + 2] = Math.round(b / a);
      }
      rgba[o + 3] = Math.round((255 * a) / (S * S));
    }
  }
  return png(size, size, rgba);
}

function crc32(buf) {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

function png(w, h, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const raw = Buffer.alloc((w * 4 + 1) * h);
  for (let y = 0; y < h; y++) rgba.copy(raw, y * (w * 4 + 1) + 1, y * w * 4, (y + 1) * w * 4);
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

fs.mkdirSync(OUT, { recursive: true });
for (const size of [16, 32, 48, 128]) fs.writeFileSync(path.join(OUT, `icon${size}.png`), render(size));
console.log(`wrote ${OUT}/icon{16,32,48,128}.png`);
