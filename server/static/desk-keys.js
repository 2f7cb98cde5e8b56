// The desk console's browser-held key (issue 29 item 2; docs/adr/0046).
//
// A plain ES module, no build step.  It makes a NON-EXTRACTABLE WebCrypto Ed25519 key,
// keeps it in IndexedDB (the private key never leaves this browser: not even this script
// can read it), shows its public key for the head judge to bind ('tourney official bind'),
// and runs a command as prepare -> sign -> submit until the server says it is done:
//   POST /api/v1/<path>/prepare {"args": {...}}             -> the bytes to sign
//   POST /api/v1/<path>/submit  {"args", "time", "signed"}   -> done, the next bytes,
//                                                               or 409 "decided again"
// Before signing, the bytes are checked to be a tourney event (its domain line) by this
// official's key, and their summary is shown.
//
// window.tourneyKeys = {load, make, publicKey, keyId, run} for the console (and tests).

const DB = "tourney-keys";
const STORE = "keys";
const DOMAIN = new TextEncoder().encode("tourney-event/v1\n");
const meta = document.querySelector('meta[name="tourney-keys"]');
const ctx = meta ? meta.dataset : {};

function b64(bytes) {
  let s = "";
  for (const b of new Uint8Array(bytes)) s += String.fromCharCode(b);
  return btoa(s);
}

function unb64(text) {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

function hex(bytes) {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

function db() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

async function stored(mode, fn) {
  const d = await db();
  return new Promise((resolve, reject) => {
    const tx = d.transaction(STORE, mode);
    const req = fn(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(req.result);
    tx.onerror = () => reject(tx.error);
  });
}

const slot = () => `${location.origin} ${ctx.log || ""}`;

/** The key pair kept for this server and event, or null. */
export async function load() {
  return (await stored("readonly", (s) => s.get(slot()))) || null;
}

/** Make (once) a non-extractable Ed25519 key pair and keep it. */
export async function make() {
  const have = await load();
  if (have) return have;
  const pair = await crypto.subtle.generateKey({ name: "Ed25519" }, false, ["sign", "verify"]);
  await stored("readwrite", (s) => s.put(pair, slot()));
  return pair;
}

/** The public key as the organizer binds it: base64 of its 32 raw bytes. */
export async function publicKey(pair) {
  return b64(await crypto.subtle.exportKey("raw", pair.publicKey));
}

/** The key id: hex of the first 8 bytes of SHA-256 of the raw public key. */
export async function keyId(pair) {
  const raw = await crypto.subtle.exportKey("raw", pair.publicKey);
  return hex(await crypto.subtle.digest("SHA-256", raw)).slice(0, 16);
}

const NOTE = /^([^\s]+)\n(\d+)\n([A-Za-z0-9+/]{43}=)\n$/;

// What the server asks this key to sign: an event by this key (the domain line, then
// the canonical event naming this key as its actor), or, for the checkpoint command
// only, a checkpoint note's text (origin, size, root).  Anything else is refused.
function checked(bytes, kid, path) {
  const isEvent = DOMAIN.every((b, i) => bytes[i] === b);
  if (!isEvent) {
    const m = path === "checkpoint" && new TextDecoder().decode(bytes).match(NOTE);
    if (!m) throw new Error("the server sent bytes that are not a tourney event");
    return { kind: "checkpoint", seq: Number(m[2]), body: { origin: m[1], root: m[3] } };
  }
  const ev = JSON.parse(new TextDecoder().decode(bytes.slice(DOMAIN.length)));
  if (ev.actor !== kid) {
    throw new Error(w("the bytes name key {actor}, not this browser's {kid}", { actor: ev.actor, kid }));
  }
  return ev;
}

async function post(url, body) {
  const r = await fetch(url, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": ctx.csrf || "" },
    body: JSON.stringify(body),
  });
  let doc;
  try { doc = await r.json(); } catch { doc = { ok: false, error: { message: `HTTP ${r.status}` } }; }
  return { status: r.status, doc };
}

/** Run ``path`` with ``args`` signed by this browser's key; ``shown(step)`` is told of
 *  each event before it is signed.  When the server decided again (the log moved) and the
 *  event is not the one signed before (another kind or body, not only its seq, prev or
 *  time), ``confirm(step)`` must say yes first.  Resolves to the server's final answer. */
export async function run(path, args, shown = () => {}, confirm = async () => true) {
  const pair = await load();
  if (!pair) throw new Error("this browser holds no key yet: make one first");
  const kid = await keyId(pair);
  let { status, doc } = await post(`/api/v1/${path}/prepare`, { args });
  let signed = [];
  const what = [];             // what was signed at each index: kind and body
  for (let steps = 0; steps < 64; steps++) {
    if (doc.done || !doc.to_sign) return { status, doc };
    const bytes = unb64(doc.to_sign);
    const ev = checked(bytes, kid, path);
    const step = { ask: doc.ask, message: doc.message, seq: ev.seq, kind: ev.kind, body: ev.body };
    const same = JSON.stringify([ev.kind, ev.body]);
    if ((doc.ask === "decided_again" || doc.ask === "time") && what[doc.index] !== undefined &&
        what[doc.index] !== same && !(await confirm(step))) {
      return { status, doc };
    }
    shown(step);
    const sig = await crypto.subtle.sign({ name: "Ed25519" }, pair.privateKey, bytes);
    signed = signed.slice(0, doc.index);
    what.length = doc.index;
    signed.push({ bytes: doc.to_sign, sig: b64(sig) });
    what.push(same);
    // ?fresh=1: answered once the server's pages hold it (the console reloads them next)
    ({ status, doc } = await post(`/api/v1/${path}/submit?fresh=1`, { args, time: doc.time, signed }));
  }
  throw new Error("the server kept asking for signatures");
}

window.tourneyKeys = { load, make, publicKey, keyId, run };

// -- the page ------------------------------------------------------------------------
// the page's own words (its JSON island, _words_desk_keys.html, from the catalogue), keyed
// by the English text below, which shows where the page gives none; "{name}" is filled
// from ``fields``.  The console loads this script for its signing only: what ``run``
// throws is looked up by its English text in desk.js's island (_words_desk.html), which
// this script reads too, behind its own: an error with fields is worded where it is thrown.
const island = (id) => {
  try { return JSON.parse(document.getElementById(id).textContent) || {}; }
  catch { return {}; }
};
const WORDS = { ...island("words-desk"), ...island("words-desk-keys") };
const w = (en, fields = {}) =>
  (Object.prototype.hasOwnProperty.call(WORDS, en) ? WORDS[en] : en)
    .replace(/\{(\w+)\}/g, (all, name) => (name in fields ? String(fields[name]) : all));

function modeLine(mode, word, tail) {
  const strong = document.createElement("strong");
  strong.textContent = word;
  mode.replaceChildren(w("Key mode:") + " ", strong, tail);
}

async function show() {
  const box = document.getElementById("browser-key");
  if (!box) return;
  const mode = document.getElementById("mode");
  if (ctx.serverHolds === "1") return;   // the server signs: nothing to do here
  if (!window.isSecureContext || !crypto.subtle) {
    mode.textContent = w("Key mode: none. This page is not a secure context (HTTPS, or http://127.0.0.1 on the desk laptop), so this browser cannot hold a key.");
    return;
  }
  box.hidden = false;
  const pair = await load();
  const state = document.getElementById("key-state");
  if (!pair) {
    state.textContent = w("This browser holds no key for this event yet.");
    return;
  }
  document.getElementById("make-key").hidden = true;
  const kid = await keyId(pair);
  const pub = await publicKey(pair);
  document.getElementById("key-facts").hidden = false;
  document.getElementById("public-key").textContent = pub;
  document.getElementById("key-id").textContent = kid;
  if (kid === ctx.kid) {
    modeLine(mode, w("browser key"),
      w(": your commands are signed in this browser; the server holds no private key."));
    state.textContent = w("Bound to you by the head judge.");
    document.getElementById("run").hidden = ctx.runs !== "1";
  } else {
    modeLine(mode, w("none"), w(" yet: this browser's key is not the key of your staff card."));
    state.textContent = w("Not bound yet: show the head judge this public key.");
    document.getElementById("bind-hint").hidden = false;
    document.getElementById("bind-command").textContent =
      `tourney official bind --role ROLE --name "NAME" --public-key ${pub} --key hj.pem`;
  }
}

document.getElementById("make-key")?.addEventListener("click", async () => {
  await make();
  await show();
});

document.getElementById("run-form")?.addEventListener("submit", async (e) => {
  e.preventDefault();
  const out = document.getElementById("run-log");
  const log = (text) => { const li = document.createElement("li"); li.textContent = text; out.append(li); };
  try {
    const args = JSON.parse(document.getElementById("run-args").value || "{}");
    const { status, doc } = await run(document.getElementById("run-path").value.trim(), args,
      (s) => log(w("signing seq {seq}: {kind} ({message})",
        { seq: s.seq, kind: s.kind, message: s.message })),
      async (s) => window.confirm(w("The log moved and the decision changed: {what}. Sign it?",
        { what: `${s.kind} ${JSON.stringify(s.body)}` })));
    if (doc.done === false) log(w("not signed: {why}", { why: doc.message }));
    else if (doc.ok) log(w("done (seq {seq}): {text}", { seq: doc.seq,
      text: (doc.text || w("written")) + (doc.checkpoint ? "; " + doc.checkpoint : "") }));
    else log(w("refused ({status}): {why}",
      { status, why: doc.error ? doc.error.message : "?" }));
  } catch (err) {
    // what this script throws is one of its own sentences (English: the key of its words)
    log(w("not signed: {why}", { why: w(String(err && err.message || err)) }));
  }
});

show();
