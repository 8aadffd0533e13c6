// CPU time per operation, by who spent it (issue 14): the load generator, the server and PostgreSQL. On two cores
// shared by all three, a rate is bounded by what one operation costs them together; these figures say where the
// time goes for the no-database ceiling, the app and the raw insert loop, measured the same way in the same round.
// Linux only (it reads /proc); elsewhere every probe answers null and the report leaves the lines out.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { median } from './stats.ts';

/** Milliseconds of CPU per operation; `database` is null when no PostgreSQL process runs on this machine. */
export type CpuUse = {
  /** The load's own process: autocannon, or the raw loop's `pg` client. */
  generator: number;
  /** The server under load (its whole process group); 0 for the raw loop, which has none. */
  server: number;
  database: number | null;
  /** The machine's busy share during the load, 0–1 (all cores). */
  busy: number;
  /**
   * How long the server's threads waited for a core, ready to run (the kernel's run-queue time), per operation: on
   * two cores shared with the load generator, time a request waits that no code of ours can shorten.
   */
  serverWaiting: number;
};

const TICK_MS = (() => {
  try {
    return 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
  } catch {
    return 10;
  }
})();

type Stat = { pid: number; comm: string; pgrp: number; own: number; children: number };

/** utime + stime (own) and cutime + cstime (waited-for children), in ticks; null once the process is gone. */
function statOf(pid: number | 'self'): Stat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  // After the command: state, ppid, pgrp, … utime (12th), stime, cutime, cstime.
  const f = text.slice(close + 2).split(' ');
  return {
    pid: Number(text.slice(0, open)),
    comm: text.slice(open + 1, close),
    pgrp: Number(f[2]),
    own: Number(f[11]) + Number(f[12]),
    children: Number(f[13]) + Number(f[14]),
  };
}

/** Nanoseconds the process's threads waited on a run queue (the second field of each task's schedstat). */
function runQueueWait(pid: number): number {
  try {
    return readdirSync(`/proc/${pid}/task`).reduce((sum, task) => {
      try {
        return sum + Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[1] ?? 0);
      } catch {
        return sum; // a thread that ended meanwhile
      }
    }, 0);
  } catch {
    return 0;
  }
}

const allStats = (): Stat[] =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => statOf(Number(name)) ?? []);

function machineTicks(): { busy: number; total: number } {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  return { busy: total - (fields[3] ?? 0) - (fields[4] ?? 0), total };
}

type Sample = {
  generator: number;
  server: number;
  /** Nanoseconds. */
  serverWaiting: number;
  database: number | null;
  machine: { busy: number; total: number };
};

/**
 * `server`: the pid of the server under load and whether to count its whole process group (the production server,
 * which may fork workers, runs detached in its own group), or null for a load with no server.
 */
function sample(server: { pid: number; group: boolean } | null): Sample {
  const stats = allStats();
  // PostgreSQL's backends are children of its postmaster: a backend that exits (a raw loop connection closing) moves
  // its time into the postmaster's children's time, so own + children over every postgres process stays continuous.
  const pg = stats.filter((s) => s.comm === 'postgres');
  const serving = server
    ? stats.filter((s) => (server.group ? s.pgrp === server.pid : s.pid === server.pid))
    : [];
  return {
    // The load generator is this process's child, waited for when the load ends.
    generator: statOf('self')?.children ?? 0,
    server: serving.reduce((n, s) => n + s.own, 0),
    serverWaiting: serving.reduce((n, s) => n + runQueueWait(s.pid), 0),
    database: pg.length > 0 ? pg.reduce((n, s) => n + s.own + s.children, 0) : null,
    machine: machineTicks(),
  };
}

/**
 * Starts counting before a load; `end(operations)` after it answers the CPU each operation cost. `operations`: what
 * the generator did over its whole run, warm-up included (the rate over the measured seconds times all of them).
 */
export function startCpuProbe(server: { pid: number; group: boolean } | null): {
  end(operations: number): CpuUse | null;
} {
  if (!existsSync('/proc/self/stat')) return { end: () => null };
  const before = sample(server);
  return {
    end(operations) {
      const after = sample(server);
      if (operations <= 0) return null;
      const perOp = (ticks: number) => (ticks * TICK_MS) / operations;
      return {
        generator: perOp(after.generator - before.generator),
        server: perOp(after.server - before.server),
        serverWaiting: (after.serverWaiting - before.serverWaiting) / 1e6 / operations,
        database:
          after.database === null || before.database === null
            ? null
            : perOp(after.database - before.database),
        busy:
          (after.machine.busy - before.machine.busy) /
          Math.max(1, after.machine.total - before.machine.total),
      };
    },
  };
}

/** Medians of each part over the rounds, or null when any round could not be measured. */
export function medianUse(uses: readonly (CpuUse | null)[]): CpuUse | null {
  const measured = uses.flatMap((u) => (u ? [u] : []));
  if (measured.length === 0 || measured.length < uses.length) return null;
  const database = measured.map((u) => u.database);
  return {
    generator: median(measured.map((u) => u.generator)),
    server: median(measured.map((u) => u.server)),
    serverWaiting: median(measured.map((u) => u.serverWaiting)),
    database: database.every((d) => d !== null) ? median(database as number[]) : null,
    busy: median(measured.map((u) => u.busy)),
  };
}

/** "0.12 load generator + 0.31 server + 0.25 PostgreSQL = 0.68 ms, machine 72 % busy". */
export function formatUse(u: CpuUse): string {
  const parts = [`${u.generator.toFixed(2)} load generator`];
  if (u.server > 0) parts.push(`${u.server.toFixed(2)} server`);
  if (u.database !== null) parts.push(`${u.database.toFixed(2)} PostgreSQL`);
  const total = u.generator + u.server + (u.database ?? 0);
  const waited =
    u.server > 0 ? `; the server's threads waited ${u.serverWaiting.toFixed(2)} ms for a core` : '';
  return `${parts.join(' + ')} = ${total.toFixed(2)} ms, machine ${(u.busy * 100).toFixed(0)} % busy${waited}`;
}
