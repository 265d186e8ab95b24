/**
 * The weight a delivery's start carries (src/deliveries/fair-shares.ts, review R6 (a)): one over
 * its workspace's busy URLs, so a workspace's busy URLs together weigh about one share.
 */
import { FAIR_SHARE_WINDOW_MS, FairShares } from '../../src/deliveries/fair-shares';

test("a workspace's busy URLs share one weight; another workspace's one URL has a whole one", () => {
  let now = 0;
  const shares = new FairShares(() => now);
  const weights = Array.from({ length: 100 }, (_, i) => shares.weightOf('many', `url-${i}`));
  expect(weights.at(-1)).toBeCloseTo(1 / 100);
  expect(shares.weightOf('one', 'url')).toBe(1);
  // The same URL again is still one of the hundred.
  expect(shares.weightOf('many', 'url-0')).toBeCloseTo(1 / 100);
  // A URL with no delivery for the window is no longer busy.
  now = FAIR_SHARE_WINDOW_MS - 1;
  expect(shares.weightOf('many', 'url-0')).toBeCloseTo(1 / 100);
  now = FAIR_SHARE_WINDOW_MS;
  expect(shares.weightOf('many', 'url-0')).toBe(1);
});

test('never below Temporal’s smallest weight, 0.001', () => {
  const shares = new FairShares(() => 0);
  for (let i = 0; i < 2000; i++) shares.weightOf('w', `url-${i}`);
  expect(shares.weightOf('w', 'url-2000')).toBe(0.001);
});
