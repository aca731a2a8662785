// Where the bridge listens unless told otherwise, shared by the bridge and every client that dials
// it (the CLIs' defaults, their help texts), so both sides agree without importing the server.
export const DEFAULT_PORT = 8765;
/** The default tab limit per agent session; agents may ask for fewer or more in hello. */
export const DEFAULT_MAX_TABS = 10;

/** The agent endpoint of a bridge on this machine at the default port. */
export const defaultAgentUrl = (port: number = DEFAULT_PORT): string => `ws://127.0.0.1:${port}/agent`;
