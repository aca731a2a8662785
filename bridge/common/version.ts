// Kept in step with package.json "version" (a unit test checks it), so the bundle needs no JSON import.
export const BRIDGE_NAME = 'browser-use-ext-bridge';
export const BRIDGE_VERSION = '0.1.0';
