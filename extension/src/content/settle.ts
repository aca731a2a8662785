// Waits until the DOM has been quiet for `quietMs` (MutationObserver), capped at `capMs`, after
// two animation frames so the page has painted the action's direct effect.
export async function waitForSettle(quietMs = 60, capMs = 1000): Promise<{ settled: boolean; elapsedMs: number; mutated: boolean }> {
  const start = performance.now();
  let mutated = false;
  await new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())));
  return new Promise((resolve) => {
    let quietTimer: ReturnType<typeof setTimeout>;
    const finish = (settled: boolean) => {
      observer.disconnect();
      clearTimeout(quietTimer);
      clearTimeout(capTimer);
      resolve({ settled, elapsedMs: Math.round(performance.now() - start), mutated });
    };
    const observer = new MutationObserver(() => {
      mutated = true;
      clearTimeout(quietTimer);
      quietTimer = setTimeout(() => finish(true), quietMs);
    });
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    quietTimer = setTimeout(() => finish(true), quietMs);
    const capTimer = setTimeout(() => finish(false), capMs);
  });
}
