/**
 * What every management route does to find what it names (in the caller's workspace only), to read
 * a page of the history, and to make a delivery it was asked for.
 */
import { conflict, invalidField, notFound } from '../core/http-errors';
import { DeliveryRefused } from '../deliveries/start';
import { BadCursor } from '../domain/cursors';
import type { Caller } from '../domain/workspaces';

/** The document, or 404 naming what was not found. */
export async function found<T>(what: string, doc: Promise<T | null>): Promise<T> {
  const value = await doc;
  if (!value) throw notFound(`${what} not found`);
  return value;
}

/**
 * The document, when it is of the caller's workspace; 404 naming what was not found otherwise, as
 * for what does not exist: a key never learns what another workspace has.
 */
export async function ours<T extends { workspaceId: string }>(
  what: string,
  doc: Promise<T | null>,
  caller: Caller,
): Promise<T> {
  const value = await doc;
  if (!value || value.workspaceId !== caller.workspaceId) throw notFound(`${what} not found`);
  return value;
}

/** A page (of the history, the robots, the audit log); a cursor this service did not make is the caller's error. */
export async function pageOf<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof BadCursor) throw invalidField('cursor', err.message);
    throw err;
  }
}

/** A delivery asked for (a replay, a test delivery); a refusal is the caller's to fix: 409 with the reason. */
export async function asked<T>(delivery: Promise<T>): Promise<T> {
  try {
    return await delivery;
  } catch (err) {
    if (err instanceof DeliveryRefused) throw conflict(err.message);
    throw err;
  }
}
