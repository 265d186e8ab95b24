/**
 * A run whose every `{{trigger.*}}` placeholder came out empty ran, but with nothing in it: most often
 * the paths do not match the data (a typo, `{{trigger.payload.x}}` where the body format already read
 * GitHub's form field) or the body format reads the body otherwise (a JSON body on a `text` app is one
 * string, `{{trigger.text}}`). The run's answer says so with a hint instead of leaving a person to
 * compare outputs of `""` by eye. Empty is what a placeholder writes as nothing: a path that does not
 * exist, `null`, or an empty string.
 */
import { lookup, parsePath, placeholderExpressions } from './placeholders';
import type { BodyFormat, JsonValue } from './types';

/** Whether the templates hold a placeholder and every one of them comes out empty for this trigger data. */
export function everyPlaceholderEmpty(templates: readonly JsonValue[], trigger: JsonValue): boolean {
  const expressions = templates.flatMap(placeholderExpressions);
  return (
    expressions.length > 0 &&
    expressions.every((expression) => {
      const value = lookup(trigger, parsePath(expression));
      return typeof value === 'symbol' || value === null || value === '';
    })
  );
}

/** What the run's answer and page say then. */
export const emptyPlaceholdersHint = (format: BodyFormat): string =>
  `every placeholder in this run's steps came out empty: check the paths against Fields seen; ` +
  `the body format is ${format}`;
