/**
 * The fan-out quota: the rows a URL's CSV deliveries may make into runs in an hour
 * (FANOUT_ROWS_PER_HOUR), and those of every URL of a workspace together
 * (FANOUT_ROWS_PER_HOUR_PER_WORKSPACE: one customer's flood cannot use up another's share;
 * src/domain/limits/deliveries.ts says why), counted across every worker by the hour the delivery
 * arrived. A CSV whose rows would pass what is left of its hour is failed naming the setting
 * (DeliveryOverCap) and makes no run, and counts in neither hour. Only the rows its trigger rules let
 * through are counted (src/deliveries/prepare.ts): a row that makes no run costs no share.
 *
 * Counted with inserts only (src/storage/chains.ts): each hour of a URL is a chain of entries
 * `<trigger>:<hour>:<n>`, and of a workspace `workspace:<id>:<hour>:<n>`, each holding the total after
 * one delivery; a delivery reads the last entry and claims the next one with the new total. Two
 * workers counting at once claim different numbers, so nothing is counted twice or lost. A
 * delivery's mark (`counted:<delivery id>`) makes a retry of its preparation count nothing again.
 */
import { DeliveryOverCap, type DeliveryCaps } from '../domain/delivery-caps';
import { DEFAULT_WORKSPACE } from '../domain/workspaces';
import { Chains } from '../storage/chains';
import { ROBOTS_KEPT } from '../domain/limits';
import { byId } from '../storage/by-id';
import type { FanOutQuotaDoc } from '../storage/documents';
import type { Models } from '../storage/models';
import { claimById } from '../storage/writes';

const HOUR_MS = 3_600_000;

/** Rows counted in one chain (a URL's hour, a workspace's hour) and the setting that caps it. */
interface Count {
  chain: string;
  cap: number;
  setting: 'FANOUT_ROWS_PER_HOUR' | 'FANOUT_ROWS_PER_HOUR_PER_WORKSPACE';
  whose: string;
}

export class FanOutQuota {
  private readonly chains: Chains<FanOutQuotaDoc>;

  constructor(
    private readonly models: Models,
    private readonly caps: Pick<DeliveryCaps, 'FANOUT_ROWS_PER_HOUR' | 'FANOUT_ROWS_PER_HOUR_PER_WORKSPACE'>,
  ) {
    this.chains = new Chains(models.FanOutQuota, ROBOTS_KEPT);
  }

  /**
   * Counts the delivery's rows (those its trigger rules let through) in its URL's hour, then its
   * workspace's, or throws DeliveryOverCap when they would pass either quota. A delivery refused
   * counts nowhere: one refused by its workspace's quota gives its URL's count back (a new entry
   * with the total less its rows), so a refused CSV cannot use up its workspace's hour.
   */
  async charge(
    delivery: { deliveryId: string; triggerIdentifier: string; receivedAt: string; workspaceId?: string },
    rows: number,
  ): Promise<void> {
    if (rows === 0) return;
    const mark = `counted:${delivery.deliveryId}`;
    if (await byId<FanOutQuotaDoc>(this.models.FanOutQuota, mark)) return;
    const hour = Math.floor(Date.parse(delivery.receivedAt) / HOUR_MS);
    const workspace = delivery.workspaceId ?? DEFAULT_WORKSPACE;
    const url = `${delivery.triggerIdentifier}:${hour}`;
    await this.count(rows, {
      chain: url,
      cap: this.caps.FANOUT_ROWS_PER_HOUR,
      setting: 'FANOUT_ROWS_PER_HOUR',
      whose: "this URL's",
    });
    try {
      await this.count(rows, {
        chain: `workspace:${workspace}:${hour}`,
        cap: this.caps.FANOUT_ROWS_PER_HOUR_PER_WORKSPACE,
        setting: 'FANOUT_ROWS_PER_HOUR_PER_WORKSPACE',
        whose: "this workspace's",
      });
    } catch (err) {
      await this.giveBack(url, rows);
      throw err;
    }
    await claimById(this.models.FanOutQuota, { _id: mark, rows, at: new Date() });
  }

  /** Takes rows off the chain's total (a new entry with the total less them, never below 0). */
  private async giveBack(chain: string, rows: number): Promise<void> {
    for (let last = await this.chains.last(chain); ; last++) {
      const counted = last === 0 ? 0 : ((await this.chains.entry(chain, last))?.rows ?? 0);
      if (await this.chains.claim(chain, last + 1, { rows: Math.max(0, counted - rows), at: new Date() })) return;
    }
  }

  /** Claims the chain's next entry with the new total, or throws when it would pass the cap. */
  private async count(rows: number, { chain, cap, setting, whose }: Count): Promise<void> {
    for (let last = await this.chains.last(chain); ; last++) {
      const counted = last === 0 ? 0 : ((await this.chains.entry(chain, last))?.rows ?? 0);
      if (counted + rows > cap)
        throw new DeliveryOverCap(
          setting,
          `${whose} CSV deliveries made ${counted} rows into runs this hour, and ${rows} more would pass ${cap}`,
        );
      if (await this.chains.claim(chain, last + 1, { rows: counted + rows, at: new Date() })) return;
      // Another delivery counted first: its entry is the last now.
    }
  }
}
