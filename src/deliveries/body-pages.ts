/**
 * A delivery's body a page at a time, as the delivery inspector reads it (GET
 * /api/deliveries/:id/body): at most BODY_PAGE_BYTES from an offset, read from the one stored chunk
 * that holds it, so a 32 MiB body is never read whole for a person to look at it. A page that is
 * UTF-8 is answered as text and ends on a character's boundary (the next page starts at
 * `nextOffset`); any other is answered as base64.
 */
import { isUtf8 } from 'node:buffer';
import type { BodyPageAnswer } from '../contract/inspection';
import type { DeliveryDoc } from '../storage/documents';
import type { Models } from '../storage/models';
import { blobBytesFrom } from '../storage/blobs';

/** Bytes a UTF-8 character may have past a page's end: a page is read this much longer to end on a boundary. */
const UTF8_TAIL = 3;

/** A page of the delivery's kept body, or null when no body is kept. */
export async function bodyPage(
  models: Models,
  delivery: Pick<DeliveryDoc, 'body' | 'size' | 'bodyKeptBytes'>,
  offset: number,
  limit: number,
): Promise<BodyPageAnswer | null> {
  if (!delivery.body) return null;
  const kept = delivery.bodyKeptBytes ?? delivery.size;
  const start = Math.min(offset, kept);
  const want = Math.min(limit + UTF8_TAIL, kept - start);
  const parts: Buffer[] = [];
  let read = 0;
  for await (const part of blobBytesFrom(models, delivery.body.ownerId, delivery.body.chunks, start)) {
    parts.push(part.subarray(0, want - read));
    read += parts[parts.length - 1].length;
    if (read >= want) break;
  }
  const bytes = Buffer.concat(parts);
  let end = Math.min(limit, bytes.length);
  // Back off to the start of a character cut by the page's end (a UTF-8 continuation byte is 10xxxxxx).
  while (end < bytes.length && end > 0 && end > limit - UTF8_TAIL && (bytes[end] & 0xc0) === 0x80) end--;
  const text = bytes.subarray(0, end);
  const utf8 = isUtf8(text);
  const page = utf8 ? text : bytes.subarray(0, Math.min(limit, bytes.length));
  const next = start + page.length;
  return {
    size: delivery.size,
    kept,
    offset: start,
    encoding: utf8 ? 'utf8' : 'base64',
    data: page.toString(utf8 ? 'utf8' : 'base64'),
    nextOffset: next < kept ? next : null,
  };
}
