// Types for manifest.mjs (used by rollup.config.js and the packaging test).
export declare const EXTENSION_KEY: string;
export declare const EXTENSION_ID: string;
export declare const PERMISSION_REASONS: Record<string, string>;
export declare function buildManifest(version: string): Record<string, unknown>;
export declare function storeManifest(manifest: Record<string, unknown>): Record<string, unknown>;
