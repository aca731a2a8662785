// Renaming this browser from Settings. Agents choose a browser by its name, so the bridge decides: it
// takes the new name and sends agent_sessions naming it (this browser's `browser`), or refuses a name
// another browser has with an error (NOT_PERMITTED, no request id: browser_update carries none) and
// keeps the old one. The name is stored here only once the bridge took it; when no bridge answers (not
// connected, or a bridge that does not know renames), it is stored for the next hello, and Settings
// says so instead of claiming the bridge has it.
import type { AgentSessionsMessage, ErrorMessage, ProtocolMessage } from '../../../../schemas/generated/protocol';
import { BROWSER_KEYS, checkBrowserName } from '../../shared/browser-name';
import type { PanelResponse } from '../../shared/panel-messages';

export const RENAME_ANSWER_MS = 5000;

interface Pending {
  name: string;
  settle: (r: PanelResponse) => void;
}
let pending: Pending | null = null;

const store = (name: string) => chrome.storage.local.set({ [BROWSER_KEYS.name]: name });

export async function renameBrowser(
  send: (m: ProtocolMessage) => boolean,
  raw: string,
  answerMs = RENAME_ANSWER_MS,
): Promise<PanelResponse> {
  const checked = checkBrowserName(raw);
  if (!checked.ok) return { ok: false, error: checked.message };
  const name = checked.name;
  // A newer rename replaces one still waiting: only the last one the person typed counts.
  pending?.settle({ ok: false, error: `Replaced by the newer name "${name}".` });
  if (!send({ type: 'browser_update', name })) {
    await store(name);
    return { ok: true, note: `Saved. The bridge gets the name "${name}" when this browser connects to it.` };
  }
  return new Promise<PanelResponse>((resolve) => {
    const timer = setTimeout(() => {
      if (pending !== mine) return;
      pending = null;
      void store(name).then(() =>
        resolve({
          ok: true,
          note: `Saved in this browser. The bridge has not confirmed "${name}" yet; it gets the name when this browser next connects.`,
        }),
      );
    }, answerMs);
    const mine: Pending = {
      name,
      settle: (r) => {
        clearTimeout(timer);
        if (pending === mine) pending = null;
        resolve(r);
      },
    };
    pending = mine;
  });
}

/** agent_sessions naming this browser by the new name: the bridge took it (its spelling is kept by browser-self.ts). */
export function onRenameSessions(m: AgentSessionsMessage): void {
  if (pending && m.browser && m.browser.name.toLowerCase() === pending.name.toLowerCase()) pending.settle({ ok: true });
}

/** The bridge's refusal of the name waiting for an answer (in_reply_to: none, or the message type). Returns true when it was that. */
export function onRenameError(e: ErrorMessage): boolean {
  const aboutRename = !e.in_reply_to || e.in_reply_to === 'browser_update';
  if (!pending || !aboutRename || e.error_info.error_code !== 'NOT_PERMITTED') return false;
  pending.settle({ ok: false, error: e.error_info.message, error_code: e.error_info.error_code });
  return true;
}
