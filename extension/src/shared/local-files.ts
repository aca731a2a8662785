// Which local files an agent may read. Local files (file: URLs and the schemes that show them) are
// refused to agents unless the person allowed a folder in the extension's settings: with file access
// (an unpacked load has it) an agent could otherwise navigate to file:///.../secrets.json, the
// bridge's own pairing secrets, and read it with get_state or a screenshot.
//
// Matching is on decoded, normalized path segments: the URL parser resolves "." and ".." (also
// written %2e%2e), and a segment that still decodes to a dot segment, a slash or a backslash
// (%2f, %5c) is refused outright, so no spelling of a path reaches outside an allowed folder.
// What the URL cannot show is not judged: a symbolic link inside an allowed folder leads wherever
// it points (the person allows the folder, links included).
//
// Which schemes count as local:
//   file:        the person's files.
//   filesystem:  an origin's sandboxed file system, obsolete; no folder setting can allow it.
//   view-source: of a local URL: the file's text (judged by the URL inside).
//   blob: created by a local page (blob:file:///..., blob:null/...): content a local page made,
//                from files it may have read; never allowed (the folder it came from is unknown).
//   data: is NOT local: its content is the URL itself (what the agent or a page put there), and
//                a data: page cannot load local files.

/** Hidden folders below an allowed folder stay blocked (~/.config holds the bridge's secrets.json, ~/.ssh keys). */
const CONFIG_DIR = ['.config', 'browser-use-ext'];

export type LocalVerdict =
  /** Not a local URL: other rules (domains, restricted pages) decide. */
  { local: false } | { local: true; allowed: true } | { local: true; allowed: false; why: string };

interface LocalPath {
  host: string;
  /** Decoded path segments, empty ones dropped ("/a//b/" -> ["a", "b"]). */
  segments: string[];
}

/** A file: URL's decoded segments, or null when a segment hides a separator or a dot segment. */
export function localPath(url: URL): LocalPath | null {
  const segments: string[] = [];
  for (const raw of url.pathname.split('/')) {
    let seg: string;
    try {
      seg = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (seg === '') continue;
    if (seg === '.' || seg === '..' || /[/\\\0]/.test(seg)) return null;
    segments.push(seg);
  }
  const host = url.hostname.toLowerCase();
  return { host: host === 'localhost' ? '' : host, segments };
}

/** Windows drive paths ("C:") compare without letter case, as the file system does; POSIX paths exactly. */
const sameSegment = (a: string, b: string, caseless: boolean) => (caseless ? a.toLowerCase() === b.toLowerCase() : a === b);

function isInside(file: LocalPath, folder: LocalPath): boolean {
  if (file.host !== folder.host || folder.segments.length > file.segments.length) return false;
  const caseless = /^[a-z]:$/i.test(folder.segments[0] ?? '');
  return folder.segments.every((s, i) => sameSegment(s, file.segments[i] ?? '', caseless));
}

function hasConfigDir(p: LocalPath): boolean {
  return p.segments.some((s, i) => s.toLowerCase() === CONFIG_DIR[0] && (p.segments[i + 1] ?? '').toLowerCase() === CONFIG_DIR[1]);
}

/** The URL a local-looking URL shows: view-source:X -> X. */
function inner(url: string): string {
  // As the URL parser reads it: tabs and newlines anywhere are dropped ("fi\tle:" is "file:"), and
  // leading controls and spaces too.
  let u = url.replace(/[\t\n\r]/g, '');
  let start = 0;
  while (start < u.length && u.charCodeAt(start) <= 0x20) start++;
  u = u.slice(start);
  while (/^view-source:/i.test(u)) u = u.slice('view-source:'.length);
  return u;
}

/** Whether this URL is local (and so judged by localVerdict), without reading the settings. */
export function isLocalUrl(url: string | undefined): boolean {
  if (!url) return false;
  const u = inner(url).toLowerCase();
  return u.startsWith('file:') || u.startsWith('filesystem:') || u.startsWith('blob:file:') || u.startsWith('blob:null/');
}

/** folders: the person's allowed folders (file: URLs, see folderFromInput). */
export function localVerdict(url: string | undefined, folders: readonly string[]): LocalVerdict {
  if (!isLocalUrl(url)) return { local: false };
  const target = inner(url ?? '');
  const scheme = target.slice(0, target.indexOf(':') + 1).toLowerCase();
  if (scheme !== 'file:')
    return {
      local: true,
      allowed: false,
      why: `${scheme} URLs show local data, which agents may not read (no folder setting allows them)`,
    };
  let parsed: URL;
  try {
    parsed = new URL(target);
  } catch {
    return { local: true, allowed: false, why: 'it is not a valid file URL' };
  }
  const path = localPath(parsed);
  if (!path) return { local: true, allowed: false, why: 'its path hides a separator or a ".." segment' };
  if (hasConfigDir(path))
    return {
      local: true,
      allowed: false,
      why: "it is in browser-use-ext's settings folder (the pairing secrets), which agents may never read",
    };
  for (const f of folders) {
    const folder = folderPath(f);
    if (!folder || !isInside(path, folder)) continue;
    const below = path.segments.slice(folder.segments.length);
    if (below.some((s) => s.startsWith('.')))
      return { local: true, allowed: false, why: `it is in a hidden folder or file below ${displayFolder(f)} (hidden ones stay blocked)` };
    return { local: true, allowed: true };
  }
  return {
    local: true,
    allowed: false,
    why: folders.length
      ? `it is a local file outside the folders the person allowed (${folders.map(displayFolder).join(', ')})`
      : 'it is a local file, and the person has allowed no folder for agents',
  };
}

function folderPath(folder: string): LocalPath | null {
  try {
    const u = new URL(folder);
    return u.protocol === 'file:' ? localPath(u) : null;
  } catch {
    return null;
  }
}

/** "file:///home/me/My%20Files/" -> "/home/me/My Files/" (how the person wrote it). */
export function displayFolder(folder: string): string {
  const p = folderPath(folder);
  if (!p) return folder;
  const path = p.segments.join('/');
  const drive = /^[a-z]:$/i.test(p.segments[0] ?? '');
  return `${p.host ? `//${p.host}/` : drive ? '' : '/'}${path}${path ? '/' : ''}`;
}

/** A path segment as a URL writes it (":" kept: "C:" stays a drive). */
const encodeSegment = (s: string) => encodeURIComponent(s).replace(/%3A/gi, ':');

/**
 * A full path as a person or a program writes it ("/home/me/a.pdf", "C:\\Users\\me\\a.pdf", "C:/Users/me",
 * "\\\\server\\share\\a.pdf") or a file: URL, as a file: URL; null for anything else (a relative path,
 * "~/a.pdf": where it leads depends on a working folder nobody here knows). Every character is kept as
 * written (percent-encoded), so localPath judges the same segments the file system will open.
 */
export function fileUrlFromPath(text: string): URL | null {
  const encoded = (parts: string[]) => parts.map(encodeSegment).join('/');
  try {
    if (/^file:/i.test(text)) return new URL(text);
    if (/^[/\\]{2}[^/\\]/.test(text)) {
      // UNC (\\server\share\file, //server/share/file): a host, which no folder on this computer
      // matches. Linux reads "//x/y" as "/x/y", Windows as a share: the narrower reading is kept.
      const [host = '', ...rest] = text.slice(2).replace(/\\/g, '/').split('/');
      return new URL(`file://${encodeSegment(host)}/${encoded(rest)}`);
    }
    if (text.startsWith('/')) return new URL(`file://${encoded(text.split('/'))}`);
    if (/^[a-z]:[\\/]/i.test(text)) return new URL(`file:///${encoded(text.replace(/\\/g, '/').split('/'))}`);
  } catch {
    return null;
  }
  return null;
}

export type FolderInput = { ok: true; url: string; warning: string | null } | { ok: false; error: string };

/**
 * A folder the person typed ("/home/me/Downloads", "C:\\Users\\me\\Downloads", "file:///home/me/Downloads/")
 * as the canonical file: URL ending in "/", or why it cannot be allowed. use: what agents may do with
 * its files, for the warning about a wide folder.
 */
export function folderFromInput(text: string, use: 'read' | 'upload' = 'read'): FolderInput {
  const t = text.trim();
  let url: URL | null;
  if (/^file:/i.test(t) || t.startsWith('/') || /^[a-z]:[\\/]/i.test(t)) url = fileUrlFromPath(t);
  else return { ok: false, error: `"${t}" is not a folder: write a full path like /home/me/Downloads or file:///home/me/Downloads/.` };
  if (!url) return { ok: false, error: `"${t}" is not a folder path.` };
  if (url.search || url.hash) return { ok: false, error: `"${t}": a folder has no ? or # part.` };
  const path = localPath(url);
  if (!path) return { ok: false, error: `"${t}" hides a separator or a ".." segment; write the folder's plain path.` };
  const drive = /^[a-z]:$/i.test(path.segments[0] ?? '');
  if (path.segments.length === 0 || (drive && path.segments.length === 1))
    return { ok: false, error: `"${t}" is a whole disk; allow the one folder agents need (e.g. your Downloads folder).` };
  if (hasConfigDir(path) || (path.segments.at(-1) ?? '').toLowerCase() === CONFIG_DIR[0])
    return { ok: false, error: `"${t}" holds browser-use-ext's pairing secrets (~/.config/browser-use-ext); agents may never read it.` };
  const canonical = `file://${path.host}/${path.segments.map(encodeSegment).join('/')}/`;
  const shallow = path.segments.length <= (drive ? 3 : 2);
  return {
    ok: true,
    url: canonical,
    warning: shallow
      ? `${displayFolder(canonical)} is a whole home or top-level folder: agents can ${use} every file in it except hidden ones. A narrower folder is safer.`
      : null,
  };
}
