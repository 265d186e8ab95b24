/** The tally's pure parts: unfinished-run ranges, counts and previews. */
import { addRange, emptyTally, previewOf, removeIndex, runCountsOf, type Ranges } from '../../src/history/tally';
import { PREVIEW_BYTES } from '../../src/domain/limits';

describe('ranges of unfinished runs', () => {
  it('merges a range that starts where the last one ends', () => {
    const r: Ranges = [];
    addRange(r, 0, 50);
    addRange(r, 50, 100);
    addRange(r, 120, 130);
    addRange(r, 5, 5);
    expect(r).toEqual([
      [0, 100],
      [120, 130],
    ]);
  });

  it('removes an index from the start, the middle and the end of a range, and the last of one', () => {
    const r: Ranges = [
      [0, 10],
      [20, 21],
    ];
    removeIndex(r, 0);
    removeIndex(r, 5);
    removeIndex(r, 9);
    removeIndex(r, 20);
    removeIndex(r, 99); // not there: nothing happens
    expect(r).toEqual([
      [1, 5],
      [6, 9],
    ]);
  });
});

describe('counts', () => {
  it('count the placed runs that are kept; running is the rest', () => {
    const t = { ...emptyTally(), firstRun: 10, placedThrough: 110, ordinals: 500, succeeded: 60, failed: 15 };
    expect(runCountsOf(t)).toEqual({ total: 100, running: 25, succeeded: 60, failed: 15 });
  });
});

describe('previews', () => {
  it('keep trigger data up to PREVIEW_BYTES (in UTF-8 bytes), and nothing larger', () => {
    const fits = JSON.stringify({ s: 'x'.repeat(PREVIEW_BYTES - 8) });
    expect(Buffer.byteLength(fits)).toBe(PREVIEW_BYTES);
    expect(previewOf(fits)).toBe(fits);
    expect(previewOf(JSON.stringify({ s: 'é'.repeat(PREVIEW_BYTES / 2) }))).toBeNull();
  });
});
