/**
 * docs/configuration.md's settings table is the schema's (scripts/configuration-doc.ts): every
 * setting with its default and description, nothing else. WRITE_DOCS=1 rewrites it instead.
 */
import fs from 'node:fs';
import { SETTING_NAMES } from '../../src/core/config-env';
import { CONFIGURATION_DOC, configurationDoc, settingsTable } from '../../scripts/configuration-doc';

test('docs/configuration.md lists every setting as the schema has it', () => {
  const current = fs.readFileSync(CONFIGURATION_DOC, 'utf8');
  const wanted = configurationDoc(current);
  if (process.env.WRITE_DOCS === '1') fs.writeFileSync(CONFIGURATION_DOC, wanted);
  // Differs: run this test with WRITE_DOCS=1 and commit the doc.
  expect(current).toBe(wanted);
});

test('the table has one row per setting, each described, with a default', () => {
  const rows = settingsTable().split('\n').slice(2);
  expect(rows.map((r) => /^\| `([A-Z0-9_]+)` \|/.exec(r)?.[1])).toEqual(SETTING_NAMES);
  for (const row of rows) expect(row.split(' | ').every((cell) => cell.trim().length > 1)).toBe(true);
});
