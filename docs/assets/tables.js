// Catalogue tables: click a column's heading to sort by it (again: the other way), type
// in the box above a table to keep the rows that contain the text. No library, no network.
(function () {
  function cellValue(row, i) {
    var text = (row.cells[i] && row.cells[i].textContent || "").trim();
    var n = parseFloat(text);
    return isNaN(n) || String(n) !== text ? text.toLowerCase() : n;
  }
  function prepare(table) {
    if (table.dataset.rwReady) return;
    table.dataset.rwReady = "1";
    var body = table.tBodies[0];
    if (!body) return;
    var filter = document.createElement("input");
    filter.type = "search";
    filter.className = "rw-filter";
    filter.placeholder = (document.documentElement.lang || "en").indexOf("fr") === 0 ? "Filtrer" :
      (document.documentElement.lang || "").indexOf("es") === 0 ? "Filtrar" :
      (document.documentElement.lang || "").indexOf("zh") === 0 ? "筛选" : "Filter";
    filter.addEventListener("input", function () {
      var q = filter.value.toLowerCase();
      Array.prototype.forEach.call(body.rows, function (row) {
        row.style.display = row.textContent.toLowerCase().indexOf(q) >= 0 ? "" : "none";
      });
    });
    table.parentNode.insertBefore(filter, table);
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
      th.addEventListener("click", function () {
        var up = th.dataset.rwSort !== "up";
        th.dataset.rwSort = up ? "up" : "down";
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = cellValue(a, i), y = cellValue(b, i);
          if (typeof x !== typeof y) { x = String(x); y = String(y); }
          return (x < y ? -1 : x > y ? 1 : 0) * (up ? 1 : -1);
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  }
  function all() {
    document.querySelectorAll(".rw-table table").forEach(prepare);
  }
  if (window.document$) { window.document$.subscribe(all); } else { document.addEventListener("DOMContentLoaded", all); }
})();
