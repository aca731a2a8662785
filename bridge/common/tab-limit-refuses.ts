/**
 * hello.capabilities of an agent whose tab limit refuses instead of evicting: past max_tabs a new tab
 * is not leased (the action that would take it is refused, saying so), and nothing it holds is
 * released to make room. A CDP client (the endpoint's session of each connection) asks for it: its
 * pages are objects in the client's hands (a Playwright Page, a puppeteer Target), and one that closed
 * or went away unannounced because another opened breaks the client, where Chrome's own endpoint
 * would simply have opened both. The seed 002 agents keep "release the oldest" (they re-read their
 * tab list every step and are told with tab_released).
 */
export const TAB_LIMIT_REFUSES = 'tab_limit_refuses';
