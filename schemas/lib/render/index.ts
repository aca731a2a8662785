// Three text renderings of one SimplifiedState, for LLM prompts:
// seed 001's accessibility-tree text, seed 002's <browsing_context> block and browser_use 0.1.48's
// clickable_elements_to_string format. Pure functions of the state; used by TS clients and tests.
export { renderAriaTree } from './aria-tree';
export { DEFAULT_INCLUDE_ATTRIBUTES, renderBrowserUse, renderBrowserUseTree } from './browser-use';
export { renderBrowsingContext, renderElementTag } from './browsing-context';
