/**
 * The caps on what one delivery makes, by their settings' names (src/domain/limits/deliveries.ts says why
 * each default is what it is), and the counters that hold a delivery to them: the trigger data's
 * bytes and the characters its trigger rules' patterns test. Past a cap the delivery is failed
 * with DeliveryOverCap, naming the setting.
 */
import {
  DEFAULT_CSV_MAX_CELL_BYTES,
  DEFAULT_CSV_MAX_HEADER_CELL_BYTES,
  DEFAULT_CSV_MAX_COLUMNS,
  DEFAULT_CSV_MAX_ROWS,
  DEFAULT_FANOUT_ROWS_PER_HOUR,
  DEFAULT_FANOUT_ROWS_PER_HOUR_PER_WORKSPACE,
  DEFAULT_MAX_TRIGGER_BYTES,
  DEFAULT_MAX_TRIGGER_ITEMS,
  DEFAULT_RULE_MATCH_CHARS_PER_DELIVERY,
} from './limits';

/** The caps on what one delivery makes (src/domain/limits/deliveries.ts says why), named after their settings. */
export interface DeliveryCaps {
  CSV_MAX_ROWS: number;
  CSV_MAX_COLUMNS: number;
  CSV_MAX_CELL_BYTES: number;
  CSV_MAX_HEADER_CELL_BYTES: number;
  MAX_TRIGGER_BYTES: number;
  /** Items of one json or xml trigger data value, counted before it is parsed (./trigger-items.ts). */
  MAX_TRIGGER_ITEMS: number;
  /** Characters the trigger rules' patterns may test in one delivery (./trigger-rules.ts). */
  RULE_MATCH_CHARS_PER_DELIVERY: number;
  /** Rows a URL's CSV deliveries may make into runs in an hour (src/deliveries/fanout-quota.ts). */
  FANOUT_ROWS_PER_HOUR: number;
  /** Rows every URL of a workspace together may make into runs in an hour (the same module). */
  FANOUT_ROWS_PER_HOUR_PER_WORKSPACE: number;
}

export const DEFAULT_DELIVERY_CAPS: DeliveryCaps = {
  CSV_MAX_ROWS: DEFAULT_CSV_MAX_ROWS,
  CSV_MAX_COLUMNS: DEFAULT_CSV_MAX_COLUMNS,
  CSV_MAX_CELL_BYTES: DEFAULT_CSV_MAX_CELL_BYTES,
  CSV_MAX_HEADER_CELL_BYTES: DEFAULT_CSV_MAX_HEADER_CELL_BYTES,
  MAX_TRIGGER_BYTES: DEFAULT_MAX_TRIGGER_BYTES,
  MAX_TRIGGER_ITEMS: DEFAULT_MAX_TRIGGER_ITEMS,
  RULE_MATCH_CHARS_PER_DELIVERY: DEFAULT_RULE_MATCH_CHARS_PER_DELIVERY,
  FANOUT_ROWS_PER_HOUR: DEFAULT_FANOUT_ROWS_PER_HOUR,
  FANOUT_ROWS_PER_HOUR_PER_WORKSPACE: DEFAULT_FANOUT_ROWS_PER_HOUR_PER_WORKSPACE,
};

/** No cap: reading again a CSV whose delivery was already checked against them. */
export const UNCAPPED: DeliveryCaps = {
  CSV_MAX_ROWS: Infinity,
  CSV_MAX_COLUMNS: Infinity,
  CSV_MAX_CELL_BYTES: Infinity,
  CSV_MAX_HEADER_CELL_BYTES: Infinity,
  MAX_TRIGGER_BYTES: Infinity,
  MAX_TRIGGER_ITEMS: Infinity,
  RULE_MATCH_CHARS_PER_DELIVERY: Infinity,
  FANOUT_ROWS_PER_HOUR: Infinity,
  FANOUT_ROWS_PER_HOUR_PER_WORKSPACE: Infinity,
};

/**
 * The delivery would make more than a cap allows: it is recorded as failed with this message, which
 * names the cap's setting (`over CSV_MAX_ROWS: more than 1000000 rows`), and makes no run.
 */
export class DeliveryOverCap extends Error {
  override name = 'DeliveryOverCap';
  constructor(
    readonly cap: keyof DeliveryCaps,
    what: string,
  ) {
    super(`over ${cap}: ${what}`);
  }
}

/** Counts the trigger data's bytes (its JSON) against MAX_TRIGGER_BYTES as the delivery's runs are made. */
export class TriggerBytes {
  private total = 0;
  constructor(private readonly max: number) {}
  get bytes(): number {
    return this.total;
  }
  add(bytes: number): void {
    this.total += bytes;
    if (this.total > this.max)
      throw new DeliveryOverCap('MAX_TRIGGER_BYTES', `more than ${this.max} bytes of trigger data`);
  }
}

/** Counts the characters the trigger rules' patterns would test against RULE_MATCH_CHARS_PER_DELIVERY. */
export class MatchChars {
  private total = 0;
  constructor(private readonly max: number) {}
  add(chars: number): void {
    this.total += chars;
    if (this.total > this.max)
      throw new DeliveryOverCap(
        'RULE_MATCH_CHARS_PER_DELIVERY',
        `trigger rules would test more than ${this.max} characters with their patterns`,
      );
  }
}
