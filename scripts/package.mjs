// `npm run package`: zips the built extension (dist/extension) into
// dist/browser-use-ext-extension-<version>.zip for the Chrome Web Store upload, or to hand to someone
// who unzips it and uses Load unpacked. A tiny ZIP writer (deflate via node:zlib, CRC-32, central
// directory) so packaging needs no dependency. A harness config.json and source maps are never
// packed, and the manifest is the store build's (extension/manifest.mjs storeManifest: no `key`, so
// the store assigns the id; the unpacked dist/extension keeps its key and its fixed id).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

import { storeManifest } from '../extension/manifest.mjs';

// Arguments (tests): node scripts/package.mjs [src-dir] [out.zip]
const SRC = process.argv[2] ?? 'dist/extension';
const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const OUT = process.argv[3] ?? `dist/browser-use-ext-extension-${pkg.version}.zip`;
const SKIP = new Set(['config.json']);

if (!fs.existsSync(path.join(SRC, 'manifest.json'))) {
  console.error(`No built extension in ${SRC}: run \`npm run build\` first (npm run package does).`);
  process.exit(1);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

function files(dir, base = '') {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => {
      const rel = base ? `${base}/${e.name}` : e.name;
      if (e.isDirectory()) return files(path.join(dir, e.name), rel);
      return SKIP.has(rel) || rel.endsWith('.map') ? [] : [rel];
    });
}

// DOS date/time of a fixed moment (1 Jan 2020): the zip's bytes depend only on the files.
const DOS_TIME = 0;
const DOS_DATE = ((2020 - 1980) << 9) | (1 << 5) | 1;
const locals = [];
const central = [];
let offset = 0;
/** The file's bytes as packed: the manifest of a build that pins its id becomes the store manifest. */
function packed(rel) {
  const data = fs.readFileSync(path.join(SRC, rel));
  if (rel !== 'manifest.json') return data;
  const manifest = JSON.parse(data.toString('utf8'));
  return 'key' in manifest ? Buffer.from(JSON.stringify(storeManifest(manifest), null, 2) + '\n') : data;
}

for (const rel of files(SRC)) {
  const data = packed(rel);
  const deflated = zlib.deflateRawSync(data, { level: 9 });
  const name = Buffer.from(rel, 'utf8');
  const crc = crc32(data);
  const head = Buffer.alloc(30);
  head.writeUInt32LE(0x04034b50, 0);
  head.writeUInt16LE(20, 4);
  head.writeUInt16LE(0x0800, 6); // UTF-8 names
  head.writeUInt16LE(8, 8); // deflate
  head.writeUInt16LE(DOS_TIME, 10);
  head.writeUInt16LE(DOS_DATE, 12);
  head.writeUInt32LE(crc, 14);
  head.writeUInt32LE(deflated.length, 18);
  head.writeUInt32LE(data.length, 22);
  head.writeUInt16LE(name.length, 26);
  locals.push(head, name, deflated);
  const dir = Buffer.alloc(46);
  dir.writeUInt32LE(0x02014b50, 0);
  dir.writeUInt16LE(20, 4);
  dir.writeUInt16LE(20, 6);
  dir.writeUInt16LE(0x0800, 8);
  dir.writeUInt16LE(8, 10);
  dir.writeUInt16LE(DOS_TIME, 12);
  dir.writeUInt16LE(DOS_DATE, 14);
  dir.writeUInt32LE(crc, 16);
  dir.writeUInt32LE(deflated.length, 20);
  dir.writeUInt32LE(data.length, 24);
  dir.writeUInt16LE(name.length, 28);
  dir.writeUInt32LE(offset, 42);
  central.push(dir, name);
  offset += head.length + name.length + deflated.length;
}
const centralBuf = Buffer.concat(central);
const end = Buffer.alloc(22);
end.writeUInt32LE(0x06054b50, 0);
end.writeUInt16LE(central.length / 2, 8);
end.writeUInt16LE(central.length / 2, 10);
end.writeUInt32LE(centralBuf.length, 12);
end.writeUInt32LE(offset, 16);
fs.writeFileSync(OUT, Buffer.concat([...locals, centralBuf, end]));
console.log(
  `${OUT}: ${central.length / 2} files, ${fs.statSync(OUT).size} bytes, for the Chrome Web Store (no manifest key: the store assigns the id; start the bridge with --extension-id <that id>). To load it unpacked, use dist/extension instead: it keeps the fixed id the bridge expects.`,
);
