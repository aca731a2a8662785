// A short name for a config dir that the bridge shows on /healthz and `pair` compares with its own:
// a code that `pair --config-dir X` writes is read only by a bridge started with that same dir, so
// pair can say so instead of printing a code the running bridge can never accept. A hash of the real
// path, not the path: /healthz answers anyone on this machine, and the path names the user.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export function configDirId(dir: string): string {
  let real = path.resolve(dir);
  try {
    real = fs.realpathSync(real);
  } catch {
    // not created yet: the resolved path is what a bridge given it would use once it creates it
  }
  return crypto.createHash('sha256').update(`config-dir-id\0${real}`).digest('hex').slice(0, 16);
}
