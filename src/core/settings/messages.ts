/**
 * What a refused setting says: the variable, the value as typed, and what is expected
 * (`PORT='': expected a whole number, from 0 to 65535`). A secret's value is never shown (its length
 * is), nor the password of a MongoDB URI.
 */
import { SECRET_SETTINGS } from '../config-env';

/** The value of a setting as a message may show it. */
export function shownValue(name: string, value: string): string {
  if (SECRET_SETTINGS.has(name)) return `(${value.length} characters, not shown)`;
  return `'${value.replace(/^(mongodb(?:\+srv)?:\/\/[^:@/]*:)[^@/]*@/, '$1***@')}'`;
}

/** One line per problem, each naming its variable and the value typed. */
export function issueLines(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
  env: NodeJS.ProcessEnv,
): string[] {
  return issues.map((issue) => {
    const name = String(issue.path[0] ?? '');
    const value = env[name];
    const at = value === undefined ? name : `${name}=${shownValue(name, value)}`;
    return `  ${at}: ${issue.message}`;
  });
}
