// A phone-held key for a player's reports and drops (issue 19, ADR 0027: REPORT-16..20).
// The key is an Ed25519 key made by the browser (WebCrypto), not extractable, kept in
// this browser's IndexedDB under the card's credential id; only its public key leaves the
// phone.  Browsers offer WebCrypto only on secure pages (HTTPS, or the machine itself).
(function () {
  "use strict";
  var DB = "tourney-keys", STORE = "keys";
  // the statements a phone signs (ledger.core.device_rules): a report, an own act (a drop)
  var KINDS = ["tourney-report/v2", "tourney-act/v1"];

  function idb() {
    return new Promise(function (ok, no) {
      var r = indexedDB.open(DB, 1);
      r.onupgradeneeded = function () { r.result.createObjectStore(STORE); };
      r.onsuccess = function () { ok(r.result); };
      r.onerror = function () { no(r.error); };
    });
  }
  function get(id) {
    return idb().then(function (db) {
      return new Promise(function (ok, no) {
        var q = db.transaction(STORE).objectStore(STORE).get(id);
        q.onsuccess = function () { ok(q.result); };
        q.onerror = function () { no(q.error); };
      });
    });
  }
  function put(id, value) {
    return idb().then(function (db) {
      return new Promise(function (ok, no) {
        var t = db.transaction(STORE, "readwrite");
        t.objectStore(STORE).put(value, id);
        t.oncomplete = function () { ok(); };
        t.onerror = function () { no(t.error); };
      });
    });
  }
  function b64(buf) {
    var s = "", a = new Uint8Array(buf);
    for (var i = 0; i < a.length; i++) s += String.fromCharCode(a[i]);
    return btoa(s);
  }
  function say(el, text) { if (el) { el.textContent = text; el.hidden = false; } }
  // the page's own words for these sentences (its JSON island, _words_report.html),
  // keyed by the English text below, which shows where the page gives none
  var WORDS = (function () {
    try { return JSON.parse(document.getElementById("words-report").textContent) || {}; }
    catch (x) { return {}; }
  })();
  function w(en, e) {
    var s = Object.prototype.hasOwnProperty.call(WORDS, en) ? WORDS[en] : en;
    return e === undefined ? s : s.split("{e}").join(String(e));
  }

  var capable = !!(window.isSecureContext && window.crypto && crypto.subtle && window.indexedDB);

  // the report page: offer to bind this phone when the card has no key yet
  var bind = document.getElementById("bind");
  if (bind && capable) {
    var cred = bind.getAttribute("data-credential");
    get("device-" + cred).then(function (kp) {
      if (kp) return;
      bind.hidden = false;
      bind.querySelector("button").addEventListener("click", function () {
        crypto.subtle.generateKey({ name: "Ed25519" }, false, ["sign", "verify"]).then(function (k) {
          return crypto.subtle.exportKey("raw", k.publicKey).then(function (raw) {
            return put("device-" + cred, k).then(function () {
              var f = bind.querySelector("form");
              f.querySelector("[name=public_key]").value = b64(raw);
              f.submit();
            });
          });
        }).catch(function (e) { say(document.getElementById("bind-problem"), w("This phone cannot make a key: {e}", e)); });
      });
    });
  }

  // the signing step: sign the report's statement with this phone's key and send it
  var sign = document.getElementById("sign");
  if (sign) {
    var problem = document.getElementById("sign-problem");
    if (!capable) {
      say(problem, w("This browser cannot sign here (it needs a secure page). Report from the phone that holds your card's key, or see the desk."));
      return;
    }
    var credential = sign.getAttribute("data-credential");
    var statement = sign.querySelector("[name=statement]").value;
    // REPORT-19: every statement names this card and which of its acts it is (a number
    // the server's rule chose: one use); this page signs only a report or an own act of
    // this very card — never a statement handing the card to another key
    var lines = statement.split("\n");
    var use = sign.querySelector("[name=device_use]").value;
    if (KINDS.indexOf(lines[0]) < 0 || lines[2] !== credential || lines[4] !== use ||
        !/^[1-9][0-9]*$/.test(use) || lines[lines.length - 1] !== "") {
      say(problem, w("This page asked to sign something other than your card's act; nothing was signed. See the desk."));
      return;
    }
    get("device-" + credential).then(function (kp) {
      if (!kp) {
        say(problem, w("This card's reports are signed by the phone that holds its key, and this is not that phone. Report from it, or ask the head judge for a new card."));
        return;
      }
      return crypto.subtle.sign({ name: "Ed25519" }, kp.privateKey, new TextEncoder().encode(statement)).then(function (sig) {
        sign.querySelector("[name=device_sig]").value = b64(sig);
        sign.submit();
      });
    }).catch(function (e) { say(problem, w("Signing failed: {e}", e)); });
  }
})();
