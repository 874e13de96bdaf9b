// --engine postgres gives up on a server that accepts a connection and then
// answers nothing, or garbage, or answers the first query and not the next:
// Deno.errors.TimedOut within the deadline, one line naming host and port,
// never the password. The servers here are fakes listening in the test.
import assert from "node:assert/strict";
import { postgresDecisionStats } from "../../../lib/sql/postgres_stats.ts";
import { DECISION_COLUMNS } from "../../../lib/read/load_decisions.ts";
import { decisionColumnKind } from "../../../lib/read/parquet.ts";
import { runCli } from "../../_helpers.ts";

const PASSWORD = "s3cret-pw";

// A TCP server that treats each connection with `serve`, closed at the end.
function fakeServer(
  serve: (conn: Deno.Conn) => Promise<void>,
): { port: number; close: () => void } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns: Deno.Conn[] = [];
  (async () => {
    for await (const conn of listener) {
      conns.push(conn);
      serve(conn).catch(() => {});
    }
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    close: () => {
      listener.close();
      for (const c of conns) {
        try {
          c.close();
        } catch {
          // already closed by the client
        }
      }
    },
  };
}

// reads (and drops) whatever the client sends, never answering
async function silent(conn: Deno.Conn): Promise<void> {
  const buf = new Uint8Array(4096);
  while (await conn.read(buf) !== null) { /* nothing */ }
}

// answers every read with bytes that are no PostgreSQL message
async function garbage(conn: Deno.Conn): Promise<void> {
  const buf = new Uint8Array(4096);
  const junk = new TextEncoder().encode("HTTP/1.1 200 OK\r\n\r\n\x00\xff");
  while (await conn.read(buf) !== null) await conn.write(junk);
}

const enc = new TextEncoder();

function message(type: string, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + body.length);
  out[0] = type.charCodeAt(0);
  new DataView(out.buffer).setInt32(1, 4 + body.length);
  out.set(body, 5);
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

// a RowDescription of the decision columns, as the probe query's answer
function decisionColumns(): Uint8Array {
  const oid = { text: 25, number: 701, boolean: 16 };
  const parts: Uint8Array[] = [new Uint8Array([0, DECISION_COLUMNS.length])];
  for (const c of DECISION_COLUMNS) {
    const tail = new Uint8Array(18);
    const v = new DataView(tail.buffer);
    v.setInt32(6, oid[decisionColumnKind(c)]);
    v.setInt16(10, -1);
    v.setInt32(12, -1);
    parts.push(enc.encode(c.toLowerCase() + "\0"), tail);
  }
  return message("T", concat(parts));
}

// completes the start-up, answers the first query with the decision
// columns and no rows, then goes quiet
async function answersOnce(conn: Deno.Conn): Promise<void> {
  const buf = new Uint8Array(65536);
  const ready = message("Z", enc.encode("I"));
  if (await conn.read(buf) === null) return; // start-up message
  await conn.write(
    concat([message("R", new Uint8Array(4)), ready]),
  );
  if (await conn.read(buf) === null) return; // the probe query
  await conn.write(
    concat([
      decisionColumns(),
      message("C", enc.encode("SELECT 0\0")),
      ready,
    ]),
  );
  while (await conn.read(buf) !== null) { /* nothing */ }
}

async function timesOut(
  serve: (conn: Deno.Conn) => Promise<void>,
  dsnTail: string,
  options: { connectTimeout?: number; queryTimeout?: number },
  expected: RegExp,
): Promise<void> {
  const server = fakeServer(serve);
  const started = performance.now();
  try {
    const error = await postgresDecisionStats(
      `postgresql://me:${PASSWORD}@127.0.0.1:${server.port}/runs${dsnTail}`,
      "decisions",
      options,
    ).then(
      () => assert.fail("the statistics came back"),
      (e: unknown) => e,
    );
    const seconds = (performance.now() - started) / 1000;
    assert.ok(error instanceof Deno.errors.TimedOut, String(error));
    assert.match(error.message, expected);
    assert.ok(error.message.includes(`host 127.0.0.1 port ${server.port}`));
    assert.ok(!error.message.includes(PASSWORD));
    assert.ok(!error.message.includes("\n"));
    assert.ok(seconds < 5, `gave up after ${seconds} s`);
  } finally {
    server.close();
  }
}

Deno.test("postgresDecisionStats() gives up on a server that accepts and says nothing, at connectTimeout", async () => {
  await timesOut(
    silent,
    "",
    { connectTimeout: 1 },
    /^Cannot connect to PostgreSQL at host 127\.0\.0\.1 port \d+: no answer within 1 s \(--connect-timeout, or connect_timeout in the DSN\)$/,
  );
});

Deno.test("postgresDecisionStats() gives up on a server that answers garbage, at connectTimeout", async () => {
  await timesOut(garbage, "", { connectTimeout: 1 }, /no answer within 1 s/);
});

Deno.test("postgresDecisionStats() honours connect_timeout in the DSN", async () => {
  await timesOut(silent, "?connect_timeout=1", {}, /no answer within 1 s/);
});

Deno.test("postgresDecisionStats() gives up on queries that outlast queryTimeout", async () => {
  await timesOut(
    answersOnce,
    "",
    { connectTimeout: 3, queryTimeout: 1 },
    /^Cannot load table decisions: PostgreSQL at host 127\.0\.0\.1 port \d+ did not finish the queries within 1 s \(--query-timeout\)$/,
  );
});

Deno.test("score --engine postgres --connect-timeout stops with one line naming host and port, not the password", async () => {
  const server = fakeServer(garbage);
  try {
    const r = await runCli([
      "score",
      "--engine",
      "postgres",
      "--dsn",
      `postgresql://me:${PASSWORD}@127.0.0.1:${server.port}/runs`,
      "--table",
      "decisions",
      "--connect-timeout",
      "1",
    ]);
    assert.equal(r.code, 74); // EX_IOERR, not a bug (70)
    assert.ok(!r.stderr.includes("internal error"));
    assert.match(
      r.stderr,
      new RegExp(
        `Cannot connect to PostgreSQL at host 127\\.0\\.0\\.1 port ${server.port}: no answer within 1 s`,
      ),
    );
    assert.ok(!r.stderr.includes(PASSWORD));
    const bad = await runCli([
      "score",
      "--engine",
      "postgres",
      "--dsn",
      "postgresql://me@127.0.0.1/runs",
      "--table",
      "decisions",
      "--query-timeout=-1",
    ]);
    assert.equal(bad.code, 2);
    assert.match(
      bad.stderr,
      /--query-timeout must be a number of seconds >= 0 \(0 for no limit\), got "-1"/,
    );
  } finally {
    server.close();
  }
});
