/**
 * The app form's sender picker: with some 80 senders a <select> is a list nobody reads, so a person
 * types part of a name (or of the examples, or the scheme's id) and sees the matches under their
 * group's heading, in the catalog's group order. A combobox with a listbox (WAI-ARIA's "list
 * autocomplete" pattern): Down and Up move through the matches, Enter chooses, Escape closes; a click
 * chooses too. Until it is changed the box shows the chosen sender's name. Where the form makes a
 * payment connection too (the new-app form), Stripe is offered under Payments beside the others.
 */
import { useEffect, useId, useState } from 'preact/hooks';
import {
  SENDER_GROUPS,
  SENDER_NAMES,
  SENDERS,
  type SenderGroup,
  type SenderName,
} from '../../../src/domain/senders/catalog';

/** Each group's heading, as a person reads it. */
export const GROUP_NAMES: Record<SenderGroup, string> = {
  payments: 'Payments',
  commerce: 'Commerce',
  'dev-tools': 'Dev tools',
  messaging: 'Messaging',
  crm: 'CRM',
  forms: 'Forms',
  marketing: 'Marketing',
  email: 'Email',
  identity: 'Identity',
  productivity: 'Productivity',
  ai: 'AI',
  generic: 'Generic (any sender)',
};

const NONE = 'None (unsigned)';
/** Stripe: a payment connection, not an app's sender (src/domain/senders/catalog/stripe.ts). */
const STRIPE = 'Stripe';
const STRIPE_EXAMPLES = 'payments, a payment connection';

/** An option: a sender, none, or Stripe. */
type Choice = SenderName | null | 'stripe';

/** Whether what was typed is part of the sender's name, its examples or its scheme's id, ignoring case. */
function matches(name: SenderName, typed: string): boolean {
  const { label, examples } = SENDERS[name];
  return [label, examples ?? '', name].some((text) => text.toLowerCase().includes(typed));
}

/** The senders matching, under their groups in SENDER_GROUPS order (a group with none left out). */
function matchesByGroup(typed: string, withStripe: boolean): { group: SenderGroup; names: Choice[] }[] {
  const wanted = typed.trim().toLowerCase();
  const names = SENDER_NAMES.filter((name) => matches(name, wanted));
  const stripe = withStripe && [STRIPE, STRIPE_EXAMPLES].some((t) => t.toLowerCase().includes(wanted));
  return SENDER_GROUPS.map((group) => ({
    group,
    names: [
      ...(stripe && group === 'payments' ? ['stripe' as const] : []),
      ...names.filter((name) => SENDERS[name].group === group),
    ],
  })).filter((g) => g.names.length > 0);
}

/**
 * What the open list shows for what is typed: "None (unsigned)" first while nothing is typed (or when
 * it is what is typed), then the matches by group; `options` is them all in that order.
 */
function listFor(typed: string, withStripe: boolean) {
  const none = NONE.toLowerCase().includes(typed.trim().toLowerCase());
  const groups = matchesByGroup(typed, withStripe);
  const options: Choice[] = [...(none ? [null] : []), ...groups.flatMap((g) => g.names)];
  return { none, groups, options };
}

const labelOf = (c: Choice) => (c === 'stripe' ? STRIPE : c ? SENDERS[c].label : NONE);

export function SenderPicker(props: {
  value: SenderName | null;
  onPick: (name: SenderName | null) => void;
  /** Stripe offered too: whether it is chosen, and what hears it chosen. */
  stripe?: { chosen: boolean; onPick: () => void };
}) {
  const { onPick, stripe } = props;
  const value: Choice = stripe?.chosen ? 'stripe' : props.value;
  const id = useId();
  /** What is typed while the list is open; null: closed, the box shows the chosen sender. */
  const [typed, setTyped] = useState<string | null>(null);
  /** The option Down and Up moved to, as an index into `options`; -1: none yet. */
  const [active, setActive] = useState(-1);
  const open = typed !== null;
  const { none, groups, options } = listFor(typed ?? '', stripe !== undefined);
  const optionId = (name: Choice) => `${id}-option-${name ?? 'none'}`;
  const activeId = active >= 0 && active < options.length ? optionId(options[active]) : undefined;
  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView({ block: 'nearest' });
  }, [activeId]);

  const close = () => {
    setTyped(null);
    setActive(-1);
  };
  const choose = (name: Choice) => {
    close();
    if (name === value) return;
    if (name === 'stripe') stripe?.onPick();
    else onPick(name);
  };
  /** Opens the whole list, on the chosen sender. */
  const openAll = () => {
    setTyped('');
    setActive(listFor('', stripe !== undefined).options.indexOf(value));
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      if (!open) openAll();
      else setActive(Math.min(active + 1, options.length - 1));
    } else if (e.key === 'ArrowUp' && open) {
      e.preventDefault();
      setActive(Math.max(active - 1, 0));
    } else if (e.key === 'Enter' && open) {
      // Never the form's submit while the list is open.
      e.preventDefault();
      if (activeId) choose(options[active]);
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      close();
    }
  };

  const listId = `${id}-list`;
  const row = (name: Choice, label: string, examples?: string) => (
    <div
      key={name ?? ''}
      id={optionId(name)}
      role="option"
      aria-label={label}
      aria-selected={activeId === optionId(name)}
      onClick={() => choose(name)}
    >
      {label}
      {examples && <span class="muted"> · {examples}</span>}
    </div>
  );
  return (
    <div class="sender-picker">
      <label for={`${id}-box`}>Sender</label>
      <input
        id={`${id}-box`}
        type="text"
        role="combobox"
        autocomplete="off"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-activedescendant={activeId}
        placeholder={`Search ${SENDER_NAMES.length} senders by name`}
        value={open ? typed : labelOf(value)}
        onInput={(e) => {
          setTyped(e.currentTarget.value);
          setActive(-1);
        }}
        onClick={() => !open && openAll()}
        onKeyDown={onKeyDown}
        onBlur={close}
      />
      {open && (
        // A press in the list (an option, its scroll bar) leaves the focus in the box, so the list stays open.
        <div id={listId} role="listbox" aria-label="Matching senders" onMouseDown={(e) => e.preventDefault()}>
          {none && row(null, NONE)}
          {groups.map(({ group, names }) => (
            <div key={group} role="group" aria-labelledby={`${id}-group-${group}`}>
              <div id={`${id}-group-${group}`} role="presentation" class="sender-group">
                {GROUP_NAMES[group]}
              </div>
              {names.map((name) =>
                name === 'stripe'
                  ? row(name, STRIPE, STRIPE_EXAMPLES)
                  : row(name, labelOf(name), name ? SENDERS[name].examples : undefined),
              )}
            </div>
          ))}
        </div>
      )}
      {open && options.length === 0 && (
        <p role="status" class="muted">
          No sender matches “{typed}”. A sender not named here may sign in a way a generic one takes (clear the search:
          they are last).
        </p>
      )}
    </div>
  );
}
