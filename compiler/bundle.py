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
from dataclasses import dataclass
from pathlib import Path

import jsonschema

from innoscript import opcodes as O
from innoscript.diagnostics import CompileError, Diagnostic, Pos, Reporter
from innoscript.editions import Edition, load_edition, schema
from . import ast as A
from .builder import build
from .codegen import CodeGen
from .parser import grammar_text, parse
from .readsets import read_set, scope as read_scope
from .resolver import Vocabulary, resolve
from .verifier import VerifyError, verify

BUNDLE_FORMAT = "innoscript-bundle"
BUNDLE_VERSION = 1


@dataclass
class CompiledCard:
    ast: A.Card
    data: dict          # the bundle entry


def vocabulary(manifest: dict, card_names: set[str] | None = None) -> Vocabulary:
    return Vocabulary(colors=list(manifest["colors"]), icons=list(manifest["icons"]), hex=manifest["hex"],
                      ages=list(manifest["ages"]), sets=list(manifest["sets"]),
                      card_names=set(card_names or ()),
                      specials={s["name"] for s in manifest["special_achievements"]})


def parse_card(text: str, path: str, vocab: Vocabulary, check_meta: bool = True) -> tuple[A.Card, dict[int, str]]:
    """Parse, build and resolve one card; raise CompileError with all its errors."""
    tree = parse(text, path)
    reporter = Reporter(path)
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
        "icons": list(icons),
        "dogma": card.get("dogma"),
        "set": card.get("set", "base"),
        "source": path,
        "effects": effects,
    }
    return CompiledCard(card, data)


def compile_condition(text: str, where: str, vocab: Vocabulary) -> dict:
    """Compile a manifest expression (a special achievement's condition)."""
    wrapped = f'card "$condition" {{ }}\neffect {{ if {text} {{ }} }}\n'
    card, types = parse_card(wrapped, where, vocab, check_meta=False)
    cond = card.effects[0].body[0].cond
    chunk = CodeGen(types).condition(cond, cond.pos).to_json()
    chunk["max_stack"] = verify(chunk)
    return chunk


@functools.cache
def compiler_fingerprint() -> str:
    """A hash of the compiler's own code, so a changed compiler never reuses an old cached bundle."""
    h = hashlib.sha256()
    here = Path(__file__).resolve().parent
    files = sorted(here.glob("*.py"))
    for mod in (O, _builtins_module()):
        files.append(Path(mod.__file__))
    for f in files:
        h.update(f.name.encode())
        h.update(f.read_bytes())
    return h.hexdigest()


def _builtins_module():
    from innoscript import builtins
    return builtins


def source_hash(edition: Edition) -> str:
    h = hashlib.sha256()
    h.update(f"{BUNDLE_FORMAT}/{BUNDLE_VERSION}/{O.OPCODE_TABLE_VERSION}\n".encode())
    h.update(compiler_fingerprint().encode())
    h.update(grammar_text().encode())
    h.update(json.dumps(edition.manifest, sort_keys=True).encode())
    for s in sorted(edition.sources, key=lambda s: s.relpath):
        h.update(f"\0{s.relpath}\0".encode())
        h.update(s.text.encode())
    return h.hexdigest()


def _card_order(manifest: dict):
    colors = manifest["colors"]

    def key(c: dict):
        return (c["age"] or 0, colors.index(c["color"]) if c["color"] in colors else 99, c["name"])
    return key


def compile_edition(edition: Edition) -> dict:
    """Compile every card of an edition; raise CompileError listing every error in every file."""
    vocab = vocabulary(edition.manifest, edition.card_names)
    cards, errors, sources = [], [], {}
    seen: dict[str, str] = {}
    for src in edition.sources:
        sources[src.relpath] = src.text
        try:
            compiled = compile_card(src.text, src.relpath, vocab)
        except CompileError as err:
            errors.extend(err.diagnostics)
            continue
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
    return bundle


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
    cards, specials = bundle.get("cards"), bundle.get("special_achievements")
    if not isinstance(cards, list) or not isinstance(specials, list):
        fail("cards and special_achievements are lists")
    names = set()
    for i, card in enumerate(cards):
        if not isinstance(card, dict) or card.get("id") != i or not isinstance(card.get("name"), str):
            fail(f"card {i}: a card is an object whose id is its place in the table")
        label = f"card {card['name'][:40]!r}"
        if card["name"] in names:
            fail(f"{label} is in the table twice")
        names.add(card["name"])
        if card.get("age") not in m.get("ages", []) or card.get("color") not in m.get("colors", []):
            fail(f"{label}: age {card.get('age')!r} or colour {card.get('color')!r} is not the edition's")
        icons = card.get("icons")
        if not isinstance(icons, list) or len(icons) != len(m.get("icon_positions", [])) or \
                any(x not in m.get("icons", []) and x != m.get("hex") for x in icons):
            fail(f"{label}: icons are one of the edition's icons per position")
        if not isinstance(card.get("effects"), list):
            fail(f"{label}: effects are a list")
        for e, chunk in enumerate(card["effects"]):
            _check_chunk(chunk, f"{label} effect {e + 1}", fail, condition=False)
    seen = set()
    for sa in specials:
        if not isinstance(sa, dict) or not isinstance(sa.get("name"), str) or sa["name"] in seen:
            fail("a special achievement is an object with a name of its own")
        seen.add(sa["name"])
        _check_chunk(sa.get("condition"), f"special achievement {sa['name'][:40]!r} condition", fail, condition=True)


def _check_chunk(chunk, label, fail, condition: bool) -> None:
    try:
        depth = verify(chunk)
    except VerifyError as e:
        fail(f"{label}: bytecode fails verification: {e}")
    if (chunk["kind"] == "condition") != condition:
        fail(f"{label}: a chunk of kind {chunk['kind']!r} here")
    if chunk.get("max_stack") != depth:
        fail(f"{label}: max_stack {chunk.get('max_stack')!r} is not the verified depth {depth}")


def cache_dir() -> Path:
    base = os.environ.get("INNOSCRIPT_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "innoscript")
    return Path(base)


def load_bundle(edition_name: str, use_cache: bool = True) -> dict:
    """The compiled bundle of an edition, from the cache when its sources are unchanged."""
    edition = load_edition(edition_name)
    digest = source_hash(edition)
    path = cache_dir() / f"{edition.name}-{digest[:24]}.json"
    if use_cache and path.exists():
        try:
            bundle = json.loads(path.read_text(encoding="utf-8"))
            # a cache entry is trusted no more than any other file: verified, or rebuilt
            if isinstance(bundle, dict) and bundle.get("source_hash") == digest and \
                    bundle.get("manifest") == edition.manifest and bundle.get("edition") == edition.name:
                check_bundle(bundle, str(path))
                return bundle
        except (OSError, ValueError, RecursionError, CompileError):
            pass
    bundle = compile_edition(edition)
    check_bundle(bundle, edition.name)
    if use_cache:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(dumps(bundle), encoding="utf-8")
            os.replace(tmp, path)
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
        edition = load_edition(bundle["edition"])
        if bundle["source_hash"] != source_hash(edition):
            raise CompileError([Diagnostic("E503", "the bundle was compiled from other card sources than this "
                                                   f"edition's (source hash {bundle['source_hash'][:12]}); recompile it",
                                           path, Pos(0, 0))])
    return bundle
