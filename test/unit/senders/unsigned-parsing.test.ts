/**
 * Nothing is parsed for a stranger past the unsigned budget (src/domain/limits/unsigned-parsing.ts,
 * review R5): Twilio's form bodies past SIGNED_FORM_MAX_BYTES, and the JSON bodies that carry their
 * sender's credential (Microsoft Graph's clientState, Mailgun's signature, Notion's handshake) past
 * DEDUP_PARSE_BYTES, are refused before they are decoded, whatever they carry; a body just within
 * its bound is still checked and accepted.
 */
import type { CustomVerification } from '../../../src/domain/senders/catalog';
import { unsignedJsonObject } from '../../../src/domain/senders/parts';
import { mailgun } from '../../../src/domain/senders/families/mailgun';
import { microsoftGraph } from '../../../src/domain/senders/families/microsoft-graph';
import { twilio } from '../../../src/domain/senders/families/twilio';
import { DEDUP_PARSE_BYTES, SIGNED_FORM_MAX_BYTES } from '../../../src/domain/limits';
import { asReceived, type SentRequest } from '../../support/senders/fixture';
import { mailgunSender } from '../../support/senders/mailgun';
import { microsoftGraphSender } from '../../support/senders/microsoft-graph';
import { notionHandshake, notionVerificationToken } from '../../support/senders/notion';
import { twilioSender } from '../../support/senders/twilio';
import { reasonOf } from '../../support/senders/verdicts';

const url = 'https://hooks.example.com/api/webhooks/wh_1/tok_1';
const at = new Date();
const received = (sent: SentRequest) => asReceived(sent, url, at);
const verification = (v: object) => v as unknown as CustomVerification;

/** JSON.parse is spied on: a body past the bound is refused without a call. */
let parse: jest.SpyInstance;
beforeEach(() => {
  parse = jest.spyOn(JSON, 'parse');
});
afterEach(() => parse.mockRestore());

/** What `check` answers, asserting it called JSON.parse nowhere (the request is made before). */
function unparsed<T>(check: () => T): T {
  parse.mockClear();
  const answer = check();
  expect(parse).not.toHaveBeenCalled();
  return answer;
}

/** A JSON object padded with spaces (still one object, its keys unchanged) to `bytes`. */
const paddedJson = (json: string, bytes: number) => json.slice(0, -1) + ' '.repeat(bytes - json.length) + '}';

describe('Twilio: a form past SIGNED_FORM_MAX_BYTES is refused undecoded', () => {
  const v = verification(twilioSender.verification);
  /** Twilio's usual parameters, with `Body` making the form `bytes` long. */
  const form = (bytes: number) => {
    const head = 'From=%2B15550001111&To=%2B15550002222&Body=';
    return head + 'a'.repeat(bytes - head.length);
  };

  test('a 2 MiB form signed with the Auth Token is refused for its size, as a stranger’s is', () => {
    const signed = twilioSender.signed(form(2 * SIGNED_FORM_MAX_BYTES), url, at);
    const reason = `a form of more than ${SIGNED_FORM_MAX_BYTES} bytes: not read`;
    expect(reasonOf(twilio.verify(v, received(signed)))).toBe(reason);
    // The stranger's forgery is refused for its size too, not as a mismatch: its parameters were never decoded.
    const forged = twilioSender.signedWrongly(form(2 * SIGNED_FORM_MAX_BYTES), url, at);
    expect(reasonOf(twilio.verify(v, received(forged)))).toBe(reason);
  });

  test('a form one byte past the bound is refused; one at it is checked and accepted', () => {
    const past = twilioSender.signed(form(SIGNED_FORM_MAX_BYTES + 1), url, at);
    expect(reasonOf(twilio.verify(v, received(past)))).toMatch(/^a form of more than/);
    expect(twilio.verify(v, received(twilioSender.signed(form(SIGNED_FORM_MAX_BYTES), url, at)))).toEqual({
      ok: true,
    });
  });
});

describe('Microsoft Graph: a body past DEDUP_PARSE_BYTES is refused unparsed', () => {
  const v = verification(microsoftGraphSender.verification);
  const batch = microsoftGraphSender.signed(microsoftGraphSender.body, url, at).body.toString();
  const sent = (bytes: number) => ({ ...microsoftGraphSender.signed('', url, at), body: paddedJson(batch, bytes) });

  test('a 100 KiB batch whose every clientState is right is refused, and JSON.parse is never called', () => {
    const request = received(sent(100 * 1024));
    const verdict = unparsed(() => microsoftGraph.verify(v, request));
    expect(reasonOf(verdict)).toBe(
      `a body of more than ${DEDUP_PARSE_BYTES} bytes, whose credential is inside it: not read`,
    );
  });

  test('one byte past the bound is refused; at it, the clientState is checked and accepted', () => {
    expect(microsoftGraph.verify(v, received(sent(DEDUP_PARSE_BYTES + 1))).ok).toBe(false);
    expect(microsoftGraph.verify(v, received(sent(DEDUP_PARSE_BYTES)))).toEqual({ ok: true });
  });
});

describe('Mailgun: a body past DEDUP_PARSE_BYTES is refused unparsed', () => {
  const v = verification(mailgunSender.verification);
  const signed = mailgunSender.signed(mailgunSender.body, url, at).body.toString();
  const sent = (bytes: number) => ({
    ...mailgunSender.signed(mailgunSender.body, url, at),
    body: paddedJson(signed, bytes),
  });

  test('a 100 KiB event with a valid signature object is refused, and JSON.parse is never called', () => {
    const request = received(sent(100 * 1024));
    expect(reasonOf(unparsed(() => mailgun.verify(v, request)))).toMatch(/^a body of more than 65536 bytes/);
  });

  test('one byte past the bound is refused; at it, the signature is checked and accepted', () => {
    expect(mailgun.verify(v, received(sent(DEDUP_PARSE_BYTES + 1))).ok).toBe(false);
    expect(mailgun.verify(v, received(sent(DEDUP_PARSE_BYTES)))).toEqual({ ok: true });
  });
});

describe("Notion's handshake: unsignedJsonObject reads at most DEDUP_PARSE_BYTES", () => {
  const handshake = notionHandshake().body.toString();

  test('a 100 KiB verification body is no object to it, and JSON.parse is never called', () => {
    for (const bytes of [100 * 1024, DEDUP_PARSE_BYTES + 1]) {
      const body = Buffer.from(paddedJson(handshake, bytes));
      expect(unparsed(() => unsignedJsonObject(body))).toBeUndefined();
    }
  });

  test('one at the bound is read', () => {
    const read = unsignedJsonObject(Buffer.from(paddedJson(handshake, DEDUP_PARSE_BYTES)));
    expect(read).toEqual({ verification_token: notionVerificationToken });
  });
});
