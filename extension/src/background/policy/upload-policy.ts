// Which local files an agent may put into a page. Chrome reads the files itself for a CDP client's
// DOM.setFileInputFiles and Input.dispatchDragEvent (data.files), so a client holding one tab could
// otherwise hand the page any file of this computer (the bridge's secrets.json included) and read it
// back through the page. Files are accepted only inside a folder the person allowed for uploads
// (Settings, "Folders agents may upload from"; none by default), with the rules of local-files.ts:
// decoded segments, never a hidden file or folder below the allowed one, never browser-use-ext's
// settings folder.
//
// The classic set_input_files carries bytes, not a path: the Python shim reads the file (Playwright's
// semantics, possibly on another machine than the browser) and sends its path along (files[].path).
// The path is judged here, against the person's setting in this browser, so the setting stays the
// one source of truth and the shim holds no copy of it; bytes given without a path are the agent's
// own data (nothing of this computer the extension could judge) and pass.
import type { ActionMessage, ErrorInfo, SetInputFilesParams } from '../../../../schemas/generated/protocol';
import { errorInfo } from '../../../../schemas/lib/errors';
import { fileUrlFromPath, localVerdict } from '../../shared/local-files';
import { SETTING_KEYS } from '../../shared/panel-messages';

const SETTINGS_HINT =
  'The person can allow the folder in the extension\'s Settings ("Folders agents may upload from"); otherwise upload a file from a folder they allowed.';

/** A "." or ".." segment, also percent-encoded: where it leads depends on links the path does not show, so it is never resolved here. */
const DOT_SEGMENT = /(^|[/\\])(\.|%2e){1,2}([/\\?#]|$)/i;

/** The person's upload folders (canonical file: URLs), read when needed: the worker keeps no copy that could go stale. */
async function uploadFolders(): Promise<string[]> {
  const v = (await chrome.storage.local.get(SETTING_KEYS.uploadFolders))[SETTING_KEYS.uploadFolders];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && /^file:\/\//i.test(x)) : [];
}

/** Why this path may not be uploaded, or null when it is inside an allowed folder. */
export function uploadVerdict(path: unknown, folders: readonly string[]): string | null {
  if (typeof path !== 'string' || path === '') return 'it is not a path';
  if (DOT_SEGMENT.test(path)) return 'its path has a "." or ".." segment; give the plain full path';
  const url = fileUrlFromPath(path);
  if (!url) return 'it is not a full path (like /home/me/Documents/cv.pdf or C:\\Users\\me\\cv.pdf)';
  const v = localVerdict(url.href, folders);
  if (v.local && v.allowed) return null;
  if (!v.local) return 'it is not a file on this computer';
  return folders.length ? v.why : 'the person has allowed no folder for uploads';
}

/** The first refused path of these, with why, or null. */
async function firstRefused(paths: readonly unknown[]): Promise<{ path: string; why: string } | null> {
  if (paths.length === 0) return null;
  const folders = await uploadFolders();
  for (const p of paths) {
    const why = uploadVerdict(p, folders);
    if (why) return { path: typeof p === 'string' ? p : JSON.stringify(p), why };
  }
  return null;
}

const refusal = (what: string, r: { path: string; why: string }, details: Record<string, unknown>): ErrorInfo =>
  errorInfo('NOT_PERMITTED', `${what} refused: ${r.path}: ${r.why}. Nothing was changed. ${SETTINGS_HINT}`, 'background_script', {
    reason: 'upload_folder',
    path: r.path,
    ...details,
  });

/**
 * NOT_PERMITTED when a CDP command would put a file outside the person's upload folders into the
 * page; null otherwise. files: the paths the command names (cdp-policy.ts judgeMethod's needs.files:
 * DOM.setFileInputFiles files, Input.dispatchDragEvent data.files).
 */
export async function cdpFileRefusal(method: string, files: readonly string[]): Promise<ErrorInfo | null> {
  const r = await firstRefused(files);
  return r ? refusal(method, r, { method }) : null;
}

/** NOT_PERMITTED when a set_input_files carries a file read from outside the person's upload folders; null for any other action. */
export async function classicUploadRefusal(action: ActionMessage): Promise<ErrorInfo | null> {
  if (action.action !== 'set_input_files') return null;
  const files = (action.params as Partial<SetInputFilesParams> | undefined)?.files ?? [];
  const r = await firstRefused(files.flatMap((f) => (f.path === undefined ? [] : [f.path])));
  return r ? refusal('"set_input_files"', r, {}) : null;
}
