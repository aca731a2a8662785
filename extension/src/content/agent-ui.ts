// The page side of the person's UI, in every frame:
//   - the overlay "Agent is controlling this tab" with Stop, in the top frame of a tab an agent holds.
//     Marked as our own UI (shared/agent-ui-marker.ts), so snapshots never list it and the hit test
//     (content/interaction/hit-test.ts) looks through it; the bar itself has
//     pointer-events: none, only its Stop button takes clicks. A closed shadow root keeps the page's
//     CSS out and the page's scripts from reading it.
//   - the element under the pointer at the last right-click, for "Ask the agent about this".
import { AGENT_UI_ATTR, AGENT_UI_OVERLAY } from '../shared/agent-ui-marker';
import { UI_CHANNEL, type UiRequest } from '../shared/panel-messages';

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
let overlay: { host: HTMLElement; label: HTMLElement } | null = null;

function showOverlay(agent: string, task: string | null | undefined): void {
  if (window.top !== window) return;
  if (!overlay) {
    const host = document.createElement('div');
    host.setAttribute(AGENT_UI_ATTR, AGENT_UI_OVERLAY);
    host.setAttribute('aria-hidden', 'true');
    // Fixed, on top, transparent to the pointer except the Stop button.
    host.style.cssText = 'all: initial; position: fixed; left: 12px; bottom: 12px; z-index: 2147483647; pointer-events: none;';
    const root = host.attachShadow({ mode: 'closed' });
    root.innerHTML = `<style>
      .bar { display: flex; align-items: center; gap: 8px; font: 13px/1.3 system-ui, sans-serif; color: #fff;
             background: rgba(40, 44, 120, 0.92); border-radius: 8px; padding: 6px 8px 6px 10px;
             box-shadow: 0 2px 8px rgba(0,0,0,.3); pointer-events: none; max-width: 60vw; }
      .dot { width: 8px; height: 8px; border-radius: 50%; background: #7CFC9A; flex: none; }
      button { pointer-events: auto; font: inherit; font-weight: 600; color: #282c78; background: #fff;
               border: 0; border-radius: 5px; padding: 3px 10px; cursor: pointer; }
      button:hover { background: #ffe3e3; color: #a00; }
    </style>
    <div class="bar"><span class="dot"></span><span class="label"></span><button type="button">Stop</button></div>`;
    const label = root.querySelector('.label') as HTMLElement;
    (root.querySelector('button') as HTMLButtonElement).addEventListener('click', (ev) => {
      ev.stopPropagation();
      label.textContent = 'Stopping…';
      void chrome.runtime.sendMessage({ bux: 'overlay', op: 'stop' }).catch(() => undefined);
    });
    overlay = { host, label };
  }
  overlay.label.textContent = `Agent is controlling this tab (${agent}${task ? ', running a task' : ''})`;
  if (!overlay.host.isConnected) (document.body ?? document.documentElement).appendChild(overlay.host);
  // A screenshot for the model is being taken (background/actions/screenshot.ts): it shows the page,
  // not our label; the capture's clean-up makes it visible again.
  if ((globalThis as { __buxCapturing?: boolean }).__buxCapturing) {
    overlay.host.setAttribute('data-bux-capture-hidden', '');
    overlay.host.style.setProperty('visibility', 'hidden', 'important');
  }
}

function hideOverlay(): void {
  overlay?.host.remove();
}

if (!window.__browserUseExtUiLoaded) {
  window.__browserUseExtUiLoaded = true;
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
