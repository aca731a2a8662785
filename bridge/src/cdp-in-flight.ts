// The cdp_commands in flight to the extension, one registry per extension connection (puppeteer's
// CallbackRegistry idea, as pending.ts is for actions). Each command answers its caller exactly once:
// with the extension's cdp_result the moment it is received (no promise hop, so the answer keeps its
// place before the tab's events Chrome sent after it), or with the failure that ended it (its
// timeout, the extension gone, an invalid or mismatching answer). A CDP command has no action name,
// no journal and no re-read: its failures name its method.
import type { CdpCommandMessage, CdpResultMessage, ErrorInfo } from '../../schemas/generated/protocol';
import { errorInfo } from '../../schemas/lib/wire';
import { mismatchError } from './answer-check';
import { PendingRegistry } from './pending';

/** The answer to a cdp_command that failed before Chrome answered it. */
export function cdpFailure(command: CdpCommandMessage, error: ErrorInfo): CdpResultMessage {
  return { type: 'cdp_result', original_command_id: command.command_id, tab_id: command.tab_id, error_info: error };
}

interface Entry {
  /** The command as the agent sent it (its id, its tab). */
  command: CdpCommandMessage;
  answer: (result: CdpResultMessage) => void;
}

export class CdpCommandsInFlight {
  private readonly pending = new PendingRegistry<Entry>();

  get size(): number {
    return this.pending.size;
  }

  /**
   * Registers `command` under the bridge's relay id; `answer` gets its cdp_result, or TIMEOUT once
   * remainingMs (what is left of its timeoutMs) ran out. Returns the command to send the extension
   * (the relay id in place of the agent's).
   */
  add(
    relayId: string,
    command: CdpCommandMessage,
    answer: (r: CdpResultMessage) => void,
    t: { timeoutMs: number; remainingMs: number },
  ): CdpCommandMessage {
    this.pending.add(relayId, { command, answer }, Math.max(0, t.remainingMs), () =>
      answer(
        cdpFailure(
          command,
          errorInfo(
            'TIMEOUT',
            `${command.method} got no answer within ${t.timeoutMs} ms. The page may still be busy (a long evaluation): raise timeout_ms, or send the command again.`,
            'bridge',
            { timeout_ms: t.timeoutMs },
          ),
        ),
      ),
    );
    return { ...command, command_id: relayId };
  }

  /**
   * The extension's answer: to its caller with the caller's own id restored by the gateway, or, when
   * it names another tab than the command went to, EXTENSION_INTERNAL_ERROR (an answer from another
   * agent's tab must not pass). The schema holds the rest (a result or an error, never both).
   * Returns what was wrong, or null; 'unknown' for an answer nobody waits for (late, or never asked).
   */
  onResult(result: CdpResultMessage): string | null {
    const entry = this.pending.take(result.original_command_id);
    if (!entry) return 'unknown';
    const { command, answer } = entry.value;
    if (result.tab_id !== command.tab_id) {
      const why = `its tab_id is ${result.tab_id}, but the command was sent to tab ${command.tab_id}`;
      answer(cdpFailure(command, mismatchError(command.method, why)));
      return why;
    }
    answer(result);
    return null;
  }

  /** Ends one command with an error (an invalid answer, a failed send); false when it is not in flight. */
  fail(relayId: string, error: (method: string) => ErrorInfo): boolean {
    const entry = this.pending.take(relayId);
    if (!entry) return false;
    entry.value.answer(cdpFailure(entry.value.command, error(entry.value.command.method)));
    return true;
  }

  /** Ends every command with an error (the extension left, the bridge shuts down); how many there were. */
  failAll(error: (method: string) => ErrorInfo): number {
    const all = this.pending.drain();
    for (const e of all) e.value.answer(cdpFailure(e.value.command, error(e.value.command.method)));
    return all.length;
  }
}
