/**
 * The conformance suite: every sender's fixture (test/support/senders/, signed by the sender's own
 * library wherever one exists) against its check, each case written once and run for every sender.
 * What a case expects is what the sender's file in the catalog says (test/support/senders/implied.ts
 * reads it); a case that cannot hold for a sender is skipped where its file's data says why. Also:
 * docs/api.md's table of senders is the catalog's (regenerate it with
 * `WRITE_DOCS=1 npx jest test/unit/senders.test.ts`), and the API takes exactly each sender's settings.
 * Each family's own edge cases are in ./senders/families.test.ts, each family of one's in ./senders/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SENDER_NAMES, SENDERS, type CustomVerification } from '../../src/domain/senders/catalog';
import {
  answersMethod,
  credentialHeaders,
  headersRead,
  senderDeliveryId,
  senderHandshake,
  verifySender,
} from '../../src/domain/senders/checks';
import { keptHeaders } from '../../src/domain/deliveries';
import { verificationBody } from '../../src/contract/requests';
import { SENDER_FIXTURES } from '../support/senders';
import { asReceived, type SenderFixture, type SentRequest } from '../support/senders/fixture';
import { preparedGithubSignatures } from '../support/senders/github';
import {
  carriedValues,
  carrierOf,
  impliedCredentialHeaders,
  impliedHeadersRead,
  signsWholeBody,
  tampered,
  withoutCarrier,
} from '../support/senders/implied';
import { answered, asAnswer, handshakeOf, leaked, reasonOf } from '../support/senders/verdicts';

const ROOT = path.resolve(__dirname, '../..');
const API_DOC = path.join(ROOT, 'docs/api.md');
const START = '<!-- senders: generated from src/domain/senders/catalog/ by test/unit/senders.test.ts -->';
const END = '<!-- senders: end -->';
const URL = 'https://hooks.example.com/api/webhooks/custom:00000000-0000-0000-0000-000000000000/tok';

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
    const redelivery = s.redelivery ?? '—';
    const cells = [`\`${name}\``, who, settings, s.checks, time, s.dedup, handshake, redelivery, s.setup];
    return `| ${cells.map(cell).join(' | ')} |`;
  });
  return [
    START,
    '| `scheme` | Sender | Fill in | Checked | Signed time | Dedup key | Handshake | Redelivery | Set-up |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
    END,
  ].join('\n');
}

test("each sender's words (docs/api.md's Checked column) name where its signature is read", () => {
  const unnamed = SENDER_NAMES.flatMap((name) => {
    const { signature, checks } = SENDERS[name];
    const header = 'header' in signature ? signature.header : undefined;
    const where =
      header === undefined
        ? []
        : typeof header === 'string'
          ? [header]
          : 'query' in header
            ? [header.query]
            : 'setting' in header
              ? []
              : header.slice(0, 1);
    return where.filter((w) => !checks.toLowerCase().includes(w.toLowerCase())).map((w) => `${name}: ${w}`);
  });
  expect(unnamed).toEqual([]);
});

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

test('every sender has a fixture', () => {
  const played = new Set(SENDER_FIXTURES.map((f) => f.name));
  expect(SENDER_NAMES.filter((n) => !played.has(n))).toEqual([]);
});

/** Now, in whole seconds (a signed time is sent in seconds; a sender's library may sign with its own clock). */
const wholeSecondsNow = () => new Date(Math.floor(Date.now() / 1000) * 1000);
const later = (at: Date, seconds: number) => new Date(at.getTime() + seconds * 1000);

/** The app as made, and the secret its sender's handshake gives where it gives one (as the receiver keeps it). */
function appOf(sender: SenderFixture): { made: CustomVerification; v: CustomVerification } {
  const made: CustomVerification = verificationBody.parse(sender.verification);
  const handshake = SENDERS[sender.name].handshake;
  if (handshake?.kind !== 'learn-secret' || !sender.handshake) return { made, v: made };
  const given = senderHandshake(made, asReceived(sender.handshake.request(URL, new Date()), URL, new Date()), false);
  return { made, v: { ...made, secret: answered(given).learnedSecret } };
}

/** What no reason may hold: the secrets, the body and the signature sent. */
function secretsOf(sender: SenderFixture, v: CustomVerification, ...sent: SentRequest[]): string[] {
  const file = SENDERS[sender.name];
  const names = new Set<string>(['secret', ...file.settings.filter((s) => s.secret).map((s) => s.name)]);
  const settings = Object.entries(v).filter(([k, value]) => names.has(k) && typeof value === 'string');
  const carrier = carrierOf(sender.name, v);
  return [
    ...settings.map(([, value]) => String(value)),
    sender.body,
    sender.body.slice(0, 20),
    ...sent.flatMap((s) => carriedValues(s, carrier)),
  ];
}

const verdictAt = (v: CustomVerification, sent: SentRequest, at: Date) => verifySender(v, asReceived(sent, URL, at));

describe.each(SENDER_FIXTURES.map((f) => [f.variant ? `${f.name} (${f.variant})` : f.name, f] as const))(
  '%s',
  (_, sender) => {
    const name = sender.name;
    const file = SENDERS[name];
    const { made, v } = appOf(sender);
    const carrier = carrierOf(name, v);
    const tolerance = file.toleranceSeconds;
    const id = file.deliveryId;
    /** Refusals of the sender's requests, checked below for what they must not hold. */
    const refusals = new Map<string, { reason: string; sent: SentRequest }>();
    const refused = (what: string, sent: SentRequest, at: Date) => {
      const reason = reasonOf(verdictAt(v, sent, at));
      refusals.set(what, { reason, sent });
      expect(reason).not.toBe('accepted');
      return reason;
    };

    test("the API takes its fixture's verification, and refuses a setting it does not name", () => {
      expect(verificationBody.safeParse(sender.verification).success).toBe(true);
      expect(verificationBody.safeParse({ ...sender.verification, colour: 'blue' }).success).toBe(false);
      for (const s of file.settings.filter((x) => !x.optional && x.default === undefined)) {
        const { [s.name]: _left, ...without } = sender.verification;
        expect(verificationBody.safeParse(without).success).toBe(false);
      }
    });

    test('its fixture signs a time exactly where its file does, with the same tolerance', () => {
      expect(sender.toleranceSeconds).toBe(tolerance);
    });

    test('a signed delivery is accepted', () => {
      const at = wholeSecondsNow();
      expect(verdictAt(v, sender.signed(sender.body, URL, at), at)).toEqual({ ok: true });
    });

    (signsWholeBody(name) ? test : test.skip)('a tampered body is refused', () => {
      const at = wholeSecondsNow();
      const sent = sender.signed(sender.body, URL, at);
      refused('tampered', { ...sent, body: tampered(sender.body) }, at);
    });

    test('a delivery signed with the other key is refused', () => {
      const at = wholeSecondsNow();
      refused('wrong key', sender.signedWrongly(sender.body, URL, at), at);
    });

    (carrier === 'body' ? test.skip : test)('a missing signature is refused, its header named', () => {
      const at = wholeSecondsNow();
      const reason = refused('missing', withoutCarrier(sender.signed(sender.body, URL, at), carrier)!, at);
      const names =
        carrier !== 'body' && 'query' in carrier ? [carrier.query] : carrier !== 'body' ? carrier.headers : [];
      expect(reason).toMatch(/^missing /);
      for (const n of names) expect(reason.toLowerCase()).toContain(n.toLowerCase());
    });

    (tolerance === null ? test.skip : test)(
      'just outside its tolerance, either side, refused; just inside, accepted',
      () => {
        const at = wholeSecondsNow();
        const sent = sender.signed(sender.body, URL, at);
        const seconds = tolerance!;
        expect(verdictAt(v, sent, later(at, seconds))).toEqual({ ok: true });
        expect(verdictAt(v, sent, later(at, -seconds))).toEqual({ ok: true });
        expect(refused('late', sent, later(at, seconds + 1))).toMatch(/tolerance/);
        expect(refused('early', sent, later(at, -seconds - 1))).toMatch(/tolerance/);
      },
    );

    (tolerance === null ? test : test.skip)(
      'it signs no time: a capture is accepted a day later (dedup stops a rerun)',
      () => {
        const at = wholeSecondsNow();
        expect(verdictAt(v, sender.signed(sender.body, URL, at), later(at, 86_400))).toEqual({ ok: true });
      },
    );

    test("no refusal's reason holds the secret, the body or a digest", () => {
      const at = wholeSecondsNow();
      const wrongly = sender.signedWrongly(sender.body, URL, at);
      if (!refusals.has('wrong key')) refused('wrong key', wrongly, at);
      const secrets = secretsOf(sender, v, sender.signed(sender.body, URL, at), wrongly);
      for (const [what, { reason, sent }] of refusals) {
        expect({ what, leaked: leaked(reason, [...secrets, ...secretsOf(sender, v, sent)]) }).toEqual({
          what,
          leaked: [],
        });
      }
    });

    test('the headers it keeps are those its file implies, never one that carries its credential', () => {
      const read = headersRead(v);
      const credentials = credentialHeaders(v);
      const implied = impliedHeadersRead(name, v);
      if (implied.exactly) expect([...read].sort()).toEqual([...implied.exactly].sort());
      expect(read).toEqual(expect.arrayContaining(implied.atLeast));
      const impliedCredentials = impliedCredentialHeaders(name, v);
      if (impliedCredentials) expect([...credentials].sort()).toEqual([...impliedCredentials].sort());
      expect(read.filter((h) => credentials.includes(h))).toEqual([]);
      const at = wholeSecondsNow();
      const sent = asReceived(sender.signed(sender.body, URL, at), URL, at);
      const kept = keptHeaders(sent.headers, [...read, ...credentials, 'authorization'], credentials);
      for (const h of credentials) expect(kept).not.toHaveProperty(h);
    });

    if (id === null) {
      test('it names no delivery id: none is given', () => {
        const at = wholeSecondsNow();
        expect(senderDeliveryId(v, asReceived(sender.signed(sender.body, URL, at), URL, at))).toBeUndefined();
      });
    } else {
      test('two sendings of one event give the same delivery id', () => {
        const at = wholeSecondsNow();
        const again = later(at, 1);
        const first = sender.signed(sender.body, URL, at);
        // An id of the family's own is in what its library sends once per message (Standard Webhooks'
        // webhook-id): the sender sends that message again. Else the fixture signs the event again.
        const second = id === 'own' ? first : sender.signed(sender.body, URL, again);
        const ids = [first, second].map((sent, i) => senderDeliveryId(v, asReceived(sent, URL, i ? again : at)));
        expect(ids[1]).toBe(ids[0]);
        // An id in headers is one a generic sender may leave out: given where the fixture sends one.
        const idHeaders = typeof id === 'object' && 'headers' in id ? id.headers : undefined;
        const sends = Object.keys(first.headers).some((h) => idHeaders?.includes(h.toLowerCase()));
        if (!idHeaders || sends) expect(ids[0]).toEqual(expect.any(String));
      });
    }

    const handshake = sender.handshake;
    (handshake ? test : test.skip)('its handshake is answered as the sender takes it, never as HTML', () => {
      const at = wholeSecondsNow();
      const request = handshake!.request(URL, at);
      if (request.method !== 'POST') expect(answersMethod(made, request.method)).toBe(true);
      const answer = asAnswer(answered(handshakeOf(made, request, URL, at)).answer);
      expect(answer.headers['content-type'] ?? '').not.toMatch(/html/i);
      expect(() => handshake!.accepts(answer)).not.toThrow();
    });

    const sdkAccepts = sender.sdkAccepts;
    (sdkAccepts ? test : test.skip)("the sender's own library accepts what its fixture signs", async () => {
      const sent = sender.signed(sender.body, URL, wholeSecondsNow());
      await expect(Promise.resolve().then(() => sdkAccepts!(sent, URL))).resolves.toBeUndefined();
    });
  },
);
