// The one rule for matching a host against a site the person names in their settings (blocked and
// allowed sites), kept apart from person-policy.ts (which reads chrome.storage when loaded) so every
// check and the generated docs use the same rule.

/** "example.com" matches example.com and every subdomain; "*.example.com" only subdomains. */
export function hostMatches(host: string, pattern: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  if (pattern.startsWith('*.')) return h.endsWith(pattern.slice(1));
  return h === pattern || h.endsWith(`.${pattern}`);
}
