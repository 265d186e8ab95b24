/** Moving between the dashboard's pages through the browser's history, without a reload. */

/** Asked before a move: false keeps the person on the page (a form with unsaved changes, ./forms.tsx). */
const guards = new Set<() => boolean>();

/** Asks `mayLeave` before each move; returns what stops asking. */
export function guardLeaving(mayLeave: () => boolean): () => void {
  guards.add(mayLeave);
  return () => guards.delete(mayLeave);
}

export function navigate(path: string): void {
  if (![...guards].every((mayLeave) => mayLeave())) return;
  history.pushState(null, '', path);
  dispatchEvent(new PopStateEvent('popstate'));
}

/** An onClick for a link inside the dashboard. */
export function link(path: string) {
  return (e: MouseEvent) => {
    e.preventDefault();
    navigate(path);
  };
}
