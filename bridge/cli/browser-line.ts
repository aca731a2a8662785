// The one line an agent command prints after its handshake: which of the person's browsers it works in,
// or, when none has the name it asked for, which ones are connected. A person with several profiles
// then sees at once whether the agent landed where they meant (the Python shim logs the same line).
import type { BrowserInfo } from '../../schemas/generated/protocol';

export function browserLine(asked: string | undefined, chosen: BrowserInfo | undefined, known: BrowserInfo[] | undefined): string | null {
  if (known === undefined) return null; // a bridge from before several browsers names none
  const connected = known.filter((b) => b.connected).map((b) => `"${b.name}"`);
  const names = connected.join(', ') || 'none';
  if (chosen) {
    const how = asked !== undefined ? 'as asked' : connected.length > 1 ? 'the one used last' : 'the only one connected';
    return `Working in the browser "${chosen.name}" (${chosen.brand}), ${how}. Connected: ${names}.`;
  }
  if (asked !== undefined)
    return (
      `No browser named "${asked}" is connected to the bridge. Connected: ${names}. Name one of them ` +
      `(--browser / BROWSER_USE_EXT_BROWSER), or open the browser named "${asked}" with the extension.`
    );
  return 'No browser is connected to the bridge yet: this agent works in the first one that connects.';
}
