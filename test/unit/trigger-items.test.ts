/** MAX_TRIGGER_ITEMS: the items of one trigger data value, counted before json and xml are parsed. */
import fc from 'fast-check';
import { parseBody } from '../../src/domain/body-reading';
import { DeliveryOverCap } from '../../src/domain/delivery-caps';
import { refuseItemsOver, refuseJsonItemsOver } from '../../src/domain/trigger-items';
import type { JsonValue } from '../../src/domain/types';

const reading = (maxItems: number) => ({ contentType: null, formEnvelope: false, maxItems });

/** The items of a parsed value: every object, array and scalar (object keys are not items). */
function itemsOf(value: JsonValue): number {
  if (value === null || typeof value !== 'object') return 1;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + children.reduce((sum: number, child) => sum + itemsOf(child), 0);
}

/** The smallest cap the pass lets a body through at (it counts at most `max`, and only past a length). */
function smallestCapPassing(body: Buffer): number {
  for (let max = 1; ; max++) {
    try {
      refuseJsonItemsOver(body, max);
      return max;
    } catch (err) {
      if (!(err instanceof DeliveryOverCap)) throw err;
    }
  }
}

it('counts JSON items in a pass over its bytes: never fewer than the value has, as many when no container is empty', () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
      const text = JSON.stringify(value);
      const items = itemsOf(value as JsonValue);
      const counted = smallestCapPassing(Buffer.from(text));
      expect(counted).toBeGreaterThanOrEqual(items);
      if (!/\[\]|\{\}/.test(text)) expect(counted).toBe(items);
    }),
  );
});

it('refuses JSON past the cap before it is parsed, naming the setting', async () => {
  const items = 1000;
  const array = Buffer.from(`[${Array(items).fill('{"a":"x,[{"}').join(',')}]`);
  // 1 array + 1,000 objects + 1,000 strings; the commas and brackets inside strings are not counted.
  await expect(parseBody('json', array, reading(2001))).resolves.toHaveLength(items);
  await expect(parseBody('json', array, reading(2000))).rejects.toThrow(
    'over MAX_TRIGGER_ITEMS: more than 2000 items in its trigger data',
  );
  // Not valid JSON past the items the cap allows: the cap is met before the parser would fail.
  const cut = Buffer.concat([array.subarray(0, array.length - 1), Buffer.from(',')]);
  await expect(parseBody('json', cut, reading(2000))).rejects.toBeInstanceOf(DeliveryOverCap);
});

it('refuses XML past the cap before it is parsed (an element and its text, an attribute)', async () => {
  const xml = Buffer.from(`<list>${'<item id="1">x</item>'.repeat(500)}</list>`);
  // 1 + 500 elements, each with its text (2 items) and one attribute.
  await expect(parseBody('xml', xml, reading(1502))).resolves.toBeDefined();
  await expect(parseBody('xml', xml, reading(1501))).rejects.toThrow('over MAX_TRIGGER_ITEMS');
});

it('counts a form once read, and the form a json app takes (GitHub, Slack) too', async () => {
  const form = Buffer.from(Array.from({ length: 500 }, (_, i) => `f${i}[a][b]=v`).join('&'));
  // The object, and 500 fields of two nested objects and a value each.
  await expect(parseBody('form', form, reading(1501))).resolves.toBeDefined();
  await expect(parseBody('form', form, reading(1500))).rejects.toThrow('over MAX_TRIGGER_ITEMS');
  const payload = Buffer.from(`payload=${encodeURIComponent(JSON.stringify(Array(1000).fill(1)))}`);
  const envelope = { contentType: null, formEnvelope: true, maxItems: 1000 };
  await expect(parseBody('json', payload, envelope)).rejects.toThrow('over MAX_TRIGGER_ITEMS');
  await expect(parseBody('json', payload, { ...envelope, maxItems: 1001 })).resolves.toHaveLength(1000);
});

it('walks no value of a body too short to be past the cap', () => {
  const value: JsonValue = Array(10).fill(1);
  expect(() => refuseItemsOver(value, 5, 100)).toThrow(DeliveryOverCap);
  // 10 bytes cannot carry more than 5 items: the value is not walked.
  expect(() => refuseItemsOver(value, 5, 9)).not.toThrow();
});
