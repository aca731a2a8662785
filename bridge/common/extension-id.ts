// The extension's fixed id (manifest `key`, see extension/manifest.mjs EXTENSION_ID; a unit test
// keeps them equal). The /extension endpoint accepts only this Origin unless configured otherwise
// (a Chrome Web Store build gets another id: `--extension-id`).
export const EXTENSION_ID = 'hlpljhaoajogiafnlkgfmcioikalboec';
export const extensionOrigin = (id: string): string => `chrome-extension://${id}`;
