// Types for scripts/mocha-suites.mjs (used by the step runner's unit test).
export interface MochaSuite {
  name: string;
  globs: string[];
}
export declare const UNIT_RUNS: MochaSuite[];
export declare function otherSuites(root: string): MochaSuite[];
export declare function splitSuites(suites: MochaSuite[]): { first: MochaSuite[]; later: MochaSuite[] };
export declare function mochaCounts(out: string): { passing: number; failing: number; pending: number };
export declare function mochaFailedTitles(out: string): string[];
