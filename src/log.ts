/** A small leveled logger writing one line per event to stderr. */
const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;
export type LogLevel = keyof typeof LEVELS;
export type Logger = Record<LogLevel, (message: string, fields?: Record<string, unknown>) => void>;

export function createLogger(name: string, level: LogLevel = 'info'): Logger {
  const write = (at: LogLevel) => (message: string, fields?: Record<string, unknown>) => {
    if (LEVELS[at] < LEVELS[level]) return;
    const extra = fields ? ' ' + JSON.stringify(fields) : '';
    process.stderr.write(`${new Date().toISOString()} ${at.toUpperCase()} [${name}] ${message}${extra}\n`);
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}
