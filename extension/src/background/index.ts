// Service worker entry: a flat list of top-level registrations. MV3 wakes a stopped worker only for
// events whose listeners exist when the script first runs, so every listener is registered here,
// synchronously: the rooms export install*() and this file calls them (navigation and tab events
// used to be registered lazily, and a stopped worker stayed blind until the 30 s alarm). The worker
// is disposable: the connection is rebuilt at once on every wake, and nothing that matters lives only here.
// https://developer.chrome.com/docs/extensions/develop/concepts/service-workers/events#declare-events
import { installCardFrames } from './cdp/card-frames';
import { runCdpCommand } from './cdp/cdp-command';
import { installCdpRelay, relayEvent, setCdpSink } from './cdp/cdp-relay';
import { installScopeGuard } from './cdp/cdp-scope';
import { cdpSendOptions } from './cdp/cdp-send-options';
import { installHeldTabRules } from './cdp/held-tab-rules';
import { installClosedTabs } from './closed-tabs';
import { BridgeConnection } from './connection/bridge-connection';
import { installContentChannel } from './connection/content-channel';
import { browserFocused, FocusReport } from './connection/focus-report';
import { installWakeDocument } from './connection/wake-document';
import { installDownloads } from './page-watch/downloads';
import { installTabWatchListeners } from './page-watch/tab-watch';
import { onBridgeMessage, registerPanelRelay } from './panel/panel-relay';
import { installPersonPolicy } from './policy/person-policy';
import { installActionSettings } from './run/action-settings';
import { endUnheldChangeWatches, installChangePush, setChangePushSink } from './run/change-push';
import { runAction } from './run/dispatch';
import { installFrameLiveness } from './state/frame-liveness';
import { installKeepStateAnswers } from './state/keep-state-arm';
import { installSheetText } from './state/sheet-text';
import { installStateCache } from './state/state-cache';

// What each room keeps current from Chrome's events (these used to register on import).
installPersonPolicy();
installContentChannel();
installStateCache();
installFrameLiveness();
installClosedTabs();
installDownloads();
installCdpRelay();
installCardFrames();

const RECONNECT_ALARM = 'bux-reconnect';

const connection = new BridgeConnection((message, send) => {
  switch (message.type) {
    case 'cdp_command':
      return void runCdpCommand(message).then((result) => send(result, cdpSendOptions(result, message.method)));
    case 'action': {
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
      if (message.type === 'agent_sessions') void endUnheldChangeWatches(message.sessions, message.total);
      onBridgeMessage(message);
      return;
  }
});
registerPanelRelay(connection);
installSheetText();
installKeepStateAnswers();
setCdpSink(
  (event) => {
    if (!connection.connected) return false;
    connection.send(event, cdpSendOptions(event));
    return true;
  },
  () => connection.connected,
);
installScopeGuard(relayEvent);
installChangePush();
setChangePushSink((update) => {
  if (!connection.connected) return false;
  connection.send(update);
  return true;
});
installHeldTabRules();
installActionSettings();
const wake = () => void connection.ensureConnected();

installTabWatchListeners(wake);
// A worker stopped with no browser event is woken by the offscreen document's port (within ~0.5 s).
installWakeDocument(wake);
chrome.runtime.onInstalled.addListener(wake);
chrome.runtime.onStartup.addListener(wake);
// The browser the person used last is where agents naming none go (focus-report.ts).
const focus = new FocusReport((m) => {
  if (!connection.connected) return false;
  connection.send(m);
  return true;
});
connection.onReady(() => void browserFocused().then((now) => focus.connected(now)));
chrome.windows.onFocusChanged.addListener((windowId) => {
  wake();
  focus.windowFocused(windowId);
});
chrome.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === RECONNECT_ALARM) wake();
});
chrome.storage.onChanged.addListener((changes, area) => {
  if (area === 'local' && 'bridge_url' in changes) wake();
});
// Last fallback (no offscreen document): Chrome's shortest alarm period (30 s).
void chrome.alarms.create(RECONNECT_ALARM, { periodInMinutes: 0.5 });
wake();
