// Seed 002's <browsing_context> block: page URL, then one HTML-like line per interactive element
// with id = the element's index, label = accessible name, value (redaction marker when redacted),
// placeholder, href with the query string stripped, type, disabled="true".
import type { ActionableElement, SimplifiedState } from '../../generated/protocol';
import { shownValue } from './common';

const VOID = new Set(['input', 'img', 'br', 'hr', 'area']);
const attr = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
const text = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;');

function stripQuery(href: string): string {
  const cut = href.search(/[?#]/);
  return cut === -1 ? href : href.slice(0, cut);
}

export function renderElementTag(el: ActionableElement): string {
  const parts: string[] = [`id="${el.index ?? el.id}"`];
  const a = el.attributes;
  if (el.tag === 'a' && a['href'] !== undefined) parts.push(`href="${attr(stripQuery(a['href']))}"`);
  if (a['type'] !== undefined && el.tag !== 'a') parts.push(`type="${attr(a['type'])}"`);
  if (el.name) parts.push(`label="${attr(el.name)}"`);
  if (a['placeholder'] !== undefined) parts.push(`placeholder="${attr(a['placeholder'])}"`);
  const value = shownValue(el);
  if (value !== undefined) parts.push(`value="${attr(value)}"`);
  const s = el.states ?? {};
  if (s.checked !== undefined) parts.push(`checked="${String(s.checked)}"`);
  if (s.expanded !== undefined) parts.push(`expanded="${String(s.expanded)}"`);
  if (s.disabled) parts.push('disabled="true"');
  const open = `<${el.tag} ${parts.join(' ')}>`;
  if (VOID.has(el.tag)) return open;
  return `${open}${text(el.text_content ?? '')}</${el.tag}>`;
}

export function renderBrowsingContext(state: SimplifiedState, header = '[Target Update]'): string {
  const lines = ['<browsing_context>', header, `URL: ${state.url}`, '', 'Interactive Elements:'];
  for (const el of state.actionable_elements) lines.push(renderElementTag(el));
  if (state.truncation) lines.push(`[Truncated: ${state.truncation.message}]`);
  lines.push('</browsing_context>');
  return lines.join('\n');
}
