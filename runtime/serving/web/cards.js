// InnoScript card renderer: cards drawn as cards, from card JSON, for the web table, the card editor and the docs.
// A classic script with no dependencies; it defines window.InnoCards. Every text is set with textContent, never
// parsed as HTML. Glyphs come from icons.svg (a sprite of <symbol id="inno-icon-NAME">), which must be in the page:
// call InnoCards.loadSprite(url) once, or put the sprite's markup in the page yourself. See docs/card-renderer.md.
"use strict";
(function (root) {
  const SVG = "http://www.w3.org/2000/svg";
  const KNOWN = ["crown", "leaf", "lightbulb", "castle", "factory", "clock", "avatar", "hex"];   // sets' glyphs: by the sprite
  // The printed slots of the base editions; a manifest may name others (passed in opts.manifest).
  const DEFAULT_MANIFEST = {
    icon_positions: ["top_left", "bottom_left", "bottom_middle", "bottom_right"], hex: "hex",
    splays: {left: ["bottom_right"], right: ["top_left", "bottom_left"], up: ["bottom_left", "bottom_middle", "bottom_right"],
             aslant: ["top_left", "bottom_left", "bottom_middle", "bottom_right"]},
  };
  let manifest = DEFAULT_MANIFEST;
  let known = {};   // card name -> catalog entry: completes a view's face with its cells' numbers and effects, and set

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function setManifest(m) { manifest = Object.assign({}, DEFAULT_MANIFEST, m || {}); }

  // The catalog of the game's cards (by name), so faces from views are drawn with what only the catalog holds.
  function setCatalog(byName) { known = byName || {}; }

  function full(face) {
    const entry = face && known[face.name];
    if (!entry) return face;
    const out = Object.assign({}, face);
    for (const k of ["cell_values", "cell_effects", "set"]) if (out[k] === undefined && entry[k] !== undefined) out[k] = entry[k];
    return out;
  }

  function loadSprite(url) {
    if (document.getElementById("inno-icons")) return Promise.resolve();
    return fetch(url || "icons.svg").then((r) => r.text()).then((text) => {
      if (document.getElementById("inno-icons")) return;
      const doc = new DOMParser().parseFromString(text, "image/svg+xml");
      const sprite = document.importNode(doc.documentElement, true);
      sprite.setAttribute("class", "inno-sprite");
      document.body.insertBefore(sprite, document.body.firstChild);
    });
  }

  // One icon glyph; an icon the sprite does not know gets a neutral glyph and keeps its name as its label.
  function icon(name, cls) {
    const s = document.createElementNS(SVG, "svg");
    const known = KNOWN.includes(name) || !!document.getElementById("inno-icon-" + name);
    s.setAttribute("class", "inno-icon inno-icon-" + (known ? name : "unknown") + (cls ? " " + cls : ""));
    s.setAttribute("viewBox", "0 0 32 32");
    s.setAttribute("role", "img");
    s.setAttribute("aria-label", name === manifest.hex ? "hex" : name);
    const t = document.createElementNS(SVG, "title"); t.textContent = name; s.appendChild(t);
    const glyph = !known && (cellSpec(name) || {}).glyph;
    if (glyph) {      // a set's cell with no drawing in the sprite: its manifest's glyph, as text
      const t = document.createElementNS(SVG, "text");
      t.setAttribute("x", "16"); t.setAttribute("y", "23"); t.setAttribute("text-anchor", "middle");
      t.setAttribute("font-size", "22"); t.setAttribute("class", "inno-glyph"); t.textContent = glyph;
      s.setAttribute("class", "inno-icon inno-icon-glyph" + (cls ? " " + cls : ""));
      s.appendChild(t);
      return s;
    }
    const u = document.createElementNS(SVG, "use");
    u.setAttribute("href", "#inno-icon-" + (known ? name : "unknown"));
    s.appendChild(u);
    return s;
  }

  // English with "[castle]"-style icon mentions drawn as glyphs; other brackets (values: "[2]") stay text.
  function richText(text, tag) {
    const out = el(tag || "span", "inno-text");
    const parts = String(text).split(/\[([a-z_]+)\]/);
    parts.forEach((part, i) => {
      if (i % 2 === 0) { if (part) out.appendChild(document.createTextNode(part)); }
      else out.appendChild(icon(part, "inno-inline"));
    });
    return out;
  }

  function slotOf(position) { return "inno-slot-" + String(position).replace(/[^a-z_]/g, ""); }

  // The cells a set declares (the catalog manifest's "cells": word -> {effect, value, label}).
  function cellSpec(name) { return (manifest.cells || {})[name]; }
  function cellLabel(name) { const c = cellSpec(name) || {}; return c.label || (c.effect ? name + " effect" : name); }

  // A cell's words for a screen reader: "bonus 1", "an echo effect", an icon's name.
  function cellWords(face, i) {
    const name = (face.icons || [])[i];
    const value = (face.cell_values || [])[i];
    if (value !== undefined && value !== null) return `${cellLabel(name)} ${value}`;
    if (cellSpec(name) && cellSpec(name).effect) return `an ${cellLabel(name)}`.replace(/^an ([^aeiou])/, "a $1");
    return name;
  }

  // What a printed cell holds: an icon; a set's cell with its number (a bonus); an effect cell (where an echo box is).
  function cell(face, i, position) {
    const name = (face.icons || [])[i];
    const slot = el("span", "inno-slot " + slotOf(position || "extra"));
    if (name === null || name === undefined) { slot.classList.add("inno-blank"); return slot; }   // printed empty
    const value = (face.cell_values || [])[i];
    const g = icon(name);
    if (value !== undefined && value !== null) {
      slot.classList.add("inno-value-cell");
      g.setAttribute("aria-label", cellWords(face, i));
      slot.appendChild(g);
      slot.appendChild(el("span", "inno-cell-value", value));
    } else if (cellSpec(name)) {
      slot.classList.add(cellSpec(name).effect ? "inno-effect-cell" : "inno-value-cell");
      g.setAttribute("aria-label", cellLabel(name));
      slot.appendChild(g);
    } else {
      slot.appendChild(g);
    }
    return slot;
  }

  // The card's cells' effects (an echo effect), each printed in its own box: {cell, text}.
  function effectCells(face, list) {
    if (face.cell_effects) return face.cell_effects;
    return list.filter((e) => e && e.kind === "cell").map((e) => ({cell: e.cell, text: e.text}));
  }

  function describe(face) {
    if (!face) return "";
    if (face.hidden) return `a hidden card of age ${face.age}`;
    if (face.special) return `special achievement ${face.special}`;
    if (face.token) return face.name;
    return `${face.name}, age ${face.age}, ${face.color}` + (face.set && face.set !== "base" ? `, set ${face.set}` : "");
  }

  // A card face: colour frame, name, age, and the icons in their printed slots.
  // opts.text: the card's effects ([{kind, text}] or [text]) drawn on the card; opts.focusable: a tab stop.
  function card(face, opts) {
    opts = opts || {};
    if (face && face.hidden) return back(face.age, Object.assign({set: face.set}, opts));
    if (face && face.special) return special(face.special, opts);
    if (face && face.token) {        // a set's piece with nothing printed (a museum): its name only
      const t = special(face.name, opts);
      t.classList.replace("inno-special", "inno-token");
      t.setAttribute("aria-label", face.name);
      return t;
    }
    face = full(face);
    const c = el("div", `inno-card inno-${face.color}` + (opts.text ? " inno-full" : "") + (opts.cls ? " " + opts.cls : ""));
    c.dataset.card = face.name;
    if (face.id !== undefined) c.dataset.cardId = face.id;
    if (face.set && face.set !== "base") c.dataset.set = face.set;
    c.setAttribute("aria-label", describe(face));
    if (opts.focusable !== false) c.tabIndex = 0;
    const positions = manifest.icon_positions;
    if ((face.icons || []).length > 4) c.classList.add("inno-six");   // a set's positions too (a city's top row)
    (face.icons || []).forEach((name, i) => c.appendChild(cell(face, i, positions[i])));
    c.appendChild(el("span", "inno-name", face.name));
    c.appendChild(el("span", "inno-age", face.age));
    if (opts.text) c.appendChild(effects(face, opts.text));
    return c;
  }

  function effects(face, list) {
    const box = el("div", "inno-effects");
    if (face.dogma) {
      const f = el("p", "inno-featured");
      f.appendChild(document.createTextNode("Featured icon "));
      f.appendChild(icon(face.dogma));
      box.appendChild(f);
    }
    // a cell's effect (an echo effect) is printed in its own box (its icon position), apart from the dogma effects
    const boxed = effectCells(face, list);
    for (const ce of boxed) {
      const b = el("div", "inno-cell-effect-box");
      b.dataset.cell = ce.cell;
      const head = el("p", "inno-cell-effect-head");
      const label = cellLabel(ce.cell);
      head.append(icon(ce.cell, "inno-effect-icon"), label.charAt(0).toUpperCase() + label.slice(1));
      b.append(head, richText(ce.text, "p"));
      box.appendChild(b);
    }
    list = list.filter((e) => !(e && e.kind === "cell"));
    if (!list.length && (face.no_effect || !boxed.length)) {
      box.appendChild(el("p", "inno-effect", face.face_only ? `(a card of ${face.face_only}, a set not in this game: its effects are not here)`
        : face.no_effect ? "(no dogma effect printed)" : "(no effects scripted yet)"));
    }
    for (const e of list) {
      const kind = typeof e === "string" ? "" : e.kind;
      const p = richText(typeof e === "string" ? e : e.text, "p");
      p.className = "inno-effect" + (kind ? " inno-" + kind : "");
      const mark = icon(face.dogma, "inno-effect-icon");
      p.insertBefore(mark, p.firstChild);
      box.appendChild(p);
    }
    return box;
  }

  // A hidden card: its back, with its age (and set when sets arrive).
  function back(age, opts) {
    opts = opts || {};
    const c = el("div", "inno-card inno-back" + (opts.cls ? " " + opts.cls : ""));
    const set = opts.set && opts.set !== "base" ? opts.set : null;
    c.setAttribute("aria-label", `a hidden card of age ${age}` + (set ? ` (${set})` : ""));
    if (opts.focusable) c.tabIndex = 0;
    c.appendChild(el("span", "inno-back-age", age));
    if (set) { c.dataset.set = set; c.appendChild(el("span", "inno-back-set", set)); }
    return c;
  }

  function special(name, opts) {
    opts = opts || {};
    const c = el("div", "inno-card inno-special" + (opts.cls ? " " + opts.cls : ""));
    c.dataset.special = name;
    c.setAttribute("aria-label", `special achievement ${name}`);
    if (opts.focusable !== false) c.tabIndex = 0;
    c.appendChild(el("span", "inno-name", name));
    return c;
  }

  // The part of a covered card a splay reveals: its colour, and the icons in the revealed slots.
  function strip(face, splay) {
    face = full(face);
    const s = el("div", `inno-strip inno-${face.color}`);
    s.dataset.card = face.name;
    if (face.id !== undefined) s.dataset.cardId = face.id;
    s.tabIndex = 0;
    const shown = manifest.splays[splay] || [];
    const positions = manifest.icon_positions;
    const names = [];
    shown.forEach((pos) => {
      const i = positions.indexOf(pos);
      const name = (face.icons || [])[i];
      if (name === undefined) return;
      s.appendChild(cell(face, i, pos));
      if (name !== manifest.hex && name !== null) names.push(cellWords(face, i));
    });
    s.setAttribute("aria-label", `${describe(face)}, under the top card, showing ${names.join(", ") || "no icons"}`);
    return s;
  }

  // A colour pile as printed on the table: the top card whole, the cards under it fanned by the splay.
  // pile: {splay, cards: [top ... bottom]} (a view's pile); opts.color names an empty pile.
  // A pile's box, labelled for screen readers (its colour, size and splay); an empty pile's is complete.
  function pileBox(p, opts, cls) {
    const splay = p.splay || "none";
    const box = el("div", `inno-pile ${cls}inno-fan-${splay}` + (p.cards.length ? "" : " inno-empty"));
    const color = p.cards.length ? p.cards[0].color : (opts || {}).color;
    if (color) box.classList.add("inno-pile-" + color);
    if (!p.cards.length) {
      box.appendChild(el("span", "inno-empty-label", color || "empty"));
      box.setAttribute("aria-label", `${color || ""} pile: empty`);
      return box;
    }
    const n = p.cards.length;
    box.setAttribute("aria-label", `${color} pile: ${n} card${n === 1 ? "" : "s"}` + (splay === "none" ? "" : `, splayed ${splay}`));
    return box;
  }

  function pile(p, opts) {
    const splay = p.splay || "none";
    const box = pileBox(p, opts, "");
    if (!p.cards.length) return box;
    const top = card(p.cards[0]);
    const under = p.cards.slice(1);
    if (splay === "none") {
      box.appendChild(top);
      if (under.length) box.appendChild(el("span", "inno-count", "+" + under.length));
      return box;
    }
    const fan = el("div", "inno-fan");
    const strips = under.map((f) => strip(f, splay));
    if (splay === "right") strips.reverse().forEach((s) => fan.appendChild(s));   // the bottom card sticks out furthest
    fan.appendChild(top);
    if (splay !== "right") strips.forEach((s) => fan.appendChild(s));
    box.appendChild(fan);
    const label = el("span", "inno-splay", `splayed ${splay}, ${p.cards.length} cards`);
    box.appendChild(label);
    return box;
  }

  // A small card for a crowded table: colour, the whole name, age, and the printed cells in a row.
  function compact(face, opts) {
    opts = opts || {};
    if (!face || face.hidden || face.special || face.token) return chip(face, opts);
    face = full(face);
    const c = el("div", `inno-card inno-compact inno-${face.color}` + (opts.cls ? " " + opts.cls : ""));
    c.dataset.card = face.name;
    if (face.id !== undefined) c.dataset.cardId = face.id;
    if (face.set && face.set !== "base") c.dataset.set = face.set;
    c.setAttribute("aria-label", describe(face));
    c.title = face.name;
    c.tabIndex = 0;
    c.appendChild(el("span", "inno-name", face.name));
    c.appendChild(el("span", "inno-age", face.age));
    const cells = el("span", "inno-cells");
    const positions = manifest.icon_positions;
    (face.icons || []).forEach((name, i) => cells.appendChild(cell(face, i, positions[i])));
    c.appendChild(cells);
    return c;
  }

  // A card as a word: a coloured chip with its name and age, or a back's age (score piles, hands of others).
  function chip(face, opts) {
    opts = opts || {};
    if (!face || face.hidden) {
      const b = el("span", "inno-chip inno-back" + (opts.cls ? " " + opts.cls : ""), face ? face.age : "?");
      const set = face && face.set && face.set !== "base" ? face.set : null;
      b.setAttribute("aria-label", `a hidden card of age ${face ? face.age : "?"}` + (set ? ` (${set})` : ""));
      if (set) { b.dataset.set = set; b.title = set; }
      return b;
    }
    if (face.special || face.token) {
      const name = face.special || face.name;
      const s = el("span", "inno-chip inno-special-chip", name);
      if (face.special) s.dataset.special = name;
      return s;
    }
    face = full(face);
    const c = el("span", `inno-chip inno-${face.color}` + (opts.cls ? " " + opts.cls : ""));
    c.dataset.card = face.name;
    if (face.id !== undefined) c.dataset.cardId = face.id;
    c.setAttribute("aria-label", describe(face));
    c.tabIndex = 0;
    c.append(el("span", "inno-name", face.name), el("span", "inno-age", face.age));
    return c;
  }

  const ARROWS = {left: "\u25c0", right: "\u25b6", up: "\u25b2", aslant: "\u25e2"};

  // A pile for a crowded table: the top card small, then the splay (arrow, direction, size) and, for each
  // covered card, a strip of the cells the splay reveals.
  function compactPile(p, opts) {
    const splay = p.splay || "none";
    const box = pileBox(p, opts, "inno-compact-pile ");
    if (!p.cards.length) return box;
    const n = p.cards.length;
    box.appendChild(compact(p.cards[0]));
    if (n === 1) return box;
    const line = el("div", "inno-splayline");
    if (splay === "none") line.appendChild(el("span", "inno-count", `+${n - 1} under`));
    else {
      const s = el("span", "inno-splay", `${ARROWS[splay] || ""} ${splay} \u00b7 ${n}`);
      s.title = `splayed ${splay}, ${n} cards`;
      line.appendChild(s);
      for (const f of p.cards.slice(1)) line.appendChild(strip(f, splay));
    }
    box.appendChild(line);
    return box;
  }

  // A row of cards (a hand, a score pile, achievements): visible ones drawn, hidden ones as backs.
  function row(cards, opts) {
    opts = opts || {};
    const r = el("div", "inno-row" + (opts.cls ? " " + opts.cls : ""));
    if (!cards.length && opts.empty) r.appendChild(el("span", "inno-none", opts.empty));
    const draw = opts.compact ? compact : opts.chips ? chip : null;
    for (const f of cards) r.appendChild(draw ? draw(f) : f.hidden ? back(f.age, {focusable: true}) : card(f));
    return r;
  }

  // The full card with its text (hover, tap and focus panels; the gallery; the editor).
  function detail(face, text) {
    face = full(face);
    return card(face, {text: text || face.effects || [], focusable: false, cls: "inno-detail"});
  }

  root.InnoCards = {icon, card, back, special, strip, pile, row, detail, richText, loadSprite, setManifest, setCatalog,
                    compact, chip, compactPile,
                    cellLabel, effectCells,
                    describe, ICONS: KNOWN};
})(typeof window !== "undefined" ? window : globalThis);

// Static pages (the docs' gallery): draw every element carrying card JSON in a data attribute.
//   <div data-inno-card='{"name": ..., "age": ..., "color": ..., "icons": [...], "dogma": ..., "effects": [...]}'
//        data-inno-full></div>                       a card (with data-inno-full: with its text)
//   <div data-inno-pile='{"splay": "right", "cards": [top, ..., bottom]}'></div>   a fanned pile
(function (root) {
  function mount(scope) {
    const C = root.InnoCards;
    (scope || document).querySelectorAll("[data-inno-card]").forEach((node) => {
      const face = JSON.parse(node.getAttribute("data-inno-card"));
      node.replaceChildren(node.hasAttribute("data-inno-full") ? C.detail(face) : C.card(face));
    });
    (scope || document).querySelectorAll("[data-inno-pile]").forEach((node) => {
      node.replaceChildren(C.pile(JSON.parse(node.getAttribute("data-inno-pile"))));
    });
  }
  root.InnoCards.mount = mount;
})(typeof window !== "undefined" ? window : globalThis);
