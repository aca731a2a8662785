// The offscreen document that wakes the service worker when Chrome stops it. It holds a port to
// the worker; the port closes when the worker stops, and connecting again starts the worker
// (runtime.onConnect), which reconnects to the bridge at once. Without it a worker stopped with no
// browser event (no tab loading, no click) stayed away until the 30 s alarm, and every agent with
// it. It works with no tab open, unlike a content script's port. While connected nothing runs here:
// no timer, no polling; only a close schedules one reconnect.
import { Backoff } from '../../../schemas/lib/backoff';
import { WAKE_PORT } from '../shared/config';

/** Delay before reconnecting after the worker went away: long enough for Chrome to finish stopping it. */
const WAKE_DELAY_MS = 150;
/** A port that closes at once (the worker failing to start) backs off up to this. */
const MAX_DELAY_MS = 10_000;
/** Closes in a row that came at once: 300 ms, 600 ms, ... (twice the wake delay first, as it always was). */
const quickCloses = new Backoff({ baseMs: 2 * WAKE_DELAY_MS, maxMs: MAX_DELAY_MS });

function connect(): void {
  const opened = Date.now();
  const port = chrome.runtime.connect({ name: WAKE_PORT });
  port.onDisconnect.addListener(() => {
    void chrome.runtime.lastError; // read, so Chrome does not log "Unchecked runtime.lastError"
    if (Date.now() - opened < 500) setTimeout(connect, quickCloses.next());
    else {
      quickCloses.reset();
      setTimeout(connect, WAKE_DELAY_MS);
    }
  });
}
connect();
