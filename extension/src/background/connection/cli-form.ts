// Learns from the bridge how its CLI is typed where it runs (its /healthz `cli`), so the pages print
// commands that work there (shared/cli-form.ts). Asked whenever the connection state changes: before
// pairing too, since /healthz needs no secret. Only the two known forms are kept: the text goes into
// commands the person copies, so nothing else a program on that port says is shown.
import { CLI_FORM_KEY, isCliForm } from '../../shared/cli-form';

export async function learnCliForm(bridgeUrl: string): Promise<void> {
  const health = bridgeUrl.replace(/^ws/, 'http').replace(/\/extension$/, '/healthz');
  try {
    const r = await fetch(health, { signal: AbortSignal.timeout(1500) });
    if (!r.ok) return;
    const body = (await r.json()) as { cli?: unknown };
    if (!isCliForm(body.cli)) return;
    const stored = await chrome.storage.local.get(CLI_FORM_KEY);
    if (stored[CLI_FORM_KEY] !== body.cli) await chrome.storage.local.set({ [CLI_FORM_KEY]: body.cli });
  } catch {
    // No bridge answers (or not ours): keep what the last one said.
  }
}
