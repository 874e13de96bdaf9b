// The zip reader's damaged deflate entries: zlib inflates a whole entry at
// once, and every entry it cannot inflate to exactly the stated size with
// the stated CRC-32 is read again by fflate's stream, so each kind of damage
// keeps the one message it has always had.
import assert from "node:assert/strict";
import { deflateRawSync } from "node:zlib";
import { zipArchive } from "../../../scripts/_zip_write.ts";
import {
  crc32Of,
  readZipEntries,
  zipEntryBytes,
} from "../../../lib/import/_zip_read.ts";

const text = new TextEncoder().encode(
  JSON.stringify({ id: 1, words: "ledger bank line amount ".repeat(200) }),
);
const packed = deflateRawSync(text);

// the entry's bytes, or the message it is refused with
function read(
  entry: { packed: Uint8Array; crc: number; size: number },
): Uint8Array | string {
  const zip = zipArchive([{ name: "a.json", method: 8, ...entry }]);
  try {
    return zipEntryBytes(
      zip,
      readZipEntries(zip, "a.eval").get("a.json")!,
      "a.eval",
    );
  } catch (error) {
    return (error as Error).message;
  }
}

Deno.test("a deflate entry reads as its bytes, a plain Uint8Array, empty or not", () => {
  const got = read({ packed, crc: crc32Of(text), size: text.length });
  assert.deepEqual(got, text);
  assert.equal(Object.getPrototypeOf(got), Uint8Array.prototype);
  const empty = new Uint8Array(0);
  assert.deepEqual(
    read({ packed: deflateRawSync(empty), crc: 0, size: 0 }),
    empty,
  );
});

Deno.test("damaged deflate entries are refused with the stream's messages", () => {
  const size = text.length;
  assert.equal(
    read({ packed, crc: crc32Of(text) ^ 1, size }),
    "Cannot read zip a.eval: entry a.json: CRC-32 mismatch (damaged data)",
  );
  assert.equal(
    read({ packed, crc: crc32Of(text), size: size + 5 }),
    `Cannot read zip a.eval: entry a.json: ${size} bytes after decompression, the directory says ${
      size + 5
    }`,
  );
  assert.equal(
    read({ packed, crc: crc32Of(text), size: size - 5 }),
    `Cannot read zip a.eval: entry a.json: inflates past the ${
      size - 5
    } bytes the directory says (damaged entry)`,
  );
  assert.match(
    read({
      packed: packed.subarray(0, 40),
      crc: crc32Of(text),
      size,
    }) as string,
    /^Cannot read zip a\.eval: entry a\.json: cannot decompress: unexpected EOF$/,
  );
  assert.match(
    read({
      packed: new Uint8Array([0xff, 0xff, 0xff]),
      crc: 0,
      size: 3,
    }) as string,
    /^Cannot read zip a\.eval: entry a\.json: cannot decompress: invalid block type$/,
  );
});
