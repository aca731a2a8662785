// Text for the person with terminal commands in it. The worker's status and notice strings mark a
// command with backticks (`browser-use-ext pair`); a page shows each marked command as a <code> box
// of its own and never shows the backticks. Built with text nodes only (never innerHTML): the text
// can carry a bridge's words or a page title, and none of it may become markup. A command is shown in
// the form the bridge's CLI is typed where it runs (with npx in front in a checkout).
import { CLI_FORM_KEY, type CliForm, inCliForm, isCliForm } from './cli-form';

/** The form the bridge's CLI is typed in where it runs (shared/cli-form.ts); null until known. */
let cliForm: CliForm | null = null;

/**
 * Shows every command under `root` (<code> boxes, the page's own and those set later) in the form the
 * bridge named, now and whenever it changes. Pages call it once at start.
 */
export function showCommandsInCliForm(root: HTMLElement): void {
  const apply = (form: unknown) => {
    cliForm = isCliForm(form) ? form : null;
    for (const code of root.querySelectorAll<HTMLElement>('code')) {
      const command = code.dataset['command'] ?? code.textContent ?? '';
      if (/^browser-use-ext\s/.test(command)) setCommandWords(code, command);
    }
  };
  void chrome.storage.local.get(CLI_FORM_KEY).then((s) => apply(s[CLI_FORM_KEY]));
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === 'local' && CLI_FORM_KEY in changes) apply(changes[CLI_FORM_KEY]?.newValue);
  });
}

/** The text split into plain runs and commands (the parts between backticks). An unpaired backtick stays text. */
export function splitCommands(text: string): { text: string; command: boolean }[] {
  const parts: { text: string; command: boolean }[] = [];
  const re = /`([^`\n]+)`/g;
  let at = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > at) parts.push({ text: text.slice(at, m.index), command: false });
    parts.push({ text: m[1] ?? '', command: true });
    at = m.index + m[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at), command: false });
  return parts;
}

/**
 * Fills a command's <code> with one unbreakable run per word, the spaces between them as plain text:
 * a line may wrap only at a space, never inside "gpt-4o-mini" or "--base-url" (Chrome breaks after
 * any hyphen otherwise). Copying the command still gives exactly its text.
 */
export function setCommandWords(code: HTMLElement, command: string): void {
  const parts: Node[] = [];
  code.dataset['command'] = command;
  inCliForm(command, cliForm)
    .split(/( +)/)
    .forEach((w, i) => {
      if (!w) return;
      if (i % 2 === 1) {
        parts.push(document.createTextNode(w));
        return;
      }
      const word = document.createElement('span');
      word.className = 'word';
      word.textContent = w;
      parts.push(word);
    });
  code.replaceChildren(...parts);
}

/** Replaces the element's content with the text, each command in a <code class="cmd">. */
export function setCommandText(target: HTMLElement, text: string): void {
  target.replaceChildren(
    ...splitCommands(text).map((p) => {
      if (!p.command) return document.createTextNode(p.text);
      const code = document.createElement('code');
      code.className = 'cmd';
      setCommandWords(code, p.text);
      return code;
    }),
  );
}

/**
 * Agents' own words (browser_use writes "🖱️ Clicked button", "⌨️ Input ..."), without the emoji and
 * symbol glyphs: a system without an emoji font draws each as an empty box. The words stay.
 */
export function withoutPictographs(text: string): string {
  // Each run of glyphs goes with the spaces after it ("🖱️  Clicked" -> "Clicked"); other text is untouched.
  // Variation selectors, joiners and the keycap mark ride along with the glyph they belong to.
  return text.replace(
    /(?:[\p{Extended_Pictographic}\u{1F1E6}-\u{1F1FF}\u{2600}-\u{27BF}\u{2B00}-\u{2BFF}]|\u{FE0E}|\u{FE0F}|\u{200D}|\u{20E3})+ */gu,
    '',
  );
}

/** withoutPictographs on every text and tooltip under `root` (a card just rendered from agents' and pages' words). */
export function dropPictographs(root: HTMLElement): void {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const t = n as Text;
    const clean = withoutPictographs(t.data);
    if (clean !== t.data) t.data = clean;
  }
  // Tooltips too: they are drawn with the same fonts.
  for (const e of root.querySelectorAll<HTMLElement>('[title]')) {
    const clean = withoutPictographs(e.title);
    if (clean !== e.title) e.title = clean;
  }
}
