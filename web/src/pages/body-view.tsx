/**
 * A delivery's body in the inspector (./delivery.tsx): read a page at a time (GET
 * /api/deliveries/:id/body, BODY_PAGE_BYTES a page), so a 32 MiB body never sits whole in the page.
 * A body that fits in one page is shown pretty as what it is (JSON indented, XML indented, form
 * fields and CSV as tables, a multipart body's parts as a list) and raw; a larger one raw, page by page.
 */
import { useEffect, useState } from 'preact/hooks';
import { call, type Delivery } from '../api';
import { plural } from './components';
import { csvTable, formFields, multipartParts, prettyJson, prettyXml } from './body-kinds';

type BodyPage = Awaited<ReturnType<typeof call<'getDeliveryBody'>>>;

/** What a body is, as its Content-Type says, else as its robot's body format reads it. */
function kindOf(d: Delivery): 'json' | 'xml' | 'csv' | 'form' | 'multipart' | 'text' {
  const type = (d.contentType ?? '').toLowerCase();
  if (type.includes('multipart/form-data')) return 'multipart';
  if (type.includes('x-www-form-urlencoded')) return 'form';
  if (type.includes('json')) return 'json';
  if (type.includes('xml')) return 'xml';
  if (type.includes('csv')) return 'csv';
  const parsed = ['processed', 'filtered', 'failed', 'dropped'].includes(d.outcome);
  return parsed && d.format !== 'text' ? d.format : 'text';
}

function Pretty({ delivery, text }: { delivery: Delivery; text: string }) {
  const kind = kindOf(delivery);
  if (kind === 'form') {
    return <Table label="Form fields" head={['Field', 'Value']} rows={formFields(text)} />;
  }
  if (kind === 'csv') {
    const [head = [], ...rows] = csvTable(text);
    return <Table label="CSV rows" head={head} rows={rows} />;
  }
  if (kind === 'multipart') {
    const parts = multipartParts(text, delivery.contentType ?? '');
    return (
      <ul aria-label="Multipart parts">
        {parts.map((p, i) => (
          <li key={i}>
            <strong>{p.name ?? '(no name)'}</strong>
            {p.filename !== undefined && ` file ${p.filename}`}
            {p.type && ` (${p.type})`}, {plural(p.size, 'byte')}
            {p.filename === undefined && <pre>{p.value}</pre>}
          </li>
        ))}
      </ul>
    );
  }
  const shown = kind === 'json' ? prettyJson(text) : kind === 'xml' ? prettyXml(text) : text;
  return <pre aria-label="Body (pretty)">{shown}</pre>;
}

/** A table of fields or rows; a cell that holds JSON (GitHub's form `payload`) is shown indented. */
function Table({ label, head, rows }: { label: string; head: string[]; rows: string[][] }) {
  return (
    <div class="table-scroll">
      <table aria-label={label}>
        <thead>
          <tr>
            {head.map((h, i) => (
              <th key={i}>{h}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i}>
              {r.map((c, j) => (
                <td key={j}>{/^\s*[[{]/.test(c) ? <pre>{prettyJson(c)}</pre> : <code>{c}</code>}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The body's first part, asked for as the page opens, beside the delivery (not after it): its read is the slower. */
export const firstPart = (id: string): Promise<BodyPage | null> =>
  call('getDeliveryBody', { params: { id } }).catch(() => null);

export function BodyView({ delivery, first }: { delivery: Delivery; first: Promise<BodyPage | null> }) {
  const [offsets, setOffsets] = useState<number[]>([0]); // the pages read so far, this one last
  const [page, setPage] = useState<BodyPage | null>(null);
  const [view, setView] = useState<'pretty' | 'raw'>('pretty');
  const offset = offsets.at(-1)!;
  useEffect(() => {
    const read = offset === 0 ? first : call('getDeliveryBody', { params: { id: delivery.id }, query: { offset } });
    void read.then(setPage);
  }, [delivery.id, offset, first]);
  if (delivery.bodyKept === 0) return <p>No body was kept ({plural(delivery.size, 'byte')} came).</p>;
  if (!page) return <p>Loading the body…</p>;
  const whole = page.offset === 0 && page.nextOffset === null && page.encoding === 'utf8';
  const end = page.nextOffset ?? page.kept;
  return (
    <div>
      {page.kept < page.size && (
        <p role="note">
          Only the first {plural(page.kept, 'byte')} of {plural(page.size, 'byte')} were kept (a refused body).
        </p>
      )}
      {whole ? (
        <div class="actions" role="group" aria-label="Body view">
          <button type="button" aria-pressed={view === 'pretty'} onClick={() => setView('pretty')}>
            Pretty
          </button>
          <button type="button" aria-pressed={view === 'raw'} onClick={() => setView('raw')}>
            Raw
          </button>
        </div>
      ) : (
        <p>
          Bytes {page.offset.toLocaleString('en')}–{end.toLocaleString('en')} of {page.kept.toLocaleString('en')}
          {page.encoding === 'base64' && ' (not text: shown as base64)'}
        </p>
      )}
      {whole && view === 'pretty' ? (
        <Pretty delivery={delivery} text={page.data} />
      ) : (
        <pre aria-label="Body (raw)">{page.data}</pre>
      )}
      {!whole && (
        <div class="actions">
          <button type="button" disabled={offsets.length === 1} onClick={() => setOffsets(offsets.slice(0, -1))}>
            Previous part
          </button>
          <button
            type="button"
            disabled={page.nextOffset === null}
            onClick={() => setOffsets([...offsets, page.nextOffset!])}
          >
            Next part
          </button>
        </div>
      )}
    </div>
  );
}
