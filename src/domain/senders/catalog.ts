/**
 * The sender catalog: every sender a custom app can name as `verification.scheme`, declared once as
 * data. What a person fills in, where they paste the URL, how the sender signs, what its deliveries
 * are told apart by and how it checks the URL first: the API's validation (src/contract/requests.ts),
 * its answers and OpenAPI schema, docs/api.md's table of senders (checked against this list by
 * test/unit/senders.test.ts), the dashboard's app form and a test delivery's sample body all read it.
 * How each sender's request is checked lives beside it, one file per sender (./checks.ts lists
 * them; the compiler refuses a sender here without its check).
 *
 * Here: the gathered SENDERS and what is read of them; the names and the shape of an entry are in
 * ./entry.ts, the entries in ./signed-senders.ts and ./handshake-senders.ts.
 *
 * Pure data and types: the dashboard bundles this module.
 */
import type { BodyFormat } from '../types';
import { HANDSHAKE_SENDERS } from './handshake-senders';
import { SIGNED_SENDERS } from './signed-senders';
import type { SenderDescription, SenderName } from './entry';

export { SENDER_NAMES, SETTING_NAMES } from './entry';
export type {
  CustomVerification,
  SenderDescription,
  SenderHandshake,
  SenderName,
  SenderSetting,
  SettingName,
} from './entry';

/** Every sender's entry: those that sign deliveries, and those that check the URL first. */
export const SENDERS: { readonly [name in SenderName]: SenderDescription } = {
  ...SIGNED_SENDERS,
  ...HANDSHAKE_SENDERS,
};

/** Whether a json app of this sender reads form bodies too (`formEnvelope`). */
export const readsFormEnvelope = (format: BodyFormat, sender: SenderName | null): boolean =>
  format === 'json' && sender !== null && SENDERS[sender].formEnvelope === true;

/** Whether a sender's signature carries a time: a capture verifies only within its tolerance. */
export const signsTime = (name: SenderName): boolean => SENDERS[name].toleranceSeconds !== null;
