/* tourney serve: the staff console's speed-ups (issue 29).  Every form works without it.
   "/" focuses the command search; typing there filters the command list at once;
   on the result page, typing a table number and Enter opens that table. */
(function () {
  "use strict";
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
  document.querySelectorAll("button.print-now").forEach(function (b) {
    b.hidden = false;
    b.addEventListener("click", function () { window.print(); });
  });
})();
