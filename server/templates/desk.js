/* tourney serve: the staff console's speed-ups (issue 29).  Every form works without it.
   "/" focuses the command search; typing there filters the command list at once;
   on the result page, typing a table number and Enter opens that table. */
(function () {
  "use strict";
  // the page's own words (its JSON island, _words_desk.html), keyed by the English text
  // below, which shows where the page gives none
  var WORDS = (function () {
    try { return JSON.parse(document.getElementById("words-desk").textContent) || {}; }
    catch (x) { return {}; }
  })();
  function w(en, n) {
    var s = Object.prototype.hasOwnProperty.call(WORDS, en) ? WORDS[en] : en;
    return n === undefined ? s : s.split("{n}").join(String(n));
  }
  window.tourneyDeskW = w;
  document.addEventListener("keydown", function (e) {
    var t = e.target, tag = t && t.tagName;
    if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey) { return; }
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (t && t.isContentEditable)) { return; }
    var q = document.getElementById("cmd-q") || document.getElementById("r-table") || document.getElementById("q-table");
    if (q) { e.preventDefault(); q.focus(); if (q.select) { q.select(); } }
  });
  document.addEventListener("input", function (e) {
    var q = e.target;
    if (!q || q.id !== "cmd-q") { return; }
    var words = q.value.trim().toLowerCase();
    document.querySelectorAll("ul.cmds li").forEach(function (li) {
      li.hidden = !!words && (li.getAttribute("data-words") || "").indexOf(words) < 0;
    });
    document.querySelectorAll("section.panel").forEach(function (p) {
      p.hidden = !p.querySelector("ul.cmds li:not([hidden])");
    });
  });
  document.addEventListener("change", function (e) {
    /* picking a field of an outcome picks that outcome */
    var f = e.target, box = f && f.closest && f.closest("form.result .choice");
    if (box && f.type !== "radio") {
      var r = box.querySelector("input[type=radio]");
      if (r) { r.checked = true; }
    }
  });
  /* the minutes left at each table, kept current (the server wrote them at render) */
  function tick() {
    var now = Date.now();
    document.querySelectorAll("td.left[data-ends]").forEach(function (td) {
      var left = Math.floor((Date.parse(td.getAttribute("data-ends")) - now) / 60000);
      var extra = td.querySelector(".muted");
      td.textContent = left < 0 ? "" : w("{n} min", left);
      if (left < 0) {
        var b = document.createElement("strong");
        b.textContent = w("over by {n} min", -left);
        td.appendChild(b);
      }
      if (extra) { td.appendChild(document.createTextNode(" ")); td.appendChild(extra); }
    });
  }
  setInterval(tick, 15000);
  document.querySelectorAll("button.print-now").forEach(function (b) {
    b.hidden = false;
    b.addEventListener("click", function () { window.print(); });
  });
})();

/* A browser-held key (issue 29 item 2): a form marked data-sign is turned into the
   command's arguments by the server (POST /desk/args/PATH, nothing runs), then prepared,
   signed in this browser and submitted (window.tourneyKeys.run, /desk-keys.js).  The
   "check" button still posts the form (a check signs nothing). */
(function () {
  "use strict";
  if (document.body.getAttribute("data-mode") !== "browser") { return; }
  // the first part's words (above)
  var w = window.tourneyDeskW;
  function slot(form) {
    var box = document.getElementById("outcome");
    if (!box) {
      box = document.createElement("div");
      box.id = "outcome";
      form.parentNode.insertBefore(box, form);
    }
    return box;
  }
  function say(form, ok, title, text) {
    var box = slot(form);
    box.className = "status " + (ok ? "done" : "refused");
    box.setAttribute("role", ok ? "status" : "alert");
    box.textContent = "";
    var p = document.createElement("p"), b = document.createElement("strong");
    b.textContent = title;
    p.appendChild(b);
    p.appendChild(document.createTextNode(" " + text));
    box.appendChild(p);
    if (!ok) {
      var n = document.createElement("p");
      n.className = "muted";
      n.textContent = w("Nothing was written.");
      box.appendChild(n);
    }
  }
  // a refusal (the API's English sentence and hint) in the console's language: the
  // console's own /desk/say translates it as the server's pages do; the English where
  // it cannot answer
  function refusal(doc) {
    var e = (doc && doc.error) || {};
    var en = (e.message || w("refused")) + (e.hint ? " (" + e.hint + ")" : "");
    if (!e.message || document.documentElement.lang === "en") { return Promise.resolve(en); }
    var q = new URLSearchParams({message: e.message, hint: e.hint || ""});
    return fetch("/desk/say?" + q.toString(), {credentials: "same-origin"})
      .then(function (r) { return r.ok ? r.json() : {}; })
      .then(function (d) { return d.text || en; }, function () { return en; });
  }
  function refuse(form, doc) {
    return refusal(doc).then(function (text) { say(form, false, w("Not done:"), text); });
  }
  document.addEventListener("submit", function (e) {
    var form = e.target, path = form && form.getAttribute && form.getAttribute("data-sign");
    if (!path || !window.tourneyKeys || (e.submitter && e.submitter.name === "check")) { return; }
    e.preventDefault();
    fetch("/desk/args/" + path, {method: "POST", credentials: "same-origin", body: new FormData(form)})
      .then(function (r) { return r.json(); })
      .then(function (doc) {
        if (!doc.ok) { return refuse(form, doc); }
        return window.tourneyKeys.run(doc.path, doc.args).then(function (res) {
          var d = res.doc || {};
          if (d.ok) { say(form, true, w("Done (log size {n}):", d.seq), d.text || ""); return null; }
          return refuse(form, d);
        });
      })
      .catch(function (err) { say(form, false, w("Not signed:"), w(String(err && err.message || err))); });
  });
})();
