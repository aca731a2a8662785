// The page side of the person's UI, in every frame:
//   - the overlay "Agent is controlling this tab" with Stop, in the top frame of a tab an agent holds
//     (content/agent-bar.ts: claimed as our own UI, closed shadow root, top layer, put back when
//     the page removes it). Snapshots never list it and the hit test (content/interaction/hit-test.ts)
//     looks through it. The bar takes no pointer: its Stop button does only while a person's pointer
//     is over the bar (armed), so the page's own hit tests, hover and mouse events see the page under it.
//     A CDP client's tabs never get it: such a client reads the page whole (background/panel/controlled-tabs.ts).
//   - the element under the pointer at the last right-click, for "Ask the agent about this".
import { UI_CHANNEL, type UiRequest } from '../shared/panel-messages';
import { AgentBar } from './agent-bar';

declare global {
  interface Window {
    __browserUseExtUiLoaded?: boolean;
  }
}

interface ElementInfo {
  tag: string;
  role: string | null;
  name: string | null;
  text: string | null;
  href: string | null;
  selector: string | null;
}

const clip = (s: string | null | undefined, n: number) => {
  const t = (s ?? '').replace(/\s+/g, ' ').trim();
  return t ? t.slice(0, n) : null;
};

function selectorOf(el: Element): string {
  if (el.id && /^[A-Za-z][\w-]*$/.test(el.id)) return `#${el.id}`;
  const parts: string[] = [];
  for (let n: Element | null = el; n && n !== document.documentElement && parts.length < 6; n = n.parentElement) {
    if (n.id && /^[A-Za-z][\w-]*$/.test(n.id)) {
      parts.unshift(`#${n.id}`);
      break;
    }
    const parent: Element | null = n.parentElement;
    const same = parent ? Array.from(parent.children).filter((c) => c.tagName === n!.tagName) : [];
    parts.unshift(same.length > 1 ? `${n.tagName.toLowerCase()}:nth-of-type(${same.indexOf(n) + 1})` : n.tagName.toLowerCase());
  }
  return parts.join(' > ');
}

const IMPLICIT_ROLES: Record<string, string> = {
  a: 'link',
  button: 'button',
  select: 'combobox',
  textarea: 'textbox',
  img: 'img',
  h1: 'heading',
  h2: 'heading',
  h3: 'heading',
  li: 'listitem',
  table: 'table',
  form: 'form',
  nav: 'navigation',
};

function describe(el: Element): ElementInfo {
  // The nearest interactive ancestor is what the person means when right-clicking a link's text.
  const target = el.closest('a[href],button,input,select,textarea,[role],label,img') ?? el;
  const tag = target.tagName.toLowerCase();
  const input = target instanceof HTMLInputElement ? target : null;
  const role =
    target.getAttribute('role') ??
    (input
      ? input.type === 'checkbox'
        ? 'checkbox'
        : input.type === 'radio'
          ? 'radio'
          : input.type === 'submit' || input.type === 'button'
            ? 'button'
            : 'textbox'
      : (IMPLICIT_ROLES[tag] ?? null));
  const labelled =
    target.getAttribute('aria-label') ??
    input?.labels?.[0]?.textContent ??
    target.getAttribute('alt') ??
    target.getAttribute('title') ??
    (input ? input.placeholder : null);
  const text = clip((target as HTMLElement).innerText ?? target.textContent, 2000);
  return {
    tag,
    role,
    name: clip(labelled ?? text, 1000),
    text,
    href: target instanceof HTMLAnchorElement ? target.href.slice(0, 4000) : null,
    selector: selectorOf(target).slice(0, 1000),
  };
}

let lastRightClicked: Element | null = null;
// Created at document_start in the top frame, so the bar's window click listener comes before any
// page script's (content/agent-bar.ts).
let overlay: AgentBar | null = null;

// The agent named as the side panel names it (shared/agent-entries.ts, sent by the worker). On screen
// the name leads, on one line (the bar cuts it with an ellipsis at 360 px, Stop stays in view); a
// screen reader hears the whole sentence.
function showOverlay(agent: string, task: string | null | undefined): void {
  overlay?.show(`Agent is controlling this tab (${agent}${task ? ', running a task' : ''})`, `${agent}${task ? ' · running a task' : ''}`);
}

function hideOverlay(): void {
  overlay?.hide();
}

if (!window.__browserUseExtUiLoaded) {
  window.__browserUseExtUiLoaded = true;
  if (window.top === window)
    overlay = new AgentBar(() => void chrome.runtime.sendMessage({ bux: 'overlay', op: 'stop' }).catch(() => undefined));
  document.addEventListener(
    'contextmenu',
    (ev) => (lastRightClicked = ev.composedPath()[0] instanceof Element ? (ev.composedPath()[0] as Element) : null),
    true,
  );
  chrome.runtime.onMessage.addListener((message: unknown, _sender, sendResponse) => {
    const m = message as UiRequest | null;
    if (!m || typeof m !== 'object' || m.channel !== UI_CHANNEL) return false;
    if (m.kind === 'overlay') {
      if (m.show) showOverlay(m.agent ?? 'agent', m.task);
      else hideOverlay();
      sendResponse(true);
      return false;
    }
    sendResponse(lastRightClicked ? describe(lastRightClicked) : null);
    return false;
  });
}
