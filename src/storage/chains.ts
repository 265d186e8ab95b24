/**
 * Chains: numbered documents `<chain>:<n>` (n from 1) written by insert only, the one atomic write
 * of FerretDB v1 (docs/storage.md): two writers appending at once claim different numbers, so
 * nothing is lost or written twice, and every read is by `_id` (./by-id.ts), so an append or a
 * read costs the same however long the chain is. The fan-out quota's hours
 * (src/deliveries/fanout-quota.ts) and the workspaces' audit logs (src/workspaces/audit.ts) are chains.
 *
 * The last entry is found from one known to exist (remembered by this process, or given) by looking
 * ahead in steps that double, then halving the gap: about 2·log2(d) reads for d entries unseen.
 */
import { byId } from './by-id';
import { claimById } from './writes';
import type mongoose from 'mongoose';

export class Chains<T extends { _id: string }> {
  /** The last entry known of each chain. */
  private readonly heads = new Map<string, number>();

  constructor(
    private readonly model: mongoose.Model<T>,
    /** Chains remembered at most (the oldest remembered is forgotten first). */
    private readonly kept: number,
  ) {}

  entry(chain: string, n: number): Promise<T | null> {
    return byId<T>(this.model, `${chain}:${n}`);
  }

  /** The number of the chain's last entry, from `known` (an entry that exists, or where the chain starts less one). */
  async last(chain: string, known = 0): Promise<number> {
    known = Math.max(known, this.heads.get(chain) ?? 0);
    let step = 1;
    while (await this.entry(chain, known + step)) {
      known += step;
      step *= 2;
    }
    // `known` exists (or starts the chain) and `known + step` does not: halve the gap.
    let missing = known + step;
    while (missing - known > 1) {
      const middle = Math.floor((known + missing) / 2);
      if (await this.entry(chain, middle)) known = middle;
      else missing = middle;
    }
    return known;
  }

  /** Claims entry `n` of the chain with this document; false when another writer claimed it first. */
  async claim(chain: string, n: number, doc: Omit<T, '_id'>): Promise<boolean> {
    if (!(await claimById(this.model, { ...doc, _id: `${chain}:${n}` } as T))) return false;
    this.remember(chain, n);
    return true;
  }

  /** Appends the document after the chain's last entry; its number. */
  async append(chain: string, doc: Omit<T, '_id'>, known = 0): Promise<number> {
    for (let n = (await this.last(chain, known)) + 1; ; n++) {
      if (await this.claim(chain, n, doc)) return n;
    }
  }

  private remember(chain: string, n: number): void {
    this.heads.delete(chain);
    if (this.heads.size >= this.kept) this.heads.delete(this.heads.keys().next().value!);
    this.heads.set(chain, n);
  }
}
