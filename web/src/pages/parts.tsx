/** Small pieces the pages share. */
import type { ApiError, Robot } from '../api';

const STATE_NAMES: Record<Robot['state'], string> = {
  draft: 'Draft',
  at_work: 'At work',
  paused: 'Paused',
  stopped: 'Stopped',
};
export const stateName = (state: Robot['state']) => STATE_NAMES[state];

export const formatTime = (iso: string) => new Date(iso).toLocaleString();

/**
 * The API's refusal next to the field it names (`field` is a prefix: `steps` shows `steps.0.name`),
 * or, without `field`, a refusal that names no field shown in the form.
 */
export function FieldError({ refusal, field }: { refusal: ApiError | null; field?: string }) {
  if (!refusal) return null;
  const named = refusal.field ?? '';
  const mine = field
    ? named === field || named.startsWith(`${field}.`)
    : !named || !KNOWN.some((k) => named.startsWith(k));
  if (!mine) return null;
  return (
    <p role="alert" class="error">
      {refusal.message}
    </p>
  );
}
const KNOWN = ['name', 'trigger', 'steps'];

export const json = (value: unknown) => JSON.stringify(value, null, 2);
