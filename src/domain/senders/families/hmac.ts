/**
 * The HMAC family: an HMAC of the content the sender's file spells (`content`: the exact raw body,
 * the signed time's text as sent and the public URL, joined by the sender's literal text) under each
 * key the person gave (the secret, and a second where the sender signs with two), compared with
 * every digest the request gives. Any digest may match any key (keys being rotated, Box's primary
 * and secondary); every pair is compared, timing-safe, after the digest's format and length are
 * checked. Where a time is signed it is read and checked against the sender's tolerance, on either
 * side, before any HMAC is made. Signing the body alone (GitHub), the URL and the body (Square), a
 * time and the body (Slack, Stripe) or the body and a time (Box) is this one check with other content.
 */
import { headerValue } from '../../headers';
import { SIGNED_FORM_MAX_BYTES } from '../../limits';
import type { HmacSignature, KeyEncoding, SignedTime } from '../catalog/sender';
import {
  anyDigestMatches,
  fail,
  hmac,
  jsonObject,
  outside,
  unixSeconds,
  withinTolerance,
  type SenderCheck,
  type SenderRequest,
  type SenderSettings,
  type Verdict,
} from '../parts';

/** A piece of the signed content: literal text, or what the request gives. */
type Source = 'body' | 'time' | 'url' | 'form';
type Piece = string | { from: Source };

const compile = (content: string): Piece[] =>
  content
    .split(/(\{(?:body|time|url|form)\})/)
    .filter((text) => text !== '')
    .map((text) => (/^\{(body|time|url|form)\}$/.test(text) ? { from: text.slice(1, -1) as Source } : text));

/** A form body's fields sorted by name (stably), each its name then its decoded value, as Mandrill signs them. */
const sortedForm = (body: Buffer): string =>
  [...new URLSearchParams(body.toString('utf8')).entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => name + value)
    .join('');

/** The key the secret stands for. */
function keyOf(secret: string, encoding: KeyEncoding): string | Buffer {
  if (encoding === 'text') return secret;
  if (encoding === 'hex') return Buffer.from(secret, 'hex');
  return Buffer.from(encoding === 'whsec' ? secret.replace(/^whsec_/, '') : secret, 'base64');
}

const UNIT_WORDS = { s: 'unix seconds', ms: 'unix milliseconds', iso: 'an ISO 8601 time' } as const;

/** A signed time's text as seconds since the epoch, or undefined when it is not in its unit. */
function secondsOf(text: string, unit: SignedTime['unit']): number | undefined {
  if (unit === 's') return unixSeconds(text);
  if (unit === 'ms') return /^\d{1,15}$/.test(text) ? Number(text) / 1000 : undefined;
  // A time without a zone is UTC (Orb's).
  const zoned = /^\d{4}-\d\d-\d\dT[\d:.]+$/.test(text) ? `${text}Z` : text;
  const ms = /^\d{4}-\d\d-\d\dT[\d:.]+(Z|[+-]\d\d:?\d\d)$/.test(zoned) ? Date.parse(zoned) : NaN;
  return Number.isNaN(ms) ? undefined : ms / 1000;
}

/**
 * What splits a header's parts: its separator or white space, so that sets of parts one after
 * another (`t=…,v1=… t=…,v1=…`, Persona's while a secret is rolled) read as one.
 */
const SPLITTERS = { ',': /[\s,]+/, ';': /[\s;]+/ } as const;

/** The named parts of a header's value (`t=…,v1=…,v1=…`): every value of each name, in order. */
function partsOf(value: string, separator: ',' | ';', parts = new Map<string, string[]>()): Map<string, string[]> {
  for (const part of value.split(SPLITTERS[separator])) {
    const at = part.indexOf('=');
    if (at < 0 || at === part.length - 1) continue;
    const name = part.slice(0, at);
    const text = part.slice(at + 1);
    const known = parts.get(name);
    if (known) known.push(text);
    else parts.set(name, [text]);
  }
  return parts;
}

/** The name the first of a header's positional values is read under. */
const FIRST = '';

/** A header's parts by name (the first positional value under FIRST) and its digests. */
function readParts(
  values: readonly string[],
  split: NonNullable<HmacSignature['parts']>,
): { parts: Map<string, string[]>; digests: string[] } {
  if ('positional' in split) {
    const [first = '', ...rest] = values[0].split(split.positional).map((value) => value.trim());
    return { parts: new Map([[FIRST, [first]]]), digests: rest.filter((digest) => digest !== '') };
  }
  const parts = partsOf(values[0], split.separator);
  const digests = [...(parts.get(split.digest) ?? [])];
  for (const value of values.slice(1)) digests.push(...(partsOf(value, split.separator).get(split.digest) ?? []));
  return { parts, digests };
}

/** What an HMAC sender's check needs beyond its signature: its tolerance, and what a missing secret awaits. */
export interface HmacSender {
  toleranceSeconds: number | null;
  /** The handshake that gives the secret (Asana's X-Hook-Secret), for a sender that gives it there. */
  secretFrom?: string;
}

export function hmacCheck(signature: HmacSignature, sender: HmacSender): SenderCheck {
  const pieces = compile(signature.content);
  const time = signature.time;
  const tolerance = sender.toleranceSeconds ?? 0;
  const source = signature.header;
  /** The query parameter carrying the digest, for a sender that puts it there (PandaDoc). */
  const query = typeof source === 'object' && 'query' in source ? source.query : undefined;
  const headerNames = (v: SenderSettings): readonly string[] => {
    if (typeof source === 'string') return [source];
    if ('query' in source) return [];
    return 'setting' in source ? [v.header ?? ''] : source;
  };
  const signsForm = pieces.some((p) => typeof p !== 'string' && p.from === 'form');
  // What does not depend on the settings or the request, worked out once.
  const fixedNames: readonly string[] | undefined =
    typeof source === 'string' ? [source] : 'setting' in source || 'query' in source ? undefined : source;
  const where = (names: readonly string[]) => (query ? `${query} query parameter` : `${names.join(' or ')} header`);
  const fixedWhere = query || fixedNames ? where(fixedNames ?? []) : undefined;
  const split = signature.parts;
  const timeName = time && 'part' in time ? `${time.part}=` : 'time ';
  const unit = UNIT_WORDS[time?.unit ?? 's'];
  const prefixOf = (v: SenderSettings) =>
    typeof signature.prefix === 'object' ? (v.prefix ?? '') : (signature.prefix ?? '');
  const algorithmOf = (v: SenderSettings) =>
    typeof signature.algorithm === 'object' ? (v.algorithm ?? 'sha256') : (signature.algorithm ?? 'sha256');
  const encodingOf = (v: SenderSettings) =>
    typeof signature.encoding === 'object' ? (v.encoding ?? 'hex') : signature.encoding;

  /** The signed time's text as sent, or the refusal of a missing or malformed one. */
  function timeText(
    req: SenderRequest,
    parts: Map<string, string[]> | undefined,
    malformed: () => Verdict,
  ): string | Verdict {
    if (!time) return '';
    if ('header' in time) return headerValue(req.headers, time.header) ?? fail(`missing ${time.header} header`);
    if ('part' in time) return parts?.get(time.part)?.[0] ?? malformed();
    if ('first' in time) return parts?.get(FIRST)?.[0] || malformed();
    const value = jsonObject(req.body)?.[time.json];
    if (typeof value === 'number' || (typeof value === 'string' && value !== '')) return String(value);
    return fail(`missing ${time.json} in the body`);
  }

  function checkTime(text: string, req: SenderRequest, malformed: () => Verdict): Verdict | undefined {
    if (!time) return undefined;
    const seconds = secondsOf(text, time.unit);
    if (seconds === undefined) {
      if ('part' in time || 'first' in time) return malformed();
      const where = 'header' in time ? `${time.header} header` : `${time.json} in the body`;
      return fail(`malformed ${where}: expected ${UNIT_WORDS[time.unit]}`);
    }
    return withinTolerance(seconds, req.receivedAtMs, tolerance) ? undefined : outside(tolerance);
  }

  return {
    verify(v, req) {
      const secrets = [v.secret, v.secondarySecret].filter((s): s is string => s !== undefined);
      if (secrets.length === 0) return fail(`no ${sender.secretFrom ?? 'secret'} handshake yet`);
      const names = fixedNames ?? headerNames(v);
      const given = query
        ? req.query.getAll(query)
        : names.length === 1
          ? [headerValue(req.headers, names[0])?.trim()]
          : names.map((name) => headerValue(req.headers, name)?.trim());
      const values = given.filter((value): value is string => !!value);
      const at = fixedWhere ?? where(names);
      if (values.length === 0) return fail(`missing ${at}`);
      if (signsForm && req.body.length > SIGNED_FORM_MAX_BYTES) {
        return fail(`a form body of more than ${SIGNED_FORM_MAX_BYTES} bytes: not read`);
      }
      const encoding = encodingOf(v);
      const malformed = (what: string) => fail(`malformed ${at}: ${what}`);
      const { parts, digests } = split ? readParts(values, split) : { parts: undefined, digests: values };
      if (split && digests.length === 0) {
        return malformed(`no ${'digest' in split ? `${split.digest}=` : ''}<${encoding} digest>`);
      }
      const text = timeText(req, parts, () => malformed(`no ${timeName}<${unit}>`));
      if (typeof text !== 'string') return text;
      const late = checkTime(text, req, () => malformed(`${timeName.trim()} is not ${unit}`));
      if (late) return late;
      const content = pieces.map((p) =>
        typeof p === 'string'
          ? p
          : p.from === 'body'
            ? req.body
            : p.from === 'time'
              ? text
              : p.from === 'url'
                ? req.publicUrl
                : sortedForm(req.body),
      );
      const expected = secrets.map((s) => hmac(algorithmOf(v), keyOf(s, signature.key ?? 'text'), ...content));
      const what = split ? `${names[0]} ${'digest' in split ? split.digest : 'digest'}` : at;
      return anyDigestMatches(digests, what, expected, encoding, split ? '' : prefixOf(v));
    },
    headersRead: (v) =>
      [...headerNames(v), ...(time && 'header' in time ? [time.header] : [])].map((name) => name.toLowerCase()),
  };
}
