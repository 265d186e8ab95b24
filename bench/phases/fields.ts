/**
 * The price of fields seen (src/domain/fields.ts) on the run path: the worker collects a delivery's
 * paths beside parsing it, so its cost is timed here in this process against that parse, on the
 * bodies the bench sends (the levels' one-key JSON; the CSV's first rows) and on a larger nested
 * JSON event (about 2 KiB, 60 paths). Printed as microseconds per delivery and as a ratio of
 * JSON.parse of the same body; the CSV and levels' tables give the worker's milliseconds per run.
 */
import { performance } from 'node:perf_hooks';
import { fieldsOf } from '../../src/domain/fields';
import { FIELDS_CSV_ROWS } from '../../src/domain/limits';
import type { JsonValue } from '../../src/domain/types';
import { log, round } from '../util';

export interface FieldsPriceRow {
  body: string;
  bytes: number;
  paths: number;
  /** Microseconds to collect the delivery's fields. */
  fieldsUs: number;
  /** Microseconds of JSON.parse of the same body (of all the rows for a CSV). */
  parseUs: number;
  /** fieldsUs ÷ parseUs. */
  vsParse: number;
}

/** An event shaped like a payment provider's: nested objects, an array of items, metadata. */
export function nestedEvent(): JsonValue {
  const item = (i: number) => ({
    id: `li_${i}`,
    sku: `SKU-${i}`,
    quantity: i + 1,
    price: { amount: 1999, currency: 'eur', tax: { rate: 0.2, included: true } },
    description: 'A product with a description long enough to be cut in the example',
  });
  return {
    id: 'evt_1',
    type: 'checkout.session.completed',
    created: 1_764_000_000,
    livemode: false,
    data: {
      object: {
        id: 'cs_1',
        customer: { id: 'cus_1', email: 'ann@example.com', name: 'Ann', address: { city: 'Lyon', country: 'FR' } },
        items: Array.from({ length: 8 }, (_, i) => item(i)),
        metadata: { order: '42', channel: 'web', campaign: null },
        totals: { subtotal: 15_992, tax: 3198, total: 19_190 },
      },
    },
  };
}

/** Median microseconds of `fn` over batches of `n` calls, for about half a second. */
function timeUs(fn: () => unknown, n = 200): number {
  const samples: number[] = [];
  const until = performance.now() + 500;
  while (performance.now() < until || samples.length < 5) {
    const t = performance.now();
    for (let i = 0; i < n; i++) fn();
    samples.push(((performance.now() - t) * 1000) / n);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

function row(body: string, text: string, values: () => JsonValue[], parse: () => unknown): FieldsPriceRow {
  const fieldsUs = timeUs(() => fieldsOf(values()));
  const parseUs = timeUs(parse);
  return {
    body,
    bytes: Buffer.byteLength(text),
    paths: fieldsOf(values()).fields.length,
    fieldsUs: round(fieldsUs, 2),
    parseUs: round(parseUs, 2),
    vsParse: round(fieldsUs / parseUs, 2),
  };
}

export function fieldsPrice(): FieldsPriceRow[] {
  log('fields seen: timing the collection of a delivery’s paths against parsing it');
  const small = JSON.stringify({ id: 'bench-1' });
  const nested = JSON.stringify(nestedEvent());
  const rows = Array.from({ length: 1000 }, (_, i) => ({ n: String(i), email: `user${i}@example.com` }));
  const csvText = ['n,email', ...rows.map((r) => `${r.n},${r.email}`)].join('\n');
  const parsedSmall = JSON.parse(small) as JsonValue;
  const parsedNested = JSON.parse(nested) as JsonValue;
  const firstRows = rows.slice(0, FIELDS_CSV_ROWS);
  return [
    row(
      "the levels' JSON",
      small,
      () => [parsedSmall],
      () => JSON.parse(small),
    ),
    row(
      'a nested event',
      nested,
      () => [parsedNested],
      () => JSON.parse(nested),
    ),
    // A CSV's fields come from its first rows whatever its length; its parse is per row (here as JSON).
    row(
      `a 1,000-row CSV (first ${FIELDS_CSV_ROWS} rows)`,
      csvText,
      () => firstRows,
      () => JSON.parse(JSON.stringify(rows)),
    ),
  ];
}
