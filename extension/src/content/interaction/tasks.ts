// Task boundaries for synthetic input. A real mouse press, release or key press reaches the page as
// its own input event, dispatched by the browser with no script on the stack, so whatever the page
// scheduled in one handler (a microtask, a MutationObserver callback, a setTimeout(0)) has run by the
// next event. Synthetic events fired back to back from the content script would all run in one task
// instead; these helpers put the boundaries back (measured against Input.dispatch*Event in Chromium).

/**
 * Resolves in a later task (a MessageChannel message: not throttled in background tabs, unlike
 * setTimeout). The page's tasks queued before it (a setTimeout(0) scheduled in mousedown or keydown)
 * run first, as they do between two real input events sent one after the other.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

interface PostTaskScheduler {
  postTask(callback: () => void, options: { priority: 'user-blocking' }): Promise<void>;
}

/**
 * Resolves once every microtask queued so far (and the ones they queue) has run, before the page's
 * ordinary tasks: keydown and keypress come from one real key press, so a page's microtask from
 * keydown runs before keypress while its setTimeout(0) runs only after the character is in.
 * A user-blocking task (Prioritized Task Scheduling, Chrome 94+) runs ahead of timers, as input does.
 */
export function afterMicrotasks(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: PostTaskScheduler }).scheduler;
  if (scheduler && typeof scheduler.postTask === 'function') return scheduler.postTask(() => undefined, { priority: 'user-blocking' });
  return nextTask();
}
