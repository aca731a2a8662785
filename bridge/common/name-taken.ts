// The one answer to "make a credential under a name that already has one", shared by `mcp-token add`
// and `cdp-url --name`: both refuse, in the same words, and both replace only with --replace, since
// replacing ends the old credential's clients at once and a second run by mistake must not do that.
import { cli } from './cli-invocation';

/** `what` is the credential as the person calls it ("A token", "A CDP URL"); `again` the command that made it, without --replace. */
export function nameTakenMessage(what: string, name: string, again: string): string {
  return (
    `${what} named "${name}" exists. To replace it (the old one stops working at once and its clients are disconnected), ` +
    `run \`${cli(`${again} --replace`)}\`; or pick another name.`
  );
}
