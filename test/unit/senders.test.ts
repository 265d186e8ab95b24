/**
 * The sender catalog as a whole (src/domain/senders/catalog.ts): every sender has its check, its
 * fixture and its tests; docs/api.md's table of senders is the catalog's (regenerate it with
 * `WRITE_DOCS=1 npx jest test/unit/senders.test.ts`); the API takes exactly each sender's settings;
 * and no refusal's reason ever repeats a secret or the body.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SENDER_NAMES, SENDERS, type SenderName } from '../../src/domain/senders/catalog';
import { credentialHeaders, headersRead, verifySender } from '../../src/domain/senders/checks';
import { keptHeaders } from '../../src/domain/deliveries';
import { verificationBody } from '../../src/contract/requests';
import { SENDER_FIXTURES } from '../support/senders';
import { asReceived } from '../support/senders/fixture';
import { preparedGithubSignatures } from '../support/senders/github';

const ROOT = path.resolve(__dirname, '../..');
const API_DOC = path.join(ROOT, 'docs/api.md');
const START = '<!-- senders: generated from src/domain/senders/catalog.ts by test/unit/senders.test.ts -->';
const END = '<!-- senders: end -->';

beforeAll(preparedGithubSignatures);

/** docs/api.md's table of senders, from the catalog. */
function sendersTable(): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const rows = SENDER_NAMES.map((name) => {
    const s = SENDERS[name];
    const settings = s.settings.length
      ? s.settings.map((x) => `\`${x.name}\`${x.optional || x.default ? '?' : ''}: ${x.label}`).join('; ')
      : 'none (given in its handshake)';
    const who = s.examples ? `${s.label} (${s.examples})` : s.label;
    const time = s.toleranceSeconds === null ? 'none' : `${s.toleranceSeconds} s`;
    const handshake = s.handshake ? `${s.handshake.request} → ${s.handshake.answer}` : '—';
    return `| \`${name}\` | ${cell(who)} | ${cell(settings)} | ${cell(s.checks)} | ${time} | ${cell(s.dedup)} | ${cell(handshake)} | ${cell(s.setup)} |`;
  });
  return [
    START,
    '| `scheme` | Sender | Fill in | Checked | Signed time | Dedup key | Handshake | Set-up |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    END,
  ].join('\n');
}

test("docs/api.md's table of senders is the catalog's", () => {
  const doc = fs.readFileSync(API_DOC, 'utf8');
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  expect(start).toBeGreaterThan(-1);
  expect(end).toBeGreaterThan(start);
  const written = doc.slice(start, end + END.length);
  if (process.env.WRITE_DOCS === '1' && written !== sendersTable())
    fs.writeFileSync(API_DOC, doc.slice(0, start) + sendersTable() + doc.slice(end + END.length));
  else expect(written).toBe(sendersTable());
});

test('every sender has a fixture, and one besides the catalog-wide tests', () => {
  const played = new Set(SENDER_FIXTURES.map((f) => f.name));
  expect(SENDER_NAMES.filter((n) => !played.has(n))).toEqual([]);
  const first: SenderName[] = ['standard-webhooks', 'github', 'shopify', 'slack', 'hmac'];
  const tested = (n: SenderName) =>
    first.includes(n) || fs.existsSync(path.join(ROOT, `test/unit/senders/${n}.test.ts`));
  expect(SENDER_NAMES.filter((n) => !tested(n))).toEqual([]);
});

describe.each(SENDER_FIXTURES.map((f) => [f.variant ? `${f.name} (${f.variant})` : f.name, f] as const))(
  '%s',
  (_, sender) => {
    const name = sender.name;
    test("the API takes its fixture's verification, and refuses a setting it does not name", () => {
      expect(verificationBody.safeParse(sender.verification).success).toBe(true);
      expect(verificationBody.safeParse({ ...sender.verification, colour: 'blue' }).success).toBe(false);
      for (const s of SENDERS[name].settings.filter((x) => !x.optional && x.default === undefined)) {
        const { [s.name]: _left, ...without } = sender.verification;
        expect(verificationBody.safeParse(without).success).toBe(false);
      }
    });

    test('its check accepts what it signs and refuses a wrong key, with a reason that holds no secret or body', () => {
      const url = 'https://hooks.example.com/api/webhooks/custom:00000000-0000-0000-0000-000000000000/tok';
      const now = new Date();
      const given = sender.handshake && !sender.verification.secret ? learned(sender) : {};
      const settings = { ...sender.verification, ...given };
      const v = { ...verificationBody.parse(sender.verification), ...given };
      expect(verifySender(v, asReceived(sender.signed(sender.body, url, now), url, now))).toEqual({ ok: true });
      const refused = verifySender(v, asReceived(sender.signedWrongly(sender.body, url, now), url, now));
      expect(refused.ok).toBe(false);
      const reason = refused.ok ? '' : refused.reason;
      const secretNames = new Set(['secret', ...SENDERS[name].settings.filter((s) => s.secret).map((s) => s.name)]);
      for (const [setting, value] of Object.entries(settings))
        if (secretNames.has(setting) && typeof value === 'string') expect(reason).not.toContain(value);
      expect(reason).not.toContain(sender.body.slice(0, 20));
    });
  },
);

test('a credential header is never kept with a delivery, even when a trigger rule or the kept set names it', () => {
  const url = 'https://hooks.example.com/api/webhooks/custom:1/t';
  for (const sender of SENDER_FIXTURES) {
    const v = verificationBody.parse(sender.verification);
    const never = credentialHeaders(v);
    const sent = asReceived(sender.signed(sender.body, url, new Date()), url, new Date());
    const kept = keptHeaders(sent.headers, [...headersRead(v), ...never, 'authorization'], never);
    for (const name of never) expect(kept).not.toHaveProperty(name);
  }
  expect(credentialHeaders(verificationBody.parse({ scheme: 'basic', username: 'u', secret: 'x'.repeat(16) }))).toEqual(
    ['authorization'],
  );
});

/** The secret a sender gives in its handshake, as the receiver keeps it. */
function learned(sender: (typeof SENDER_FIXTURES)[number]): { secret: string } {
  const request = sender.handshake!.request('https://hooks.example.com/x', new Date());
  const given =
    Object.entries(request.headers).find(([k]) => k.toLowerCase() === 'x-hook-secret')?.[1] ??
    (JSON.parse(String(request.body)) as { verification_token: string }).verification_token;
  return { secret: given };
}
