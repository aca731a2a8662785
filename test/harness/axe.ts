// axe-core (the real library, from node_modules) run inside a page: the accessibility check the
// side panel, the Settings page and the overlay must pass with zero serious or critical violations.
// The source is injected through the DevTools protocol (page.evaluate), which extension pages' CSP
// does not block.
import fs from 'node:fs';
import { createRequire } from 'node:module';

import type { Frame, Page } from 'puppeteer-core';

const require = createRequire(import.meta.url);
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  /** One CSS target and the failure summary per offending node. */
  nodes: { target: string; summary: string }[];
}

/** Runs axe on the page (or frame), optionally limited to `include` (a CSS selector), and returns
 * the violations of impact serious or critical, ready to print in an assertion message. */
export async function seriousAxeViolations(page: Page | Frame, include?: string): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  const all = await page.evaluate(async (sel: string | null) => {
    type AxeResult = {
      violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[]; failureSummary?: string }[] }[];
    };
    const axe = (globalThis as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<AxeResult> } }).axe;
    const r = await axe.run(sel ? { include: [sel] } : document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: JSON.stringify(n.target), summary: n.failureSummary ?? '' })),
    }));
  }, include ?? null);
  return all.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** The violations as readable lines for a failing assertion. */
export function describeViolations(vs: AxeViolation[]): string {
  return vs.map((v) => `${v.impact} ${v.id}: ${v.help}\n${v.nodes.map((n) => `    ${n.target}: ${n.summary}`).join('\n')}`).join('\n');
}
