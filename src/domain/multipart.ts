/**
 * Multipart form bodies (`multipart/form-data`, read with busboy) for the `form` body format: text
 * parts as fields (./form-fields.ts), file parts as `{ filename, contentType, size, sha256 }`, and a
 * file's bytes read back by its digest. The rules are in ./form-bodies.ts's module comment.
 */
import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import busboy from 'busboy';
import { BodyParseError } from './body-formats';
import { formObject, type JsonObject } from './form-fields';
import { FORM_MAX_FIELDS, MULTIPART_MAX_FIELD_BYTES, MULTIPART_MAX_PARTS } from './limits';
import type { JsonValue } from './types';

export const NO_BOUNDARY = 'multipart body without a multipart/form-data Content-Type boundary';

/** A file part as trigger data: its bytes are not kept. */
type FileData = { filename: string | null; contentType: string; size: number; sha256: string };

/** A part as busboy hands it over: its name, and its text or its file (name, type, size, digest). */
interface Part {
  name: string;
  text?: string;
  file?: { filename: string | undefined; contentType: string; size: number; sha256: string };
}

export function isMultipartForm(contentType: string | null): contentType is string {
  return contentType !== null && /^\s*multipart\/form-data\s*(;|$)/i.test(contentType);
}

/**
 * A multipart body's parts, in order. busboy hands a text part over decoded, in the charset the part
 * declares, else in `charset`; a parameter (a name, a file name) in `charset` too, unless it is an
 * extended one (`filename*=UTF-8''…`). With latin1, text busboy did not decode is the part's bytes, a
 * character each; with base64 it is their base64, which is longer: what reads the same both ways was
 * decoded by busboy (or is empty). `digest`: file parts' bytes are counted and hashed, else skipped.
 */
function readParts(body: Buffer, contentType: string, charset: 'latin1' | 'base64', digest: boolean): Promise<Part[]> {
  return new Promise((resolve, reject) => {
    let form: busboy.Busboy;
    try {
      form = busboy({
        headers: { 'content-type': contentType },
        defCharset: charset,
        defParamCharset: charset,
        limits: {
          fields: FORM_MAX_FIELDS,
          // busboy tells when it has read this many parts (and reads no more), so one over the cap.
          parts: MULTIPART_MAX_PARTS + 1,
          // busboy marks a value of exactly fieldSize bytes as cut, so one over the cap.
          fieldSize: MULTIPART_MAX_FIELD_BYTES + 1,
        },
      });
    } catch {
      reject(new BodyParseError(NO_BOUNDARY)); // e.g. `multipart/form-data` without `; boundary=…`
      return;
    }
    const parts: Part[] = [];
    const refuse = (what: string) => form.destroy(new BodyParseError(`invalid multipart form: ${what}`));
    // busboy's types say string, but a part without a name has none.
    const named = (name: string | undefined) => name ?? '';
    form.on('field', (name, text, info) => {
      if (info.valueTruncated) refuse(`a field of more than ${MULTIPART_MAX_FIELD_BYTES} bytes`);
      else parts.push({ name: named(name), text });
    });
    form.on('file', (name, stream, info) => {
      const file = { filename: info.filename, contentType: info.mimeType, size: 0, sha256: '' };
      parts.push({ name: named(name), file });
      // busboy reports a file cut short as its own error (and ends every file before it closes).
      stream.on('error', () => {});
      if (!digest) {
        stream.resume();
        return;
      }
      const hash = createHash('sha256');
      stream.on('data', (chunk: Buffer) => {
        file.size += chunk.length;
        hash.update(chunk);
      });
      stream.on('end', () => {
        file.sha256 = hash.digest('hex');
      });
    });
    form.on('partsLimit', () => refuse(`more than ${MULTIPART_MAX_PARTS} parts`));
    form.on('fieldsLimit', () => refuse(`more than ${FORM_MAX_FIELDS} fields`));
    form.on('error', (err) =>
      reject(
        err instanceof BodyParseError
          ? err
          : new BodyParseError(`invalid multipart form: ${err instanceof Error ? err.message : String(err)}`),
      ),
    );
    form.on('close', () => resolve(parts));
    form.end(body);
  });
}

const isAscii = (text: string | undefined) => text === undefined || !/[\u0080-\uffff]/.test(text);

/** A field name busboy read as Latin-1: its bytes, which must be UTF-8. */
function fieldName(latin1: string): string {
  const bytes = Buffer.from(latin1, 'latin1');
  if (!isUtf8(bytes)) throw new BodyParseError('invalid multipart form: a field name is not valid UTF-8');
  return bytes.toString('utf8');
}

/** A text part's value: `text` as read with latin1, `probe` with base64 (`probed`: when some text is not ASCII). */
function textValue(name: string, text: string | undefined, probe: string | undefined, probed: boolean): string {
  // busboy gives no text for a part in a charset it cannot decode.
  if (text === undefined)
    throw new BodyParseError(`invalid multipart form: field "${name}" is in a charset that cannot be read`);
  if (!probed || probe === text) return text; // ASCII, or decoded by busboy in the charset it declares
  const bytes = Buffer.from(text, 'latin1');
  if (!isUtf8(bytes)) throw new BodyParseError(`invalid multipart form: field "${name}" is not valid UTF-8`);
  return bytes.toString('utf8');
}

/** A file name, read as `textValue` reads a value, but as Latin-1 when its bytes are not UTF-8. */
function fileName(filename: string | undefined, probe: string | undefined, probed: boolean): string | null {
  if (filename === undefined) return null;
  if (!probed || probe === filename) return filename;
  const bytes = Buffer.from(filename, 'latin1');
  return isUtf8(bytes) ? bytes.toString('utf8') : filename;
}

/**
 * A `multipart/form-data` body as an object (the module comment says how); the boundary comes from
 * `contentType`, the one place a delivery's Content-Type is read.
 */
export async function parseMultipart(body: Buffer, contentType: string | null): Promise<JsonObject> {
  if (!isMultipartForm(contentType)) throw new BodyParseError(NO_BOUNDARY);
  const parts = await readParts(body, contentType, 'latin1', true);
  // Which parts busboy decoded itself is only asked when some text is not ASCII (ASCII reads the same).
  const probed = parts.some((part) => !isAscii(part.text) || !isAscii(part.file?.filename));
  const probes = probed ? await readParts(body, contentType, 'base64', false) : [];
  const fields = parts.map((part, i): [string, JsonValue] => {
    const name = fieldName(part.name);
    const probe = probes[i] as Part | undefined;
    if (!part.file) return [name, textValue(name, part.text, probe?.text, probed)];
    const { filename, contentType: type, size, sha256 } = part.file;
    const file: FileData = {
      filename: fileName(filename, probe?.file?.filename, probed),
      contentType: type,
      size,
      sha256,
    };
    return [name, file];
  });
  return formObject(fields);
}

/**
 * The bytes of a multipart body's file part whose SHA-256 (hex) is `sha256`, as its trigger data
 * names it (`{ filename, contentType, size, sha256 }`): how a file of a `form` delivery is read back
 * from the body kept with the delivery. null when no part has it (or the body is no multipart form).
 */
export function multipartFile(
  body: Buffer,
  contentType: string | null,
  sha256: string,
): Promise<{ filename: string | null; bytes: Buffer } | null> {
  if (!isMultipartForm(contentType)) return Promise.resolve(null);
  return new Promise((resolve) => {
    let found: { filename: string | null; bytes: Buffer } | null = null;
    let form: busboy.Busboy;
    try {
      form = busboy({ headers: { 'content-type': contentType }, limits: { parts: MULTIPART_MAX_PARTS + 1 } });
    } catch {
      resolve(null);
      return;
    }
    form.on('file', (_name, stream, info) => {
      const chunks: Buffer[] = [];
      const hash = createHash('sha256');
      stream.on('error', () => {});
      stream.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        hash.update(chunk);
      });
      stream.on('end', () => {
        if (!found && hash.digest('hex') === sha256)
          found = { filename: info.filename ?? null, bytes: Buffer.concat(chunks) };
      });
    });
    form.on('error', () => resolve(found));
    form.on('close', () => resolve(found));
    form.end(body);
  });
}
