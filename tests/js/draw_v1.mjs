// DRAW-v1 of docs/DESIGN.md §6, ported to JavaScript from the text (THREATS.md T24).
// Usage: node draw_v1.mjs SEED_HEX CTX 3,1,2   -> prints the drawn order, comma-separated
import { createHash } from "node:crypto";

const sha256 = (...parts) => { const h = createHash("sha256"); parts.forEach(p => h.update(p)); return h.digest(); };
const u32be = n => { const b = Buffer.alloc(4); b.writeUInt32BE(n); return b; };
const u64be = n => { const b = Buffer.alloc(8); b.writeBigUInt64BE(n); return b; };

export function drawV1(seed, ctx, items) {
  const c = Buffer.from(ctx, "utf8");
  const key = sha256(Buffer.from("tourney-draw/v1\0", "latin1"), u32be(c.length), c, seed);
  let counter = 0n;
  const u64 = () => sha256(key, u64be(counter++)).readBigUInt64BE(0);
  const TWO64 = 1n << 64n;
  const below = n => {
    const N = BigInt(n), limit = TWO64 - (TWO64 % N);
    for (;;) { const x = u64(); if (x < limit) return Number(x % N); }
  };
  const a = [...items].sort((x, y) => x - y);
  for (let i = a.length - 1; i >= 1; i--) { const j = below(i + 1); [a[i], a[j]] = [a[j], a[i]]; }
  return a;
}

const [seedHex, ctx, list] = process.argv.slice(2);
console.log(drawV1(Buffer.from(seedHex, "hex"), ctx, list.split(",").map(Number)).join(","));
