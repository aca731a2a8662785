// Types for scripts/run-step.mjs (used by its unit test).
export interface StepResult {
  label: string;
  code: number;
  out: string;
  seconds: number;
}
export declare function runStep(
  label: string,
  cmd: string,
  args: string[],
  opts: { cwd: string; env?: Record<string, string>; buffered?: boolean },
): Promise<StepResult>;
export declare function durationTable(steps: { label: string; seconds: number }[]): string;
export declare function untilAtMost(n: number, pending: Promise<unknown>[]): Promise<void>;
