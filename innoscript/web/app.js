// InnoScript playground: a frontend of the JSON protocol (docs/protocol.md), no dependencies.
"use strict";
const $ = (id) => document.getElementById(id);
let ws, game = null, seats = [], pending = {}, nextId = 1, views = {};

function connect() {
  ws = new WebSocket(`ws://${location.host}/ws`);
  ws.onopen = () => { $("status").textContent = "connected"; send({type: "hello"}); checkSource(); };
  ws.onclose = () => { $("status").textContent = "disconnected"; };
  ws.onmessage = (ev) => handle(JSON.parse(ev.data));
}

function send(msg, then) {
  msg.id = nextId++;
  if (then) pending[msg.id] = then;
  ws.send(JSON.stringify(msg));
}

function handle(msg) {
  if (msg.re && pending[msg.re]) { const f = pending[msg.re]; delete pending[msg.re]; f(msg); return; }
  if (msg.type === "update") { views[msg.player] = msg.view; log(msg.events); refresh(); }
  if (msg.type === "error") { $("status").textContent = "error: " + msg.message; }
}

// ---------------------------------------------------------------- play
function seatChoices() {
  const n = +$("players").value, box = $("seats");
  box.innerHTML = "";
  for (let i = 0; i < n; i++) {
    const s = document.createElement("select");
    s.id = "seat-" + i;
    for (const k of ["you", "random", "greedy"]) { const o = document.createElement("option"); o.textContent = k; s.appendChild(o); }
    s.value = i === 0 ? "you" : "random";
    const l = document.createElement("label"); l.textContent = `Seat ${i + 1} `; l.appendChild(s); box.appendChild(l);
  }
}

function humans() { return seats.map((k, i) => k === "you" ? i : -1).filter((i) => i >= 0); }

function startGame(ev) {
  ev.preventDefault();
  const n = +$("players").value;
  seats = Array.from({length: n}, (_, i) => $("seat-" + i).value);
  const bots = seats.map((k) => k === "you" ? null : k);
  send({type: "create", edition: $("edition").value, players: n, seed: +$("seed").value, bots}, (m) => {
    if (m.type === "error") { $("status").textContent = m.message; return; }
    game = m.game; views = {}; $("log").innerHTML = ""; $("save").disabled = false;
    joinAll();
  });
}

function joinAll() {
  for (const p of humans()) send({type: "join", game, player: p}, (m) => { views[p] = m.view; refresh(); });
  if (!humans().length) send({type: "join", game, player: null}, (m) => { views[null] = m.view; refresh(); });
}

function currentView() {
  const any = Object.values(views)[0];
  if (!any) return null;
  const d = any.decision;
  if (d && views[d.player]) return views[d.player];
  return views[humans()[0]] || any;
}

function cardText(c) {
  if (!c) return "";
  if (c.hidden) return `a hidden [${c.age}]`;
  if (c.special) return c.special;
  return `${c.name} [${c.age}]`;
}

function refresh() {
  const v = currentView();
  if (!v) return;
  const t = v.turn, table = $("table");
  table.innerHTML = "";
  const head = document.createElement("p");
  head.id = "turn";
  head.textContent = v.result ? `Game over: ${v.result.winners.map((w) => v.players[w].name).join(", ")} won (${v.result.reason})`
    : `Turn ${t.number}: ${v.players[t.active].name} to play, ${t.actions_left} action(s) left`;
  table.appendChild(head);
  v.players.forEach((p, i) => {
    const div = document.createElement("div");
    div.className = "player" + (v.decision && v.decision.player === i ? " deciding" : "");
    div.dataset.player = i;
    div.innerHTML = `<h2>${p.name}${seats[i] === "you" ? " (you)" : " (" + seats[i] + ")"} — ${p.points} points, ${p.achievements.count} achievements</h2>`;
    const icons = Object.entries(p.icons).filter(([, n]) => n).map(([k, n]) => `${k} ${n}`).join(" · ");
    div.innerHTML += `<div class="icons">${icons || "no icons yet"}</div>`;
    const board = document.createElement("div"); board.className = "board";
    for (const [color, pile] of Object.entries(p.board)) {
      const el = document.createElement("div");
      el.className = "pile " + color + (pile.cards.length ? "" : " empty");
      if (pile.cards.length) {
        const top = pile.cards[0];
        el.innerHTML = `<div class="name">${top.name} [${top.age}]</div><div class="meta">${top.icons.join(" ")}</div>` +
          `<div class="meta">${pile.cards.length} card(s)${pile.splay !== "none" ? ", splayed " + pile.splay : ""}</div>`;
      } else el.textContent = color;
      board.appendChild(el);
    }
    div.appendChild(board);
    const hand = Array.isArray(p.hand) ? p.hand.map(cardText).join(", ") || "empty" : `${p.hand.count} card(s) ${JSON.stringify(p.hand.ages)}`;
    const score = Array.isArray(p.score) ? p.score.map(cardText).join(", ") || "empty" : `${p.score.count} card(s)`;
    div.innerHTML += `<div class="zone">Hand: ${hand}</div><div class="zone">Score pile: ${score}</div>`;
    table.appendChild(div);
  });
  const avail = document.createElement("p");
  avail.className = "zone";
  avail.textContent = `Achievements available: ${v.available.standard.join(", ")}; ${v.available.special.join(", ")}`;
  table.appendChild(avail);
  showDecision(v);
}

function describe(d, o) {
  if (d.kind === "action") {
    if (o.type === "draw") return "Draw";
    if (o.type === "achieve") return `Achieve ${o.age}`;
    return `${o.type === "dogma" ? "Dogma" : "Meld"} ${cardText(o.card)}`;
  }
  if (o && typeof o === "object") return cardText(o);
  if (d.kind === "choose_option") return `Option ${o + 1}`;
  if (o === true) return "Yes";
  if (o === false) return "No";
  return String(o);
}

function handleOf(o) { return (o && typeof o === "object") ? (o.id ?? o.ref ?? o.special) : o; }

function showDecision(v) {
  const box = $("decision");
  box.innerHTML = "";
  const d = v.decision;
  if (!d || !d.options) {
    if (d) box.innerHTML = `<h3>Waiting for ${v.players[d.player].name}…</h3>`;
    return;
  }
  const multi = ["select_cards", "order"].includes(d.kind) || (d.kind === "choose" && d.max !== 1);
  box.innerHTML = `<h3 id="prompt">${v.players[d.player].name}: ${d.prompt || d.kind}${d.source ? " (" + d.source + ")" : ""}</h3>`;
  const picked = [];
  d.options.forEach((o, i) => {
    const b = document.createElement("button");
    b.className = "option"; b.dataset.index = i; b.textContent = describe(d, o);
    b.onclick = () => {
      if (!multi) return answer(d, d.kind === "action" ? o : handleOf(o));
      const at = picked.indexOf(i);
      if (at >= 0) { picked.splice(at, 1); b.classList.remove("picked"); } else { picked.push(i); b.classList.add("picked"); }
    };
    box.appendChild(b);
  });
  if (d.kind === "splay_color" && d.optional) {
    const b = document.createElement("button"); b.className = "option"; b.textContent = "Decline";
    b.onclick = () => answer(d, null); box.appendChild(b);
  }
  if (multi) {
    const ok = document.createElement("button");
    ok.id = "confirm"; ok.className = "option"; ok.textContent = `Confirm (choose ${d.min} to ${d.max})`;
    ok.onclick = () => answer(d, picked.map((i) => handleOf(d.options[i])));
    box.appendChild(ok);
  }
}

function answer(d, value) {
  send({type: "answer", game, player: d.player, decision: d.id, answer: value}, (m) => {
    if (m.type === "error") { $("status").textContent = m.message; return; }
    views[m.player] = m.view; log(m.events);
    // the other seats' views are refreshed too (hot-seat)
    for (const p of humans()) if (p !== m.player) send({type: "view", game, player: p}, (r) => { views[p] = r.view; refresh(); });
    refresh();
  });
}

function log(events) {
  const ol = $("log");
  for (const e of events) {
    if (["effect", "action"].includes(e.type)) continue;
    let text = e.type;
    if (e.card && typeof e.card === "object") text = `${e.type} ${cardText(e.card)}`;
    else if (e.type === "turn") text = `turn ${e.number}`;
    else if (e.type === "splay") text = `splay ${e.color} ${e.direction}`;
    else if (e.type === "special_achievement") text = `claims ${e.name}`;
    else if (e.type === "game_over") text = `game over (${e.reason})`;
    const li = document.createElement("li");
    li.textContent = (typeof e.player === "number" ? `P${e.player + 1} ` : "") + text;
    ol.appendChild(li);
  }
  ol.scrollTop = ol.scrollHeight;
}

function save() {
  send({type: "save", game}, (m) => {
    const blob = new Blob([JSON.stringify({game: m.data, seats})], {type: "application/json"});
    const a = document.createElement("a"); a.href = URL.createObjectURL(blob); a.download = "innoscript-game.json"; a.click();
    $("status").textContent = "saved";
  });
}

function load(ev) {
  const file = ev.target.files[0];
  if (!file) return;
  file.text().then((text) => {
    const data = JSON.parse(text);
    seats = data.seats || data.game.players.map(() => "you");
    const bots = seats.map((k) => k === "you" ? null : k);
    send({type: "load", data: data.game, bots}, (m) => {
      if (m.type === "error") { $("status").textContent = m.message; return; }
      game = m.game; views = {}; $("save").disabled = false; joinAll(); $("status").textContent = "resumed";
    });
  });
}

// ---------------------------------------------------------------- editor
const EXAMPLE = `card "Lantern" {
    age 1
    color yellow
    icons hex leaf lightbulb leaf
    dogma leaf
}

effect {
    may return a card from your hand
    if you do {
        draw and reveal [2] as drawn
        if drawn is yellow {
            score drawn
        }
    }
}
`;
let timer = null;

function checkSource() {
  send({type: "check", source: $("source").value, edition: $("editor-edition").value}, (m) => {
    const ul = $("diagnostics");
    ul.innerHTML = "";
    if (!m.diagnostics.length) { ul.innerHTML = `<li class="ok">no errors</li>`; }
    for (const d of m.diagnostics) {
      const li = document.createElement("li");
      li.textContent = `${d.line}:${d.column} error[${d.code}]: ${d.message}${d.hint ? " — " + d.hint : ""}`;
      ul.appendChild(li);
    }
    $("rendered").textContent = m.card ? m.card.rendered : "";
    $("disassembly").textContent = m.card ? m.card.disassembly : "";
  });
}

function runSandbox() {
  send({type: "sandbox", source: $("source").value, edition: $("editor-edition").value, seed: Date.now() % 1000}, (m) => {
    const ol = $("sandbox-log"); ol.innerHTML = "";
    for (const line of m.log) { const li = document.createElement("li"); li.textContent = line; ol.appendChild(li); }
    if (m.error) { const li = document.createElement("li"); li.textContent = "error: " + m.error; ol.appendChild(li); }
  });
}

// ---------------------------------------------------------------- wiring
document.querySelectorAll(".tab").forEach((b) => b.onclick = () => {
  document.querySelectorAll(".tab, .panel").forEach((x) => x.classList.remove("active"));
  b.classList.add("active"); $(b.dataset.tab).classList.add("active");
});
$("players").onchange = seatChoices;
$("new-game").onsubmit = startGame;
$("save").onclick = save;
$("load").onchange = load;
$("source").value = EXAMPLE;
$("source").oninput = () => { clearTimeout(timer); timer = setTimeout(checkSource, 250); };
$("editor-edition").onchange = checkSource;
$("sandbox").onclick = runSandbox;
seatChoices();
connect();
