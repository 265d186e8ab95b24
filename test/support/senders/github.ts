/**
 * GitHub, signed by `@octokit/webhooks-methods` (GitHub's own library). `githubFormSender` is the
 * same hook with GitHub's default content type, `application/x-www-form-urlencoded`: the body is
 * `payload=<the JSON>`, signed as sent, and gives the same trigger data on a json app.
 */
import { randomUUID } from 'node:crypto';
import { sign } from '@octokit/webhooks-methods';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

const secret = madeSecret('github');
const event = { zen: 'Design for failure.', hook_id: 42, hook: { type: 'Repository', events: ['push'] } };

/** GitHub's library signs asynchronously; fixtures sign synchronously, so the signature is made ahead. */
const signatures = new Map<string, string>();
export async function preparedGithubSignatures(): Promise<void> {
  for (const key of [secret, madeSecret('another')])
    for (const body of [JSON.stringify(event), new URLSearchParams({ payload: JSON.stringify(event) }).toString()])
      signatures.set(`${key}\n${body}`, await sign({ secret: key, algorithm: 'sha256' }, body));
}

const signed =
  (key: string, contentType: string) =>
  (body: string): SentRequest => {
    const signature = signatures.get(`${key}\n${body}`);
    if (!signature) throw new Error('call preparedGithubSignatures() first (in beforeAll)');
    return {
      method: 'POST',
      query: '',
      headers: {
        'content-type': contentType,
        'x-github-event': 'ping',
        'x-github-delivery': randomUUID(),
        'x-hub-signature-256': signature,
      },
      body,
    };
  };

export const githubSender: SenderFixture = {
  name: 'github',
  verification: { scheme: 'github', secret },
  body: JSON.stringify(event),
  triggerData: event,
  signed: signed(secret, 'application/json'),
  signedWrongly: signed(madeSecret('another'), 'application/json'),
  toleranceSeconds: null,
};

export const githubFormSender: SenderFixture = {
  ...githubSender,
  variant: 'form content type',
  body: new URLSearchParams({ payload: JSON.stringify(event) }).toString(),
  signed: signed(secret, 'application/x-www-form-urlencoded'),
  signedWrongly: signed(madeSecret('another'), 'application/x-www-form-urlencoded'),
};
