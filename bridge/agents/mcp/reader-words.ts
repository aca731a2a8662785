// Error messages in the words an MCP model knows. The extension's messages are written for protocol
// clients, who call get_state and name elements by element_id; a model over MCP sees neither: it calls
// browser_snapshot and names elements by the snapshot's [ref=e12]. This is the one place that turns the
// one into the other (protocol clients keep the original words); the message's meaning is unchanged.
const RULES: readonly [RegExp, string][] = [
  [/\b([Tt])ake a new state \(get_state\) and use an id from it/g, '$1ake a new browser_snapshot and use a ref from it'],
  [/\b([Tt])ake a new state \(get_state\)/g, '$1ake a new browser_snapshot'],
  [/\bis not an element id \(ids look like/g, 'is not a ref (refs look like'],
  [/\bfrom a new state\b/g, 'from a new browser_snapshot'],
  [/\b([Tt])ake a new state\b/g, '$1ake a new browser_snapshot'],
  [/\bget_state\b/g, 'browser_snapshot'],
  [/\belement_ids?\b/g, 'ref'],
];

/** A protocol error message as an MCP model reads it: browser_snapshot and ref for get_state and element_id. */
export function forMcpModel(message: string): string {
  let out = message;
  for (const [pattern, words] of RULES) out = out.replace(pattern, words);
  return out;
}
