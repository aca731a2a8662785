// Shared by the generator and the schema tests: loads every schema file and builds the ajv
// instance the protocol is defined for (draft 2020-12, strict mode, our annotation keywords).
import fs from 'node:fs';
import path from 'node:path';

import Ajv2020 from 'ajv/dist/2020.js';

/** Annotation keywords our schemas use. They document; they never validate. */
export const ANNOTATION_KEYWORDS = ['x-senders', 'x-enum-descriptions', 'since'];

export function createProtocolAjv(extra = {}) {
  const ajv = new Ajv2020({ strict: true, allErrors: true, ...extra });
  ajv.addVocabulary(ANNOTATION_KEYWORDS);
  return ajv;
}

/** Every .json under dir, sorted, as { rel, file, schema }. */
export function loadSchemas(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.json'))
        out.push({ rel: path.relative(dir, p).split(path.sep).join('/'), file: p, schema: JSON.parse(fs.readFileSync(p, 'utf8')) });
    }
  };
  walk(dir);
  return out;
}
