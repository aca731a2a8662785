// Why: the snapshot reuses its last answer while nothing it read has changed (content/snapshot/
// page-changes.ts), and most changes announce themselves through a MutationObserver or an event. A
// few do not: a script's CSSOM edits (insertRule, replaceSync, adoptedStyleSheets, a rule's style),
// form control values and checks set from script, element scrolls, Web Animations (animate()),
// shadow roots and custom element upgrades (:defined), custom states (:state()), popovers, fonts
// added to document.fonts, designMode. These wrappers report the first such call after the
// isolated world armed them, once: a page that calls insertRule ten thousand times pays one
// message, and none while nothing is cached. A wrapper never changes what the call does or returns.
//
// They exist only while an agent holds the tab (install/uninstall, driven by the worker through
// content/unseen-watch.ts): a page, or an anti-bot script, can tell a wrapper from the browser's
// own function (toString, descriptors), and the person's everyday browsing must look untouched.
// uninstall puts back the exact descriptor each wrapper replaced.

type Proto = Record<string, unknown>;

export interface UnseenWatch {
  /** Wraps (once; again after uninstall). */
  install(): void;
  /** Restores every descriptor a wrapper replaced, where the wrapper is still in place (a page may have replaced it since). */
  uninstall(): void;
  /** `touched` is called at the first wrapped call after this. */
  arm(): void;
}

/** Makes the wrappers (installed by install()); `touched` is called at the first wrapped call after each arm(). */
export function watchUnseenChanges(touched: () => void): UnseenWatch {
  // The browser's own, kept before any page script can replace them.
  const apply = Reflect.apply;
  const describe = Object.getOwnPropertyDescriptor;
  const define = Object.defineProperty;
  let armed = false;
  /** What install() did, to undo: where, the browser's descriptor, and ours. */
  const installed: { proto: Proto; name: string; orig: PropertyDescriptor; ours: PropertyDescriptor }[] = [];
  const replace = (proto: Proto, name: string, orig: PropertyDescriptor, ours: PropertyDescriptor): void => {
    define(proto, name, ours);
    // Index writes, not push: the page's scripts have run by now and may have replaced Array.prototype's methods.
    installed[installed.length] = { proto, name, orig, ours };
  };
  const note = (): void => {
    if (!armed) return;
    armed = false;
    try {
      touched();
    } catch {
      // reporting must never break the page
    }
  };
  const wrapMethod = (proto: Proto | undefined, name: string): void => {
    if (!proto) return;
    const d = describe(proto, name);
    const orig = d?.value;
    if (typeof orig !== 'function' || !d?.writable) return;
    const wrapped = {
      [name](this: unknown, ...args: unknown[]): unknown {
        note();
        return apply(orig as (...a: unknown[]) => unknown, this, args);
      },
    }[name] as (...a: unknown[]) => unknown;
    // The same length as the browser's function (a page may read it to detect a feature).
    define(wrapped, 'length', { value: (orig as (...a: unknown[]) => unknown).length });
    replace(proto, name, d, { ...d, value: wrapped });
  };
  const wrapSetter = (proto: Proto | undefined, name: string): void => {
    if (!proto) return;
    const d = describe(proto, name);
    const set = d?.set;
    if (!set || !d.configurable) return;
    replace(proto, name, d, {
      ...d,
      set(this: unknown, v: unknown) {
        note();
        apply(set, this, [v]);
      },
    });
  };
  /** A getter that hands out something the page can edit in place (a rule's style declaration). */
  const wrapGetter = (proto: Proto | undefined, name: string): void => {
    if (!proto) return;
    const d = describe(proto, name);
    const get = d?.get;
    if (!get || !d.configurable) return;
    replace(proto, name, d, {
      ...d,
      get(this: unknown) {
        note();
        return apply(get, this, []) as unknown;
      },
    });
  };
  const install = (): void => {
    if (installed.length > 0) return;
    const g = globalThis as unknown as Record<string, { prototype?: Proto } | undefined>;
    const p = (ctor: string): Proto | undefined => g[ctor]?.prototype;

    for (const m of ['insertRule', 'deleteRule', 'addRule', 'removeRule', 'replace', 'replaceSync']) wrapMethod(p('CSSStyleSheet'), m);
    wrapSetter(p('StyleSheet'), 'disabled');
    wrapSetter(p('HTMLStyleElement'), 'disabled');
    for (const m of ['insertRule', 'deleteRule']) wrapMethod(p('CSSGroupingRule'), m);
    wrapGetter(p('CSSStyleRule'), 'style');
    wrapSetter(p('CSSStyleRule'), 'selectorText');
    for (const m of ['appendMedium', 'deleteMedium']) wrapMethod(p('MediaList'), m);
    wrapSetter(p('MediaList'), 'mediaText');
    wrapSetter(p('Document'), 'adoptedStyleSheets');
    wrapSetter(p('ShadowRoot'), 'adoptedStyleSheets');
    wrapSetter(p('Document'), 'designMode');
    wrapMethod(g['CSS'] as unknown as Proto | undefined, 'registerProperty');
    // Shadow roots (attachShadow is wrapped again by hooks.ts for closed roots), animations, upgrades.
    for (const m of ['attachShadow', 'animate', 'scroll', 'scrollTo', 'scrollBy', 'scrollIntoView', 'scrollIntoViewIfNeeded'])
      wrapMethod(p('Element'), m);
    for (const m of ['requestFullscreen', 'setHTMLUnsafe']) wrapMethod(p('Element'), m);
    wrapMethod(p('Document'), 'exitFullscreen');
    wrapSetter(p('Element'), 'scrollTop');
    wrapSetter(p('Element'), 'scrollLeft');
    for (const m of ['define', 'upgrade']) wrapMethod(p('CustomElementRegistry'), m);
    for (const m of ['add', 'delete', 'clear']) wrapMethod(p('CustomStateSet'), m);
    for (const m of ['add', 'delete', 'clear']) wrapMethod(p('FontFaceSet'), m);
    for (const m of ['showPopover', 'hidePopover', 'togglePopover']) wrapMethod(p('HTMLElement'), m);
    // Form state a script sets without an attribute or an event.
    for (const s of ['value', 'checked', 'indeterminate', 'valueAsNumber', 'valueAsDate']) wrapSetter(p('HTMLInputElement'), s);
    for (const m of ['setRangeText', 'stepUp', 'stepDown']) wrapMethod(p('HTMLInputElement'), m);
    wrapSetter(p('HTMLTextAreaElement'), 'value');
    wrapMethod(p('HTMLTextAreaElement'), 'setRangeText');
    for (const s of ['value', 'selectedIndex']) wrapSetter(p('HTMLSelectElement'), s);
    wrapSetter(p('HTMLOptionElement'), 'selected');
  };
  const uninstall = (): void => {
    armed = false;
    // Last installed first: a property wrapped twice (none today) unwinds in order.
    for (let i = installed.length - 1; i >= 0; i--) {
      const w = installed[i];
      if (!w) continue;
      const now = describe(w.proto, w.name);
      const still = now !== undefined && now.value === w.ours.value && now.get === w.ours.get && now.set === w.ours.set;
      if (still) define(w.proto, w.name, w.orig);
    }
    installed.length = 0;
  };
  return {
    install,
    uninstall,
    arm: () => {
      armed = installed.length > 0;
    },
  };
}
