/**
 * The Standard Webhooks family's two other kinds of key: an Ed25519 public key (`whpk_`), which
 * checks `v1a` signatures (the specification's asymmetric signatures, signed here by node:crypto as
 * the specification says: no library signs them), and the raw-text key of a sender whose file says
 * so (Polar's, whose own SDK reads the secret's UTF-8 bytes).
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { standardWebhooks, standardWebhooksWithTextKey } from '../../../src/domain/senders/families/standard-webhooks';
import { MISMATCH } from '../../../src/domain/senders/parts';
import { headersRead } from '../../../src/domain/senders/checks';
import { asReceived, type SentRequest } from '../../support/senders/fixture';
import { expectRefused } from '../../support/senders/verdicts';

const url = 'https://robots.example.com/api/webhooks/sw-test';
// Now: the package checks a signature's time against the clock as well.
const at = new Date();
const seconds = String(Math.floor(at.getTime() / 1000));
const body = JSON.stringify({ type: 'user.created', data: { id: 'user_1' } });

/** `whpk_` and the base64 of the raw public key, and a signer of `id.timestamp.body` as `v1a,<base64>`. */
function ed25519Pair() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const v1a = (text: string) =>
    `v1a,${sign(null, Buffer.from(`msg_1.${seconds}.${text}`), privateKey).toString('base64')}`;
  return { key: `whpk_${raw.toString('base64')}`, v1a };
}

const sending = (signature: string, text = body): SentRequest => ({
  method: 'POST',
  query: '',
  headers: { 'webhook-id': 'msg_1', 'webhook-timestamp': seconds, 'webhook-signature': signature },
  body: text,
});
const verify = (secret: string, sent: SentRequest, check = standardWebhooks) =>
  check.verify({ secret }, asReceived(sent, url, at));

describe('an Ed25519 public key (whpk_): v1a signatures', () => {
  const signer = ed25519Pair();
  const other = ed25519Pair();

  test('a v1a signature by its private key is accepted, among other signatures', () => {
    expect(verify(signer.key, sending(signer.v1a(body)))).toEqual({ ok: true });
    expect(verify(signer.key, sending(`v1,bm90IGl0 ${other.v1a(body)} ${signer.v1a(body)}`))).toEqual({ ok: true });
  });

  test('another key, a tampered body or only v1 signatures are refused', () => {
    expect(verify(signer.key, sending(other.v1a(body))).ok).toBe(false);
    expect(verify(signer.key, sending(signer.v1a(body), body + ' ')).ok).toBe(false);
    expect(verify(signer.key, sending('v1,' + Buffer.alloc(32).toString('base64'))).ok).toBe(false);
  });

  test('a key that is not the base64 of 32 bytes is refused, saying so', () => {
    expect(verify('whpk_abc', sending(signer.v1a(body)))).toEqual({
      ok: false,
      reason: 'the public key is not a standard-webhooks public key (whpk_ followed by base64)',
    });
  });
});

describe("a raw-text key (Polar's)", () => {
  const secret = 'polar_whs_' + 'k'.repeat(40);
  // Polar's SDK: the secret's UTF-8 bytes are the key (the package's `raw` format).
  const signed = new Webhook(secret, { format: 'raw' }).sign('msg_1', at, body);

  test('a delivery signed with the raw key is accepted by the text-key check only', () => {
    expect(verify(secret, sending(signed), standardWebhooksWithTextKey)).toEqual({ ok: true });
    expect(verify(secret, sending(signed)).ok).toBe(false);
  });
});

describe('a whsec_ key, as the standardwebhooks package signs with it', () => {
  const secret = 'whsec_' + Buffer.from('k'.repeat(32)).toString('base64');
  const other = 'whsec_' + Buffer.from('j'.repeat(32)).toString('base64');
  const signed = (key = secret, text: string | Buffer = body) => new Webhook(key).sign('msg_1', at, text);

  test('a body that is not JSON is accepted; a signature among several (a key being rotated) is found', () => {
    expect(verify(secret, sending(signed(secret, 'a,b\n1,2'), 'a,b\n1,2'))).toEqual({ ok: true });
    expect(verify(secret, sending(`${signed(other)} ${signed()}`))).toEqual({ ok: true });
  });

  test('the id and the time are signed: another id, or a time moved, does not match', () => {
    const sent = sending(signed());
    expect(verify(secret, { ...sent, headers: { ...sent.headers, 'webhook-id': 'msg_2' } })).toEqual(MISMATCH);
    const moved = { ...sent.headers, 'webhook-timestamp': String(Number(seconds) - 1) };
    expect(verify(secret, { ...sent, headers: moved })).toEqual(MISMATCH);
  });

  test('a missing header is named with its svix- alternative; both names are kept', () => {
    const names = ['id', 'timestamp', 'signature'];
    expect(headersRead({ scheme: 'standard-webhooks', secret })).toEqual([
      ...names.map((n) => `webhook-${n}`),
      ...names.map((n) => `svix-${n}`),
    ]);
    const sent = sending(signed());
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
      const { [name]: _gone, ...headers } = sent.headers;
      expectRefused(
        verify(secret, { ...sent, headers }),
        `missing ${name} header (or ${name.replace('webhook-', 'svix-')})`,
      );
    }
  });

  test('a body that is not valid UTF-8 is refused: the package could not check it byte for byte', () => {
    // The package turns a Buffer into text before signing: these two bodies sign alike.
    const forged = {
      ...sending(signed(secret, Buffer.from([0x7b, 0xff, 0x7d]))),
      body: Buffer.from([0x7b, 0xfe, 0x7d]),
    };
    expectRefused(verify(secret, forged), /UTF-8/);
  });

  test('a secret that is not whsec_ + base64 is refused, saying so without repeating it', () => {
    expectRefused(verify('whsec_not*base64', sending(signed())), /secret/, 'not*base64');
  });
});
