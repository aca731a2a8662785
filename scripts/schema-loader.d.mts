// Types for scripts/schema-loader.mjs (used by the schema tests).
import type { Options } from 'ajv';
import type Ajv2020 from 'ajv/dist/2020.js';
export declare const ANNOTATION_KEYWORDS: string[];
export declare function createProtocolAjv(extra?: Options): Ajv2020;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- schema documents are arbitrary JSON
export declare function loadSchemas(dir: string): { rel: string; file: string; schema: any }[];
