"""Cards as frontends draw them: a card's face, and the catalog of every card with its English.

``card_face`` is what a view shows of a card anyone may see.  ``card_catalog``
lists every card of an edition with the sets in play as the card renderer
(runtime/serving/web/cards.js) draws it, for the protocol's ``cards`` reply,
terminal play and the docs' gallery: its face, its set, its cells' numbers and effects (Echoes' bonuses and echo effect),
and every effect's English generated from the script (compiler/tools/render.py).
"""
from __future__ import annotations

from innoscript.compiler.bundle import edition_vocabulary, load_bundle, parse_card
from innoscript.compiler.tools.render import Renderer
from innoscript.core import opcodes as O
from innoscript.core.editions import load_edition, normalise_sets
from ..rules.sets import report
from ..state.cards import Cards


def card_face(cards: Cards, cid: int) -> dict:
    """A card anyone may see, as views and the catalog show it."""
    c = cards.cards[cid]
    face = {"id": cid, "name": c["name"], "age": c["age"], "color": c["color"], "icons": c["icons"],
            "dogma": c["dogma"], "demand": cards.has_demand[cid], "implemented": bool(c["effects"])}
    if c.get("token"):
        face["token"] = True      # a set's piece with nothing printed (a museum): no age or colour to draw
    return face


# ---------------------------------------------------------------- the card renderer's catalog

_CARD_CATALOGS: dict[tuple, dict] = {}     # (edition, sets) -> catalog, made once per process


def card_catalog(edition: str, sets=()) -> dict:
    """Every card of an edition with these sets in play as the card renderer (runtime/serving/web/cards.js) draws
    it, for the protocol's ``cards`` reply, terminal play and the docs' gallery: its face, its set, its cells'
    numbers and effects, and every effect's English generated from the script, in the card's effect order (the index a
    decision's ``effect`` names)."""
    key = (edition, tuple(normalise_sets(sets)))
    if key not in _CARD_CATALOGS:
        while len(_CARD_CATALOGS) >= 8:
            _CARD_CATALOGS.pop(next(iter(_CARD_CATALOGS)))
        _CARD_CATALOGS[key] = _card_catalog(*key)
    return _CARD_CATALOGS[key]


def _card_catalog(edition: str, sets: tuple) -> dict:
    bundle = load_bundle(edition, sets=sets)
    ed = load_edition(edition, sets=sets)
    vocab = edition_vocabulary(ed)
    english, eithers = {}, {}
    for src in ed.sources:
        ast = parse_card(src.text, src.relpath, vocab)[0]
        eithers[ast.name] = []
        english[ast.name] = effect_texts(ast, eithers[ast.name])
    cards = Cards(bundle)
    out = []
    for c in bundle["cards"]:
        face = card_face(cards, c["id"])
        texts = english.get(c["name"], [])
        face["effects"] = _effects(c["effects"], texts)
        for entry, chunk, opts in zip(face["effects"], c["effects"], eithers.get(c["name"], [])):
            # an 'either' choice's options worded, when they line up with the effect's CHOOSE_OPTIONs
            if opts and len(opts) == sum(ins[0] == O.CHOOSE_OPTION for ins in chunk["code"]):
                entry["options"] = opts
        face["set"] = c.get("set", "base")
        _cells(face, c)
        if c.get("no_effect"):
            face["no_effect"] = True      # printed with no dogma effect (not a card still to script)
        if c.get("face_only"):            # a card of a set this engine does not have: named by its set's label
            types = bundle["sets"][c["carried_by"]]["manifest"].get("card_types", {})
            face["face_only"] = types.get(face["set"], face["set"])
        out.append(face)
    m = bundle["manifest"]
    manifest = {k: m[k] for k in ("colors", "icons", "hex", "ages")}
    # the icon positions with the sets' own (a city's top middle and top right), and what each splay shows
    manifest["icon_positions"] = list(cards.positions)
    manifest["splays"] = {d: [cards.positions[k] for k in ks] for d, ks in cards.splay_positions.items() if d != "none"}
    # icons the sets add (a music note counts as a hex), and the sets' cells as frontends draw them
    manifest["set_icons"] = {i: dict(v) for n in sorted(bundle.get("sets", {}))
                             for i, v in bundle["sets"][n]["manifest"].get("icons", {}).items()}
    manifest["cells"] = {w: {k: v for k, v in spec.items() if k != "score"} for w, spec in cards.cells.items()}
    return {"edition": bundle["edition"], "cards": out, "manifest": manifest,
            "special_achievements": [s["name"] for s in bundle["special_achievements"]],
            "sets": report(cards), "hooks": _hook_texts(ed, cards, vocab)}


def _hook_texts(ed, cards: Cards, vocab) -> list[str]:
    """The English of each hook of the sets' rules, in the order the game's hooks are numbered (a decision a
    hook asks names its ``source_hook``)."""
    texts: dict[str, list[str]] = {}
    for gs in ed.sets:
        for src in gs.rules:
            ast = parse_card(src.text, src.relpath, vocab)[0]
            texts[src.relpath] = [Renderer().hook(h) for h in ast.hooks]
    out, seen = [], {}
    for h in cards.hooks:       # a file's hooks are compiled in the file's order
        k = seen[h["source"]] = seen.get(h["source"], -1) + 1
        file_texts = texts.get(h["source"], [])
        out.append(file_texts[k] if k < len(file_texts) else "")
    return out


def effect_texts(ast, options: list | None = None) -> list[str]:
    """Each effect's English, in the card's effect order (a cell's effect where the card has it); ``options``
    gets, per effect, the English of each 'either' statement's options in the order they are written."""
    r = Renderer()
    r.this = ast.name     # as the renderer names a card's own name
    out = []
    for e in ast.effects:
        out.append(r.effect(e))
        if options is not None:
            options.append(r.either_options)
    return out


def editor_face(data: dict, ast) -> dict:
    """A card being written (compiled data and its AST) in the renderer's terms, like a catalog entry."""
    face = {"name": data["name"], "age": data["age"], "color": data["color"], "icons": data["icons"],
            "dogma": data["dogma"], "demand": any(e["kind"] == "demand" for e in data["effects"]),
            "implemented": bool(data["effects"]),
            "effects": _effects(data["effects"], effect_texts(ast))}
    _cells(face, data)
    return face


def _effects(chunks: list, texts: list) -> list[dict]:
    """Each effect's kind and English; a cell's effect with its cell's word."""
    return [{"kind": e["kind"], "text": t, **({"cell": e["cell"]} if "cell" in e else {})}
            for e, t in zip(chunks, texts)]


def _cells(face: dict, data: dict) -> None:
    """A set card's cells: its numbers by icon position ('bonus 3') and its cells' effects, each with its word."""
    if any(b is not None for b in data.get("cell_values") or ()):
        face["cell_values"] = data["cell_values"]
    boxed = [{"cell": e["cell"], "text": e["text"]} for e in face["effects"] if e["kind"] == "cell"]
    if boxed:
        face["cell_effects"] = boxed
