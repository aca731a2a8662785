// The Settings page's labels, as the person reads them there: a message that tells the person (or an
// agent relaying to them) to change a setting names it by these words, not by its storage key.
// options.html cannot import them, so a unit test (test/unit/settings-labels.spec.ts) checks that each
// label stands in the page exactly.
export const SETTINGS_LABELS = {
  allowEvaluate: 'Let agents run their own scripts in pages',
} as const;

/** How a person opens Settings, in words: from the side panel, or from Chrome's extension page. */
export const OPEN_SETTINGS =
  "the extension's Settings (the side panel's Settings link, or chrome://extensions -> browser-use-ext -> Details -> Extension options)";
