// Real (isTrusted) input the worker dispatches through chrome.debugger Input.* in trusted mode
// (chrome.storage.local trusted_input = true); see background/page-watch/trusted-input.ts for how the page side
// prepares the target first.
export type TrustedInputRequest =
  | {
      kind: 'mouse';
      /** Point in CSS pixels relative to the top-level viewport (the worker adds the iframe's offset to a subframe's point). */
      x: number;
      y: number;
      button?: 'left' | 'middle' | 'right';
      /** 1 click, 2 double click, 0 = move only (hover). */
      click_count: number;
      modifiers?: string[];
    }
  | {
      kind: 'keys';
      /** Playwright key syntax, one entry per press: "a", "Enter", "Control+A". Typed text: one char per entry. */
      keys: string[];
      delay_ms?: number;
    }
  | {
      /** type: one key press per character of the US layout (no modifier held, as Playwright types "!"), Input.insertText for others. */
      kind: 'type';
      text: string;
      delay_ms?: number;
    }
  | {
      /** fill: select-all + Delete in the focused field, then Input.insertText (one input event, as a paste or IME commit). */
      kind: 'insert_text';
      text: string;
    };
