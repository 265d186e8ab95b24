/** Moving between the dashboard's pages through the browser's history, without a reload. */

export function navigate(path: string): void {
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
