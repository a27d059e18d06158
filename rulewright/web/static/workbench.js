// The workbench's page: write, check, verify, study and play a house rule. Every answer
// comes from the server's JSON (the same jobs as the command line); every text is put in
// the page as text (textContent), never as markup.
"use strict";

const $ = (id) => document.getElementById(id);
const state = { library: [], checked: null, timer: null, job: {}, table: null, seat: null, shown: null };

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

async function call(path, body) {
  const opts = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  const r = await fetch(path, opts);
  const data = await r.json().catch(() => ({ error: `the server answered ${r.status}` }));
  if (!r.ok) throw new Error(data.error || `the server answered ${r.status}`);
  return data;
}

function showError(e) {
  const p = $("error");
  p.textContent = e ? String(e.message || e) : "";
  p.hidden = !e;
}

// ------------------------------------------------------------------ tabs
function tab(name) {
  for (const b of document.querySelectorAll("nav button")) b.setAttribute("aria-selected", b.dataset.tab === name);
  for (const s of document.querySelectorAll(".panel")) s.hidden = s.id !== name;
  showError(null);
}

// ------------------------------------------------------------------ write
function draft() { return { name: $("name").value.trim(), text: $("source").value }; }

function paint(tokens, problems) {
  const pre = $("highlight");
  clear(pre);
  const bad = new Set(problems.filter((p) => p.line).map((p) => p.line));
  let line = el("span", null, "line" + (bad.has(1) ? " bad" : ""));
  let n = 1;
  for (const [kind, text] of tokens) {
    const parts = text.split("\n");
    parts.forEach((part, i) => {
      if (i > 0) {
        line.appendChild(document.createTextNode("\n"));
        pre.appendChild(line);
        n += 1;
        line = el("span", null, "line" + (bad.has(n) ? " bad" : ""));
      }
      if (part) line.appendChild(el("span", part, "t-" + kind));
    });
  }
  line.appendChild(document.createTextNode("\n"));
  pre.appendChild(line);
  syncScroll();
}

function paintPlain() {
  // typed text is shown at once, uncoloured, until the check answers
  const pre = $("highlight");
  clear(pre);
  pre.appendChild(document.createTextNode($("source").value + "\n"));
}

function syncScroll() {
  $("highlight").scrollTop = $("source").scrollTop;
  $("highlight").scrollLeft = $("source").scrollLeft;
}

async function check() {
  const d = draft();
  $("check-state").textContent = "checking…";
  try {
    const r = await call("/api/check", d);
    if (d.text !== $("source").value) return;         // typed since: the next check answers
    state.checked = r;
    const problems = r.ok ? (r.warnings || []) : (r.errors || []);
    paint(r.tokens, r.ok ? [] : problems);
    $("check-state").textContent = r.ok
      ? `ok: ${r.title}: ${r.definitions} definitions, ${r.rule_ids} rule IDs` +
        (r.warnings && r.warnings.length ? `, ${r.warnings.length} warning(s)` : "")
      : `${problems.length} error(s)`;
    $("check-state").className = "state " + (r.ok ? "ok" : "bad");
    $("draft-title").textContent = r.ok ? r.title : d.name;
    const ul = $("problems");
    clear(ul);
    for (const p of problems) {
      const li = el("li", null, r.ok ? "warning" : "problem");
      const where = p.line ? `line ${p.line}, column ${p.col}` : (p.at || "");
      li.appendChild(el("strong", where ? where + ": " : ""));
      li.appendChild(document.createTextNode(p.message));
      if (p.hint) li.appendChild(el("div", "hint: " + p.hint, "hint"));
      if (p.line) li.addEventListener("click", () => goTo(p.line, p.col));
      ul.appendChild(li);
    }
    $("diff").textContent = r.diff ? r.diff.join("\n") : (r.ok ? "(not a house rule: it extends no game)"
      : "(what it changes is shown once it checks)");
    showError(null);
  } catch (e) {
    $("check-state").textContent = "";
    showError(e);
  }
}

function goTo(line, col) {
  const ta = $("source");
  const lines = ta.value.split("\n");
  let at = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) at += lines[i].length + 1;
  at += Math.max(0, (col || 1) - 1);
  ta.focus();
  ta.setSelectionRange(at, at);
}

function typed() {
  paintPlain();
  clearTimeout(state.timer);
  state.timer = setTimeout(check, 400);
}

async function openDraft() {
  try {
    const r = await call("/api/open", { name: $("open-what").value });
    $("name").value = r.name;
    $("source").value = r.text;
    $("saved").textContent = r.from === "workspace" ? "(from the workspace)" : "";
    paintPlain();
    await check();
  } catch (e) { showError(e); }
}

async function save() {
  try {
    const r = await call("/api/save", draft());
    $("saved").textContent = `saved: ${r.saved} in ${r.folder}`;
    await loadLibrary($("name").value.trim());
  } catch (e) { showError(e); }
}

async function loadLibrary(keep) {
  const r = await call("/api/library");
  state.library = r.library;
  for (const id of ["open-what", "play-what"]) {
    const sel = $(id);
    const was = sel.value;
    clear(sel);
    if (id === "play-what") sel.appendChild(new Option("the house rule being written", ""));
    if (r.workspace.length) {
      const g = document.createElement("optgroup");
      g.label = `your workspace (${r.folder})`;
      for (const n of r.workspace) g.appendChild(new Option(n, id === "play-what" ? "ws:" + n : n));
      if (id === "open-what") sel.appendChild(g);
    }
    for (const kind of ["game", "version", "house rule"]) {
      const g = document.createElement("optgroup");
      g.label = kind === "game" ? (id === "open-what" ? "a new house rule of" : "games") : kind + "s";
      for (const item of r.library.filter((x) => x.kind === kind)) g.appendChild(new Option(item.name, item.name));
      sel.appendChild(g);
    }
    if (was) sel.value = was;
  }
  if (keep === undefined && r.first.length) $("open-what").value = r.first[0];
  const box = $("verify-checks");
  if (!box.firstChild) {
    for (const c of r.checks) {
      const label = el("label", null, "check");
      const cb = document.createElement("input");
      cb.type = "checkbox"; cb.value = c; cb.checked = true;
      label.appendChild(cb);
      label.appendChild(document.createTextNode(" " + c.replace(/_/g, " ")));
      box.appendChild(label);
    }
  }
  const saved = $("play-saved");
  clear(saved);
  saved.appendChild(new Option(r.games.length ? "(a game of the workspace)" : "(none saved yet)", ""));
  for (const g of r.games) saved.appendChild(new Option(g, g));
}

// ------------------------------------------------------------------ jobs (verify, study)
function follow(kind, id, onDone) {
  const bar = $(kind + "-progress"), what = $(kind + "-what-now");
  const source = new EventSource(`/api/jobs/${id}/events`);
  state.job[kind] = { id, source };
  $(kind + "-cancel").disabled = false;
  $(kind + "-run").disabled = true;
  const finish = () => {
    source.close();
    $(kind + "-cancel").disabled = true;
    $(kind + "-run").disabled = false;
  };
  source.onmessage = async (m) => {
    const ev = JSON.parse(m.data);
    if (ev.type === "progress") {
      bar.value = ev.fraction;
      what.textContent = ev.what;
    } else if (ev.type === "done") {
      finish();
      bar.value = 1;
      what.textContent = "done";
      const r = await call(`/api/jobs/${id}`);
      onDone(r.result, id);
    } else if (ev.type === "failed") {
      finish();
      what.textContent = "";
      showError(ev.message);
    } else if (ev.type === "cancelled") {
      finish();
      what.textContent = "cancelled";
    }
  };
  source.onerror = () => { if (source.readyState === EventSource.CLOSED) finish(); };
}

async function cancel(kind) {
  const j = state.job[kind];
  if (!j) return;
  try { await call(`/api/jobs/${j.id}/cancel`, {}); } catch (e) { showError(e); }
  j.source.close();
  $(kind + "-what-now").textContent = "cancelled";
  $(kind + "-cancel").disabled = true;
  $(kind + "-run").disabled = false;
}

async function verify() {
  showError(null);
  const against = document.querySelector('input[name="verify-what"]:checked').value === "differs";
  clear($("findings").tBodies[0]);
  $("verify-summary").textContent = "";
  $("verify-text").textContent = "";
  try {
    const boxes = [...document.querySelectorAll("#verify-checks input")];
    const ticked = boxes.filter((b) => b.checked).map((b) => b.value);
    if (!ticked.length && !against) throw new Error("tick a check to run");
    const asked = draft();
    const job = await call("/api/jobs", { kind: "verify", ...asked, against_base: against,
      checks: against || ticked.length === boxes.length ? null : ticked,
      time_limit: Number($("verify-time").value) || 10 });
    follow("verify", job.id, (r) => {
      const s = r.summary || {};
      $("verify-summary").textContent = r.text.split("\n").pop();
      const body = $("findings").tBodies[0];
      for (const f of r.findings) {
        const tr = el("tr");
        const st = el("td");
        st.appendChild(el("span", f.status, "badge s-" + f.status.toLowerCase()));
        tr.appendChild(st);
        tr.appendChild(el("td", f.check));
        tr.appendChild(el("td", f.definition || ""));
        tr.appendChild(el("td", f.message));
        const w = el("td");
        const d = f.drawn || {};
        if (d.lines || d.grids || d.position || d.game) {
          const b = el("button", "see it", "see");
          const row = el("tr", null, "witness");
          const cell = el("td");
          cell.colSpan = 5;
          row.appendChild(cell);
          row.hidden = true;
          b.addEventListener("click", () => {
            if (!cell.firstChild) drawWitness(cell, d, asked);
            row.hidden = !row.hidden;
          });
          w.appendChild(b);
          tr.appendChild(w);
          body.appendChild(tr);
          body.appendChild(row);
          continue;
        }
        tr.appendChild(w);
        body.appendChild(tr);
      }
      $("verify-text").textContent = r.text;
      void s;
    });
  } catch (e) { showError(e); }
}

function drawGrid(rows, name) {
  const box = el("div", null, "board");
  if (name) box.appendChild(el("h3", name));
  const t = el("table");
  for (const row of rows) {
    const tr = el("tr");
    for (const card of row) tr.appendChild(el("td", card || "", card ? "card" : "empty"));
    t.appendChild(tr);
  }
  box.appendChild(t);
  return box;
}

function drawWitness(cell, d, asked) {
  if (d.lines) cell.appendChild(el("pre", d.lines.join("\n"), "witness-text"));
  if (d.grids) {
    const boards = el("div", null, "boards");
    for (const g of d.grids) boards.appendChild(drawGrid(g.rows, g.name));
    cell.appendChild(boards);
  }
  const out = el("pre", null, "witness-text");
  out.hidden = true;
  const replay = async (body) => {
    out.hidden = false;
    out.textContent = "replaying…";
    try {
      const r = await call("/api/replay", { ...asked, ...body });
      out.textContent = [...(r.lines || []), ...(r.end ? ["", ...r.end] : []), ...(r.error ? ["", r.error] : [])]
        .join("\n").trim();
    } catch (e) { out.textContent = String(e.message || e); }
  };
  if (d.game) {
    const b = el("button", `Replay the game (seed ${d.game.seed}, ${d.game.players} players)`);
    b.addEventListener("click", () => replay({ game: d.game }));
    cell.appendChild(b);
  }
  if (d.position) {
    const b = el("button", "Show the position");
    b.addEventListener("click", () => replay({ position: d.position }));
    cell.appendChild(b);
  }
  cell.appendChild(out);
}

async function study() {
  showError(null);
  for (const id of ["study-summary"]) $(id).textContent = "";
  clear($("study-figures").tHead); clear($("study-figures").tBodies[0]); clear($("study-effects"));
  $("study-report").hidden = true;
  const players = $("study-players").value ? Number($("study-players").value) : null;
  try {
    const job = await call("/api/jobs", { kind: "study", ...draft(), games: Number($("study-games").value) || 40,
      players, seed: Number($("study-seed").value) || 0, skill_games: Number($("study-skill").value) || 0 });
    follow("study", job.id, (r, id) => {
      $("study-summary").textContent = `${r.games} games played in ${r.seconds} s (both rule sets, the skill ` +
        "games included); 99% intervals; a marked row differs from the base by more than chance";
      const head = el("tr");
      for (const c of r.columns) head.appendChild(el("th", c));
      $("study-figures").tHead.appendChild(head);
      r.rows.forEach((row, i) => {
        const tr = el("tr", null, r.clear[i] ? "clear" : "");
        for (const c of row) tr.appendChild(el("td", c));
        $("study-figures").tBodies[0].appendChild(tr);
      });
      for (const e of r.effects) {
        const rules = e.rules.length ? `; rules ${e.rules.join(" ")}` : "";
        $("study-effects").appendChild(el("li", `${e.what}: ${e.difference} (witness seed ${e.witness}${rules})`));
      }
      for (const line of r.changes) $("study-effects").appendChild(el("li", `What the house rule says differently: ${line}`, "change"));
      if (r.report) {
        $("study-report").src = `/api/jobs/${id}/report`;
        $("study-report").hidden = false;
      }
    });
  } catch (e) { showError(e); }
}

// ------------------------------------------------------------------ play
function playSource() {
  const what = $("play-what").value;
  if (what.startsWith("ws:")) return { name: what.slice(3), workspace: true };
  return what ? { shipped: what } : draft();
}

async function sourceBody() {
  const s = playSource();
  if (s.workspace) {
    const r = await call("/api/open", { name: s.name });
    return { name: r.name, text: r.text };
  }
  return s;
}

async function seats() {
  showError(null);
  try {
    const players = $("play-players").value ? Number($("play-players").value) : null;
    const r = await call("/api/seats", { ...(await sourceBody()), players });
    $("play-players").value = r.players;
    $("play-players").min = r.least;
    $("play-players").max = r.most;
    const rows = $("seat-rows");
    clear(rows);
    r.seats.forEach((s, i) => {
      const row = el("div", null, "seat-row");
      row.appendChild(el("span", s.title));
      const sel = document.createElement("select");
      sel.dataset.seat = s.name;
      sel.setAttribute("aria-label", s.title + " is played by");
      sel.appendChild(new Option("a person (here)", "human"));
      for (const b of r.bots) sel.appendChild(new Option("bot: " + b, b));
      sel.value = i === 0 ? "human" : (r.bots.includes("greedy") ? "greedy" : "random");
      row.appendChild(sel);
      rows.appendChild(row);
    });
    $("seating").hidden = false;
  } catch (e) { showError(e); }
}

async function startGame() {
  showError(null);
  try {
    await seated(await call("/api/tables", { ...(await sourceBody()), seats: chosenSeats(), lang: $("play-lang").value,
      players: Number($("play-players").value) || null, seed: Number($("play-seed").value) || 0 }));
  } catch (e) { showError(e); }
}

function chosenSeats() {
  const chosen = {};
  for (const sel of document.querySelectorAll("#seat-rows select")) chosen[sel.dataset.seat] = sel.value;
  return chosen;
}

async function seated(r) {
  if (r.warnings && r.warnings.length) showError(r.warnings.join("\n"));
  state.table = r;
  state.seat = null;
  $("seating").hidden = true;
  $("game-saved").textContent = "";
  $("save-game").href = `/api/tables/${r.id}/save`;
  await show(r.humans[0]);
}

async function loadGame() {
  showError(null);
  try {
    const body = { ...(await sourceBody()), seats: chosenSeats(), lang: $("play-lang").value };
    const file = $("play-file").files[0];
    if ($("play-saved").value) body.game = $("play-saved").value;
    else if (file) body.state = await file.text();
    else throw new Error("choose a game saved in the workspace, or a saved game's file");
    await seated(await call("/api/tables/load", body));
  } catch (e) { showError(e); }
}

async function saveGame() {
  try {
    const r = await call(`/api/tables/${state.table.id}/save`, { name: $("game-name").value.trim() });
    $("game-saved").textContent = `saved: ${r.saved} in ${r.folder}`;
    await loadLibrary(true);
  } catch (e) { showError(e); }
}

async function show(seat, view) {
  const v = view || await call(`/api/tables/${state.table.id}/seats/${seat}`);
  const next = v.finished ? seat : v.turn;
  if (!v.finished && next !== seat) {
    return show(next);
  }
  if (state.seat !== null && state.seat !== seat && state.table.humans.length > 1) {
    // hot seat: the next person's seat is shown only once they say they are at the screen
    $("table").hidden = true;
    $("pass").hidden = false;
    $("pass-text").textContent = `Pass the device to ${v.title}.`;
    state.pending = [seat, v];
    return;
  }
  render(seat, v);
}

function render(seat, v) {
  state.seat = seat;
  $("pass").hidden = true;
  $("table").hidden = false;
  $("status").textContent = v.finished ? "The game is over." : v.status;
  $("question").textContent = v.question ? `${v.title}, ${v.question}` : "";
  const opts = $("options");
  clear(opts);
  const cells = {};
  for (const o of v.options || []) {
    if (o.cell) { cells[o.cell.join(",")] = o; continue; }
    const b = el("button", o.text, "option");
    b.dataset.index = o.index;
    b.addEventListener("click", () => choose(o.index));
    opts.appendChild(b);
  }
  $("suggestion").hidden = true;
  $("suggest").disabled = !(v.options && v.options.length);
  $("suggest-bar").hidden = v.finished;
  drawBoards(v.boards, cells);
  for (const o of Object.values(cells)) {          // cells outside the drawn boards: buttons
    const b = el("button", o.text, "option");
    b.dataset.index = o.index;
    b.addEventListener("click", () => choose(o.index));
    opts.appendChild(b);
  }
  $("undo").disabled = !v.can_undo;
  showKnown(v);
  $("result").hidden = !v.finished;
  clear($("result"));
  if (v.finished) for (const line of v.result || []) $("result").appendChild(el("p", line));
  $("stepper").hidden = !v.finished;
  $("step-at").textContent = "";
  $("step-next").textContent = "";
  state.step = null;
  state.steps = null;
}

function drawBoards(boards, cells) {
  const box = $("boards");
  clear(box);
  for (const b of boards) {
    const drawn = drawGrid(b.rows, b.name);
    if (cells) {
      drawn.querySelectorAll("tr").forEach((tr, r) => tr.querySelectorAll("td").forEach((td, c) => {
        const option = cells[`${r + b.top},${c + b.left}`];
        if (!option) return;
        const btn = el("button", "here", "cell");
        btn.dataset.index = option.index;
        btn.title = `place it at row ${r + b.top + 1}, column ${c + b.left + 1}`;
        btn.addEventListener("click", () => choose(option.index));
        td.appendChild(btn);
        delete cells[`${r + b.top},${c + b.left}`];
      }));
    }
    box.appendChild(drawn);
  }
}

async function step(to) {
  try {
    const url = `/api/tables/${state.table.id}/seats/${state.seat}/step`;
    if (state.steps === null) state.steps = (await call(url, { step: 0 })).steps;
    const n = state.steps, at = state.step ? state.step.step : n;
    const k = to === "first" ? 0 : to === "last" ? n : to === "back" ? Math.max(0, at - 1) : Math.min(n, at + 1);
    const v = await call(url, { step: k });
    state.step = v;
    $("step-at").textContent = `step ${v.step} of ${v.steps}`;
    $("step-next").textContent = v.next ? `next: ${v.next}` : "the end of the game";
    $("status").textContent = v.status;
    drawBoards(v.boards, null);
    showKnown(v);
  } catch (e) { showError(e); }
}

function showKnown(v) {
  // what the seat knows: the news of the game and the position as it may see it
  const news = $("news");
  clear(news);
  for (const line of v.news) news.appendChild(el("li", line));
  $("position").textContent = v.position.join("\n");
}

async function choose(index) {
  const table = $("table");
  if (table.dataset.busy) return;           // one choice at a time: the next waits for the answer
  table.dataset.busy = "1";
  try {
    const v = await call(`/api/tables/${state.table.id}/seats/${state.seat}/choose`, { index });
    await show(state.seat, v);
  } catch (e) { showError(e); } finally { delete table.dataset.busy; }
}

async function suggest() {
  const box = $("suggestion");
  box.hidden = false;
  box.textContent = "thinking…";
  try {
    const by = $("suggest-by").value;
    const r = await call(`/api/tables/${state.table.id}/seats/${state.seat}/suggest`, by ? { bot: by } : {});
    box.textContent = r.found ? [`Suggested: ${r.text} (${r.how})`, ...r.lines].join("\n") : r.why_not;
    for (const b of document.querySelectorAll("#options button, #boards button.cell")) {
      b.classList.toggle("suggested", r.found && Number(b.dataset.index) === r.index);
    }
  } catch (e) { box.hidden = true; showError(e); }
}

async function undo() {
  try {
    const v = await call(`/api/tables/${state.table.id}/seats/${state.seat}/undo`, {});
    render(state.seat, v);
  } catch (e) { showError(e); }
}

// ------------------------------------------------------------------ start
window.addEventListener("DOMContentLoaded", async () => {
  for (const b of document.querySelectorAll("nav button")) b.addEventListener("click", () => tab(b.dataset.tab));
  $("source").addEventListener("input", typed);
  $("source").addEventListener("scroll", syncScroll);
  $("source").addEventListener("keydown", (e) => {
    if (e.key === "Tab") {          // a tab key writes spaces (the specs indent by two)
      e.preventDefault();
      const ta = e.target, at = ta.selectionStart;
      ta.setRangeText("  ", at, ta.selectionEnd, "end");
      typed();
    }
  });
  $("name").addEventListener("change", check);
  $("open").addEventListener("click", openDraft);
  $("save").addEventListener("click", save);
  $("verify-run").addEventListener("click", verify);
  $("verify-cancel").addEventListener("click", () => cancel("verify"));
  $("study-run").addEventListener("click", study);
  $("study-cancel").addEventListener("click", () => cancel("study"));
  $("play-seats").addEventListener("click", seats);
  $("play-what").addEventListener("change", () => { $("play-players").value = ""; $("seating").hidden = true; });
  $("play-start").addEventListener("click", startGame);
  $("undo").addEventListener("click", undo);
  $("play-load").addEventListener("click", loadGame);
  $("suggest").addEventListener("click", suggest);
  $("step-first").addEventListener("click", () => step("first"));
  $("step-back").addEventListener("click", () => step("back"));
  $("step-on").addEventListener("click", () => step("on"));
  $("step-last").addEventListener("click", () => step("last"));
  $("save-here").addEventListener("click", saveGame);
  $("pass-ok").addEventListener("click", () => { const [s, v] = state.pending; render(s, v); });
  try {
    await loadLibrary();
    await openDraft();
  } catch (e) { showError(e); }
});
