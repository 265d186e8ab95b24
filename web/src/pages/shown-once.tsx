/**
 * Two parts of the pages that make or remove a credential-like thing (a key, a channel):
 * `ShownOnce`, a value the service shows in one answer only (a key, a channel's signing secret), with
 * Copy and "I have copied it"; and `ConfirmGroup`, the question asked before something is removed.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { copyShown } from './components';

export function ShownOnce(props: {
  /** The region's label, and the value's (`<label>`'s, for the copy by selection). */
  region: string;
  valueLabel: string;
  value: string;
  copy: string;
  onDone: () => void;
  children: ComponentChildren;
}) {
  const [copied, setCopied] = useState<boolean | null>(null);
  return (
    <div role="region" aria-label={props.region}>
      <p class="warning">
        {props.children} <strong>copy it now, it is not shown again.</strong>
      </p>
      <pre aria-label={props.valueLabel}>{props.value}</pre>
      <div class="actions">
        <button type="button" onClick={() => void copyShown(props.value, props.valueLabel).then(setCopied)}>
          {props.copy}
        </button>
        <button type="button" onClick={props.onDone}>
          I have copied it
        </button>
        {copied !== null && <span role="status">{copied ? 'Copied' : 'Selected: press Ctrl+C to copy'}</span>}
      </div>
    </div>
  );
}

/** "<what happens> Yes, <verb> / Cancel", in a group labelled by the question. */
export function ConfirmGroup(props: {
  question: string;
  warning: string;
  yes: string;
  onYes: () => void;
  onCancel: () => void;
}) {
  return (
    <span role="group" aria-label={props.question}>
      {props.warning}{' '}
      <button type="button" onClick={props.onYes}>
        {props.yes}
      </button>{' '}
      <button type="button" onClick={props.onCancel}>
        Cancel
      </button>
    </span>
  );
}
