// The offscreen document that wakes the service worker when Chrome stops it. It holds a port to
// the worker; the port closes when the worker stops, and connecting again starts the worker
// (runtime.onConnect), which reconnects to the bridge at once. Without it a worker stopped with no
// browser event (no tab loading, no click) stayed away until the 30 s alarm, and every agent with
// it. It works with no tab open, unlike a content script's port. While connected nothing runs here:
// no timer, no polling; only a close schedules one reconnect.
import { WAKE_PORT } from '../shared/config';

/** Delay before reconnecting after the worker went away: long enough for Chrome to finish stopping it. */
const WAKE_DELAY_MS = 150;
/** A port that closes at once (the worker failing to start) backs off up to this. */
const MAX_DELAY_MS = 10_000;
let delay = WAKE_DELAY_MS;

function connect(): void {
  const opened = Date.now();
  const port = chrome.runtime.connect({ name: WAKE_PORT });
  port.onDisconnect.addListener(() => {
    void chrome.runtime.lastError; // read, so Chrome does not log "Unchecked runtime.lastError"
    delay = Date.now() - opened < 500 ? Math.min(delay * 2, MAX_DELAY_MS) : WAKE_DELAY_MS;
    setTimeout(connect, delay);
  });
}
connect();
