"use strict";
(function () {
  var form = document.getElementById("filters");
  if (!form) { return; }
  // One .finding per finding; findings about the same span share a .card (evidence shown once).
  var findings = Array.prototype.slice.call(document.querySelectorAll(".finding"));
  var cards = Array.prototype.slice.call(document.querySelectorAll(".card"));
  var counter = document.getElementById("shown-count");
  function checkedSeverities() {
    var boxes = form.querySelectorAll("input[name=sev]");
    var out = {};
    for (var i = 0; i < boxes.length; i++) { if (boxes[i].checked) { out[boxes[i].value] = true; } }
    return out;
  }
  function cardOf(el) { return el.closest(".card") || el; }
  function apply() {
    var sev = checkedSeverities();
    var family = form.querySelector("#f-family").value;
    var tool = form.querySelector("#f-tool").value;
    var query = form.querySelector("#f-search").value.toLowerCase();
    var shown = 0;
    findings.forEach(function (el) {
      var ok = sev[el.getAttribute("data-severity")] === true &&
        (family === "" || el.getAttribute("data-family") === family) &&
        (tool === "" || el.getAttribute("data-tool") === tool) &&
        (query === "" || cardOf(el).textContent.toLowerCase().indexOf(query) !== -1);
      el.classList.toggle("hidden", !ok);
      if (ok) { shown += 1; }
    });
    cards.forEach(function (card) {
      card.classList.toggle("hidden", card.querySelector(".finding:not(.hidden)") === null);
    });
    if (counter) { counter.textContent = shown + " of " + findings.length + " findings shown"; }
  }
  form.addEventListener("input", apply);
  form.addEventListener("change", apply);
  form.addEventListener("submit", function (e) { e.preventDefault(); apply(); });
  // Everything starts shown: only the counter needs writing until a filter changes.
  if (counter) { counter.textContent = findings.length + " of " + findings.length + " findings shown"; }
})();
