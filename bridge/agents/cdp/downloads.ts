// Downloads for a CDP client: Browser.setDownloadBehavior is a browser-wide command, so it becomes
// Page.setDownloadBehavior on each tab the client holds, with the bridge's downloads folder (never a
// path the client names). Chrome refuses that command to extensions (chrome.debugger may not write
// local files), and then the download lands where the person's Chrome puts it. Either way the client's
// Browser.downloadWillBegin / Browser.downloadProgress come from the tab's Page.download* events, with
// filePath on completion only when the file was found there.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { Logger } from '../../common/log';
import { type CdpError, type CommandParams, eventParams, type Params, SERVER_ERROR } from './cdp-protocol';
import type { SendOutcome } from './tab-channel';

interface Pending {
  suggestedFilename: string;
}

export class Downloads {
  /** The client's behavior (allow, allowAndName, deny, default); null until it sets one. */
  private behavior: string | null = null;
  /** Where downloads land: the bridge's folder, or Chrome's own when the tab refused to redirect. */
  private landing: 'dir' | 'chrome' = 'chrome';
  private refusedOnce = false;
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly o: {
      downloadsDir: string;
      log: Logger;
      send: (tabId: number, method: string, params: Params) => Promise<SendOutcome>;
    },
  ) {}

  /** Browser.setDownloadBehavior: applied to every tab held; null when accepted. */
  async setBehavior(params: CommandParams<'Browser.setDownloadBehavior'>, tabIds: number[]): Promise<CdpError | null> {
    const behavior = typeof params.behavior === 'string' ? params.behavior : '';
    if (!['allow', 'allowAndName', 'deny', 'default'].includes(behavior))
      return { code: -32602, message: 'Invalid parameters: behavior must be one of deny, allow, allowAndName, default' };
    this.behavior = behavior;
    const outcomes = await Promise.all(tabIds.map((t) => this.applyTo(t)));
    if (behavior === 'deny' && outcomes.some((ok) => !ok))
      return {
        code: SERVER_ERROR,
        message:
          "Downloads cannot be denied through browser-use-ext: Chrome does not let the extension change a tab's download behavior. Downloads still need the person's Chrome settings to start.",
      };
    return null;
  }

  /** Applies the client's behavior to a tab (also one attached later); whether the tab took it. */
  async applyTo(tabId: number): Promise<boolean> {
    if (this.behavior === null || this.refusedOnce) return false;
    const pageBehavior = this.behavior === 'allowAndName' ? 'allow' : this.behavior;
    const params: { behavior: string; downloadPath?: string } = { behavior: pageBehavior };
    if (pageBehavior === 'allow') {
      try {
        fs.mkdirSync(this.o.downloadsDir, { recursive: true });
      } catch (e) {
        this.o.log.warn('cdp: cannot create the downloads folder; downloads go to the browser default', {
          error: e instanceof Error ? e.message : String(e),
        });
        return false;
      }
      params.downloadPath = this.o.downloadsDir;
    }
    const r = await this.o.send(tabId, 'Page.setDownloadBehavior', params);
    if (r.ok) {
      if (pageBehavior === 'allow') this.landing = 'dir';
      return true;
    }
    this.refusedOnce = true;
    this.landing = 'chrome';
    this.o.log.info("cdp: the tab refused Page.setDownloadBehavior; downloads land in the browser's own folder", {
      message: r.error.message,
    });
    return false;
  }

  /** Browser.* events for a tab's Page.download* event; null for any other event. */
  translate(method: string, params: Params): { method: string; params: Params } | null {
    if (method === 'Page.downloadWillBegin') {
      const p = eventParams(params, method);
      this.pending.set(String(p.guid ?? ''), { suggestedFilename: String(p.suggestedFilename ?? '') });
      return { method: 'Browser.downloadWillBegin', params };
    }
    if (method !== 'Page.downloadProgress') return null;
    const p = eventParams(params, method);
    const guid = String(p.guid ?? '');
    const out: Params & { filePath?: string } = { ...params };
    if (p.state === 'completed' || p.state === 'canceled') {
      const pending = this.pending.get(guid);
      this.pending.delete(guid);
      if (pending && p.state === 'completed') {
        const size = typeof p.totalBytes === 'number' ? p.totalBytes : -1;
        const dirs = this.landing === 'dir' ? [this.o.downloadsDir] : chromeDownloadDirs();
        const found = findDownloadedFile(dirs, pending.suggestedFilename, size);
        if (found) out.filePath = found;
      }
    }
    return { method: 'Browser.downloadProgress', params: out };
  }
}

/** Where Chrome puts downloads by default (the person may have chosen another folder). */
function chromeDownloadDirs(): string[] {
  const dirs = [path.join(os.homedir(), 'Downloads')];
  const xdg = process.env['XDG_DOWNLOAD_DIR'];
  if (xdg) dirs.unshift(xdg);
  return dirs;
}

/**
 * The file Chrome wrote for a download: its suggested name or Chrome's de-duplicated "name (N).ext",
 * of the right size, the newest. null when none is found: filePath is then left out, never guessed.
 */
export function findDownloadedFile(dirs: string[], suggestedFilename: string, size: number): string | null {
  if (!suggestedFilename || suggestedFilename.includes('/') || suggestedFilename.includes('\\')) return null;
  const ext = path.extname(suggestedFilename);
  const base = suggestedFilename.slice(0, suggestedFilename.length - ext.length);
  const names = [suggestedFilename, ...Array.from({ length: 99 }, (_, i) => `${base} (${i + 1})${ext}`)];
  let best: { file: string; mtime: number } | null = null;
  for (const dir of dirs)
    for (const name of names) {
      const file = path.join(dir, name);
      let st: fs.Stats;
      try {
        st = fs.statSync(file);
      } catch {
        continue;
      }
      if (!st.isFile() || (size >= 0 && st.size !== size)) continue;
      if (!best || st.mtimeMs > best.mtime) best = { file, mtime: st.mtimeMs };
    }
  return best?.file ?? null;
}
