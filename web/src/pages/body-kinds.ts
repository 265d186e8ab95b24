/**
 * Reading a body a person inspects (./body-view.tsx) as what it is, for showing only: never how a run
 * reads it (the worker's parsers do that). Each is forgiving: what does not parse is shown as it came.
 * Pure functions of the text, tested in test/unit/body-kinds.test.ts.
 */

/** Rows a table shows at most: a body of one page holds a few hundred rows at most. */
export const TABLE_ROWS = 500;

export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** XML indented two spaces a level, a tag a line, an element with text only on one line. */
export function prettyXml(text: string): string {
  const lines: string[] = [];
  let depth = 0;
  for (const token of text.replace(/>\s+</g, '><').split(/(?=<)|(?<=>)/)) {
    const last = lines.at(-1);
    if (!token.startsWith('<')) {
      if (last === undefined) lines.push(token);
      else if (token.trim() !== '') lines[lines.length - 1] = last + token;
      continue;
    }
    if (token.startsWith('</')) {
      depth = Math.max(0, depth - 1);
      // An element with no child yet: its closing tag ends its own line.
      if (last !== undefined && OPEN_LINE.test(last)) lines[lines.length - 1] = last + token;
      else lines.push('  '.repeat(depth) + token);
      continue;
    }
    lines.push('  '.repeat(depth) + token);
    if (!/^<[?!]/.test(token) && !token.endsWith('/>')) depth++;
  }
  return lines.join('\n');
}

/** A line that holds an opening tag (and maybe its text), its element not closed. */
const OPEN_LINE = /^\s*<[^/?!][^>]*[^/]>[^<]*$|^\s*<[^/?!>]>[^<]*$/;

/** A form body's fields in order, `[name, value]`. */
export function formFields(text: string): string[][] {
  return [...new URLSearchParams(text.trim())].slice(0, TABLE_ROWS).map(([k, v]) => [k, v]);
}

/** A CSV's rows (the first is its header), quoted fields read as RFC 4180 says; up to TABLE_ROWS + 1. */
export function csvTable(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endRow = () => {
    row.push(field);
    rows.push(row);
    row = [];
    field = '';
  };
  for (let i = 0; i < text.length && rows.length <= TABLE_ROWS; i++) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (quoted) {
      if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRow();
    } else field += c;
  }
  if (field !== '' || row.length > 0) endRow();
  return rows;
}

export interface MultipartPart {
  name?: string;
  filename?: string;
  type?: string;
  size: number;
  /** A field's value (a file's content is not shown). */
  value: string;
}

/** A multipart/form-data body's parts, by the boundary its Content-Type names. */
export function multipartParts(text: string, contentType: string): MultipartPart[] {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!boundary) return [];
  const parts: MultipartPart[] = [];
  for (const chunk of text.split(`--${boundary}`).slice(1)) {
    if (chunk.startsWith('--')) break;
    const split = chunk.indexOf('\r\n\r\n');
    const head = split === -1 ? chunk : chunk.slice(0, split);
    const body = split === -1 ? '' : chunk.slice(split + 4).replace(/\r\n$/, '');
    const disposition = /content-disposition:([^\r\n]*)/i.exec(head)?.[1] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
    const type = /content-type:\s*([^\r\n]*)/i.exec(head)?.[1];
    parts.push({ name, filename, type, size: new TextEncoder().encode(body).length, value: body });
  }
  return parts;
}
