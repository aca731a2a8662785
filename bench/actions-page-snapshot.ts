// Bench-only entry: exposes the extension's own page-side snapshot (content/snapshot) in a page's
// main world, so the puppeteer baseline in bench/actions.ts extracts exactly the same state.
import { RefRegistry } from '../extension/src/content/refs';
import { takeFrameSnapshot } from '../extension/src/content/snapshot';
import type { GetStateParams } from '../schemas/generated/protocol';

const refs = new RefRegistry();
(window as unknown as { __buxBenchSnapshot: (p: GetStateParams) => string }).__buxBenchSnapshot = (p) =>
  JSON.stringify(takeFrameSnapshot(refs, p));
