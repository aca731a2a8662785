// May the walk skip the subtree of a visibility:hidden element? Its descendants inherit the hidden
// visibility, and the state lists and reads nothing hidden, so the walk enters such a subtree only
// for the descendants that are visible again (CSS 2 visibility: "descendants of the element will be
// visible if they have visibility: visible"). A closed mega-menu or an off-canvas drawer is often a
// third of a page's elements: the walk there costs a computed style per element and finds nothing.
// Skipped only when nothing can be visible again inside, so that skipping changes nothing the
// state says:
//   - no style sheet rule that sets visibility to a value that shows again selects anything inside,
//     whatever state or media it waits for (sheet-facts.ts; a sheet whose rules are not known yet
//     counts as one that selects everything);
//   - no running animation or transition changes visibility (the Web Animations API sets it from
//     script without any sheet or attribute);
//   - nothing inside has an inline style that may set it (style="visibility:..." or the `all`
//     shorthand; SVG's visibility attribute needs no check: the walk never enters <svg>);
//   - nothing inside is a shadow host (its shadow tree's own sheets style it) or a slot;
//   - no iframe inside: the state reports each iframe, hidden ones too.
// The element itself is in the document's own tree and hosts no shadow root (the walk checks that).
// https://www.w3.org/TR/CSS22/visufx.html#visibility
import { shadowRootOf } from '../shadow-root';
import { sheetFacts } from './sheet-facts';

/** Anything inside that may show again, or that the walk must report even when hidden. */
const NOT_SKIPPABLE_INSIDE = '[style*="visibility" i],[style*="all" i],iframe,frame,slot';

/** A running animation or transition that sets visibility (or one whose keyframes cannot be read). */
function animationSetsVisibility(): boolean {
  if (typeof document.getAnimations !== 'function') return true;
  for (const a of document.getAnimations()) {
    const effect = a.effect;
    if (!(effect instanceof KeyframeEffect)) return true;
    if (effect.getKeyframes().some((k) => 'visibility' in k)) return true;
  }
  return false;
}

/** Per walk (the answers about the whole document are read once, at the first hidden subtree). */
export class HiddenSubtrees {
  /** What inside a subtree keeps it from being skipped; null: nothing may be skipped in this document. */
  private notInside: string | null | undefined;

  /**
   * May the walk skip what is inside el (computed visibility hidden or collapse, no shadow root,
   * in the document's own tree)? onLabel is called for each <label> inside when it may: a hidden
   * label still keeps the visually hidden control it operates from being listed on its own.
   */
  canSkip(el: Element, onLabel: (label: HTMLLabelElement) => void): boolean {
    if (this.notInside === undefined) {
      const reshow = sheetFacts().reshowSelector;
      this.notInside =
        reshow === null || animationSetsVisibility() ? null : reshow ? `${NOT_SKIPPABLE_INSIDE},${reshow}` : NOT_SKIPPABLE_INSIDE;
    }
    if (this.notInside === null || el.querySelector(this.notInside) !== null) return false;
    const labels: HTMLLabelElement[] = [];
    const inside = el.getElementsByTagName('*');
    for (let i = 0; i < inside.length; i++) {
      const d = inside[i] as Element;
      const tag = d.localName;
      if (shadowRootOf(d, tag) !== null) return false;
      if (tag === 'label') labels.push(d as HTMLLabelElement);
    }
    for (const label of labels) onLabel(label);
    return true;
  }
}
