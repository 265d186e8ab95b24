/**
 * Fair dispatch by workspace, then by URL (review R6 (a)). Temporal's fairness (turned on by
 * src/launch/servers/dev-servers.ts, FAIR_DISPATCH) takes one key per task and hands out the keys'
 * tasks in proportion to their weights, reading each task's own `fairnessWeight` (at least 0.001;
 * its activities and child runs inherit both). A delivery's key stays its URL, so a workspace's URLs
 * take turns with one another; its weight is one over the number of its workspace's URLs that were
 * given a delivery in the last FAIR_SHARE_WINDOW_MS (as this process saw them). A workspace whose
 * 100 robots are all busy weighs about 1 in all, as much as another workspace's one robot; a
 * workspace with one busy robot among 100 idle ones has that robot's whole share.
 */
import { FAIR_SHARE_URLS_KEPT } from '../domain/limits';

/** How long a URL counts as busy after a delivery: about as long as the fan-out of a large CSV lasts. */
export const FAIR_SHARE_WINDOW_MS = 5 * 60_000;
/** Temporal's smallest weight (a smaller one is taken as this): past 1,000 busy URLs a workspace weighs more than 1. */
const MIN_WEIGHT = 0.001;

export class FairShares {
  /** Per workspace, its busy URLs by when each last had a delivery, the least recent first. */
  private readonly busy = new Map<string, Map<string, number>>();
  private urls = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Notes the URL's delivery; the weight its start carries: one over its workspace's busy URLs. */
  weightOf(workspaceId: string, url: string): number {
    const at = this.now();
    // The workspace given a delivery most recently goes last: the first is the one forgotten first.
    const urls = this.busy.get(workspaceId) ?? new Map<string, number>();
    this.busy.delete(workspaceId);
    this.busy.set(workspaceId, urls);
    if (urls.delete(url)) this.urls--;
    for (const [old, seen] of urls) {
      if (at - seen < FAIR_SHARE_WINDOW_MS) break;
      urls.delete(old);
      this.urls--;
    }
    urls.set(url, at);
    this.urls++;
    if (this.urls > FAIR_SHARE_URLS_KEPT) this.forgetOldestWorkspace(workspaceId);
    return Math.max(MIN_WEIGHT, 1 / urls.size);
  }

  /** Drops the workspace given a delivery least recently (never `keep`), when too many URLs are kept. */
  private forgetOldestWorkspace(keep: string): void {
    for (const [workspaceId, urls] of this.busy) {
      if (workspaceId === keep) continue;
      this.urls -= urls.size;
      this.busy.delete(workspaceId);
      return;
    }
  }
}

/** This process's shares: every start of a delivery it makes is weighed by them. */
export const fairShares = new FairShares();
