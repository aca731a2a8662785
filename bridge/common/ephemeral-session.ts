/**
 * hello.capabilities of an agent that lives inside the bridge process (the CDP endpoint's session of
 * each client connection): its session ends with the process, so it is never saved to sessions.json
 * nor restored after a restart. A restored one would hold the person's tabs (lease, debugger, Chrome's
 * debugging bar) for the whole resume grace with nobody able to resume it: its token died with the
 * killed bridge, and the client reconnecting with its URL would find its tab taken.
 */
export const EPHEMERAL_SESSION = 'ephemeral_session';
