// Leveled logger. Writes to stderr so stdout stays machine-readable (the harness prints JSON there).
// Never pass secrets to it: nothing here redacts.
export type LogLevel = 'silent' | 'error' | 'warn' | 'info' | 'debug';
const ORDER: Record<LogLevel, number> = { silent: 0, error: 1, warn: 2, info: 3, debug: 4 };
export const LOG_LEVELS = Object.keys(ORDER) as LogLevel[];

export interface Logger {
  error(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  debug(msg: string, fields?: Record<string, unknown>): void;
}

export function createLogger(level: LogLevel, sink: (line: string) => void = (l) => process.stderr.write(l + '\n')): Logger {
  const at = ORDER[level];
  const emit = (lvl: Exclude<LogLevel, 'silent'>) => (msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[lvl] > at) return;
    const extra = fields && Object.keys(fields).length ? ' ' + JSON.stringify(fields) : '';
    sink(`${new Date().toISOString()} ${lvl.toUpperCase().padEnd(5)} ${msg}${extra}`);
  };
  return { error: emit('error'), warn: emit('warn'), info: emit('info'), debug: emit('debug') };
}
