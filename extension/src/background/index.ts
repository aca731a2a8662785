// Service worker entry. Listeners are registered synchronously at top level (MV3 requirement: a
// worker woken by an event only sees listeners that exist when the script first runs). The worker
// is disposable: the connection is rebuilt on every wake, and nothing that matters lives only here.
import { BridgeConnection } from './bridge-connection';
import { runAction } from './dispatch';
import { onBridgeMessage, registerPanelRelay } from './panel-relay';

const RECONNECT_ALARM = 'bux-reconnect';

const connection = new BridgeConnection((message, send) => {
  switch (message.type) {
    case 'action':
      void runAction(message).then(send);
      return;
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

chrome.runtime.onInstalled.addListener(() => void connection.ensureConnected());
chrome.runtime.onStartup.addListener(() => void connection.ensureConnected());
chrome.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === RECONNECT_ALARM) void connection.ensureConnected();
});
chrome.storage.onChanged.addListener((changes, area) => {
  if (area === 'local' && 'bridge_url' in changes) void connection.ensureConnected();
});
void chrome.alarms.create(RECONNECT_ALARM, { periodInMinutes: 0.5 });
void connection.ensureConnected();
