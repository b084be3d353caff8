"""The compile driver: card files -> verified chunks -> one edition bundle.

    source --parser--> tree --builder--> AST --resolver--> types
           --codegen--> chunks --verifier--> bundle (JSON, schema-checked)

A bundle is deterministic: the same sources give byte-identical output
(sorted keys, cards in age/colour/name order, no timestamps).  Bundles are
cached by source hash, so a warm load reads JSON instead of parsing; every
bundle, cached or not, goes through the verifier when it is loaded.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import jsonschema

from innoscript.core import opcodes as O
from innoscript.core.cache import cache_dir
from innoscript.core.diagnostics import CompileError, Diagnostic, Pos, Reporter
from innoscript.core.editions import Edition, load_edition, schema
from innoscript.core.hook_points import EVENT_VERBS, HOOK_POINTS
from innoscript.core.readsets import read_set, scope as read_scope
from . import ast as A
from .builder import build
from .codegen import CodeGen
from .parser import all_keywords, grammar_text, parse
from .resolver import Vocabulary, resolve, warnings as card_warnings
from .verifier import VerifyError, verify

BUNDLE_FORMAT = "innoscript-bundle"
# fields the engine's events have (a set's Dogma mark becomes a flag of its Dogma's event, an effect cell's word a
# flag of its effect's event: 'foreseen': true, 'echo': true)
EVENT_FIELDS = frozenset({"type", "player", "card", "cards", "from", "from_player", "to", "zone", "free", "icon",
                          "counts", "verb", "mark", "age", "set", "name", "effect", "cell", "kind", "reason",
                          "shared"})
BUNDLE_VERSION = 1


@dataclass
class CompiledCard:
    ast: A.Card
    data: dict          # the bundle entry
    warnings: list = field(default_factory=list)    # W-codes: it compiles, probably not as meant


def vocabulary(manifest: dict, card_names: set[str] | None = None, sets=()) -> Vocabulary:
    """What the resolver checks names against: the edition's manifest plus the manifests of the sets in
    play (``sets``: set manifests, or an Edition's GameSets)."""
    sets = [getattr(s, "manifest", s) for s in sets]
    v = Vocabulary(colors=list(manifest["colors"]), icons=list(manifest["icons"]), hex=manifest["hex"],
                   ages=list(manifest["ages"]), sets=list(manifest["sets"]),
                   card_names=set(card_names or ()),
                   specials={s["name"] for s in manifest["special_achievements"]})
    v.positions, v.edition_positions = list(manifest["icon_positions"]), len(manifest["icon_positions"])
    for sm in sets:
        v.positions += [p for p in sm.get("icon_positions", []) if p not in v.positions]
    for sm in sets:
        v.set_names.append(sm["set"])
        v.ages = sorted(set(v.ages) | set(sm["ages"]))
        for name, spec in sorted(sm.get("icons", {}).items()):
            if spec.get("counts_as") == manifest["hex"]:
                v.hex_like.append(name)
            elif name not in v.icons:
                v.icons.append(name)
        for word, spec in sorted(sm.get("cells", {}).items()):
            v.cells[word] = {**v.cells.get(word, {}), **spec}
            if spec.get("counts_as_icon") and word not in v.icons:    # an icon type of its own in counts
                v.icons.append(word)
        for zone, spec in sorted(sm.get("zones", {}).items()):
            (v.shared_zones if spec.get("scope") == "game" else v.zones).append(zone)
            if spec.get("verb"):
                v.zone_verbs[spec["verb"]] = zone
        for verb, spec in sorted(sm.get("verbs", {}).items()):
            v.verb_aliases[verb] = spec["as"]
        v.marks += [m for m in sm.get("dogma_marks", []) if m not in v.marks]
        v.card_types += [t for t in sm.get("card_types", {}) if t not in v.card_types]
        v.set_actions += [a for a in sm.get("actions", {}) if a not in v.set_actions]
        v.specials |= {s["name"] for s in sm.get("special_achievements", [])}
    # the parser reads the language's own words as themselves, never as a set's; a mark is also a flag of
    # its Dogma's event ('foreseen': true), so it may not be one of an event's own fields
    taken = [w for w in [*v.zone_verbs, *v.verb_aliases, *v.marks] if w in all_keywords() or w in EVENT_FIELDS]
    # a cell's word is also an effect's name ('echo { }') and an icon row's word: not the language's, nor an icon's
    taken += [w for w in v.cells if w in all_keywords() or w in EVENT_FIELDS or w in manifest["icons"] or w == manifest["hex"]
              or any(w in sm.get("icons", {}) for sm in sets)]
    if taken:
        raise CompileError([Diagnostic("E500", f"a set's verb, Dogma mark or cell '{w}' is a word of the language, "
                                               "an icon or a field of its events; choose another", "set.json",
                                       Pos(0, 0)) for w in taken])
    # a game-wide zone is written 'the NAME': a word of the language there would be read as itself
    taken = [z for z in v.shared_zones if z in all_keywords()]
    if taken:
        raise CompileError([Diagnostic("E500", f"a set's game-wide zone '{z}' is a word of the language; "
                                               "choose another name", "set.json", Pos(0, 0)) for z in taken])
    # music notes are counted by name ('icons(music_note, ...)'), though each is the card's hex
    v.icons += [n for n in v.hex_like if n not in v.icons]
    return v


def edition_vocabulary(edition: Edition) -> Vocabulary:
    return vocabulary(edition.manifest, edition.card_names, edition.sets)


def all_positions(manifest: dict, set_manifests) -> list[str]:
    """The icon positions of a game: the edition's, then those the sets in play add (``icon_positions``)."""
    out = list(manifest.get("icon_positions", []))
    for sm in set_manifests:
        out += [p for p in sm.get("icon_positions", []) if p not in out]
    return out


def cell_words(manifest: dict, set_manifests) -> set[str]:
    """Every word a card's icon cell may hold in a game of this edition and these sets."""
    words = set(manifest["icons"]) | {manifest["hex"]}
    for sm in set_manifests:
        words |= set(sm.get("icons", {})) | set(sm.get("cells", {}))
    return words


def parse_card(text: str, path: str, vocab: Vocabulary, check_meta: bool = True) -> tuple[A.Card, dict[int, str]]:
    """Parse, build and resolve one card; raise CompileError with all its errors."""
    tree = parse(text, path)
    reporter = Reporter(path, source=text)
    card = build(tree, reporter)
    types = resolve(card, vocab, reporter, check_meta)
    if reporter.failed:
        raise CompileError(reporter.diagnostics, {path: text})
    return card, types


def compile_card(text: str, path: str, vocab: Vocabulary) -> CompiledCard:
    card, types = parse_card(text, path, vocab)
    gen = CodeGen(types)
    effects = []
    for eff in card.effects:
        chunk = gen.effect(eff).to_json()
        try:
            chunk["max_stack"] = verify(chunk)
        except VerifyError as err:  # a compiler bug, but still reported at the source
            line, col = chunk["lines"][err.pc] if err.pc < len(chunk["lines"]) else (eff.pos.line, eff.pos.column)
            raise CompileError([Diagnostic("E400", f"bytecode verification failed: {err}", path, Pos(line, col))],
                               {path: text}) from None
        effects.append(chunk)
    icons = card.get("icons") or []
    data = {
        "name": card.name,
        "age": card.get("age"),
        "color": card.get("color"),
        "icons": list(icons),     # an empty icon position ('-'): null
        "dogma": card.get("dogma"),
        "set": card.get("set", "base"),
        "source": path,
        "effects": effects,
    }
    if card.get("token"):          # a set's piece with nothing printed: value 0, no colour, no icon position
        data.update(age=0, icons=[], token=True)
    if card.get("cell_values"):
        data["cell_values"] = list(card.get("cell_values"))
    if card.get("board_value") is not None:
        data["board_value"] = card.get("board_value")
    if card.no_effect:
        data["no_effect"] = True
    if card.get("face_only"):
        data["face_only"] = True
    return CompiledCard(card, data, card_warnings(card, path, vocab))


def compile_hooks(text: str, path: str, vocab: Vocabulary) -> list[dict]:
    """A set's rules file: each hook as {point, params, source, chunk}."""
    card, types = parse_card(text, path, vocab)
    if not card.hooks:
        raise CompileError([Diagnostic("E212", "a rules file holds hooks ('hook NAME { ... }'), not a card", path,
                                       card.pos)], {path: text})
    out = []
    for h in card.hooks:
        chunk = CodeGen(types).hook(h).to_json()
        chunk["max_stack"] = verify(chunk)
        entry = {"point": h.point, "params": list(h.params), "order": h.order, "source": path, "chunk": chunk}
        if h.verb is not None:
            entry["verb"] = h.verb
        out.append(entry)
    return out


def _manifest_chunk(wrapped: str, where: str, vocab: Vocabulary, pick) -> dict:
    """Compile a manifest expression: wrapped in a throw-away card, parsed, then `pick` finds the expression."""
    card, types = parse_card(wrapped, where, vocab, check_meta=False)
    expr = pick(card.effects[0].body[0])
    chunk = CodeGen(types).condition(expr, expr.pos).to_json()
    chunk["max_stack"] = verify(chunk)
    return chunk


def compile_number(text: str, where: str, vocab: Vocabulary) -> dict:
    """Compile a manifest number expression (a zone's limit, a set's score) to a condition chunk."""
    return _manifest_chunk(f'card "$number" {{ }}\neffect {{ record n = ({text}) }}\n', where, vocab,
                           lambda stmt: stmt.expr)


def compile_cards(text: str, where: str, vocab: Vocabulary) -> dict:
    """Compile a manifest expression of cards (the cards a set's action may be taken on) to a condition chunk."""
    wrapped = f'card "$cards" {{ }}\neffect {{ let n = ({text}) }}\n'
    card, types = parse_card(wrapped, where, vocab, check_meta=False)
    expr = card.effects[0].body[0].expr
    if types.get(id(expr)) not in ("cards", "any"):
        raise CompileError([Diagnostic("E300", f"expected cards, found {types.get(id(expr))}", where,
                                       Pos(expr.pos.line, expr.pos.column))], {where: wrapped})
    chunk = CodeGen(types).condition(expr, expr.pos).to_json()
    chunk["max_stack"] = verify(chunk)
    return chunk


def compile_condition(text: str, where: str, vocab: Vocabulary) -> dict:
    """Compile a manifest expression (a special achievement's condition)."""
    return _manifest_chunk(f'card "$condition" {{ }}\neffect {{ if {text} {{ }} }}\n', where, vocab,
                           lambda stmt: stmt.cond)


@functools.cache
def compiler_fingerprint() -> str:
    """A hash of the compiler's own code (its stages, not its tools) and of the core it builds on (the
    opcode table, the builtins, the read sets...), so a changed compiler never reuses an old cached bundle."""
    h = hashlib.sha256()
    stages = Path(__file__).resolve().parent
    core = Path(O.__file__).resolve().parent
    for folder, label in ((stages, "compiler"), (core, "core")):
        for f in sorted(folder.glob("*.py")):
            h.update(f"{label}/{f.name}".encode())
            h.update(f.read_bytes())
    return h.hexdigest()


def source_hash(edition: Edition) -> str:
    h = hashlib.sha256()
    h.update(f"{BUNDLE_FORMAT}/{BUNDLE_VERSION}/{O.OPCODE_TABLE_VERSION}\n".encode())
    h.update(compiler_fingerprint().encode())
    h.update(grammar_text().encode())
    h.update(json.dumps(edition.manifest, sort_keys=True).encode())
    for gs in edition.sets:
        h.update(json.dumps(gs.manifest, sort_keys=True).encode())
    for s in sorted(edition.sources + [r for gs in edition.sets for r in gs.rules], key=lambda s: s.relpath):
        h.update(f"\0{s.relpath}\0".encode())
        h.update(s.text.encode())
    return h.hexdigest()


def _card_order(manifest: dict):
    colors = manifest["colors"]

    def key(c: dict):
        return (c["age"] or 0, colors.index(c["color"]) if c["color"] in colors else 99, c["name"])
    return key


def compile_edition(edition: Edition, warnings: list | None = None) -> dict:
    """Compile every card of an edition; raise CompileError listing every error in every file.
    ``warnings``: a list the cards' warnings (W-codes) are added to."""
    vocab = edition_vocabulary(edition)
    cards, errors, sources = [], [], {}
    seen: dict[str, str] = {}
    carrier = {src.relpath: gs.name for gs in edition.sets for src in gs.sources}
    for src in edition.sources:
        sources[src.relpath] = src.text
        try:
            compiled = compile_card(src.text, src.relpath, vocab)
        except CompileError as err:
            errors.extend(err.diagnostics)
            continue
        if warnings is not None:
            warnings.extend(compiled.warnings)
        if carrier.get(src.relpath, compiled.data["set"]) != compiled.data["set"]:
            compiled.data["carried_by"] = carrier[src.relpath]    # a set's card of another type (a relic)
        if compiled.data["name"] in seen:
            errors.append(Diagnostic("E208", f"card '{compiled.data['name']}' is also defined in {seen[compiled.data['name']]}",
                                     src.relpath, compiled.ast.pos))
            continue
        seen[compiled.data["name"]] = src.relpath
        cards.append(compiled.data)
    specials = []
    for sa in edition.manifest["special_achievements"]:
        where = f"{edition.name}/edition.json#{sa['name']}"
        try:
            chunk = compile_condition(sa["condition"], where, vocab)
            reads = read_set(chunk)
            specials.append({"name": sa["name"], "claimed_by": sa.get("claimed_by"), "condition": chunk,
                             "reads": reads, "scope": read_scope(reads)})
        except CompileError as err:
            errors.extend(err.diagnostics)
            sources.update(err.sources)
    sets = {}
    for gs in edition.sets:
        try:
            sets[gs.name] = compile_set(gs, vocab, specials)
        except CompileError as err:
            errors.extend(err.diagnostics)
            sources.update(err.sources)
    if errors:
        raise CompileError(errors, sources)
    cards.sort(key=_card_order(edition.manifest))
    for i, c in enumerate(cards):
        c["id"] = i
    bundle = {
        "format": BUNDLE_FORMAT,
        "version": BUNDLE_VERSION,
        "opcode_table_version": O.OPCODE_TABLE_VERSION,
        "edition": edition.name,
        "source_hash": source_hash(edition),
        "manifest": edition.manifest,
        "cards": cards,
        "special_achievements": specials,
    }
    if sets:
        bundle["sets"] = sets
    return bundle


def compile_set(gs, vocab: Vocabulary, specials: list) -> dict:
    """A set's part of the bundle: its manifest, its rules as chunks, its hooks; its special
    achievements join the bundle's list (marked with the set). Every error of the set at once."""
    m = gs.manifest
    errors, sources = [], {}
    out = {"manifest": m, "draw_rule": None, "cell_scores": {}, "zones": {}, "hooks": []}

    def attempt(fn, *args):
        try:
            return fn(*args)
        except CompileError as err:
            errors.extend(err.diagnostics)
            sources.update(err.sources)
            return None
    where = f"sets/{gs.name}/{gs.edition}/set.json"
    if m.get("draw_rule"):
        out["draw_rule"] = attempt(compile_condition, m["draw_rule"], f"{where}#draw_rule", vocab)
    for word, spec in sorted(m.get("cells", {}).items()):
        if spec.get("score"):
            chunk = attempt(compile_number, spec["score"], f"{where}#cells/{word}/score", vocab)
            if chunk is not None and "cell_score" in chunk["consts"]:    # a score read through scores: no end
                errors.append(Diagnostic("E500", f"the score of the cell '{word}' may not read cell_score()",
                                         f"{where}#cells/{word}/score", Pos(1, 1)))
            out["cell_scores"][word] = chunk
        if spec.get("achievements"):     # what the cell's pieces count as achievements (Cities' flags)
            chunk = attempt(compile_number, spec["achievements"], f"{where}#cells/{word}/achievements", vocab)
            if chunk is not None and "achievements" in chunk["consts"]:
                errors.append(Diagnostic("E500", f"the achievements of the cell '{word}' may not read achievements()",
                                         f"{where}#cells/{word}/achievements", Pos(1, 1)))
            out.setdefault("cell_achievements", {})[word] = chunk
    for name, spec in sorted(m.get("actions", {}).items()):      # a set's own actions (Endorse)
        chunk = attempt(compile_cards, spec["cards"], f"{where}#actions/{name}/cards", vocab)
        if chunk is not None:
            out.setdefault("actions", {})[name] = {"label": spec["label"], "per_turn": spec.get("per_turn", 1),
                                                   "cards": chunk}
    for name, spec in sorted(m.get("zones", {}).items()):
        limit = attempt(compile_number, spec["limit"], f"{where}#zones/{name}/limit", vocab) if spec.get("limit") else None
        out["zones"][name] = {"visibility": spec["visibility"], "size": spec.get("size", "public"),
                              "verb": spec.get("verb"), "limit": limit, "actions": list(spec.get("actions", []))}
        if spec.get("scope", "player") == "game":      # a game-wide zone, and the cards whose home it is
            out["zones"][name].update(scope="game", cards=list(spec.get("cards", [])),
                                      return_to_home=bool(spec.get("return_to_home", False)))
        problem = _zone_problem(name, spec, vocab.card_names)
        if problem:
            errors.append(Diagnostic("E500", f"zone '{name}': {problem}", where, Pos(0, 0)))
    for sa in m.get("special_achievements", []):
        if sa.get("condition") is None:     # claimed only by a 'claim' of a card or a hook (an event's)
            specials.append({"name": sa["name"], "claimed_by": sa.get("claimed_by"), "condition": None,
                             "reads": [], "scope": "you", "set": gs.name})
            continue
        chunk = attempt(compile_condition, sa["condition"], f"{where}#{sa['name']}", vocab)
        if chunk is not None:
            reads = read_set(chunk)
            specials.append({"name": sa["name"], "claimed_by": sa.get("claimed_by"), "condition": chunk,
                             "reads": reads, "scope": read_scope(reads), "set": gs.name})
    wanted = m.get("hooks", "all")
    for src in gs.rules:
        if wanted != "all" and src.path.name not in wanted:
            continue
        sources[src.relpath] = src.text
        hooks = attempt(compile_hooks, src.text, src.relpath, vocab)
        out["hooks"] += hooks or []
    done = {h["verb"] for h in out["hooks"] if h["point"] == "action"}
    for name in sorted(set(m.get("actions", {})) - done):     # the rules compiled hold no hook doing the action
        errors.append(Diagnostic("E500", f"action '{name}' has no hook: write 'hook action {name}(card) {{ ... }}' "
                                         "in the set's rules", where, Pos(0, 0)))
    if errors:
        raise CompileError(errors, sources)
    return out


def _zone_problem(name: str, spec: dict, card_names) -> str | None:
    """What is wrong with a zone of a set manifest beyond its schema (None: nothing): a game-wide zone
    is seen by all or by none and takes no action; only it may hold cards from the start, each a card of
    the game, once; a home needs those cards."""
    game = spec.get("scope", "player") == "game"
    if game and spec.get("visibility") not in ("all", "none"):
        return "a game-wide zone (scope game) is seen by all or by none (visibility all or none)"
    if not game and spec.get("visibility") == "none":
        return "a player's zone is seen by its owner or by all (visibility owner or all)"
    if game and spec.get("size", "public") != "public":
        return "a game-wide zone's size is public"
    if game and spec.get("actions"):
        return "actions take their card from a player's own zone, not from a game-wide one"
    if not game and (spec.get("cards") or spec.get("return_to_home")):
        return "only a game-wide zone (scope game) holds cards from the start and is their home"
    names = list(spec.get("cards", []))
    unknown = [c for c in names if c not in card_names]
    if unknown:
        return f"starts with {unknown[0][:60]!r}, no card of the game"
    twice = sorted({c for c in names if names.count(c) > 1})
    if twice:
        return f"names {twice[0][:60]!r} twice"
    if spec.get("return_to_home") and not names:
        return "return_to_home needs the cards whose home it is ('cards')"
    return None


def dumps(bundle: dict) -> str:
    return json.dumps(bundle, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n"


def validate_bundle(bundle, where: str = "<bundle>") -> None:
    """Schema, version and verifier checks; raise CompileError (E501/E502) naming what is wrong."""
    def fail(code, msg):
        raise CompileError([Diagnostic(code, msg, where, Pos(0, 0))])
    if not isinstance(bundle, dict):
        fail("E501", "a bundle is a JSON object")
    if bundle.get("format") != BUNDLE_FORMAT:
        fail("E501", f"not an InnoScript bundle (format {bundle.get('format')!r})")
    if bundle.get("version") != BUNDLE_VERSION or bundle.get("opcode_table_version") != O.OPCODE_TABLE_VERSION:
        fail("E502", f"bundle version {bundle.get('version')}/opcodes {bundle.get('opcode_table_version')} "
                     f"does not match this engine ({BUNDLE_VERSION}/{O.OPCODE_TABLE_VERSION}); recompile it")
    err = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema("bundle.schema.json")).iter_errors(bundle))
    if err is not None:
        fail("E501", f"{'/'.join(map(str, err.absolute_path)) or '(top)'}: {err.message}")
    check_bundle(bundle, where)


def check_bundle(bundle, where: str = "<bundle>") -> None:
    """What the engine relies on, without the (slow) schema: every card's place in the table and
    facts, and every chunk through the verifier, so it runs on every load, cached or not."""
    def fail(msg):
        raise CompileError([Diagnostic("E501", msg, where, Pos(0, 0))])
    if not isinstance(bundle, dict) or not isinstance(bundle.get("manifest"), dict):
        fail("a bundle is an object with a manifest")
    m = bundle["manifest"]
    if not isinstance(m.get("splays"), dict) or not isinstance(m.get("splay_order"), list) or \
            sorted(map(str, m["splay_order"])) != sorted(m["splays"]):
        fail("the manifest's splay_order ranks exactly its splays")
    cards, specials = bundle.get("cards"), bundle.get("special_achievements")
    if not isinstance(cards, list) or not isinstance(specials, list):
        fail("cards and special_achievements are lists")
    sets = bundle.get("sets", {})
    if not isinstance(sets, dict) or not all(isinstance(v, dict) and isinstance(v.get("manifest"), dict)
                                             for v in sets.values()):
        fail("sets is an object of sets, each with its manifest")
    _check_set_manifests(bundle, sets, fail)
    words = cell_words(m, [v["manifest"] for v in sets.values()]) if isinstance(m.get("icons"), list) else set()
    cells = {w: spec for v in sets.values() for w, spec in v["manifest"].get("cells", {}).items()}
    ages = set(m.get("ages", [])) | {a for v in sets.values() for a in v["manifest"].get("ages", [])}
    positions = all_positions(m, [v["manifest"] for v in sets.values()])
    names = set()
    for i, card in enumerate(cards):
        if not isinstance(card, dict) or card.get("id") != i or not isinstance(card.get("name"), str):
            fail(f"card {i}: a card is an object whose id is its place in the table")
        label = f"card {card['name'][:40]!r}"
        if card["name"] in names:
            fail(f"{label} is in the table twice")
        names.add(card["name"])
        own = card.get("set", "base")
        carrier = card.get("carried_by", own)     # the set whose files hold it (a relic: another set's card)
        if carrier not in sets and carrier not in m.get("sets", ["base"]):   # the edition's card sets, or a set in play
            fail(f"{label} belongs to a set not in play ({str(carrier)[:40]!r})")
        in_play = own in sets or own in m.get("sets", ["base"])
        if carrier != own and (carrier not in sets or not in_play and own not in sets[carrier]["manifest"].get("card_types", {})):
            fail(f"{label}: a card carried by a set is of a type in play or one of the set's card_types")
        if card.get("face_only", False) is not False and (card["face_only"] is not True or in_play or card["effects"]
                                                          or card.get("no_effect")):
            fail(f"{label}: only a card of a type not in play is its face only, with no effects")
        if own in sets and own == carrier and card.get("age") not in sets[own]["manifest"]["ages"] \
                and card.get("token") is not True:
            fail(f"{label}: age {card.get('age')!r} is not among the ages of its set {own!r}")
        if card.get("token", False) is not False:     # a set's token: nothing printed, never dealt (its zone's)
            if card["token"] is not True or own not in sets or card.get("age") != 0 or card.get("color") is not None \
                    or card.get("icons") != [] or card.get("dogma") is not None or card.get("effects") != [] \
                    or not any(card["name"] in z.get("cards", ()) for z in sets[own]["manifest"].get("zones", {}).values()):
                fail(f"{label}: a token is a set's card with no age, colour, icons or effects, starting in one of its zones")
            continue
        if card.get("age") not in ages or card.get("color") not in m.get("colors", []):
            fail(f"{label}: age {card.get('age')!r} or colour {card.get('color')!r} is not the edition's")
        icons = card.get("icons")
        if not isinstance(icons, list) or len(icons) not in (len(m.get("icon_positions", [])), len(positions)) or \
                any(x is not None and x not in words for x in icons):
            fail(f"{label}: icons are one of the edition's icons per position (null: a position printed empty)")
        if card.get("dogma") is None and not card.get("no_effect"):
            fail(f"{label}: only a card printed with no effect has no featured icon")
        numbers = card.get("cell_values")
        if numbers is not None and (not isinstance(numbers, list) or len(numbers) != len(icons) or any(
                (b is None) == bool(cells.get(x, {}).get("value")) or b is not None and not (type(b) is int and 0 < b <= 99)
                for x, b in zip(icons, numbers))):
            fail(f"{label}: cell_values give a number to each cell that carries one, and to nothing else")
        if numbers is None and any(cells.get(x, {}).get("value") for x in icons):
            fail(f"{label}: a cell that carries a number has none")
        if "board_value" in card and not (type(card["board_value"]) is int and 0 < card["board_value"] <= 99):
            fail(f"{label}: a value on a board is a number from 1 to 99")
        if not isinstance(card.get("effects"), list):
            fail(f"{label}: effects are a list")
        if card.get("dogma") is None and card.get("no_effect") is not True:
            fail(f"{label}: only a card printed with no effect ('no_effect': true) may have no featured icon")
        if card.get("no_effect", True) is not True or card.get("no_effect") and card["effects"]:
            fail(f"{label}: a card printed with no effect ('no_effect': true) has no effects")
        for e, chunk in enumerate(card["effects"]):
            _check_chunk(chunk, f"{label} effect {e + 1}", fail, condition=False)
            if chunk["kind"] == "hook" or chunk["kind"] == "cell" and (
                    not cells.get(chunk["cell"], {}).get("effect") or any(
                        c["kind"] != "cell" for c in card["effects"][:e])):
                fail(f"{label} effect {e + 1}: a card's effects are its cells' effects (first, each a cell a set "
                     "declares with an effect) and its demands and dogma effects")
        for word, spec in cells.items():
            if spec.get("effect") and icons.count(word) != sum(
                    c.get("kind") == "cell" and c.get("cell") == word for c in card["effects"]):
                fail(f"{label}: each {word[:40]!r} cell goes with one {word[:40]!r} effect")
    seen = set()
    for sa in specials:
        if not isinstance(sa, dict) or not isinstance(sa.get("name"), str) or sa["name"] in seen:
            fail("a special achievement is an object with a name of its own")
        seen.add(sa["name"])
        if sa.get("set") is not None and sa["set"] not in sets:
            fail(f"special achievement {sa['name'][:40]!r} belongs to a set not in play ({str(sa['set'])[:40]!r})")
        if sa.get("claimed_by") is not None and sa["claimed_by"] not in names:
            fail(f"special achievement {sa['name'][:40]!r}: claimed_by names no card of the game")
        if sa.get("condition") is not None or sa.get("set") is None:   # a set's may have none: claimed by a 'claim'
            _check_chunk(sa.get("condition"), f"special achievement {sa['name'][:40]!r} condition", fail, condition=True)
    zone_names, zone_verbs, home_cards = set(), set(), set()
    for name, gs in sorted(sets.items()):
        if gs.get("draw_rule") is not None:
            _check_chunk(gs["draw_rule"], f"set {name!r} draw_rule", fail, condition=True)
        scores = gs.get("cell_scores", {})
        if not isinstance(scores, dict) or not set(scores) <= set(gs["manifest"].get("cells", {})):
            fail(f"set {name!r}: cell_scores are the scores of the set's own cells")
        for word, chunk in scores.items():
            if chunk is not None:
                _check_chunk(chunk, f"set {name!r} cell {word[:40]!r} score", fail, condition=True)
        acts = gs.get("actions", {})
        if not isinstance(acts, dict) or not set(acts) <= set(gs["manifest"].get("actions", {})):
            fail(f"set {name!r}: actions are the set's own actions")
        for act, spec in acts.items():
            if not isinstance(spec, dict) or not isinstance(spec.get("label"), str) or \
                    type(spec.get("per_turn")) is not int or not 1 <= spec["per_turn"] <= 9:
                fail(f"set {name!r} action {act[:40]!r}: a label, a number per turn from 1 to 9, its cards")
            _check_chunk(spec.get("cards"), f"set {name!r} action {act[:40]!r} cards", fail, condition=True)
        derived = gs.get("cell_achievements", {})
        if not isinstance(derived, dict) or not set(derived) <= set(gs["manifest"].get("cells", {})):
            fail(f"set {name!r}: cell_achievements are the achievements of the set's own cells")
        for word, chunk in derived.items():
            _check_chunk(chunk, f"set {name!r} cell {word[:40]!r} achievements", fail, condition=True)
        zones = gs.get("zones", {})
        if not isinstance(zones, dict):
            fail(f"set {name!r}: zones is an object")
        for z, spec in zones.items():
            if not isinstance(spec, dict):
                fail(f"set {name!r} zone {z[:40]!r} is an object")
            if not z.isidentifier() or z in O.ENUMS["zone"] or z in O.ENUMS["global_zone"] or z in zone_names \
                    or z in ("supply", "removed", "deck"):
                fail(f"set {name!r} zone {z[:40]!r}: a zone is named by a word of its own, not a base zone's "
                     "nor another set's")
            zone_names.add(z)
            if spec.get("scope", "player") not in ("player", "game") or \
                    spec.get("visibility") not in (("all", "none") if spec.get("scope") == "game" else ("owner", "all")) \
                    or spec.get("size", "public") not in (("public",) if spec.get("scope") == "game" else ("public", "owner")):
                fail(f"set {name!r} zone {z[:40]!r}: a player's zone has visibility owner or all and size public or "
                     "owner; a game-wide zone (scope game) visibility all or none and size public")
            homed = spec.get("cards", []) if spec.get("scope") == "game" else []
            if not isinstance(homed, list) or any(c not in names or c in home_cards for c in homed) or \
                    spec.get("scope") != "game" and ("cards" in spec or spec.get("return_to_home")):
                fail(f"set {name!r} zone {z[:40]!r}: the cards it starts with are cards of the game, each in one "
                     "game-wide zone once")
            home_cards.update(homed)
            if spec.get("scope") == "game" and spec.get("actions"):
                fail(f"set {name!r} zone {z[:40]!r}: a game-wide zone takes no action")
            verb = spec.get("verb")
            if verb is not None and (not isinstance(verb, str) or not re.fullmatch(r"[a-z][a-z_]{0,39}", verb)
                                     or verb in O.ENUMS["verb"] or verb in O.ENUMS["draw"] or verb in zone_verbs):
                fail(f"set {name!r} zone {z[:40]!r}: verb {str(verb)[:40]!r} is a word of its own that fills the "
                     "zone, not one of the language's verbs nor another zone's")
            zone_verbs.add(verb)
            if spec.get("limit") is not None:
                _check_chunk(spec["limit"], f"set {name!r} zone {z[:40]!r} limit", fail, condition=True)
        hooks = gs.get("hooks", [])
        if not isinstance(hooks, list):
            fail(f"set {name!r}: hooks is a list")
        for h in hooks:
            if not isinstance(h, dict) or h.get("point") not in HOOK_POINTS or \
                    not isinstance(h.get("params"), list) or len(h["params"]) != len(HOOK_POINTS[h["point"]].params):
                fail(f"set {name!r}: a hook names a hook point and its parameters")
            point = HOOK_POINTS[h["point"]]
            named = _set_words(sets)["verb"] | set(EVENT_VERBS) if point.verb else \
                {a for g in sets.values() for a in g.get("actions", {})} if point.action else set()
            if (point.verb or point.action) != ("verb" in h) or "verb" in h and h["verb"] not in named:
                fail(f"set {name!r} hook {h['point']}: an event hook names a verb of a set in play, an action's hook "
                     "an action of a set in play, another hook nothing")
            if type(h.get("order", 0)) is not int or not 0 <= h.get("order", 0) <= 1000:
                fail(f"set {name!r} hook {h['point']}: its order is a whole number from 0 to 1000")
            _check_chunk(h.get("chunk"), f"set {name!r} hook {h['point']}", fail, condition=False)
            if h["chunk"]["kind"] != "hook":
                fail(f"set {name!r} hook {h['point']}: a chunk of kind {h['chunk']['kind']!r} here")
    # last, once every part is known good: each set word the code names is one the sets in play declare
    words = _set_words(sets)
    for card in cards:
        for e, chunk in enumerate(card["effects"]):
            _check_named(chunk, f"card {card['name'][:40]!r} effect {e + 1}", fail, words)
    for name, gs in sorted(sets.items()):
        for h in gs.get("hooks", []):
            _check_named(h["chunk"], f"set {name!r} hook {h['point']}", fail, words)


def _check_set_manifests(bundle: dict, sets: dict, fail) -> None:
    """Each set's manifest as the engine reads it: its schema (schemas/set.schema.json), named by its place in
    the bundle and made for the bundle's edition, its ages among the edition's, the icons it adds counting as
    icons of the game, its rules' values those the edition's rules may take."""
    m = bundle["manifest"]
    if not _SET_VALIDATOR:
        _SET_VALIDATOR.append(jsonschema.Draft202012Validator(schema("set.schema.json")))
    rule_values = schema("edition.schema.json")["properties"]["rules"]["properties"]
    for name, gs in sorted(sets.items()):
        sm = gs["manifest"]
        err = jsonschema.exceptions.best_match(_SET_VALIDATOR[0].iter_errors(sm))
        if err is not None:
            where = "/".join(map(str, err.absolute_path)) or "(top)"
            fail(f"set {name[:40]!r} manifest: {where}: {err.message[:160]}")
        if sm["set"] != name:
            fail(f"set {name[:40]!r}: its manifest names another set ({sm['set'][:40]!r})")
        if sm["edition"] != bundle.get("edition"):
            fail(f"set {name[:40]!r} is for edition {sm['edition'][:20]!r}, not the bundle's")
        if not set(sm["ages"]) <= set(m.get("ages", [])):
            fail(f"set {name[:40]!r}: ages {sm['ages'][:12]} are not all ages of the edition")
        icons = set(m.get("icons", [])) | {m.get("hex")}
        for icon, spec in sm.get("icons", {}).items():
            if spec.get("counts_as", m.get("hex")) not in icons:
                fail(f"set {name[:40]!r}: icon {icon[:40]!r} counts as {str(spec.get('counts_as'))[:40]!r}, "
                     "no icon of the edition")
        own = set(sm.get("icon_positions", []))
        if own & set(m.get("icon_positions", [])):
            fail(f"set {name[:40]!r}: icon positions {sorted(own & set(m['icon_positions']))} are the edition's own")
        for d, ps in sm.get("splays", {}).items():
            if d not in m.get("splays", {}) or not set(ps) <= own:
                fail(f"set {name[:40]!r}: splays/{d[:20]} names a direction of the edition and positions of the set")
        for rule, value in sm.get("rules", {}).items():
            allowed = rule_values.get(rule, {}).get("enum")
            if allowed is not None and value not in allowed:
                fail(f"set {name[:40]!r}: rules/{rule[:40]} is {str(value)[:40]!r}, not one of {allowed}")


_SET_VALIDATOR: list = []


def _check_chunk(chunk, label, fail, condition: bool) -> None:
    try:
        depth = verify(chunk)
    except VerifyError as e:
        fail(f"{label}: bytecode fails verification: {e}")
    if (chunk["kind"] == "condition") != condition:
        fail(f"{label}: a chunk of kind {chunk['kind']!r} here")
    if chunk.get("max_stack") != depth:
        fail(f"{label}: max_stack {chunk.get('max_stack')!r} is not the verified depth {depth}")


def _set_words(sets: dict) -> dict:
    """The names a game's chunks may use that its sets declare: the verbs (a zone's, or one moving as one of
    the language's), the Dogma marks and the decks (a set in play, or base)."""
    out = {"verb": set(), "mark": set(), "deck": {"base"} | set(sets), "zone": set()}
    for gs in sets.values():
        sm = gs["manifest"]
        out["zone"] |= {z for z, spec in (gs.get("zones") or {}).items() if isinstance(spec, dict) and spec.get("scope") == "game"}
        out["verb"] |= {spec.get("verb") for spec in (gs.get("zones") or {}).values() if isinstance(spec, dict)}
        out["verb"] |= set(sm.get("verbs") or {})
        out["mark"] |= set(sm.get("dogma_marks") or [])
    out["verb"].discard(None)
    return out


_NAMED = {O.MOVE_NAMED: "verb", O.DRAW_NAMED: "verb", O.DOGMA: "mark", O.DECK_SET: "deck", O.ZONE_SHARED: "zone",
          O.TRANSFER_SHARED: "zone"}


def _check_named(chunk, label, fail, names: dict) -> None:
    """Every set word an instruction names is one the sets in play declare (a verb no zone takes would stop
    the game at its first use)."""
    consts = chunk["consts"]
    for ins in chunk["code"]:
        kind = _NAMED.get(ins[0])
        if kind is not None:
            word = consts[ins[1]]
            if not (word is None and kind == "mark") and word not in names[kind]:
                fail(f"{label}: {kind} {str(word)[:40]!r} is not one the sets in play declare")


_VERIFIED_TEXTS: set[bytes] = set()   # digests of cache files this process has checked


def load_bundle(edition_name: str, use_cache: bool = True, sets=()) -> dict:
    """The compiled bundle of an edition (with the sets given), from the cache when its sources are unchanged."""
    edition = load_edition(edition_name, sets=sets)
    digest = source_hash(edition)
    label = "+".join([edition.name] + edition.set_names)
    path = cache_dir() / f"{label}-{digest[:24]}.json"
    if use_cache and path.exists():
        try:
            text = path.read_text(encoding="utf-8")
            bundle = json.loads(text)
            # a cache entry is trusted no more than any other file: verified, or rebuilt (text verified
            # before by this process is not verified again: the checks depend on nothing else)
            if isinstance(bundle, dict) and bundle.get("source_hash") == digest and \
                    bundle.get("manifest") == edition.manifest and bundle.get("edition") == edition.name:
                seen = hashlib.sha256(text.encode("utf-8")).digest()
                if seen not in _VERIFIED_TEXTS:
                    check_bundle(bundle, str(path))
                    _VERIFIED_TEXTS.add(seen)
                return bundle
        except (OSError, ValueError, RecursionError, CompileError):
            pass
    bundle = compile_edition(edition)
    check_bundle(bundle, edition.name)
    if use_cache:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            text = dumps(bundle)
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, path)
            _VERIFIED_TEXTS.add(hashlib.sha256(text.encode("utf-8")).digest())
        except OSError:
            pass
    return bundle


def read_bundle_file(path: str, check_sources: bool = False) -> dict:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise CompileError([Diagnostic("E501", f"cannot read bundle: {err}", path, Pos(0, 0))]) from None
    try:
        bundle = json.loads(text)
    except json.JSONDecodeError as err:
        raise CompileError([Diagnostic("E501", f"bundle is not valid JSON: {err.msg}", path, Pos(err.lineno, err.colno))]) from None
    validate_bundle(bundle, path)
    if check_sources:
        edition = load_edition(bundle["edition"], sets=sorted(bundle.get("sets", {})))
        if bundle["source_hash"] != source_hash(edition):
            raise CompileError([Diagnostic("E503", "the bundle was compiled from other card sources than this "
                                                   f"edition's (source hash {bundle['source_hash'][:12]}); recompile it",
                                           path, Pos(0, 0))])
    return bundle
