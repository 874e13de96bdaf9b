// PostgreSQL for tests: LOSSBOOK_TEST_PG_DSN (set by
// `eval "$(scripts/pg_throwaway.sh start)"`, as .ci/run does) names a
// throwaway server. Without it a PostgreSQL test is skipped with a notice
// on a developer's machine, and fails when CI=true.
import postgres from "postgres";
import { decisionsTableSql } from "../lib/sql/decision_sql_export.ts";
import { parsePostgresDsn } from "../lib/sql/postgres_stats.ts";

export const PG_DSN = Deno.env.get("LOSSBOOK_TEST_PG_DSN");
const IN_CI = Deno.env.get("CI") === "true";
if (PG_DSN === undefined && !IN_CI) {
  console.warn(
    'PostgreSQL tests: LOSSBOOK_TEST_PG_DSN is not set, PostgreSQL tests are skipped (eval "$(scripts/pg_throwaway.sh start)" to run them)',
  );
}

// A PostgreSQL test that goes wrong must fail, not wait. On the server,
// every test connection gives up on a statement, a lock or an open
// transaction after a while (TIMEOUTS). A wait the server cannot see is
// cut by the test's deadline: postgres.js (3.4.9) never settles a query
// that fails to build (an undefined parameter, say) while an earlier
// failed query's round-trip is still under way, and the test would wait
// on it for ever on an idle connection. At the deadline the test's
// connections are closed, which rejects what waits on them, and the test
// fails saying so.

/** Server-side limits of a test connection, in milliseconds. */
const TIMEOUTS = {
  statement_timeout: 60_000,
  lock_timeout: 10_000,
  idle_in_transaction_session_timeout: 60_000,
} as const;

/** How long a PostgreSQL test may run, in milliseconds, unless it says. */
const DEADLINE_MS = 120_000;

/** The connections connectPg made for the running test, closed at its end. */
const OPEN = new Set<postgres.Sql>();

/**
 * A PostgreSQL test: runs with a DSN, fails without one in CI, else is
 * ignored. It fails when it runs past `deadlineMs`.
 */
export function pgTest(
  name: string,
  fn: (dsn: string) => Promise<void>,
  { deadlineMs = DEADLINE_MS }: { deadlineMs?: number } = {},
): void {
  Deno.test({
    name: `PostgreSQL: ${name}`,
    ignore: PG_DSN === undefined && !IN_CI,
    fn: async () => {
      if (PG_DSN === undefined) {
        throw new Error(
          "CI=true but LOSSBOOK_TEST_PG_DSN is not set: .ci/run must start the throwaway server",
        );
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<"late">((resolve) => {
        timer = setTimeout(() => resolve("late"), deadlineMs);
      });
      const run = fn(PG_DSN);
      try {
        if (
          await Promise.race([run.then(() => "done" as const), late]) === "late"
        ) {
          await closeOpen();
          // what the test was waiting on is rejected once its connection
          // closes: give its finally blocks a moment to run, not for ever
          let grace: ReturnType<typeof setTimeout> | undefined;
          await Promise.race([
            run.catch(() => {}),
            new Promise((resolve) => grace = setTimeout(resolve, 5_000)),
          ]);
          clearTimeout(grace);
          throw new Error(
            `PostgreSQL test still running after ${deadlineMs} ms, its connections were closed: ` +
              "a query never answered (postgres.js does not settle a query that fails to build, " +
              "e.g. with an undefined parameter, right after another failed one), or a wait the server timeouts did not end",
          );
        }
      } finally {
        clearTimeout(timer);
        await closeOpen();
      }
    },
  });
}

/** Close the connections the test left open, at once. */
async function closeOpen(): Promise<void> {
  const open = [...OPEN];
  OPEN.clear();
  await Promise.all(open.map((sql) => sql.end({ timeout: 0 })));
}

/**
 * One connection to the test server (notices dropped), with the server-side
 * TIMEOUTS; the running pgTest closes it at its end if the test did not.
 */
export function connectPg(dsn: string): postgres.Sql {
  const c = parsePostgresDsn(dsn);
  const sql = postgres({
    host: c.host,
    port: c.port,
    database: c.database,
    username: c.username,
    ...(c.password === null ? {} : { password: c.password }),
    max: 1,
    onnotice: () => {},
    connection: TIMEOUTS,
  });
  OPEN.add(sql);
  return sql;
}

/** Create a decisions table (unquoted names) with the given flat rows (lower-case keys), run `fn`, drop it. */
export async function withPgTable<T>(
  dsn: string,
  rows: Record<string, unknown>[],
  fn: (sql: postgres.Sql, table: string) => Promise<T>,
): Promise<T> {
  const sql = connectPg(dsn);
  const table = `lbtest_${crypto.randomUUID().replaceAll("-", "")}`;
  try {
    await sql.unsafe(decisionsTableSql("postgres", table));
    for (let i = 0; i < rows.length; i += 500) {
      const chunk = rows.slice(i, i + 500);
      if (chunk.length > 0) await sql`INSERT INTO ${sql(table)} ${sql(chunk)}`;
    }
    return await fn(sql, table);
  } finally {
    await sql.unsafe(`DROP TABLE IF EXISTS ${table}`);
    await sql.end({ timeout: 5 });
  }
}
