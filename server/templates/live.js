/* tourney serve: refetch this page's own part when the log grows (issue 18).
   Pages work without it; with it, a Server-Sent Events nudge ("the log is now size n,
   root r", no content) makes the page fetch itself again after a short random delay, with
   If-None-Match so an unchanged page costs a 304; it also refetches when the phone wakes,
   and polls when the stream is down.  A page someone is acting on is never replaced
   under them: a form they have started filling in or are sending, or a page marked
   data-hold (the signing step, a refused report shown again: answers to a post,
   which the page's address would not give back).  Each refetch handled counts in the meta's
   data-refetched.  The clock's times are the server's text (the event's time zone, the
   page's language: server/when.py), never rewritten here: the phone's own zone and
   language are not the event's, and Intl names zones otherwise than the tz database
   ("GMT+9" for JST); only the minutes left are counted here. */
(function () {
  "use strict";
  var meta = document.querySelector('meta[name="tourney-log"]');
  if (!meta || !window.fetch) { return; }
  var v = meta.getAttribute("data-v");
  var etag = null, busy = false, poll = null, acting = false, refetched = 0;
  ["input", "change", "submit"].forEach(function (kind) {
    document.addEventListener(kind, function (e) {
      var t = e.target;
      if (t && t.closest && t.closest("#live form")) { acting = true; }
    }, true);
  });
  function held() { return acting || !!document.querySelector("#live [data-hold]"); }
  function swap(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.getElementById("live"), old = document.getElementById("live");
    var m = doc.querySelector('meta[name="tourney-log"]');
    if (m) { v = m.getAttribute("data-v"); }
    if (fresh && old) {
      var focused = document.activeElement && document.activeElement.id;
      old.replaceWith(fresh);
      if (focused) { var f = document.getElementById(focused); if (f) { f.focus(); } }
      document.title = doc.title;
      tick();
    }
  }
  function refetch() {
    if (busy) { return; }
    busy = true;
    var headers = etag ? {"If-None-Match": etag} : {};
    fetch(location.href, {headers: headers, cache: "no-cache", credentials: "same-origin"})
      .then(function (r) {
        if (r.status !== 200) { return null; }
        etag = r.headers.get("ETag");
        return r.text();
      })
      .then(function (t) { if (t && !held()) { swap(t); } })
      .catch(function () {})
      .then(function () {
        busy = false;
        meta.setAttribute("data-refetched", String(++refetched));
      });
  }
  // the server widens the window for a large field (d.spread, ms): the refetches of
  // thousands of phones then arrive no faster than it serves them from memory
  function soon(spread) { setTimeout(refetch, 200 + Math.random() * (spread || 1300)); }
  function startPoll() { if (!poll) { poll = setInterval(refetch, 15000); } }
  function stopPoll() { if (poll) { clearInterval(poll); poll = null; } }
  if (window.EventSource) {
    var es = new EventSource("/live");
    es.addEventListener("log", function (e) {
      var d = JSON.parse(e.data);
      if (d.v !== v) { soon(d.spread); }   // the log grew, or the server went (not) live
    });
    es.onopen = stopPoll;
    es.onerror = startPoll;
  } else {
    startPoll();
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { refetch(); }
  });
  function tick() {
    var c = document.querySelector(".clock[data-ends]"), left = c && c.querySelector(".left");
    if (!left) { return; }
    var ms = Date.parse(c.getAttribute("data-ends")) - Date.now();
    left.textContent = ms > 0  // the page's own words (data-left, data-time: its language)
      ? (left.getAttribute("data-left") || "(N min left)").replace("N", String(Math.ceil(ms / 60000)))
      : (left.getAttribute("data-time") || "(time)");
  }
  tick();
  setInterval(tick, 20000);
})();
