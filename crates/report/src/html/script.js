(function () {
  "use strict";
  // Narrow the skills table by name.
  var filter = document.getElementById("skill-filter");
  var rows = document.querySelectorAll("#skill-table tbody tr");
  function apply() {
    var q = filter ? filter.value.toLowerCase() : "";
    for (var i = 0; i < rows.length; i++) {
      var n = (rows[i].getAttribute("data-name") || "").toLowerCase();
      rows[i].classList.toggle("hidden", q !== "" && n.indexOf(q) < 0);
    }
  }
  if (filter) filter.addEventListener("input", apply);
  // Open the <details> around a link's target, and show a filtered-out row.
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id ? document.getElementById(id) : null;
    if (!el) return;
    if (filter && el.classList.contains("hidden")) {
      filter.value = "";
      apply();
    }
    for (var p = el; p; p = p.parentElement) {
      if (p.tagName === "DETAILS") p.open = true;
    }
    el.scrollIntoView();
  }
  window.addEventListener("hashchange", reveal);
  reveal();
})();
