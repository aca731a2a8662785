// The panel's lines for pages an agent ran its own script in, when that agent ended: reloaded (its
// script is gone), or kept as the person's Settings asked (its script may still run: a warning).
// The worker writes them to storage.session (background/cdp/client-script-marks.ts); this renders them
// under the agent list and follows changes.
import { agentKind } from '../shared/agent-names';
import { PANEL_KEYS } from '../shared/panel-messages';
import { type ScriptEndLine, scriptEndText } from '../shared/script-ends';

export function showScriptEnds(after: HTMLElement): void {
  const list = document.createElement('ul');
  list.id = 'script-end-list';
  list.setAttribute('aria-label', 'Pages agents ran script in');
  list.hidden = true;
  Object.assign(list.style, { listStyle: 'none', padding: '0', margin: '6px 0 0', overflowWrap: 'anywhere' });
  after.after(list);
  const render = (lines: ScriptEndLine[]) => {
    list.hidden = lines.length === 0;
    list.replaceChildren(
      ...lines.map((l) => {
        const li = document.createElement('li');
        li.dataset['outcome'] = l.outcome;
        li.dataset['tabId'] = String(l.tab_id);
        // A page that may still run the agent's script is a warning the person should not miss.
        if (l.outcome !== 'reloaded') li.setAttribute('role', 'alert');
        li.textContent = scriptEndText(l, l.agent === null ? undefined : agentKind(l.agent));
        return li;
      }),
    );
  };
  void chrome.storage.session
    .get(PANEL_KEYS.scriptEnds)
    .then((s) => render((s[PANEL_KEYS.scriptEnds] as ScriptEndLine[] | undefined) ?? []));
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === 'session' && PANEL_KEYS.scriptEnds in changes)
      render((changes[PANEL_KEYS.scriptEnds]?.newValue as ScriptEndLine[] | undefined) ?? []);
  });
}
