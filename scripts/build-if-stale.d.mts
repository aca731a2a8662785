// Types for scripts/build-if-stale.mjs (used by its unit test).
export interface StaleOptions {
  inputs?: string[];
  outputs?: string[];
  stamp?: string;
}
export declare const INPUTS: string[];
export declare const OUTPUTS: string[];
export declare const STAMP: string;
export declare function inputHashes(root: string, inputs?: string[]): Record<string, string>;
export declare function staleReason(root: string, options?: StaleOptions): string | null;
export declare function writeStamp(root: string, files: Record<string, string>, stamp?: string): void;
export declare const PROGRESS_EVERY_MS: number;
export declare function buildIfStale(args: {
  root: string;
  force?: boolean;
  generate: () => void | Promise<void>;
  bundle: () => void | Promise<void>;
  log?: (line: string) => void;
  options?: StaleOptions;
  progressEveryMs?: number;
}): Promise<{ rebuilt: boolean; line: string }>;
