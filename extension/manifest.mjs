// Source of the extension's manifest.json (written to dist/extension by rollup.config.js).
// Kept as code so every permission carries its one-line reason next to it; a test checks that
// each permission in the manifest has an entry in PERMISSION_REASONS.

/** Public key of the extension; it fixes the id so the bridge can pin the Origin. */
export const EXTENSION_KEY =
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA3kvtdv6+OV3m6uMBsRSwTrhP+bMZqmpbrSM10tuSfOrQj7jOWkLJsuD3TI7OUrboDIUZZGuSZG03/Wq/+mnZlUovM76AzNb99QvK1QMcykoZOZavmCigbslGzqYVfshbofy/xFH6Ca1eE2QBc60ESz9p3ssi8AwSGMgqs4d+r26siQkw1y71FJ4maFAgHwXgFG8J3vzpckmNfoUdDv56XVCO1Gy75O0mfiAvVWRnN66FEG+8ckNgDPdKaWCkGk0DySHv9hBNjQ//Er/Smhb25btCVXPL2loOVHcX17FgLiCF0hOVog6DGAjMu9q6i9gx22rZ5zjUV5bjxGI3/tgjewIDAQAB';
/** chrome-extension://<id> derived from EXTENSION_KEY (sha256 of the DER key, first 32 hex digits mapped 0-f -> a-p). */
export const EXTENSION_ID = 'hlpljhaoajogiafnlkgfmcioikalboec';

export const PERMISSION_REASONS = {
  tabs: 'read url/title of every tab for list_tabs, targeting and state; the agent addresses tabs by id',
  storage: 'keep the bridge URL and pairing secret (local) and per-worker scratch state (session) across worker restarts',
  scripting: 'inject the content script into tabs that were open before the extension was installed or reloaded',
  alarms:
    'wake the service worker every 30 s so a dropped bridge connection is re-established (the fallback when the offscreen document cannot)',
  webNavigation:
    'list every frame of a tab (getAllFrames) so a state covers iframes and names the ones it could not reach; follow navigations an action starts (load, net errors, new tabs)',
  debugger:
    'trusted input (Input.dispatchMouseEvent/KeyEvent) when the person turns it on; attached for one action and detached right after',
  sidePanel: 'the side panel where the person pairs, types tasks, watches steps, stops or redirects agents and releases tabs',
  contextMenus: 'the "Ask the agent about this" item on the page context menu, sending the right-clicked element with a question',
  offscreen:
    'a hidden document that holds a port to the service worker and reopens it when Chrome stops the worker, so agents are not cut off from the browser until the 30 s alarm',
  tabGroups: 'put the tabs an agent controls in a tab group named for the agent, so the person sees which tabs are driven',
  downloads:
    "report the file an agent's click or key press downloaded (its path in the Downloads folder Chrome uses, size, state), as browser_use returns it; the folder is never changed",
  cookies:
    "get_cookies (Playwright's context.cookies()): read the cookies of the sites an agent's own tabs show, HttpOnly ones included; never another site's, never written",
  declarativeNetRequestWithHostAccess:
    "refuse page and frame requests to the sites the person blocked for agents, in the tabs an agent holds only (session rules by tab id), so a link, redirect or frame cannot take an agent there; the person's own tabs are never touched",
  '<all_urls>': 'content scripts must run on whatever page the person asks the agent to work on, in every frame',
};

const ICONS = { 16: 'icons/icon16.png', 32: 'icons/icon32.png', 48: 'icons/icon48.png', 128: 'icons/icon128.png' };

export function buildManifest(version) {
  return {
    manifest_version: 3,
    // One product name everywhere a person reads it (store listing, toolbar, panel, CLI, packages).
    // No short_name: the name fits where Chrome would use one.
    name: 'browser-use-ext',
    description:
      'Give browser_use agents tasks from a side panel and watch them work in your own Chrome, through a local bridge you pair with.',
    version,
    key: EXTENSION_KEY,
    minimum_chrome_version: '120',
    permissions: [
      'tabs',
      'storage',
      'scripting',
      'alarms',
      'webNavigation',
      'debugger',
      'sidePanel',
      'contextMenus',
      'tabGroups',
      'offscreen',
      'downloads',
      'cookies',
      'declarativeNetRequestWithHostAccess',
    ],
    host_permissions: ['<all_urls>'],
    background: { service_worker: 'background.js', type: 'module' },
    icons: ICONS,
    // The toolbar icon opens the side panel (panel-relay.ts sets openPanelOnActionClick).
    action: { default_title: 'browser-use-ext: pair, give tasks, watch', default_icon: ICONS },
    side_panel: { default_path: 'sidepanel/index.html' },
    commands: { _execute_action: { suggested_key: { default: 'Alt+Shift+B' }, description: 'Open the browser-use-ext side panel' } },
    content_scripts: [
      // document_start, before any page script: dialogs never block and fetch/XHR are recorded
      // (main-world/hooks.ts); early.js links to it and answers the worker's settle requests.
      {
        matches: ['<all_urls>'],
        js: ['main-hooks.js'],
        run_at: 'document_start',
        all_frames: true,
        match_about_blank: true,
        match_origin_as_fallback: true,
        world: 'MAIN',
      },
      {
        matches: ['<all_urls>'],
        js: ['early.js'],
        run_at: 'document_start',
        all_frames: true,
        match_about_blank: true,
        match_origin_as_fallback: true,
      },
      // The overlay on controlled tabs and the right-clicked element (content/agent-ui.ts).
      {
        matches: ['<all_urls>'],
        js: ['agent-ui.js'],
        run_at: 'document_start',
        all_frames: true,
        match_about_blank: true,
        match_origin_as_fallback: true,
      },
      {
        matches: ['<all_urls>'],
        js: ['content.js'],
        run_at: 'document_idle',
        all_frames: true,
        match_about_blank: true,
        match_origin_as_fallback: true,
      },
    ],
    options_page: 'options.html',
  };
}

/**
 * The Chrome Web Store build's manifest (scripts/package.mjs): without `key`, because the store
 * assigns the listing its own id and rejects an upload that pins one (the unpacked dev build keeps
 * the key: the bridge's default --extension-id is the id it fixes). Without a short_name longer
 * than the store's 12 characters: Chrome then shows `name` wherever it would show short_name.
 */
export function storeManifest(manifest) {
  const { key: _key, ...rest } = manifest;
  if (typeof rest.short_name === 'string' && rest.short_name.length > 12) delete rest.short_name;
  return rest;
}
