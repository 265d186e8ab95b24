/**
 * The history keeper's lease: one document, `history-keeper`, naming the keeper that does the work
 * and until when. The holder renews it every LEASE_RENEW_MS; another keeper takes it over once it
 * has expired (LEASE_TTL_MS), the one whose delete removes the expired lease winning.
 */
import { randomUUID } from 'node:crypto';
import { byId } from '../storage/by-id';
import type { LeaseDoc } from '../storage/history-documents';
import type { Models } from '../storage/models';
import { isDuplicateKeyError, rawCollection } from '../storage/writes';

/** How long a keeper's lease lasts unless renewed; it is renewed every LEASE_RENEW_MS. */
export const LEASE_TTL_MS = 10_000;
export const LEASE_RENEW_MS = 2000;
const LEASE_ID = 'history-keeper';

/** What holding the lease found: whether it is held, and whether it was just taken (not renewed). */
type LeaseHeld = { held: false } | { held: true; taken: boolean };

export class KeeperLease {
  private readonly holder = randomUUID();
  private until = 0;

  constructor(private readonly models: Models) {}

  /** Whether this keeper holds the lease now (as of its last renewal). */
  isHeld(now = Date.now()): boolean {
    return this.until > now;
  }

  /** Holds the lease: renews it when due, or takes it when it is free or expired. */
  async hold(): Promise<LeaseHeld> {
    const now = Date.now();
    if (this.until - (LEASE_TTL_MS - LEASE_RENEW_MS) > now) return { held: true, taken: false };
    const leases = rawCollection<LeaseDoc>(this.models.Lease);
    const expiresAt = new Date(now + LEASE_TTL_MS);
    const holder = this.holder;
    // Held and not expired: renewed in one write (still this keeper's only if the holder matches).
    if (this.until > now && (await leases.updateOne({ _id: LEASE_ID, holder }, { $set: { expiresAt } })).matchedCount) {
      this.until = now + LEASE_TTL_MS;
      return { held: true, taken: false };
    }
    try {
      await leases.insertOne({ _id: LEASE_ID, holder, expiresAt });
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      const lease = await byId<LeaseDoc>(this.models.Lease, LEASE_ID);
      if (lease?.holder === holder) {
        await leases.updateOne({ _id: LEASE_ID }, { $set: { expiresAt } });
      } else {
        // Another keeper holds it; once it has expired, the one whose delete removes it takes over.
        if (lease && lease.expiresAt.getTime() > now) return { held: false };
        if (lease && (await leases.deleteOne({ _id: LEASE_ID, holder: lease.holder })).deletedCount !== 1)
          return { held: false };
        return this.hold();
      }
    }
    const taken = this.until <= now;
    this.until = now + LEASE_TTL_MS;
    return { held: true, taken };
  }

  /** Gives the lease up, if held, for another keeper to take at once. */
  async release(): Promise<void> {
    if (!this.isHeld()) return;
    await rawCollection<LeaseDoc>(this.models.Lease)
      .deleteOne({ _id: LEASE_ID, holder: this.holder })
      .catch(() => undefined);
  }
}
