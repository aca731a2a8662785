// Service worker entry: a flat list of top-level registrations. MV3 wakes a stopped worker only for
// events whose listeners exist when the script first runs, so every listener is registered here,
// synchronously (navigation and tab events used to be registered lazily, and a
// stopped worker stayed blind until the 30 s alarm). The worker is disposable: the connection is
// rebuilt at once on every wake, and nothing that matters lives only here.
import './closed-tabs';

import { runCdpSend } from './actions/cdp_send';
import { BridgeConnection } from './bridge-connection';
import { keepCdpField, relayEvent, setCdpSink } from './cdp-relay';
import { installScopeGuard } from './cdp-scope';
import { installHeldTabRules } from './held-tab-rules';
import { onBridgeMessage, registerPanelRelay } from './panel-relay';
import { installActionSettings } from './run/action-settings';
import { runAction } from './run/dispatch';
import { installSheetText } from './sheet-text';
import { installTabWatchListeners } from './tab-watch';
import { installWakeDocument } from './wake-document';

const RECONNECT_ALARM = 'bux-reconnect';

const connection = new BridgeConnection((message, send) => {
  switch (message.type) {
    case 'action': {
      // A CDP client's command: relayed as is, nothing else around it (actions/cdp_send.ts).
      if (message.action === 'cdp_send') {
        void runCdpSend(message).then((result) => send(result, { keep: keepCdpField }));
        return;
      }
      // get_state with redact_card_and_otp false is the agent's explicit opt-out (snapshot privacy).
      const showCards =
        message.action === 'get_state' && (message.params as { redact_card_and_otp?: unknown } | undefined)?.redact_card_and_otp === false;
      void runAction(message).then((result) => send(result, { showCards }));
      return;
    }
    case 'error':
      if (onBridgeMessage(message)) return;
      console.warn('[browser-use-ext] bridge reported', message.error_info.error_code, message.error_info.message);
      return;
    default:
      // task_progress, agent_sessions: for the person (side panel, tab groups, overlay). Others need no action.
      onBridgeMessage(message);
      return;
  }
});
registerPanelRelay(connection);
installSheetText();
setCdpSink(
  (event) => {
    if (!connection.connected) return false;
    connection.send(event, { keep: keepCdpField });
    return true;
  },
  () => connection.connected,
);
installScopeGuard(relayEvent);
installHeldTabRules();
installActionSettings();
const wake = () => void connection.ensureConnected();

installTabWatchListeners(wake);
// A worker stopped with no browser event is woken by the offscreen document's port (within ~0.5 s).
installWakeDocument(wake);
chrome.runtime.onInstalled.addListener(wake);
chrome.runtime.onStartup.addListener(wake);
chrome.windows.onFocusChanged.addListener(wake);
chrome.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === RECONNECT_ALARM) wake();
});
chrome.storage.onChanged.addListener((changes, area) => {
  if (area === 'local' && 'bridge_url' in changes) wake();
});
// Last fallback (no offscreen document): Chrome's shortest alarm period (30 s).
void chrome.alarms.create(RECONNECT_ALARM, { periodInMinutes: 0.5 });
wake();
