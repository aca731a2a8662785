// Trusted input hand-off between the page side and the worker. When an action runs in trusted mode
// (params.trusted, or chrome.storage.local trusted_input = true), the content script does the
// actionability checks and scrolling as usual but, instead of dispatching synthetic events, answers
// with what to do; the worker performs it with chrome.debugger Input.* (isTrusted events), see
// background/trusted-input.ts.
export type TrustedInputRequest =
  | {
      kind: 'mouse';
      /** Point in CSS pixels relative to the top-level viewport (the page side adds iframe offsets). */
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
    };
