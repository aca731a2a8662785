// Keeps the offscreen document (offscreen/index.ts) that wakes this worker when Chrome stops it
// with no browser event: it reconnects its port, runtime.onConnect starts the worker, and the
// worker reconnects to the bridge at once instead of at the 30 s alarm. Reason WORKERS: no reason
// names "wake the service worker"; the document only holds a port (see the justification).
import { WAKE_PORT } from '../../shared/config';

const DOCUMENT = 'offscreen/index.html';

/** Registered when the worker script first runs (MV3: only then does a listener wake a stopped worker). */
export function installWakeDocument(wake: () => void): void {
  chrome.runtime.onConnect.addListener((port) => {
    if (port.name !== WAKE_PORT) return;
    wake();
    // The port stays open: its closing is how the document learns that this worker stopped.
  });
  void ensureWakeDocument();
}

async function ensureWakeDocument(): Promise<void> {
  if (!chrome.offscreen) return; // Chrome before 109: the alarm and browser events wake the worker
  const existing = await chrome.runtime.getContexts({ contextTypes: [chrome.runtime.ContextType.OFFSCREEN_DOCUMENT] }).catch(() => []);
  if (existing.length > 0) return;
  await chrome.offscreen
    .createDocument({
      url: DOCUMENT,
      reasons: [chrome.offscreen.Reason.WORKERS],
      justification:
        'Holds a port to the service worker and reopens it when Chrome stops the worker, so the connection to the local bridge comes back at once.',
    })
    .catch((e: unknown) => {
      // Two wakes racing: the other one created it. Anything else: the alarm still wakes the worker.
      const why = e instanceof Error ? e.message : String(e);
      if (!/single offscreen|already/i.test(why)) console.warn('[browser-use-ext] no wake document:', why);
    });
}
