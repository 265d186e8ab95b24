/**
 * A GitHub `push` event as GitHub sends it (its fields, their nesting and types as a repository's
 * webhook delivers them; the values made up here): what Fields seen must show as data (a commit's
 * `author` and `committer`, the `pusher`, `node_id`s) and keep from showing (nothing here is a
 * credential, so nothing is redacted). `withCredentials` adds what a sender's body may carry that is.
 */
const user = (login: string, id: number, nodeId: string) => ({
  name: login,
  email: `${login}@users.noreply.example.com`,
  login,
  id,
  node_id: nodeId,
  avatar_url: `https://avatars.example.com/u/${id}?v=4`,
  gravatar_id: '',
  url: `https://api.github.com/users/${login}`,
  html_url: `https://github.com/${login}`,
  type: 'User',
  site_admin: false,
});

const commit = {
  id: '4f3a1c0d9b8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a',
  tree_id: '0a1b2c3d4e5f60718293a4b5c6d7e8f901234567',
  distinct: true,
  message: 'Fix the order total when a coupon is applied',
  timestamp: '2026-11-29T10:15:02+01:00',
  url: 'https://github.com/octo-shop/orders/commit/4f3a1c0d9b8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a',
  author: { name: 'Ada Lovelace', email: 'ada@example.com', username: 'ada-l' },
  committer: { name: 'GitHub', email: 'noreply@github.com', username: 'web-flow' },
  added: [],
  removed: [],
  modified: ['src/total.ts'],
};

export const githubPush = {
  ref: 'refs/heads/main',
  before: '9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d',
  after: commit.id,
  repository: {
    id: 712345678,
    node_id: 'R_kgDOKnL2Tg',
    name: 'orders',
    full_name: 'octo-shop/orders',
    private: true,
    owner: user('octo-shop', 98765432, 'O_kgDOBeLdqA'),
    html_url: 'https://github.com/octo-shop/orders',
    description: 'Order service',
    fork: false,
    created_at: 1698000000,
    updated_at: '2026-11-28T09:00:00Z',
    pushed_at: 1764407702,
    default_branch: 'main',
    master_branch: 'main',
    keys_url: 'https://api.github.com/repos/octo-shop/orders/keys{/key_id}',
    license: { key: 'mit', name: 'MIT License', spdx_id: 'MIT', node_id: 'MDc6TGljZW5zZTEz' },
    visibility: 'private',
  },
  pusher: { name: 'ada-l', email: 'ada@example.com' },
  sender: user('ada-l', 1234567, 'MDQ6VXNlcjEyMzQ1Njc4OTAxMjM0NTY3ODkw'),
  created: false,
  deleted: false,
  forced: false,
  base_ref: null,
  compare: 'https://github.com/octo-shop/orders/compare/9e8d7c6b5a4f...4f3a1c0d9b8e',
  commits: [commit],
  head_commit: commit,
};

/** The same event with what would be credentials, were a sender to put them in a body. */
export const withCredentials = {
  ...githubPush,
  installation: { id: 42, access_token: 'plain-words-token', node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uNDI=' },
  hook: { config: { secret: 'plain-words', url: 'https://example.com/hook' }, apiKey: 'k-1', password: 'p' },
  Authorization: 'Token abc',
  client_secret: 'plain',
  signature: 'sha256=abc',
  private_key: 'x',
};
