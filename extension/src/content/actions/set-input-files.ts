// set_input_files, with Playwright's setInputFiles semantics (injectedScript.setInputFiles): the
// target must be an <input type=file>; the files (sent with the action, never read from a disk) are
// put on it through a DataTransfer, then input and change fire as after a choice in the file
// picker. [] clears the input. An input without `multiple` takes one file at most. The only check
// is enabled: upload widgets usually hide the real input behind a styled button, and a person's
// click on that button reaches the hidden input all the same.
import type { SetInputFilesParams } from '../../../../schemas/generated/protocol';
import { waitForActionable } from '../interaction/actionability';
import { resolveTarget } from '../target';
import { fail, label, ok } from './common';
import type { HandlerOutcome, PageHandler } from './types';

/** Bytes one set_input_files carries in all, decoded (the schema's FILES_TOO_LARGE limit). */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

type FileParam = SetInputFilesParams['files'][number];

/** Decoded size of a base64 string, without decoding it (padding and line breaks not counted). */
function decodedSize(b64: string): number {
  const clean = b64.replace(/[\s=]/g, '');
  return Math.floor((clean.length * 3) / 4);
}

function decode(b64: string): Uint8Array<ArrayBuffer> | null {
  let bin: string;
  try {
    bin = atob(b64.replace(/\s/g, ''));
  } catch {
    return null;
  }
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

const mib = (n: number) => `${Math.round((n / (1024 * 1024)) * 10) / 10} MiB`;

function elementType(el: Element): string {
  return el instanceof HTMLInputElement ? `input[type=${el.type}]` : el.localName;
}

function describeFiles(files: FileList): Array<{ name: string; size: number; mime_type: string }> {
  return [...files].map((f) => ({ name: f.name, size: f.size, mime_type: f.type }));
}

export const setInputFiles: PageHandler = async (ctx, raw): Promise<HandlerOutcome> => {
  const p = raw as SetInputFilesParams;
  const t = resolveTarget(ctx, p);
  if (!t.ok) return t;
  const el = t.element;
  const id = t.elementId;
  // The wrong kind of element never becomes a file input: refuse before any waiting.
  if (!(el instanceof HTMLInputElement) || el.type !== 'file') {
    return fail(
      'NOT_FILLABLE',
      `${label(id, el)}${el instanceof HTMLInputElement ? ` (type=${el.type})` : ''} is not a file input, so it cannot take files. Aim set_input_files at the <input type=file> itself (it is often hidden behind an "Upload" button: look for it in a new state, or target it with selector 'input[type=file]').`,
      { element_id: id, element_type: elementType(el) },
    );
  }
  const total = p.files.reduce((n, f) => n + decodedSize(f.content_base64), 0);
  if (total > MAX_UPLOAD_BYTES) {
    return fail(
      'FILES_TOO_LARGE',
      `The files come to ${mib(total)}, more than the ${mib(MAX_UPLOAD_BYTES)} one set_input_files carries; nothing was changed. Upload fewer or smaller files (one action per file if each fits), or send a large file through the site's own upload API instead of the page.`,
      { element_id: id, limit_bytes: MAX_UPLOAD_BYTES, total_bytes: total },
    );
  }
  if (p.files.length > 1 && !el.multiple) {
    return fail(
      'INVALID_VALUE',
      `${label(id, el)} takes one file (it has no multiple attribute), but ${p.files.length} were given; nothing was changed. Set one file, or pick the page's multiple-file input.`,
      { element_id: id, input_type: 'file', expected_format: 'one file (the input has no multiple attribute)' },
    );
  }
  const built: File[] = [];
  for (const f of p.files as FileParam[]) {
    const bytes = decode(f.content_base64);
    if (!bytes) {
      return fail(
        'INVALID_VALUE',
        `The content_base64 of ${JSON.stringify(f.name)} is not base64; nothing was changed. Send the file's bytes base64-encoded (standard alphabet).`,
        { element_id: id, file: f.name, expected_format: 'base64' },
      );
    }
    built.push(new File([bytes], f.name, { type: f.mime_type ?? '' }));
  }
  const a = await waitForActionable(ctx, el, id, ['enabled'], p.timeout_ms, p.force === true);
  if (!a.ok) return a;
  const dt = new DataTransfer();
  for (const f of built) dt.items.add(f);
  el.files = dt.files;
  // What Chrome fires after a choice in the file picker: input (bubbling, composed), then change
  // (bubbling; not composed, as the browser's own change event).
  el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  const files = describeFiles(el.files ?? dt.files);
  const what =
    files.length === 0
      ? `Cleared the files of ${label(id, el)}.`
      : `Set ${files.length} file${files.length === 1 ? '' : 's'} (${files.map((f) => `${f.name}, ${f.size} bytes`).join('; ')}) on ${label(id, el)}.`;
  return ok(what, { element_id: id, files });
};
