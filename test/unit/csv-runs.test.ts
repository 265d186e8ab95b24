/**
 * A CSV's later runs, batch by batch (src/deliveries/csv-runs.ts), and reading a CSV from a place
 * (csvRowsFrom, src/domain/body-formats.ts): every CSV fanning out on one worker keeps its place,
 * so a batch reads what it seeds and never the rows before it.
 */
import fc from 'fast-check';
import { csvRows, csvRowsFrom, type CsvPlace } from '../../src/domain/body-formats';
import { CsvRunSeeds } from '../../src/deliveries/csv-runs';
import { DeliveryRules } from '../../src/deliveries/rules';
import type { DeliveryInput } from '../../src/domain/types';
import { HEARTBEAT_ROWS } from '../../src/domain/limits';
import type { Models } from '../../src/storage/models';
import type { StepsVersions } from '../../src/robots/steps-versions';

const collect = async <T>(rows: AsyncIterable<T>): Promise<T[]> => {
  const out: T[] = [];
  for await (const r of rows) out.push(r);
  return out;
};

/** The body's bytes from `start`, in pieces of `size`, noting each start asked for and each byte handed out. */
function reader(body: Buffer, size: number, seen: { starts: number[]; bytes: number }) {
  return function* (start: number) {
    seen.starts.push(start);
    for (let at = start; at < body.length; at += size) {
      const piece = body.subarray(at, Math.min(at + size, body.length));
      seen.bytes += piece.length;
      yield piece;
    }
  };
}

describe('csvRowsFrom', () => {
  const cell = fc.oneof(fc.constantFrom('', 'a', 'x,y', 'say "hi"', 'two\nlines', 'é✓'), fc.string({ maxLength: 6 }));
  const csv = fc
    .record({
      bom: fc.boolean(),
      eol: fc.constantFrom('\n', '\r\n'),
      rows: fc.array(fc.array(cell, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 30 }),
    })
    .map(({ bom, eol, rows }) => {
      const quote = (c: string) => (/[",\r\n]/.test(c) || c === '' ? `"${c.replace(/"/g, '""')}"` : c);
      const lines = [['k1', 'k2', 'k3'], ...rows].map((r) => r.map(quote).join(','));
      return Buffer.from(`${bom ? '\ufeff' : ''}${lines.join(eol)}${eol}`);
    });

  it('gives, from the place after any row, exactly the rows a whole read gives after it', async () => {
    await fc.assert(
      fc.asyncProperty(csv, fc.integer({ min: 1, max: 50 }), async (body, size) => {
        const whole = await collect(csvRows(body));
        const placed = await collect(csvRowsFrom(reader(body, size, { starts: [], bytes: 0 }), null));
        expect(placed.map((p) => p.row)).toEqual(whole);
        for (const [i, { place }] of placed.entries()) {
          const rest = await collect(csvRowsFrom(reader(body, size, { starts: [], bytes: 0 }), place));
          expect(rest.map((p) => p.row)).toEqual(whole.slice(i + 1));
        }
      }),
      { numRuns: 60 },
    );
  });

  it('reads only the header row and what follows the place', async () => {
    const lines = ['id,name', ...Array.from({ length: 1000 }, (_, i) => `${i},row ${i}`)];
    const body = Buffer.from(lines.join('\n') + '\n');
    const first = await collect(csvRowsFrom(reader(body, 64, { starts: [], bytes: 0 }), null));
    const place: CsvPlace = first[899].place;
    const seen = { starts: [] as number[], bytes: 0 };
    const rest = await collect(csvRowsFrom(reader(body, 64, seen), place));
    expect(rest.map((r) => r.row.id)).toEqual(Array.from({ length: 100 }, (_, i) => String(900 + i)));
    expect(seen.starts).toEqual([0, place.offset]);
    // The header's piece, and the bytes after the place.
    expect(seen.bytes).toBeLessThanOrEqual(64 + body.length - place.offset);
  });
});

describe('CsvRunSeeds', () => {
  const ROWS = 5000;
  const BATCH = 500;
  const delivery = (n: number): DeliveryInput => {
    const text = ['n', ...Array.from({ length: ROWS }, (_, i) => `${n}-${i}`)].join('\n');
    return {
      deliveryId: `d${n}`,
      robotId: 'r',
      triggerIdentifier: 'custom:x',
      receivedAt: new Date(0).toISOString(),
      dedupKey: 'k',
      contentType: 'text/csv',
      size: text.length,
      body: { kind: 'inline', encoding: 'utf8', data: text },
      verified: null,
    };
  };

  it('seeds three CSVs fanning out at once batch by batch, each from its own place', async () => {
    // Inline bodies and no steps version (no rules): nothing is read from a store.
    const seeds = new CsvRunSeeds({} as Models, new DeliveryRules({} as StepsVersions));
    let beats = 0;
    const progress = { resumed: undefined, beat: () => void beats++ };
    const deliveries = [1, 2, 3].map(delivery);
    const got = new Map<string, string[]>(deliveries.map((d) => [d.deliveryId, []]));
    for (let from = 0; from < ROWS; from += BATCH)
      for (const d of deliveries)
        for (const seed of await seeds.between(d, from, from + BATCH, progress)) {
          got.get(d.deliveryId)!.push((seed.trigger as unknown as { data: { n: string } }).data.n);
          expect(seed.runId).toBe(`${d.deliveryId}-${String(got.get(d.deliveryId)!.length - 1).padStart(8, '0')}`);
        }
    for (const d of deliveries)
      expect(got.get(d.deliveryId)).toEqual(Array.from({ length: ROWS }, (_, i) => `${d.deliveryId.slice(1)}-${i}`));
    // A beat every HEARTBEAT_ROWS rows read and every HEARTBEAT_ROWS runs seeded: each row read about
    // once. Read again from the first row each batch, it would be about five times as many.
    expect(beats).toBeLessThanOrEqual(((3 * ROWS) / HEARTBEAT_ROWS) * 2 + 3 * (ROWS / BATCH));
  });
});
