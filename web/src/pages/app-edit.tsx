/**
 * An app opened on the Apps page: its name, body format, sender and the sender's settings, edited
 * (PATCH /api/apps/:id). The settings that are no secret are shown as they are; a secret is never
 * shown: left empty it is kept, or a new one typed (or generated, shown while it is set up, with
 * Copy) replaces it. Rules first, every problem at once, a draft kept without secrets, a prompt
 * before leaving it unsaved (../forms.tsx). Once saved: the refused deliveries of its robots, to replay.
 */
import { useState } from 'preact/hooks';
import { ApiError, call, type App, type Robot } from '../api';
import {
  checkAll,
  Problem,
  problemsOfRefusal,
  ProblemsSummary,
  required,
  Rule,
  useDraft,
  useLeavePrompt,
  type Problems,
} from '../forms';
import { BodyFormatField, NAME_RULE, type AppDraft } from './app-form';
import { ReplayRefused } from './refused-replay';
import { NO_SENDER, SenderFields, senderFields, senderRules, verificationOf, withoutSecrets } from './senders';
import type { SenderChoice } from './senders';

type EditDraft = Pick<AppDraft, 'name' | 'bodyFormat' | 'sender'>;

/** The app as the form starts: its settings that are no secret filled in, its secrets empty (kept). */
function asDraft(app: App): EditDraft {
  const settings: Record<string, string> = {};
  for (const [k, v] of Object.entries(app.verification ?? {}))
    if (k !== 'scheme' && k !== 'secretFromHandshake' && typeof v === 'string') settings[k] = v;
  const sender: SenderChoice = app.verification ? { name: app.verification.scheme, settings } : NO_SENDER;
  return { name: app.name, bodyFormat: app.bodyFormat, sender };
}

export function EditApp(props: { app: App; robots: Robot[]; onSaved: (app: App) => void; onClose: () => void }) {
  const { app } = props;
  const start = asDraft(app);
  const draft = useDraft<EditDraft>(`edit-app:${app.id}`, start, (d) => ({ ...d, sender: withoutSecrets(d.sender) }));
  const d = draft.value;
  const dirty = JSON.stringify(d) !== JSON.stringify(start);
  const leaving = useLeavePrompt(dirty);
  const [problems, setProblems] = useState<Problems>({});
  const [saved, setSaved] = useState<App | null>(null);
  /** Its secrets are kept when left empty: the sender is the app's own. */
  const kept = d.sender.name !== null && d.sender.name === app.verification?.scheme;
  const set = (change: Partial<EditDraft>) => {
    draft.set((before) => ({ ...before, ...change }));
    setSaved(null);
  };
  const settings = Object.fromEntries(Object.entries(d.sender.settings).map(([k, v]) => [`verification.${k}`, v]));
  const submit = async (e: Event) => {
    e.preventDefault();
    const found = checkAll([required('name', NAME_RULE), ...senderRules(d.sender, kept)], {
      name: d.name,
      ...settings,
    });
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    try {
      const body = { name: d.name, bodyFormat: d.bodyFormat, verification: verificationOf(d.sender, kept) };
      const now = await call('editApp', { params: { id: app.id }, body });
      draft.clear(asDraft(now));
      leaving.saved();
      setSaved(now);
      props.onSaved(now);
    } catch (err) {
      if (!(err instanceof ApiError) || err.status === 401) throw err;
      setProblems(problemsOfRefusal(err, ['name', 'bodyFormat', ...senderFields(d.sender)]));
    }
  };
  return (
    <section aria-label={`App ${app.name}`}>
      <h2>{app.name}</h2>
      <form onSubmit={(e) => void submit(e)} aria-label="Edit app" noValidate>
        <label>
          App name
          <input value={d.name} onInput={(e) => set({ name: e.currentTarget.value })} />
        </label>
        <Problem problems={problems} field="name" />
        <Rule text={NAME_RULE} />
        <SenderFields
          value={d.sender}
          onChange={(sender) => set({ sender })}
          onFormat={(bodyFormat) => set({ bodyFormat })}
          problems={problems}
          kept={kept}
        />
        <BodyFormatField value={d.bodyFormat} onChange={(bodyFormat) => set({ bodyFormat })} problems={problems} />
        <p class="muted">
          A change applies to deliveries received from then on; refused ones can be replayed after it.
        </p>
        <ProblemsSummary problems={problems} />
        <Problem problems={problems} field="" />
        <div class="actions">
          <button type="submit">Save app</button>
          <button type="button" onClick={props.onClose}>
            Close
          </button>
        </div>
        {saved && <p role="status">App “{saved.name}” saved.</p>}
      </form>
      {saved && <ReplayRefused robots={props.robots} />}
    </section>
  );
}
