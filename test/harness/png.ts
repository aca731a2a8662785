// A screenshot's pixels, for tests that must see what is drawn where (a card number covered or not):
// 8-bit RGB/RGBA non-interlaced PNGs, what Chrome's Page.captureScreenshot and an OffscreenCanvas
// write. https://www.w3.org/TR/png-3/ (filters: section 7.3).
import { inflateSync } from 'node:zlib';

export interface Pixels {
  width: number;
  height: number;
  /** RGBA, 4 bytes a pixel, row after row. */
  rgba: Uint8Array;
}

export function decodePng(data: Buffer): Pixels {
  if (data.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  let at = 8;
  let width = 0;
  let height = 0;
  let colorType = 0;
  const idat: Buffer[] = [];
  while (at < data.length) {
    const len = data.readUInt32BE(at);
    const type = data.toString('latin1', at + 4, at + 8);
    const body = data.subarray(at + 8, at + 8 + len);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      if (body[8] !== 8 || body[12] !== 0) throw new Error('only 8-bit non-interlaced PNGs');
      colorType = body[9] ?? 0;
    } else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') break;
    at += 12 + len;
  }
  const channels = colorType === 6 ? 4 : colorType === 2 ? 3 : 0;
  if (channels === 0) throw new Error(`PNG colour type ${colorType} not handled`);
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const cur = new Uint8Array(stride);
  const prev = new Uint8Array(stride);
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)] ?? 0;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? (cur[i - channels] ?? 0) : 0;
      const b = prev[i] ?? 0;
      const c = i >= channels ? (prev[i - channels] ?? 0) : 0;
      const x = line[i] ?? 0;
      let v = x;
      if (filter === 1) v = x + a;
      else if (filter === 2) v = x + b;
      else if (filter === 3) v = x + ((a + b) >> 1);
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        v = x + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
      }
      cur[i] = v & 0xff;
    }
    for (let px = 0; px < width; px++) {
      for (let k = 0; k < 3; k++) rgba[(y * width + px) * 4 + k] = cur[px * channels + k] ?? 0;
      rgba[(y * width + px) * 4 + 3] = channels === 4 ? (cur[px * channels + 3] ?? 0) : 255;
    }
    prev.set(cur);
  }
  return { width, height, rgba };
}

/** The distinct colours (#rrggbb) in a rectangle of the image (pixels, clamped to the image). */
export function coloursIn(img: Pixels, r: { x: number; y: number; w: number; h: number }): Set<string> {
  const out = new Set<string>();
  const x0 = Math.max(0, Math.floor(r.x));
  const y0 = Math.max(0, Math.floor(r.y));
  const x1 = Math.min(img.width, Math.ceil(r.x + r.w));
  const y1 = Math.min(img.height, Math.ceil(r.y + r.h));
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      const i = (y * img.width + x) * 4;
      const hex = (n: number | undefined) => (n ?? 0).toString(16).padStart(2, '0');
      out.add(`#${hex(img.rgba[i])}${hex(img.rgba[i + 1])}${hex(img.rgba[i + 2])}`);
    }
  return out;
}
