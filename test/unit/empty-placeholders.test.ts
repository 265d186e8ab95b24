/** A run whose every placeholder came out empty (src/domain/empty-placeholders.ts). */
import { emptyPlaceholdersHint, everyPlaceholderEmpty } from '../../src/domain/empty-placeholders';

const data = { order: { id: 7, note: '', gift: null }, items: [{ sku: 'A-1' }] };

test.each([
  ['paths not there', [{ a: '{{trigger.orderId}}' }, 'x {{trigger.order.total}}'], true],
  ['an empty string and null', [{ a: '{{trigger.order.note}}', b: ['{{trigger.order.gift}}'] }], true],
  ['one placeholder filled', [{ a: '{{trigger.orderId}}', b: '{{trigger.items[0].sku}}' }], false],
  ['a number filled', [{ a: '{{trigger.order.id}}' }], false],
  ['no placeholder at all', [{ a: 'constant' }, 5], false],
])('%s', (_what, templates, empty) => {
  expect(everyPlaceholderEmpty(templates, data)).toBe(empty);
});

test('the hint names the body format', () => {
  expect(emptyPlaceholdersHint('form')).toBe(
    "every placeholder in this run's steps came out empty: check the paths against Fields seen; " +
      'the body format is form',
  );
});
