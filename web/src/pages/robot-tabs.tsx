/** The tabs of a robot's page (./robot.tsx). */
import { useState } from 'preact/hooks';

/**
 * The robot page's tabs: everything (runs and deliveries first), or one part of it. The tab is in
 * the address's fragment (`#deliveries`), so a reload or a link opens the same one.
 */
export const TABS = {
  overview: 'Overview',
  runs: 'Runs',
  deliveries: 'Deliveries',
  card: 'Card and URL',
  steps: 'Fields, rules and steps',
} as const;
export type Tab = keyof typeof TABS;

export function useTab(): [Tab, (tab: Tab) => void] {
  const fromHash = (): Tab => {
    const named = location.hash.slice(1);
    return named in TABS ? (named as Tab) : 'overview';
  };
  const [tab, setTab] = useState<Tab>(fromHash);
  const choose = (next: Tab) => {
    history.replaceState(null, '', next === 'overview' ? location.pathname : `#${next}`);
    setTab(next);
  };
  return [tab, choose];
}

export function Tabs({ tab, onTab }: { tab: Tab; onTab: (tab: Tab) => void }) {
  return (
    <div role="tablist" aria-label="Parts of the robot">
      {(Object.keys(TABS) as Tab[]).map((t) => (
        <button type="button" role="tab" key={t} aria-selected={tab === t} onClick={() => onTab(t)}>
          {TABS[t]}
        </button>
      ))}
    </div>
  );
}
