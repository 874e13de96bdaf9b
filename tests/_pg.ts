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

/** A PostgreSQL test: runs with a DSN, fails without one in CI, else is ignored. */
export function pgTest(name: string, fn: (dsn: string) => Promise<void>): void {
  Deno.test({
    name: `PostgreSQL: ${name}`,
    ignore: PG_DSN === undefined && !IN_CI,
    fn: async () => {
      if (PG_DSN === undefined) {
        throw new Error(
          "CI=true but LOSSBOOK_TEST_PG_DSN is not set: .ci/run must start the throwaway server",
        );
      }
      await fn(PG_DSN);
    },
  });
}

/** Create a decisions table (unquoted names) with the given flat rows (lower-case keys), run `fn`, drop it. */
/** One connection to the test server (notices dropped). */
export function connectPg(dsn: string): postgres.Sql {
  const c = parsePostgresDsn(dsn);
  return postgres({
    host: c.host,
    port: c.port,
    database: c.database,
    username: c.username,
    ...(c.password === null ? {} : { password: c.password }),
    max: 1,
    onnotice: () => {},
  });
}

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
