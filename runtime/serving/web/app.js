// InnoScript playground: a frontend of the JSON protocol (docs/protocol.md), no dependencies.
// Cards are drawn by cards.js (window.InnoCards). Game data is only ever put in the page with textContent and
// DOM building, never parsed as HTML.
"use strict";
const $ = (id) => document.getElementById(id);
const C = window.InnoCards;
const BOTS = ["search", "heuristic", "greedy", "random"];   // the search bot is the default opponent
let ws, game = null, seats = [], tokens = {}, pending = {}, nextId = 1, views = {}, catalogs = {}, edition = "3e";
let sets = [], setLabels = [], offered = [];   // the game's sets and their labels; the editions and sets offered
let logTurn = null, logGroup = null, canUndo = false;
let seeds = false;                             // whether the server takes a seed (started with --allow-seeds)

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

function status(text) { $("status").textContent = text; }

function connect() {
  ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  ws.onopen = () => { status("connected"); send({type: "hello"}, hello); checkSource(); };
  ws.onclose = () => status("disconnected");
  ws.onmessage = (ev) => handle(JSON.parse(ev.data));
}

function send(msg, then) {
  msg.id = nextId++;
  if (then) pending[msg.id] = then;
  ws.send(JSON.stringify(msg));
}

// A seat's token, when the server handed one out on create/load, goes with every message for that seat.
function seated(msg, player) {
  if (player !== null && player !== undefined && tokens[player]) msg.token = tokens[player];
  return msg;
}

function handle(msg) {
  if (msg.re && pending[msg.re]) { const f = pending[msg.re]; delete pending[msg.re]; f(msg); return; }
  if (msg.type === "update") { views[msg.player] = msg.view; addLog(msg.events, msg.view); refresh(); }
  if (msg.type === "error") status("error: " + msg.message);
}

// A game's cards are its edition's and its sets': one catalog per edition and sets.
function catalogKey(ed, s) { return [ed].concat(s || []).join("+"); }

function catalog(ed, s, then) {
  const key = catalogKey(ed, s);
  if (catalogs[key]) return then(catalogs[key]);
  send({type: "cards", edition: ed, sets: s || []}, (m) => {
    if (m.type === "error") { status(m.message); return; }
    const byId = {}, byName = {};
    for (const c of m.cards) { byId[c.id] = c; byName[c.name] = c; }
    catalogs[key] = {byId, byName, manifest: m.manifest};
    then(catalogs[key]);
  });
}

function gameCatalog() { return catalogs[catalogKey(edition, sets)]; }

// ---------------------------------------------------------------- card text on demand
function lookup(node) {
  const cat = gameCatalog();
  if (!cat) return null;
  if (node.dataset.cardId !== undefined) return cat.byId[node.dataset.cardId];
  if (node.dataset.card) return cat.byName[node.dataset.card];
  return null;
}

let tipFor = null, pressTimer = null, pressed = false;   // the card whose text is open; a long press under way
// Where the pointer stood when the table was last drawn: a page redrawn under a still mouse sends it "over" a
// new card, which is no request for its text; moving away is.
let pointer = {x: -1, y: -1}, still = null;

function showTip(node) {
  const face = lookup(node);
  const tip = $("card-tip");
  if (!face) return;
  tip.replaceChildren(C.detail(face));
  tip.hidden = false;
  tipFor = node;
  const r = node.getBoundingClientRect();
  if (window.innerWidth > 700) {   // beside the card; on a phone the tip is a sheet at the bottom (CSS)
    const w = tip.offsetWidth, h = tip.offsetHeight;
    let x = r.right + 8, y = r.top;
    if (x + w > window.innerWidth - 8) x = Math.max(8, r.left - w - 8);
    if (y + h > window.innerHeight - 8) y = Math.max(8, window.innerHeight - h - 8);
    tip.style.left = x + "px"; tip.style.top = y + "px";
  }
}

function hideTip() { $("card-tip").hidden = true; tipFor = null; }

function cardNode(target) { return target && target.closest ? target.closest("[data-card-id], [data-card]") : null; }

// Card text only when asked: a mouse over a card, a click or a long press on one, or a focus made from the
// keyboard. A touch also sends mouse events and a page's own focus() is no request, hence the checks.
document.addEventListener("pointerover", (ev) => {
  const n = ev.pointerType === "mouse" && !still && cardNode(ev.target);
  if (n) showTip(n);
});
document.addEventListener("pointermove", (ev) => {
  pointer = {x: ev.clientX, y: ev.clientY};
  if (!still || (Math.abs(ev.clientX - still.x) < 3 && Math.abs(ev.clientY - still.y) < 3)) return;
  still = null;
  const n = ev.pointerType === "mouse" && cardNode(ev.target);
  if (n) showTip(n);
});
document.addEventListener("pointerout", (ev) => {
  if (ev.pointerType === "mouse" && cardNode(ev.target) && !cardNode(ev.relatedTarget)) hideTip();
});
document.addEventListener("focusin", (ev) => {
  const n = cardNode(ev.target);
  if (n && n.matches(":focus-visible")) showTip(n);
  else if (!n) hideTip();
});
document.addEventListener("pointerdown", (ev) => {
  pressed = false;
  clearTimeout(pressTimer);
  const n = ev.pointerType !== "mouse" && cardNode(ev.target);
  if (n) pressTimer = setTimeout(() => { pressed = true; showTip(n); }, 450);
});
for (const t of ["pointerup", "pointercancel"]) document.addEventListener(t, () => clearTimeout(pressTimer));
document.addEventListener("contextmenu", (ev) => { if (cardNode(ev.target)) ev.preventDefault(); });
document.addEventListener("click", (ev) => {   // the click that ends a long press only shows the text
  if (pressed) { pressed = false; ev.preventDefault(); ev.stopPropagation(); }
}, true);
document.addEventListener("click", (ev) => {
  const n = cardNode(ev.target);
  if (n && !n.closest("button") && !n.classList.contains("selectable")) showTip(n);   // a tap on a card
  else if (!ev.target.closest("#card-tip")) hideTip();
});
document.addEventListener("keydown", (ev) => { if (ev.key === "Escape") hideTip(); });

// ---------------------------------------------------------------- new game
function seatChoices() {
  const n = +$("players").value, box = $("seats");
  const kinds = Array.from(box.querySelectorAll("select"), (x) => x.value);
  const names = Array.from(box.querySelectorAll("input"), (x) => x.value);
  box.replaceChildren();
  for (let i = 0; i < n; i++) {
    const s = el("select");
    s.id = "seat-" + i;
    for (const k of ["you", ...BOTS]) s.appendChild(el("option", null, k));
    s.value = kinds[i] || (i === 0 ? "you" : "search");
    const name = el("input");
    name.id = "name-" + i; name.type = "text"; name.maxLength = 40; name.size = 9;
    name.placeholder = `Player ${i + 1}`; name.value = names[i] || "";
    name.setAttribute("aria-label", `Seat ${i + 1}: name`);
    const l = el("label", null, `Seat ${i + 1} `); l.appendChild(s);
    const f = el("span", "seat-field"); f.append(l, name); box.appendChild(f);
  }
}

// Names as typed, less control characters; an empty one is the server's default. None typed: none sent.
function seatNames(n) {
  const names = Array.from({length: n}, (_, i) => $("name-" + i).value.replace(/[\u0000-\u001f\u007f]/g, "").trim());
  return names.some(Boolean) ? names.map((x, i) => (x || `Player ${i + 1}`).slice(0, 40)) : null;
}

function setup(open) {
  $("new-game").hidden = !open;
  $("setup-toggle").setAttribute("aria-expanded", String(open));
}

function humans() { return seats.map((k, i) => k === "you" ? i : -1).filter((i) => i >= 0); }

function resetTable() {
  views = {}; tokens = {}; logTurn = null; logGroup = null;
  $("log").replaceChildren(); $("end").hidden = true; $("save").disabled = false;
}

function started(m) {
  if (m.type === "error") { status(m.message); return; }
  game = m.game; edition = m.edition; sets = (m.sets || []).map((s) => s.set); setLabels = (m.sets || []).map((s) => s.label);
  if (m.seats) m.seats.forEach((t, i) => { if (t) tokens[i] = t; });   // secret: kept only in this page
  tokens.owner = m.owner;
  setup(false);                      // the form folds away: the table gets the room
  setNote(m.sets || []);
  catalog(edition, sets, (cat) => { C.setManifest(cat.manifest); C.setCatalog(cat.byName); joinAll(); });
}

// An incomplete set (fewer cards written than printed) is said above the table for the whole game.
function setNote(report) {
  const missing = report.filter((s) => !s.complete);
  const note = $("set-note");
  note.textContent = missing.map((s) => `${s.label}: ${s.cards} of its ${s.expected} cards are written; ` +
                                        "the others are not in this game.").join(" ");
  note.hidden = !missing.length;
}

// ---------------------------------------------------------------- editions and sets offered
function hello(m) {
  offered = m.editions || [];
  seeds = m.seeds === true;            // only a server started with --allow-seeds (tests) takes a seed
  $("seed-field").hidden = !seeds;
  const ed = $("edition"), was = ed.value;
  if (offered.length) {
    ed.replaceChildren(...offered.map((e) => { const o = el("option", null, e.edition); o.title = e.label; return o; }));
    ed.value = offered.some((e) => e.edition === was) ? was : offered[0].edition;
  }
  setChoices();
  editorSetChoices();
}

// The sets offered for the edition chosen in a select (the new-game form's, or the editor's), as checkboxes.
function setChoices(select = "edition", box = "sets", prefix = "set-", onchange = null) {
  const e = offered.find((x) => x.edition === $(select).value);
  $(box).replaceChildren();
  for (const s of (e ? e.sets : [])) {
    const c = el("input"); c.type = "checkbox"; c.value = s.set; c.id = prefix + s.set;
    // a set played only with others (relics with Artifacts): ticking it ticks them, unticking them unticks it
    c.onchange = () => {
      for (const r of (c.checked ? s.requires || [] : [])) { const o = $(prefix + r); if (o) o.checked = true; }
      for (const d of (e.sets || []).filter((x) => (x.requires || []).includes(s.set))) {
        const o = $(prefix + d.set); if (o && !c.checked) o.checked = false;
      }
      if (onchange) onchange();
    };
    const l = el("label", "set-choice"); l.title = s.label; l.append(c, " " + s.label);
    if (s.requires) l.append(el("span", "set-requires", ` (with ${s.requires.join(", ")})`));
    if (s.complete === false) l.append(el("span", "set-incomplete", ` (incomplete: ${s.cards} of ${s.expected} cards)`));
    if (s.removed) l.append(el("span", "set-removed", ` (played without ${s.removed.join(", ")})`));
    $(box).appendChild(l);
  }
}

function editorSetChoices() { setChoices("editor-edition", "editor-sets", "editor-set-", checkSource); }

function chosenSets(box = "sets") { return Array.from(document.querySelectorAll(`#${box} input:checked`)).map((c) => c.value); }

function startGame(ev) {
  ev.preventDefault();
  const n = +$("players").value;
  seats = Array.from({length: n}, (_, i) => $("seat-" + i).value);
  resetTable();
  const msg = {type: "create", edition: $("edition").value, players: n, sets: chosenSets(),
               bots: seats.map((k) => k === "you" ? null : k),
               options: {teams: $("teams").value, extra_achievement: $("extra-achievement").checked}};
  const names = seatNames(n);
  if (names) msg.names = names;
  if (seeds) msg.seed = +$("seed").value;   // otherwise the server deals from a seed no one sees
  send(msg, started);
}

function joinAll() {
  for (const p of humans()) send(seated({type: "join", game, player: p}, p), (m) => { views[p] = m.view; refresh(); });
  if (!humans().length) send({type: "join", game, player: null}, (m) => { views[null] = m.view; refresh(); });
}

function currentView() {
  const any = Object.values(views)[0];
  if (!any) return null;
  const d = any.decision;
  if (d && views[d.player]) return views[d.player];
  return views[humans()[0]] || any;
}

function seatLabel(i) {
  const k = seats[i];
  return k === "you" ? (humans().length > 1 ? "you, hot-seat" : "you") : k + " bot";
}

// ---------------------------------------------------------------- the table
function refresh() {
  const v = currentView();
  if (!v) return;
  const table = $("table");
  table.replaceChildren();
  const t = v.turn;
  $("turn").textContent = v.result ? "Game over"
    : v.phase === "setup" ? "Setting up: each player melds a card from their hand"
    : `Turn ${t.number}: ${v.players[t.active].name} to play, ${t.actions_left} action${t.actions_left === 1 ? "" : "s"} left`;
  const players = el("div", "players");
  players.dataset.n = v.players.length;   // the more players, the smaller their cards (CSS)
  for (const i of seatOrder(v)) players.appendChild(playerBox(v, v.players[i], i));
  table.appendChild(players);
  table.appendChild(sharedBox(v));
  showDecision(v);
  if (tipFor && !tipFor.isConnected) hideTip();   // its card was redrawn
  still = Object.assign({}, pointer);
  showEnd(v);
  canUndo = !!v.can_undo;
  // the server says whether this seat's last action may be taken back (not when it showed a hidden card)
  $("undo").disabled = !(canUndo && v.decision && v.decision.kind === "action" && humans().includes(v.decision.player) && game);
}

// You first, your partner beside you (team play), then the others in turn order from your left.
function seatOrder(v) {
  const n = v.players.length;
  const me = humans().length ? humans()[0] : 0;
  const around = (v.seating && v.seating.length === n) ? v.seating : v.players.map((_, i) => i);
  const k = Math.max(0, around.indexOf(me));
  const order = around.slice(k).concat(around.slice(0, k));
  const partner = v.players[me] ? v.players[me].partner : undefined;
  if (partner === undefined || partner === null) return order;
  return [me, partner].concat(order.filter((q) => q !== me && q !== partner));
}

function playerBox(v, p, i) {
  const box = el("section", "player" + (v.decision && v.decision.player === i ? " deciding" : ""));
  box.dataset.player = i;
  if (v.teams && p.team !== undefined) box.dataset.team = p.team;
  box.setAttribute("aria-label", p.name);
  const head = el("div", "phead");
  const h = el("h3");
  h.appendChild(el("span", "pname", p.name));
  h.appendChild(el("span", "seat", ` (${seatLabel(i)})`));
  head.appendChild(h);
  const stats = el("dl", "stats");
  const stat = (k, val) => { stats.appendChild(el("dt", null, k)); const d = el("dd"); d.append(val); stats.appendChild(d); };
  stat("Score", scoreText(p));
  const ach = el("span", "achievements");
  if (!p.achievements.count) ach.textContent = "none";
  for (const a of p.achievements.ages) ach.appendChild(el("span", "ach", a));
  for (const s of p.achievements.special) ach.appendChild(el("span", "ach special", s));
  stat(`Achievements (${p.achievements.count})`, ach);
  if (v.teams && p.partner !== undefined) {   // team play: the partner and the team's pooled achievements
    const t = v.teams[p.team];
    stat("Team", `with ${v.players[p.partner].name}: ${t.achievements} achievements, ${t.points} points`);
  }
  const own = Array.isArray(p.hand), ownScore = Array.isArray(p.score);
  stat("Hand", String(own ? p.hand.length : p.hand.count));
  stat("Score pile", String(ownScore ? p.score.length : p.score.ages.length));
  head.appendChild(stats);
  const icons = el("ul", "icon-counts");
  icons.setAttribute("aria-label", "icon counts");
  for (const [k, n] of Object.entries(p.icons)) {
    const li = el("li"); li.appendChild(C.icon(k)); li.appendChild(el("span", null, n)); icons.appendChild(li);
  }
  head.appendChild(icons);
  box.appendChild(head);
  const board = el("div", "board");
  board.setAttribute("aria-label", `${p.name}'s board`);
  for (const [color, pile] of Object.entries(p.board)) board.appendChild(C.compactPile(pile, {color}));
  box.appendChild(board);
  const zone = (label, cards, opts) => {
    const z = el("div", "zone");
    z.appendChild(el("h4", null, label));
    z.appendChild(C.row(cards, Object.assign({empty: "empty"}, opts)));
    return z;
  };
  const backs = (ages) => ages.map((a) => ({hidden: true, age: a}));
  const zones = el("div", "zones");
  // the cards the viewer may play drawn small with their icons; the others' as chips of their ages
  zones.appendChild(zone("Hand", own ? p.hand : backs(p.hand.ages), own ? {compact: true, cls: "hand"} : {chips: true}));
  zones.appendChild(zone(`Score pile (${p.points} points)`, ownScore ? p.score : backs(p.score.ages), {chips: true}));
  if (p.revealed.length) zones.appendChild(zone("Revealed", p.revealed, {compact: true}));
  // a set's zones (the forecast): its cards for their owner, their number and ages for the others
  for (const [name, z] of Object.entries(p.zones || {})) {
    const limit = z.limit === null || z.limit === undefined ? "" : `, at most ${z.limit}`;
    const size = z.count === undefined ? "size hidden" : `${z.count} card${z.count === 1 ? "" : "s"}`;
    const label = `${name[0].toUpperCase() + name.slice(1)} (${size}${limit})`;
    const zb = z.cards ? zone(label, z.cards, {compact: true}) : zone(label, backs(z.ages || []), {chips: true});
    zb.classList.add("set-zone"); zb.dataset.zone = name;
    zones.appendChild(zb);
  }
  box.appendChild(zones);
  return box;
}

// The score and what makes it: the score pile's values, and what the sets in play add (Echoes' bonuses).
function scoreText(p) {
  const ages = Array.isArray(p.score) ? p.score.map((c) => c.age) : p.score.ages;
  const pile = ages.reduce((a, b) => a + b, 0);
  const extra = p.points - pile;
  if (!extra) return String(p.points);
  return `${p.points} (${pile} in the score pile, ${extra > 0 ? "+" : ""}${extra} from ${setLabels.join(" and ") || "the sets"})`;
}

// One supply's piles, each a back of its age (and set) with its count.
function supplyRow(piles, set) {
  const row = el("ul", "supply");
  if (set) row.setAttribute("aria-label", `${set} supply`);
  for (const [age, n] of Object.entries(piles)) {
    const li = el("li", n ? "" : "empty"); li.appendChild(C.chip({hidden: true, age, set})); li.appendChild(el("span", "n", "×" + n));
    li.setAttribute("aria-label", (set ? `${set} ` : "") + `age ${age}: ${n} cards`);
    row.appendChild(li);
  }
  return row;
}

function sharedBox(v) {
  const box = el("section", "shared");
  box.setAttribute("aria-label", "Supply and achievements");
  const supply = el("div", "zone");
  supply.appendChild(el("h4", null, "Supply (cards left per age)"));
  supply.appendChild(supplyRow(v.supply, null));
  for (const [name, piles] of Object.entries(v.set_supply || {})) supply.appendChild(supplyRow(piles, name));
  box.appendChild(supply);
  const avail = el("div", "zone");
  avail.appendChild(el("h4", null, "Achievements available"));
  const ar = el("div", "inno-row");
  for (const a of v.available.standard) ar.appendChild(C.chip({hidden: true, age: a}, {cls: "achievement"}));
  for (const s of v.available.special) ar.appendChild(C.chip({special: s}));
  if (!v.available.standard.length && !v.available.special.length) ar.appendChild(el("span", "inno-none", "none"));
  avail.appendChild(ar);
  box.appendChild(avail);
  if (v.junk.count || v.junk.special.length || v.edition !== "3e") {
    const junk = el("div", "zone");
    junk.appendChild(el("h4", null, `Junk (${v.junk.count} card${v.junk.count === 1 ? "" : "s"})`));
    junk.appendChild(C.row(v.junk.ages.map((a) => ({hidden: true, age: a})).concat(v.junk.special.map((s) => ({special: s}))),
                           {empty: "empty", chips: true}));
    box.appendChild(junk);
  }
  // a set's game-wide zones: their cards when everyone sees them, else backs of their ages
  for (const [name, z] of Object.entries(v.zones || {})) {
    const limit = z.limit === null || z.limit === undefined ? "" : `, at most ${z.limit}`;
    const zb = el("div", "zone set-zone");
    zb.dataset.zone = name;
    zb.appendChild(el("h4", null, `The ${name} (${z.count} card${z.count === 1 ? "" : "s"}${limit})`));
    zb.appendChild(C.row(z.cards ? z.cards : (z.ages || []).map((a) => ({hidden: true, age: a})), {empty: "empty", chips: true}));
    box.appendChild(zb);
  }
  return box;
}

// ---------------------------------------------------------------- decisions
let refusal = null, waiting = false;   // a refused answer ({decision, text}) until the next answer; a reply awaited

function handleOf(o) { return (o && typeof o === "object") ? (o.id ?? o.ref ?? o.special) : o; }

function optionButton(label, face, onclick) {
  const b = el("button", "option");
  b.type = "button";
  if (face && !face.hidden && face.name) { b.dataset.cardId = face.id; b.classList.add("inno-" + face.color); b.classList.add("card-option"); }
  b.appendChild(el("span", "label", label));
  b.onclick = onclick;
  return b;
}

// The counts a choice of several allows, as the decision gives them (sizes, else min to max).
function counts(d) {
  if (d.sizes) return d.sizes.slice().sort((a, b) => a - b);
  const lo = d.min ?? 1, hi = Math.min(d.max ?? 1, d.options.length), out = [];
  for (let k = lo; k <= hi; k++) out.push(k);
  return out;
}

function colorsOf(faces) { return faces.map((o) => o && o.color).filter(Boolean); }

// Whether the options picked (indexes) make a legal answer.
function legalPick(d, picked) {
  const n = picked.length;
  if (d.kind === "order") return n === d.options.length;
  if (!counts(d).includes(n)) return false;
  if (d.one_per_color && n && colorsOf(d.options).length === d.options.length) {   // backs: the server judges
    const mine = colorsOf(picked.map((i) => d.options[i]));
    return new Set(mine).size === n && n === new Set(colorsOf(d.options)).size;
  }
  return true;
}

// A choice whose only answer, but for none, is every option: one button does it.
function onlyAll(d) {
  const n = d.options.length;
  if (d.kind !== "select_cards" || !n) return false;
  if (d.one_per_color) return colorsOf(d.options).length === n && new Set(colorsOf(d.options)).size === n;
  const some = counts(d).filter((k) => k > 0);
  return some.length === 1 && some[0] === n;
}

function allowedText(d) {
  if (d.one_per_color) return d.min === 0 ? "one of each colour, or none" : "one of each colour";
  const ks = counts(d);
  if (ks.length > 2 && ks[ks.length - 1] - ks[0] === ks.length - 1) return `choose ${ks[0]}–${ks[ks.length - 1]}`;
  return "choose " + (ks.length > 1 ? ks.slice(0, -1).join(", ") + " or " + ks[ks.length - 1] : String(ks[0]));
}

function confirmText(w, d, n) {
  if (d.kind === "order") return w.confirm;
  if (d.kind !== "select_cards") return `${w.confirm} (${n} of ${d.max})`;
  return `${w.confirm} ${n} card${n === 1 ? "" : "s"} (${allowedText(d)})`;
}

function showDecision(v) {
  const box = $("decision");
  box.replaceChildren();
  const d = v.decision;
  box.dataset.decision = d ? d.id : "";
  if (!d) return;
  if (!d.options) { box.appendChild(el("h2", "prompt", `Waiting for ${v.players[d.player].name}…`)); return; }
  const w = d.wording || {title: d.prompt || d.kind, labels: d.options.map(String)};
  const h = el("h2", "prompt");
  h.id = "prompt";
  h.textContent = (humans().length > 1 ? v.players[d.player].name + ": " : "") + w.title;
  box.appendChild(h);
  if (w.effect) {
    const q = el("blockquote", "effect");
    const src = d.source && gameCatalog() && gameCatalog().byName[d.source];
    if (src) q.appendChild(C.icon(src.dogma));
    q.appendChild(C.richText(w.effect));
    box.appendChild(q);
  }
  if (w.warning) box.appendChild(el("p", "warning", w.warning));
  const single = d.kind === "select_cards" && d.max === 1;   // one card: a click on it answers
  const whole = !single && onlyAll(d);
  const multi = !!w.confirm && !single && !whole;
  const picked = [];
  const list = el("div", "options");
  list.setAttribute("role", "group");
  list.setAttribute("aria-labelledby", "prompt");
  const ok = el("button", "option confirm");
  const update = () => {
    ok.textContent = confirmText(w, d, picked.length);
    ok.disabled = !legalPick(d, picked) || (!picked.length && !!w.decline);   // none: the Skip button
    for (const c of document.querySelectorAll("#table .selectable")) {
      c.classList.toggle("picked", picked.some((i) => String(handleOf(d.options[i])) === c.dataset.cardId));
    }
  };
  if (whole) {
    const n = d.options.length;
    const names = d.options.map((o) => o.name || `a [${o.age}]`).join(", ");
    const b = optionButton(`${w.confirm || "Choose"} ${n === 2 ? "both cards" : `all ${n} cards`} (${names})`, null,
                           () => answer(d, d.options.map(handleOf)));
    b.classList.add("all");
    list.appendChild(b);
  }
  d.options.forEach((o, i) => {
    if (whole) return;
    const face = d.kind === "action" ? o.card : (o && typeof o === "object" ? o : null);
    const b = optionButton(w.labels[i] || String(o), face, () => {
      if (single) return answer(d, [handleOf(o)]);
      if (!multi) return answer(d, d.kind === "action" ? o : handleOf(o));
      const at = picked.indexOf(i);
      if (at >= 0) { picked.splice(at, 1); b.classList.remove("picked"); b.setAttribute("aria-pressed", "false"); }
      else { picked.push(i); b.classList.add("picked"); b.setAttribute("aria-pressed", "true"); }
      if (d.kind === "order") {
        list.querySelectorAll(".option").forEach((x) => {
          const k = picked.indexOf(+x.dataset.index);
          x.querySelector(".label").textContent = (k >= 0 ? `${k + 1}. ` : "") + w.labels[+x.dataset.index];
        });
      }
      update();
    });
    b.dataset.index = i;
    b.setAttribute("accesskey", i < 9 ? String(i + 1) : "");
    if (multi) b.setAttribute("aria-pressed", "false");
    if (d.kind === "action" && o.type === "dogma" && o.preview && (o.preview.opponents_share || o.preview.shares).length) b.classList.add("shared");
    list.appendChild(b);
  });
  box.appendChild(list);
  if (multi) {
    ok.id = "confirm"; ok.type = "button";
    ok.onclick = () => { if (legalPick(d, picked)) answer(d, picked.map((i) => handleOf(d.options[i]))); };
    box.appendChild(ok);
  }
  if (w.decline) {
    const no = el("button", "option decline", w.decline);
    no.id = "decline"; no.type = "button";
    no.onclick = () => answer(d, d.kind === "splay_color" ? null : []);
    box.appendChild(no);
  }
  if (refusal && refusal.decision === d.id) {
    const r = el("p", "refusal", refusal.text);
    r.id = "refusal"; r.setAttribute("role", "alert");
    box.appendChild(r);
  }
  box.appendChild(el("p", "keys", "Keys: 1–9 or Tab and Enter choose; Esc hides a card's text."));
  markSelectable(d, single || multi);
  if (multi) update();
}

// The options of a card choice are clickable where they lie on the table (a hand, a board, a score pile).
function markSelectable(d, cards) {
  if (!cards && d.kind !== "initial_meld") return;
  const ids = new Set(d.options.map((o) => o && typeof o === "object" && o.id !== undefined ? String(o.id) : null));
  for (const c of document.querySelectorAll("#table [data-card-id]")) {
    if (!ids.has(c.dataset.cardId)) continue;
    c.classList.add("selectable");
    c.setAttribute("role", "button");
  }
}

function optionFor(node) {
  return document.querySelector(`#decision .options .option[data-card-id="${CSS.escape(node.dataset.cardId)}"]`);
}

$("table").addEventListener("click", (ev) => {
  const n = ev.target.closest(".selectable");
  const b = n && optionFor(n);
  if (b) b.click();
});
$("table").addEventListener("keydown", (ev) => {
  const n = (ev.key === "Enter" || ev.key === " ") && ev.target.closest(".selectable");
  const b = n && optionFor(n);
  if (b) { ev.preventDefault(); b.click(); }
});

// number keys answer the decision: the n-th option
document.addEventListener("keydown", (ev) => {
  if (ev.target.closest && ev.target.closest("input, textarea, select")) return;
  if (!$("play").classList.contains("active") || !/^[1-9]$/.test(ev.key)) return;
  const b = document.querySelectorAll("#decision .options .option")[+ev.key - 1];
  if (b) { ev.preventDefault(); b.click(); }
});

function answer(d, value) {
  if (waiting) return;
  waiting = true;
  refusal = null;
  hideTip();
  still = Object.assign({}, pointer);
  send(seated({type: "answer", game, player: d.player, decision: d.id, answer: value}, d.player), (m) => {
    waiting = false;
    if (m.type === "error") {   // said beside the buttons, the decision asked again as it was
      refusal = {decision: d.id, text: m.message};
      refresh();
      return;
    }
    views[m.player] = m.view; addLog(m.events, m.view);
    for (const p of humans()) if (p !== m.player) send(seated({type: "view", game, player: p}, p), (r) => { views[p] = r.view; refresh(); });
    refresh();
    // focus stays in the decision (Tab reaches its options) without opening a card's text
    if (!document.activeElement || document.activeElement === document.body) $("decision").focus({preventScroll: true});
  });
}

function undo() {
  const v = currentView();
  if (!v || !v.decision) return;
  const p = v.decision.player;
  send(seated({type: "undo", game, player: p}, p), (m) => {
    if (m.type === "error") { status(m.message); return; }
    views[m.player] = m.view; status("the last action was taken back");
    const li = el("li", "undo", "(the last action was taken back)"); (logGroup || $("log")).appendChild(li);
    refresh();
  });
}

// ---------------------------------------------------------------- end of game
function showEnd(v) {
  const box = $("end");
  if (!v.result) { box.hidden = true; return; }
  box.replaceChildren();
  const winners = v.result.winners.map((w) => v.players[w].name);
  box.appendChild(el("h2", null, `Game over: ${winners.join(" and ")} won`));
  box.appendChild(el("p", "reason", `by ${String(v.result.reason).replace(/_/g, " ")}`));
  const t = el("table");
  const hr = el("tr");
  for (const k of ["Player", "Achievements", "Score", "Special"]) hr.appendChild(el("th", null, k));
  t.appendChild(hr);
  v.players.forEach((p, i) => {
    const tr = el("tr", v.result.winners.includes(i) ? "winner" : "");
    for (const val of [p.name, p.achievements.count, p.points, p.achievements.special.join(", ") || "-"]) tr.appendChild(el("td", null, val));
    t.appendChild(tr);
  });
  box.appendChild(t);
  const again = el("button", null, "New game"); again.type = "button";
  again.onclick = () => { box.hidden = true; setup(true); $("start").focus(); };
  box.appendChild(again);
  box.hidden = false;
}

// ---------------------------------------------------------------- the event log
const VERBS = {draw: "draws", meld: "melds", tuck: "tucks", score: "scores", return: "returns", transfer: "transfers",
               reveal: "reveals", keep: "keeps", junk: "junks", remove: "removes", take: "takes", achieve: "achieves",
               dogma: "uses the dogma of", execute: "executes", splay: "splays", exchange: "exchanges"};
const ZONES = {hand: "hand", score: "score pile", board: "board", supply: "supply", achievements: "achievements",
               available: "available achievements", revealed: "revealed cards", junk: "junk"};   // a set's zones: their names

function pname(v, p) { return typeof p === "number" && v.players[p] ? v.players[p].name : ""; }

function cardSpan(c) {
  const s = el("span", "log-card");
  if (!c || c.hidden) { s.textContent = c ? `a [${c.age}]` : "a card"; return s; }
  if (c.special) { s.textContent = c.special; return s; }
  s.textContent = c.name;
  s.classList.add("inno-" + c.color);
  s.dataset.cardId = c.id; s.tabIndex = 0;
  return s;
}

function place(v, zone, owner, actor) {
  const z = ZONES[zone] || zone;
  if (owner === null || owner === undefined || ["supply", "junk", "available"].includes(zone)) return `the ${z}`;
  return owner === actor ? `their ${z}` : `${pname(v, owner)}'s ${z}`;
}

function logEntry(e, v) {
  const li = el("li", "ev ev-" + e.type);
  const who = pname(v, e.player);
  const t = e.type;
  if (t === "effect") {
    if (!e.cell) return null;   // a cell's effect (an echo effect) is marked; a dogma's own effects are not
    li.append(`↳ ${InnoCards.cellLabel(e.cell)} of `, cardSpan(e.card), who ? ` for ${who}` : "");
    li.classList.add("ev-cell-effect");
    return li;
  }
  // a set's verbs come with its events: into its zone ("foreshadows"), or moving as a meld ("promotes")
  if (e.zone && e.card && !(t in VERBS)) { li.append(`${who} ${t}s `, cardSpan(e.card)); return li; }
  if ((t === "meld" || t === "tuck") && e.verb) {
    li.append(`${who} ${e.verb}s `, cardSpan(e.card), e.from ? ` from their ${e.from}` : "");
    return li;
  }
  if (t === "action") return null;
  if (t === "dogma") {
    li.append(`${who} uses the ${e.free ? "free dogma" : "dogma"} of `, cardSpan(e.card));
    if (e.mark) li.appendChild(el("span", `mark ${e.mark}`, ` (${e.mark})`));
    const icon = e.icon;
    const active = e.counts ? e.counts[e.player] : null;
    if (icon && e.counts) {
      const sharers = e.counts.map((n, q) => q !== e.player && n >= active ? pname(v, q) : null).filter(Boolean);
      if (sharers.length) li.appendChild(el("span", "mark share", ` shared by ${sharers.join(", ")}`));
    }
    return li;
  }
  if (t === "sharing_bonus") { li.appendChild(el("span", "mark share", `${who} gets the sharing bonus (a free draw)`)); return li; }
  if (t === "splay") { li.textContent = `${who} splays ${e.color} ${e.direction}`; return li; }
  if (t === "special_achievement") { li.textContent = `${who} claims ${e.name}`; return li; }
  if (t === "achieve" && e.age) { li.textContent = `${who} achieves age ${e.age}${e.from ? ` from their ${e.from}` : ""}`; return li; }
  if (t === "game_over") { li.textContent = `game over: ${e.winners.map((w) => pname(v, w)).join(", ")} won by ${String(e.reason).replace(/_/g, " ")}`; return li; }
  if (t === "exchange") {   // each card named as this seat may see it, hidden ones by their age (as the terminal)
    const side = (cards, zone, owner) => {
      if (!cards || !cards.length) return ["nothing"];
      const out = [];
      cards.forEach((c, k) => { if (k) out.push(k === cards.length - 1 ? " and " : ", "); out.push(cardSpan(c)); });
      if (zone) out.push(` from ${place(v, zone, owner, e.player)}`);
      return out;
    };
    li.append(`${who} exchanges `, ...side(e.cards, e.zone, e.owner), " with ", ...side(e.other, e.other_zone, e.other_owner));
    return li;
  }
  if (t === "coin_flip") { li.textContent = `${who} flips a coin and ${e.won ? "wins" : "loses"} the flip`; return li; }
  if (t === "draw_past_end") { li.textContent = `${who} draws past the last age`; return li; }
  if (t === "rearrange") { li.textContent = `${who} rearranges ${e.color}`; return li; }
  if (e.card !== undefined && VERBS[t]) {
    li.append(`${who} ${VERBS[t]} `, cardSpan(e.card));
    const to = e.to !== undefined ? e.to : e.player;
    const dest = {meld: "board", tuck: "board", score: "score", draw: "hand", keep: "hand", transfer: e.zone,
                  achieve: "achievements", junk: "junk", return: "supply", take: "hand"}[t];
    const bits = [];
    if (e.from) bits.push(`from ${place(v, e.from, e.from_player, e.player)}`);
    if (dest && (t === "transfer" || t === "return" || to !== e.player)) bits.push(`to ${place(v, dest, to, e.player)}`);
    if (t === "draw" && e.age && !(e.card && e.card.hidden)) bits.push(`(age ${e.age})`);   // a back shows its age
    if (bits.length) li.append(" " + bits.join(" "));
    return li;
  }
  // bookkeeping a player need not read: a set's rule starting (what it does is logged), a claim it will make
  if (t === "hook" || t === "claim_queued") return null;
  if (t === "eliminated") { li.textContent = `${who} is eliminated from the game`; return li; }
  if (t === "chain_achievement") { li.textContent = `${who} executes within an execution: draws and achieves an [11]`; return li; }
  if (t === "dogma_stopped") { li.textContent = `the dogma action stops: ${e.source || "a card"} went wrong (${e.message || ""})`; return li; }
  li.textContent = `${who} ${t.replace(/_/g, " ")}`.trim();
  return li;
}

function addLog(events, v) {
  const log = $("log");
  for (const e of events) {
    if (e.type === "turn" || !logGroup) {
      const n = e.type === "turn" ? e.number : (v.turn.number || 0);
      logGroup = el("ol", "turn-events");
      const g = el("section", "turn-group");
      g.dataset.turn = String(n);
      g.appendChild(el("h3", null, n ? `Turn ${n}: ${pname(v, e.type === "turn" ? e.player : v.turn.active)}` : "Setting up"));
      g.appendChild(logGroup);
      log.appendChild(g);
      logTurn = n;
      if (e.type === "turn") continue;
    }
    const li = logEntry(e, v);
    if (li) logGroup.appendChild(li);
  }
  log.scrollTop = log.scrollHeight;   // the newest entry is always in view
}

// ---------------------------------------------------------------- save and load
// The log goes into a save as the terminal keeps it, [turn, line] pairs (the latest LOG_KEPT), so either
// frontend resumes a game with its log; a save's log is checked and shown as plain text.
const LOG_KEPT = 2000;

function logLines() {
  const out = [];
  for (const g of document.querySelectorAll("#log section.turn-group")) {
    for (const li of g.querySelectorAll("li")) out.push([Number(g.dataset.turn) || 0, li.textContent.slice(0, 400)]);
  }
  return out.slice(-LOG_KEPT);
}

function restoreLog(entries) {
  const ok = Array.isArray(entries) && entries.length <= LOG_KEPT && entries.every((x) => Array.isArray(x) &&
    x.length === 2 && Number.isInteger(x[0]) && x[0] >= 0 && typeof x[1] === "string" && x[1].length <= 400);
  if (!ok) return false;
  let group = null, turn = null;
  for (const [n, line] of entries) {
    if (n !== turn) {
      const g = el("section", "turn-group restored");
      g.dataset.turn = String(n);
      g.appendChild(el("h3", null, n ? `Turn ${n}` : "Setting up"));
      group = el("ol", "turn-events");
      g.appendChild(group);
      $("log").appendChild(g);
      turn = n;
    }
    group.appendChild(el("li", "ev", line.replace(/[\u0000-\u001f\u007f]/g, " ")));
  }
  logGroup = null;      // the game's next events start their own group
  return true;
}

function save() {
  send({type: "save", game, token: tokens.owner}, (m) => {
    const blob = new Blob([JSON.stringify({game: m.data, seats: seats.map((k) => k === "you" ? "human" : k),
                                           log: logLines()})],
                          {type: "application/json"});
    const a = el("a"); a.href = URL.createObjectURL(blob); a.download = "innoscript-game.json"; a.click();
    status("saved");
  });
}

// Saved games name seats "human" or a bot (older saves: "you"), the same in the terminal and here.
function load(ev) {
  const file = ev.target.files[0];
  if (!file) return;
  file.text().then((text) => {
    let data;
    try { data = JSON.parse(text); } catch (e) { status("not a saved game: " + e.message); return; }
    const g = data.game || data;
    seats = (data.seats || (g.players || []).map(() => "human")).map((k) => (k === "human" || k === "you") ? "you" : k);
    resetTable();
    send({type: "load", data: g, bots: seats.map((k) => k === "you" ? null : k)}, (m) => {
      if (m.type === "error") { started(m); return; }
      const restored = data.log === undefined || restoreLog(data.log);   // before the game's own events
      started(m);
      status(restored ? "resumed" : "resumed (the save's log is not [turn, line] pairs: left out)");
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
let timer = null, checking = false, checkAgain = false;

// One check at a time (the server takes one per connection): a change made meanwhile is checked when the
// reply comes; a busy server is asked again a moment later.
function checkSource() {
  if (checking) { checkAgain = true; return; }
  checking = true;
  send({type: "check", source: $("source").value, edition: $("editor-edition").value, sets: chosenSets("editor-sets")}, (m) => {
    checking = false;
    if (checkAgain) { checkAgain = false; checkSource(); return; }
    if (m.type === "error" && m.code === "busy") { clearTimeout(timer); timer = setTimeout(checkSource, 500); return; }
    if (m.type === "error") { status(m.message); return; }
    const ul = $("diagnostics");
    ul.replaceChildren();
    if (!m.diagnostics.length) ul.appendChild(el("li", "ok", "no errors"));
    for (const d of m.diagnostics) {
      ul.appendChild(el("li", null, `${d.line}:${d.column} error[${d.code}]: ${d.message}${d.hint ? " — " + d.hint : ""}`));
    }
    $("rendered").textContent = m.card ? m.card.rendered : "";
    $("disassembly").textContent = m.card ? m.card.disassembly : "";
    $("editor-card").replaceChildren(...(m.card && m.card.face ? [C.detail(m.card.face)] : []));
  });
}

function runSandbox() {
  send({type: "sandbox", source: $("source").value, edition: $("editor-edition").value, sets: chosenSets("editor-sets"),
        seed: Date.now() % 1000}, (m) => {
    if (m.type === "error") { status(m.message); return; }
    const ol = $("sandbox-log"); ol.replaceChildren();
    for (const line of m.log) ol.appendChild(el("li", null, line));
    if (m.error) ol.appendChild(el("li", null, "error: " + m.error));
  });
}

// ---------------------------------------------------------------- wiring
document.querySelectorAll(".tab").forEach((b) => b.onclick = () => {
  document.querySelectorAll(".tab, .panel").forEach((x) => x.classList.remove("active"));
  b.classList.add("active"); $(b.dataset.tab).classList.add("active");
});
$("players").onchange = seatChoices;
$("setup-toggle").onclick = () => setup($("new-game").hidden);
$("edition").onchange = () => setChoices();
$("new-game").onsubmit = startGame;
$("save").onclick = save;
$("undo").onclick = undo;
$("load").onchange = load;
$("source").value = EXAMPLE;
$("source").oninput = () => { clearTimeout(timer); timer = setTimeout(checkSource, 250); };
$("editor-edition").onchange = () => { editorSetChoices(); checkSource(); };
$("sandbox").onclick = runSandbox;
seatChoices();
C.loadSprite("icons.svg").then(connect, connect);
