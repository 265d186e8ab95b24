/**
 * What notifications are sent to in the tests (test/notifications.test.ts): a local HTTP receiver
 * whose paths answer as a channel's receiver might (`/ok` 200, `/fail` 500, `/redirect` 302 to
 * `/target`), recording every request; and a real SMTP server (the `smtp-server` package) recording
 * every mail, as a channel's mail server would take it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface HttpReceiver {
  url: (path: string) => string;
  /** The requests on `path` so far. */
  on(path: string): Received[];
  close(): Promise<void>;
}

export async function httpReceiver(): Promise<HttpReceiver> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0];
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (path === '/redirect') {
        res.writeHead(302, { location: `http://127.0.0.1:${port}/target` }).end();
      } else res.writeHead(path === '/fail' ? 500 : 200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    on: (path) => received.filter((r) => r.path === path),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface Mail {
  to: string[];
  /** The message as sent, its quoted-printable soft line breaks joined. */
  text: string;
}

export interface MailServer {
  smtpUrl: string;
  mails: Mail[];
  close(): Promise<void>;
}

/** A real SMTP server on loopback, taking any mail without TLS or login. */
export async function mailServer(): Promise<MailServer> {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const text = Buffer.concat(chunks)
          .toString('utf8')
          .replace(/=\r?\n/g, '');
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), text });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    smtpUrl: `smtp://127.0.0.1:${port}`,
    mails,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
