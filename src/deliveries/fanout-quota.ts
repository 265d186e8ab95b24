/**
 * The fan-out quota: the rows a URL's CSV deliveries may make into runs in an hour
 * (FANOUT_ROWS_PER_HOUR, src/domain/limits/deliveries.ts says why), counted across every worker by the hour
 * the delivery arrived. A CSV whose rows would pass what is left of its hour is failed naming the
 * setting (DeliveryOverCap) and makes no run; nothing is counted for it.
 *
 * Counted with inserts only, the one atomic write of FerretDB v1 (docs/storage.md): each hour of a
 * URL is a chain of entries `<trigger>:<hour>:<n>`, each holding the total after one delivery; a
 * delivery reads the last entry and claims the next one with the new total. Two workers counting at
 * once claim different numbers, so nothing is counted twice or lost, and every read is by `_id`.
 * A worker remembers the last entry of each chain it counted in; one it does not know is found by
 * looking ahead in steps that double. A delivery's mark (`counted:<delivery id>`) makes a retry of
 * its preparation count nothing again.
 */
import { DeliveryOverCap } from '../domain/delivery-caps';
import { ROBOTS_KEPT } from '../domain/limits';
import { byId } from '../storage/by-id';
import type { FanOutQuotaDoc } from '../storage/documents';
import type { Models } from '../storage/models';
import { claimById } from '../storage/writes';

const HOUR_MS = 3_600_000;

export class FanOutQuota {
  /** The last entry known of each chain. */
  private readonly heads = new Map<string, number>();

  constructor(
    private readonly models: Models,
    private readonly rowsPerHour: number,
  ) {}

  /** Counts the delivery's rows in its URL's hour, or throws DeliveryOverCap when they would pass the quota. */
  async charge(
    delivery: { deliveryId: string; triggerIdentifier: string; receivedAt: string },
    rows: number,
  ): Promise<void> {
    const mark = `counted:${delivery.deliveryId}`;
    if (await byId<FanOutQuotaDoc>(this.models.FanOutQuota, mark)) return;
    const chain = `${delivery.triggerIdentifier}:${Math.floor(Date.parse(delivery.receivedAt) / HOUR_MS)}`;
    for (let last = await this.lastEntry(chain); ; last++) {
      const counted = last === 0 ? 0 : ((await this.entry(chain, last))?.rows ?? 0);
      if (counted + rows > this.rowsPerHour)
        throw new DeliveryOverCap(
          'FANOUT_ROWS_PER_HOUR',
          `this URL's CSV deliveries made ${counted} rows into runs this hour, and ${rows} more would pass ` +
            `${this.rowsPerHour}`,
        );
      const at = new Date();
      if (await claimById(this.models.FanOutQuota, { _id: `${chain}:${last + 1}`, rows: counted + rows, at })) {
        this.remember(chain, last + 1);
        await claimById(this.models.FanOutQuota, { _id: mark, rows, at });
        return;
      }
      // Another delivery counted first: its entry is the last now.
    }
  }

  private entry(chain: string, n: number): Promise<FanOutQuotaDoc | null> {
    return byId<FanOutQuotaDoc>(this.models.FanOutQuota, `${chain}:${n}`);
  }

  /** The number of the chain's last entry (0: none), from the one remembered on. */
  private async lastEntry(chain: string): Promise<number> {
    let known = this.heads.get(chain) ?? 0;
    let step = 1;
    while (await this.entry(chain, known + step)) {
      known += step;
      step *= 2;
    }
    // `known` exists (or is 0) and `known + step` does not: halve the gap.
    let missing = known + step;
    while (missing - known > 1) {
      const middle = Math.floor((known + missing) / 2);
      if (await this.entry(chain, middle)) known = middle;
      else missing = middle;
    }
    return known;
  }

  private remember(chain: string, n: number): void {
    this.heads.delete(chain);
    if (this.heads.size >= ROBOTS_KEPT) this.heads.delete(this.heads.keys().next().value!);
    this.heads.set(chain, n);
  }
}
