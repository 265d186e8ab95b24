/**
 * Fields seen redacts credentials only (src/domain/fields.ts): a GitHub push's `author`, `committer`,
 * `pusher` and `node_id`s are data and shown; a key that names a credential, at any depth below it,
 * is not.
 */
import { fieldsOf, namesCredential, REDACTED } from '../../src/domain/fields';
import { githubPush, withCredentials } from '../support/github-push';

const examplesOf = (value: unknown) =>
  new Map(fieldsOf([value as never]).fields.map((f) => [f.path, f.example] as const));

test("a GitHub push shows every example: a commit's author is data, not a secret", () => {
  const examples = examplesOf(githubPush);
  expect([...examples].filter(([, example]) => example === REDACTED)).toEqual([]);
  expect(examples.get('head_commit.author.name')).toBe('Ada Lovelace');
  expect(examples.get('head_commit.author.email')).toBe('ada@example.com');
  expect(examples.get('head_commit.author.username')).toBe('ada-l');
  expect(examples.get('commits[0].author.name')).toBe('Ada Lovelace');
  expect(examples.get('commits[0].committer.username')).toBe('web-flow');
  expect(examples.get('pusher.name')).toBe('ada-l');
  // An identifier is data however generated it looks (GitHub's older node ids are base64).
  expect(examples.get('sender.node_id')).toBe(githubPush.sender.node_id);
  expect(examples.get('repository.license.key')).toBe('mit');
});

test('credentials in the same body are redacted, with everything under them', () => {
  const examples = examplesOf(withCredentials);
  for (const path of [
    'installation.access_token',
    'hook.config.secret',
    'hook.apiKey',
    'hook.password',
    'Authorization',
    'client_secret',
    'signature',
    'private_key',
  ])
    expect([path, examples.get(path)]).toEqual([path, REDACTED]);
  expect(examples.get('hook.config.url')).toBe('https://example.com/hook');
  expect(examples.get('head_commit.author.name')).toBe('Ada Lovelace');
  expect(examples.get('installation.id')).toBe('42');
});

test.each([
  ['author', false],
  ['author_association', false],
  ['authored_at', false],
  ['total_tokens', false],
  ['key', false],
  ['idempotency_key', false],
  ['public_key', false],
  ['keys_url', false],
  ['auth', true],
  ['x-auth-token', true],
  ['Authorization', true],
  ['accessToken', true],
  ['access_token', true],
  ['api_key', true],
  ['apiKey', true],
  ['API-Key', true],
  ['apikey', true],
  ['secretKey', true],
  ['client_secret', true],
  ['password', true],
  ['userPassword', true],
  ['session_key', true],
  ['signature', true],
  ['credentials', true],
  ['jwt', true],
  ['cookie', true],
])('%s names a credential: %s', (key, credential) => {
  expect(namesCredential(key)).toBe(credential);
});
