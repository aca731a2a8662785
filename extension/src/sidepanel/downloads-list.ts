// The panel's lines for files agents downloaded ("Downloaded report.csv to Downloads"), under the
// agent list: the worker writes them to storage.session (panel-relay.ts) as actions download, this
// renders them and follows changes. A blocked download says what the person can do about it.
import { type DownloadLine, downloadLineText, PANEL_KEYS } from '../shared/panel-messages';

export function showAgentDownloads(after: HTMLElement): void {
  const list = document.createElement('ul');
  list.id = 'download-list';
  list.className = 'downloads';
  list.setAttribute('aria-label', 'Files agents downloaded');
  list.hidden = true;
  Object.assign(list.style, { listStyle: 'none', padding: '0', margin: '6px 0 0', overflowWrap: 'anywhere' });
  after.after(list);
  const render = (lines: DownloadLine[]) => {
    list.hidden = lines.length === 0;
    list.replaceChildren(
      ...lines.map((d) => {
        const li = document.createElement('li');
        li.dataset['state'] = d.state;
        li.textContent = downloadLineText(d);
        if (d.path) li.title = d.path; // where exactly, on hover
        return li;
      }),
    );
  };
  void chrome.storage.session.get(PANEL_KEYS.downloads).then((s) => render((s[PANEL_KEYS.downloads] as DownloadLine[] | undefined) ?? []));
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === 'session' && PANEL_KEYS.downloads in changes)
      render((changes[PANEL_KEYS.downloads]?.newValue as DownloadLine[] | undefined) ?? []);
  });
}
