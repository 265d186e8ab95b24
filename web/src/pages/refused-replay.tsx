/**
 * After an app is fixed: "Replay the N deliveries refused since <time>" for the robots on it. N is
 * counted from the robots' deliveries logs (GET /api/robots/:id/deliveries, asked for refused ones
 * since then, and checked here too, page by page); the replay is POST
 * /api/robots/:id/deliveries/replay `{ outcome: 'rejected', since }` for each robot at work or paused.
 */
import { useEffect, useState } from 'preact/hooks';
import { call, type Robot } from '../api';
import { formatTime, RobotLinks } from './components';

/** How far back a person may look for refusals: the choices, in hours. */
const WINDOWS: Array<[number, string]> = [
  [1, 'the last hour'],
  [24, 'the last 24 hours'],
  [72, 'the last 72 hours'],
];

/** Pages of a robot's log read to count (of up to 1,000 each). */
const PAGES_READ = 10;

const deliveries = (n: number) => (n === 1 ? '1 delivery' : `${n} deliveries`);

/** How many of the robot's deliveries were refused since `since` (ISO time). */
export async function refusedSince(robotId: string, since: string): Promise<number> {
  const from = Date.parse(since);
  let count = 0;
  let cursor: string | undefined;
  for (let page = 0; page < PAGES_READ; page++) {
    const read = await call('listDeliveries', {
      params: { id: robotId },
      query: { limit: 1000, cursor, outcome: 'rejected', since },
    });
    for (const d of read.deliveries) {
      if (new Date(d.receivedAt).getTime() < from) return count;
      if (d.outcome === 'rejected') count++;
    }
    if (!read.nextCursor) return count;
    cursor = read.nextCursor;
  }
  return count;
}

/** Robots that can replay: put to work (at work or paused). */
const canReplay = (r: Robot) => r.state === 'at_work' || r.state === 'paused';

export function ReplayRefused({ robots }: { robots: Robot[] }) {
  const [hours, setHours] = useState(24);
  const [counts, setCounts] = useState<Record<string, number> | null>(null);
  const [replayed, setReplayed] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const working = robots.filter(canReplay);
  const [since] = useState(() => Date.now());
  const sinceIso = new Date(since - hours * 3600_000).toISOString();
  useEffect(() => {
    let current = true;
    setCounts(null);
    void Promise.all(working.map(async (r) => [r.id, await refusedSince(r.id, sinceIso)] as const)).then(
      (pairs) => current && setCounts(Object.fromEntries(pairs)),
    );
    return () => void (current = false);
  }, [sinceIso, working.map((r) => r.id).join()]);
  if (working.length === 0) return <p class="muted">No robot on it is at work: nothing refused to replay.</p>;
  const total = counts ? Object.values(counts).reduce((a, b) => a + b, 0) : null;
  const replay = async () => {
    setProblem(null);
    let n = 0;
    try {
      for (const r of working.filter((w) => (counts?.[w.id] ?? 0) > 0)) {
        const answer = await call('replayDeliveries', {
          params: { id: r.id },
          body: { outcome: 'rejected', since: sinceIso },
        });
        n += answer.deliveryIds.length;
      }
    } catch (err) {
      setProblem(`Not all were replayed: ${(err as Error).message}`);
    }
    setReplayed(n);
  };
  return (
    <section aria-label="Refused deliveries">
      <label>
        Refused in
        <select value={hours} onChange={(e) => setHours(Number(e.currentTarget.value))}>
          {WINDOWS.map(([h, words]) => (
            <option key={h} value={h}>
              {words}
            </option>
          ))}
        </select>
      </label>
      {total === null ? (
        <p>Counting refused deliveries…</p>
      ) : total === 0 ? (
        <p>No delivery was refused since {formatTime(sinceIso)}.</p>
      ) : (
        <button type="button" onClick={() => void replay()} disabled={replayed !== null}>
          Replay the {deliveries(total)} refused since {formatTime(sinceIso)}
        </button>
      )}
      {replayed !== null && (
        <p role="status">
          Replayed {deliveries(replayed)}: see their runs on <RobotLinks robots={working} />.
        </p>
      )}
      {problem && (
        <p role="alert" class="error">
          {problem}
        </p>
      )}
    </section>
  );
}
