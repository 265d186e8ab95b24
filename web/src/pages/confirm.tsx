/**
 * What a robot's Stop and Rotate token ask first (./robot.tsx): a modal dialog saying what the
 * robot's senders will get from then on, and for Stop, Pause offered instead where the robot can
 * pause (src/domain/robot-lifecycle.ts: a paused robot's URL still answers 200 and keeps what
 * arrives). Escape or Cancel closes it with nothing done.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Robot } from '../api';
import { offeredTransitions } from '../../../src/domain/robot-lifecycle';
import { DEFAULT_GRACE_HOURS, MAX_GRACE_HOURS } from '../../../src/domain/limits/management';
import { plural } from './components';

/** A modal dialog, open while shown, named by its heading. */
function Dialog(props: { title: string; onClose: () => void; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog ref={ref} aria-labelledby="dialog-title" onClose={props.onClose}>
      <h2 id="dialog-title">{props.title}</h2>
      {props.children}
    </dialog>
  );
}

export function ConfirmStop(props: { robot: Robot; onStop: () => void; onPause: () => void; onClose: () => void }) {
  const canPause = offeredTransitions(props.robot.state).includes('pause');
  return (
    <Dialog title={`Stop ${props.robot.name}?`} onClose={props.onClose}>
      <p>
        From then on its senders' deliveries are <strong>answered 404</strong> (“no webhook at this URL”) and never run:
        a sender may retry for a while, then give up, and some turn off a URL that answers 404.
      </p>
      <p>Put to work again, it takes deliveries at the same URL.</p>
      {canPause && (
        <p>
          <strong>Pause</strong> instead: its URL keeps answering 200, deliveries wait, and they run in order when you
          resume it.
        </p>
      )}
      <div class="actions">
        <button type="button" onClick={props.onStop}>
          Stop robot
        </button>
        {canPause && (
          <button type="button" onClick={props.onPause}>
            Pause instead
          </button>
        )}
        <button type="button" onClick={props.onClose}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}

const GRACES = [0, 1, DEFAULT_GRACE_HOURS, MAX_GRACE_HOURS];

export function ConfirmRotate(props: { robot: Robot; onRotate: (graceHours: number) => void; onClose: () => void }) {
  const [grace, setGrace] = useState(DEFAULT_GRACE_HOURS);
  return (
    <Dialog title={`Rotate the token of ${props.robot.name}?`} onClose={props.onClose}>
      <p>
        The robot gets a new webhook URL. The old URL is <strong>answered 404</strong>{' '}
        {grace === 0 ? 'at once' : `after ${plural(grace, 'hour')}`}: <strong>paste the new URL into the sender</strong>{' '}
        before then, or its deliveries are lost.
      </p>
      <label>
        The old URL keeps working for
        <select value={grace} onChange={(e) => setGrace(Number(e.currentTarget.value))}>
          {GRACES.map((h) => (
            <option key={h} value={h}>
              {h === 0 ? 'no time: refused at once' : plural(h, 'hour')}
            </option>
          ))}
        </select>
      </label>
      <div class="actions">
        <button type="button" onClick={() => props.onRotate(grace)}>
          Rotate token
        </button>
        <button type="button" onClick={props.onClose}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
