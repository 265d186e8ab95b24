/** The service's log lines as a test reads them: a destination for the logger, and the JSON lines it got. */
import { PassThrough } from 'node:stream';

export function capturedLogLines(): { lines: Array<Record<string, unknown>>; destination: PassThrough } {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new PassThrough();
  let rest = '';
  destination.on('data', (chunk: Buffer) => {
    const parts = (rest + chunk.toString('utf8')).split('\n');
    rest = parts.pop()!;
    for (const line of parts) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
  });
  return { lines, destination };
}
