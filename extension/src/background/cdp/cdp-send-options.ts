// How the privacy filter (bridge-connection.ts send -> scrubStrings) treats what a CDP client gets back
// from a tab. Two things beside the protocol ids it keeps (keepCdpField): a card number the client
// itself sent to the tab passes as sent (client-input.ts), and the walk over every string is skipped
// for answers and events whose method carries no page text at all, only ids, numbers, flags and
// Chrome's own words: the walk costs on every answer of a client that sends hundreds a second (input
// events, emulation, lifecycle). The default is to walk: a method is listed here only when nothing in
// its answer or event can hold text of the page, a URL, a header or a title.
import type { CdpEventMessage, CdpResultMessage } from '../../../../schemas/generated/protocol';
import { keepCdpField } from './cdp-relay';
import { spareFor } from './client-input';

/**
 * Answers with no page text (https://chromedevtools.github.io/devtools-protocol/): {} or ids, numbers
 * and flags. Not here (they can carry page text): Runtime.evaluate/callFunctionOn (values), DOM.*
 * reads (attributes, node values, descriptions), Page.navigate is here but not Page.getNavigationHistory
 * (URLs, titles), Target.* (URLs, titles), Network reads (URLs, headers, bodies), Page.getFrameTree.
 */
const TEXT_FREE_RESULTS = new Set([
  // Input: {} (the page's reaction comes as events, which are walked).
  'Input.dispatchMouseEvent',
  'Input.dispatchKeyEvent',
  'Input.dispatchTouchEvent',
  'Input.insertText',
  'Input.imeSetComposition',
  'Input.setIgnoreInputEvents',
  'Input.setInterceptDrags',
  'Input.dispatchDragEvent',
  'Input.synthesizePinchGesture',
  'Input.synthesizeScrollGesture',
  'Input.synthesizeTapGesture',
  // Emulation setters: {} (setVirtualTimePolicy: a number; canEmulate: a flag).
  'Emulation.setDeviceMetricsOverride',
  'Emulation.clearDeviceMetricsOverride',
  'Emulation.setTouchEmulationEnabled',
  'Emulation.setEmitTouchEventsForMouse',
  'Emulation.setUserAgentOverride',
  'Emulation.setLocaleOverride',
  'Emulation.setTimezoneOverride',
  'Emulation.setGeolocationOverride',
  'Emulation.clearGeolocationOverride',
  'Emulation.setEmulatedMedia',
  'Emulation.setEmulatedVisionDeficiency',
  'Emulation.setDefaultBackgroundColorOverride',
  'Emulation.setScrollbarsHidden',
  'Emulation.setFocusEmulationEnabled',
  'Emulation.setScriptExecutionDisabled',
  'Emulation.setCPUThrottlingRate',
  'Emulation.setIdleOverride',
  'Emulation.clearIdleOverride',
  'Emulation.setVirtualTimePolicy',
  'Emulation.canEmulate',
  'Emulation.setAutoDarkModeOverride',
  'Emulation.setHardwareConcurrencyOverride',
  // Domain switches and settings: {}.
  'Page.enable',
  'Page.disable',
  'Runtime.enable',
  'Runtime.disable',
  'Network.enable',
  'Network.disable',
  'DOM.enable',
  'DOM.disable',
  'CSS.enable',
  'Log.enable',
  'Log.disable',
  'Performance.enable',
  'Performance.disable',
  'Accessibility.enable',
  'Accessibility.disable',
  'Fetch.enable',
  'Fetch.disable',
  'Inspector.enable',
  'Security.enable',
  'ServiceWorker.enable',
  'Page.setLifecycleEventsEnabled',
  'Page.setInterceptFileChooserDialog',
  'Page.setBypassCSP',
  'Page.bringToFront',
  'Page.stopLoading',
  'Page.reload',
  'Page.setWebLifecycleState',
  'Page.startScreencast',
  'Page.stopScreencast',
  'Page.screencastFrameAck',
  'Runtime.runIfWaitingForDebugger',
  'Runtime.releaseObject',
  'Runtime.releaseObjectGroup',
  'Runtime.addBinding',
  'Runtime.removeBinding',
  'Runtime.setAsyncCallStackDepth',
  'Network.setCacheDisabled',
  'Network.setBypassServiceWorker',
  'Network.setExtraHTTPHeaders',
  'Network.setUserAgentOverride',
  'Network.emulateNetworkConditions',
  'Target.setAutoAttach',
  'Target.setDiscoverTargets',
  'Debugger.setAsyncCallStackDepth',
  // Ids and numbers only.
  'Page.navigate', // frameId, loaderId, errorText (Chrome's net error name)
  'Page.addScriptToEvaluateOnNewDocument', // identifier
  'Page.removeScriptToEvaluateOnNewDocument',
  'Page.createIsolatedWorld', // executionContextId
  'Page.getLayoutMetrics', // rectangles
  'Page.captureScreenshot', // base64 image, masked by capture-mask.ts
  'DOM.getBoxModel', // quads and sizes
  'DOM.getContentQuads',
  'DOM.scrollIntoViewIfNeeded',
  'DOM.focus',
  'DOM.setFileInputFiles',
  'DOM.getNodeForLocation', // ids
  'DOM.requestNode',
  'DOM.pushNodesByBackendIdsToFrontend',
  'Fetch.continueRequest',
  'Fetch.failRequest',
  'Fetch.fulfillRequest',
  'Fetch.continueWithAuth',
  'Network.continueInterceptedRequest',
]);

/** Events with no page text: ids, timestamps, counts, Chrome's own names. */
const TEXT_FREE_EVENTS = new Set([
  'Page.lifecycleEvent', // frameId, loaderId, name (Chrome's: load, networkIdle...), timestamp
  'Page.loadEventFired',
  'Page.domContentEventFired',
  'Page.frameStartedLoading',
  'Page.frameStoppedLoading',
  'Page.frameDetached',
  'Page.frameResized',
  'Page.frameClearedScheduledNavigation',
  'Runtime.executionContextDestroyed',
  'Runtime.executionContextsCleared',
  'Network.dataReceived',
  'Network.loadingFinished',
  'Network.requestServedFromCache',
  'DOM.documentUpdated',
  'DOM.childNodeCountUpdated',
  'DOM.childNodeRemoved',
  'Page.screencastVisibilityChanged',
  'Inspector.targetReloadedAfterCrash',
]);

/**
 * DOMSnapshot.captureSnapshot keeps every string of the page in one table, `strings`; its documents
 * hold only numbers (indexes into that table, node ids, boxes, flags): "Shared string table that
 * all string properties refer to with indexes"
 * (https://chromedevtools.github.io/devtools-protocol/tot/DOMSnapshot/#method-captureSnapshot). So
 * its answer is filtered by walking the table alone: the same strings masked, without visiting the
 * hundreds of thousands of numbers of a large page (a 10,000-element page: 2 MB, most of it numbers).
 */
function keepSnapshotDocuments(key: string, owner: Record<string, unknown>): boolean {
  return (key === 'documents' && Array.isArray(owner['strings'])) || keepCdpField(key, owner);
}

/** Options of bridge-connection.ts send (its SendOptions; the connection is not imported here: DEPS.json). */
export interface CdpSendOptions {
  keep?: (key: string, owner: Record<string, unknown>) => boolean;
  spare?: (card: string) => boolean;
  plain?: boolean;
}

/** What bridge-connection.ts send does with one cdp_result (of the command's method) or cdp_event. */
export function cdpSendOptions(message: CdpResultMessage | CdpEventMessage, method?: string): CdpSendOptions {
  const textFree =
    message.type === 'cdp_event'
      ? TEXT_FREE_EVENTS.has(message.method)
      : message.error_info === undefined && method !== undefined && TEXT_FREE_RESULTS.has(method);
  if (textFree) return { plain: true };
  const keep = message.type === 'cdp_result' && method === 'DOMSnapshot.captureSnapshot' ? keepSnapshotDocuments : keepCdpField;
  const spare = spareFor(message.tab_id);
  return spare ? { keep, spare } : { keep };
}

/** For the unit tests: whether a method's answer or event is sent without the walk. */
export const isTextFree = (kind: 'result' | 'event', method: string): boolean =>
  (kind === 'result' ? TEXT_FREE_RESULTS : TEXT_FREE_EVENTS).has(method);
