/** What every management route does to find what it names, and to read a page of the history. */
import { invalidField, notFound } from '../http';
import { BadCursor } from '../history/reads';

/** The document, or 404 naming what was not found. */
export async function found<T>(what: string, doc: Promise<T | null>): Promise<T> {
  const value = await doc;
  if (!value) throw notFound(`${what} not found`);
  return value;
}

/** A page of the history; a cursor this service did not make is the caller's error. */
export async function pageOf<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof BadCursor) throw invalidField('cursor', err.message);
    throw err;
  }
}
