"""mkdocs hook: fill generated tables from the single sources of truth.

Markers in the Markdown pages are replaced at build time, so the docs cannot
drift from the opcode table, the error codes, the builtins, the grammar or
the cards themselves.
"""
from __future__ import annotations

import functools
import json
import re


def _md_escape(s: str) -> str:
    return s.replace("|", "\\|")


def opcode_table() -> str:
    from innoscript.core import opcodes as O
    rows = ["| # | opcode | operands | pops | pushes | what it does |", "|---|---|---|---|---|---|"]
    for op in O.OPCODES:
        operands = ", ".join(op.operands) or "-"
        rows.append(f"| {op.code} | `{op.name}` | {operands} | {op.pops} | {op.pushes} | {_md_escape(op.doc)} |")
    rows.append("")
    rows.append("Enumerations used by `enum:` operands:")
    rows.append("")
    rows.append("| enum | values (by index) |")
    rows.append("|---|---|")
    for name, values in O.ENUMS.items():
        rows.append(f"| `{name}` | {', '.join(f'{i}={_md_escape(v)}' for i, v in enumerate(values))} |")
    return "\n".join(rows)


def error_codes() -> str:
    from innoscript.core.diagnostics import CODES
    rows = ["| code | meaning |", "|---|---|"]
    rows += [f"| `{c}` | {_md_escape(m)} |" for c, m in CODES.items()]
    return "\n".join(rows)


def hook_points_table() -> str:
    from innoscript.core.hook_points import HOOK_POINTS
    rows = ["| hook point | arguments | when it runs |", "|---|---|---|"]
    for h in HOOK_POINTS.values():
        args = ", ".join(f"`{n}` ({t})" for n, t in h.params) or "-"
        rows.append(f"| `{h.name}` | {args} | {_md_escape(h.doc)} |")
    return "\n".join(rows)


def builtins_table() -> str:
    from innoscript.core.builtins import BUILTINS
    rows = ["| function | arguments | result | meaning |", "|---|---|---|---|"]
    for b in BUILTINS.values():
        args = ", ".join(b.args) + (", ..." if b.variadic else "")
        rows.append(f"| `{b.name}` | {args or '-'} | {b.result} | {_md_escape(b.doc)} |")
    return "\n".join(rows)


def grammar() -> str:
    from innoscript.compiler.parser import grammar_text
    return "```\n" + grammar_text() + "\n```"


@functools.cache
def usage() -> dict[str, list[str]]:
    """construct id -> ["Card (3e)", ...] over every edition's cards."""
    from innoscript.compiler.bundle import parse_card, vocabulary
    from innoscript.compiler.tools.constructs import constructs_of
    from innoscript.core.editions import available_editions, available_sets, load_edition
    out: dict[str, list[str]] = {}
    for ed_name in available_editions():
        ed = load_edition(ed_name, sets=available_sets(ed_name))    # every set's cards too
        vocab = vocabulary(ed.manifest, ed.card_names, ed.sets)
        for src in sorted(ed.sources, key=lambda s: s.name or ""):
            try:
                card, _ = parse_card(src.text, src.relpath, vocab)
            except Exception:
                continue
            for cid in constructs_of(card):
                out.setdefault(cid, []).append(f"{card.name} ({ed_name})")
    return out


def uses(ids: str) -> str:
    names: list[str] = []
    for cid in ids.split(","):
        for n in usage().get(cid.strip(), []):
            if n not in names:
                names.append(n)
    if not names:
        return "*(none yet)*"
    shown = names[:12]
    more = f" and {len(names) - 12} more" if len(names) > 12 else ""
    return ", ".join(shown) + more


def soak_table() -> str:
    """The recorded soak figures (docs/data/soak-*.json, written by innoscript soak --format json)."""
    from pathlib import Path
    rows = ["| edition | players | games | actions | decisions | violations | errors |", "|---|---|---|---|---|---|---|"]
    files = sorted(Path(__file__).parent.joinpath("data").glob("soak-*.json"))
    if not files:
        raise RuntimeError("no soak figures recorded in docs/data/")
    for f in files:
        for r in json.loads(f.read_text()):
            rows.append(f"| {r['edition']} | {r['players']} | {r['games']:,} | {r['actions']:,} | {r['decisions']:,} | "
                        f"{r['violations']} | {r['errors']} |")
    return "\n".join(rows)


def _syntax_html(alt: str, rules: dict[str, str]) -> str:
    """One alternative as the grammar writes it, names of other constructs linked to their entries."""
    import html
    from innoscript.compiler.tools.reference import anchor
    out = []
    for tok in re.findall(r'"[^"]*"|/[^/]+/|[A-Za-z_][A-Za-z0-9_]*|\S', alt):
        if tok in rules:
            out.append(f'<a href="#{anchor(rules[tok])}">{tok}</a>')
        else:
            out.append(html.escape(tok).replace("|", "&#124;"))
    return "<code>" + " ".join(out).replace("( ", "(").replace(" )", ")") .replace(" ?", "?").replace(" *", "*") \
        .replace(" +", "+") + "</code>"


def _cards_html(cards: list[str]) -> str:
    if not cards:
        return "-"
    if len(cards) <= 6:
        return ", ".join(cards)
    return f"<details><summary>{len(cards)} cards</summary>{', '.join(cards)}</details>"


def grammar_reference() -> str:
    """The constructs grouped by what an author wants to do: syntax from the grammar, meaning, a real card's line."""
    import html
    from innoscript.compiler.tools.reference import anchor, entries, groups
    rules = {}
    for e in entries().values():
        rules.setdefault(e.rule, e.name)
        rules.setdefault(e.name, e.name)
    out = []
    for title, intro, es in groups():
        out += [f"## {title}", "", intro, ""]
        if not es:
            out += ["*(none yet)*", ""]
            continue
        out += ["| construct | syntax (from the grammar) | meaning | example | used by |", "|---|---|---|---|---|"]
        for e in es:
            syntax = "<br>".join(_syntax_html(a, rules) for a in e.syntax)
            if e.real and e.real[1]:
                example = f"<code>{html.escape(e.real[1]).replace('|', '&#124;')}</code><br>({html.escape(e.real[0])})"
            else:
                example = f"<code>{html.escape(e.example).replace('|', '&#124;')}</code>"
            out.append(f'| <a id="{anchor(e.name)}"></a>`{e.name}` | {syntax} | {_md_escape(e.meaning)} | '
                       f"{example} | {_cards_html(e.cards)} |")
        out.append("")
    return "\n".join(out)


def crib_table() -> str:
    """Printed phrasings and the InnoScript that says the same (compiler/tools/data/crib.json; every script is compiled by the tests)."""
    import html
    from innoscript.compiler.tools.reference import crib
    rows = ["| printed | InnoScript | note |", "|---|---|---|"]
    for c in crib():
        script = html.escape(c["script"]).replace("|", "&#124;").replace("\n", "<br>")
        rows.append(f"| {_md_escape(c['printed'])} | <code>{script}</code> | {_md_escape(c['note'])} |")
    return "\n".join(rows)


def _module_summary(name: str) -> str:
    """The first line of a module's or package's docstring, read from its source (nothing is imported)."""
    import ast
    import importlib.util
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return ""
    with open(spec.origin, encoding="utf-8") as f:
        doc = ast.get_docstring(ast.parse(f.read())) or ""
    return doc.split("\n\n")[0].replace("\n", " ").strip()


def layers() -> str:
    """Every layers contract of pyproject.toml: its layers top to bottom, each module with its docstring's
    first line (a layer of several independent modules lists them all)."""
    import pathlib
    import tomllib
    root = pathlib.Path(__file__).resolve().parent.parent
    contracts = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    out = []
    for k in contracts:
        if k["type"] != "layers":
            continue
        container = k["containers"][0]
        out += [f"### `{container}`", "", f"{k['name']}.", "", "| layer | module | what it is |", "|---|---|---|"]
        for i, layer in enumerate(k["layers"], 1):
            for j, part in enumerate(p.strip() for p in layer.split("|")):
                name = f"{container}.{part}"
                out.append(f"| {i if j == 0 else ''} | `{name}` | {_md_escape(_module_summary(name))} |")
        out.append("")
    rules = [k for k in contracts if k["type"] != "layers"]
    out += ["### Across the layers", ""]
    out += [f"- **{k['name']}** (`{k['type']}`)" for k in rules]
    return "\n".join(out)


_MARKERS = {
    "layers": layers,
    "grammar_reference": grammar_reference,
    "crib_table": crib_table,
    "soak_table": soak_table,
    "opcode_table": opcode_table,
    "error_codes": error_codes,
    "builtins_table": builtins_table,
    "hook_points_table": hook_points_table,
    "grammar": grammar,
}


# ---------------------------------------------------------------- the card gallery

def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


CARD_ASSETS = ("cards.js", "cards.css", "icons.svg")


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _reference_files() -> list:
    """The printed texts, where they are at hand: the reference files (the base cards' and the sets') in the
    folder $INNOSCRIPT_REFERENCE names, else in ../shared/reference beside the checkout (README)."""
    import os
    from pathlib import Path
    folder = Path(os.environ.get("INNOSCRIPT_REFERENCE")
                  or Path(__file__).resolve().parent.parent.parent / "shared" / "reference")
    paths = [folder / "innovation-base-cards.json", folder / "innovation-expansion-cards.json"]
    return [p for p in paths if p.exists()]


@functools.cache
def _scenarios_by_card(ed_name: str, sets: tuple = ()) -> dict[str, list]:
    """card name -> [scenario file] of the passing scenarios (played with these sets) that ran one of its effects."""
    from pathlib import Path
    from innoscript.compiler.bundle import load_bundle
    from innoscript.runtime.tools.catalog import default_scenario_dir
    from innoscript.runtime.tools.scenario_results import scenario_results
    folder = default_scenario_dir(ed_name, sets)
    out: dict[str, list] = {}
    if not folder.exists():
        return out
    bundle = load_bundle(ed_name, sets=sets)
    names = [c["name"] for c in bundle["cards"]]
    for path, result in scenario_results(sorted(Path(folder).rglob("*.yaml")), bundle).items():
        if not result["passed"] or (sets and result["sets"] != sorted(sets)):
            continue
        for cid in sorted({cid for cid, _ in result["effects"]}):
            out.setdefault(names[cid], []).append(path)
    return out


def _attr(data) -> str:
    import html
    return html.escape(json.dumps(data, sort_keys=True), quote=True)


@functools.cache
def _gallery_pages() -> dict[str, str]:
    """Markdown for the card gallery: an index per edition and per set (with each edition), and a page per card,
    made from the compiled cards.

    Each card page: the card drawn by the shared card renderer (runtime/serving/web/cards.js), the printed text
    beside the rendered one with the errata similarity and word diff (a set's cell effects too), the scenarios
    that test it (linked to generated pages), the change from or to the other edition, the script and its
    bytecode."""
    from innoscript.compiler.tools import errata as E
    from innoscript.compiler.bundle import compile_edition, edition_vocabulary, parse_card, vocabulary
    from innoscript.compiler.tools.diff import diff_card
    from innoscript.core.editions import available_editions, available_sets, load_edition, with_required
    from innoscript.runtime.api.faces import card_catalog
    pages: dict[str, str] = {}
    asts: dict[str, dict] = {}
    editions = available_editions()
    for ed_name in editions:
        ed = load_edition(ed_name)
        vocab = vocabulary(ed.manifest, ed.card_names)
        asts[ed_name] = {s.name: parse_card(s.text, s.relpath, vocab)[0] for s in ed.sources}
    reference = E.merge([json.loads(p.read_text(encoding="utf-8")) for p in _reference_files()])
    heirs: dict[str, list[str]] = {}
    for e in editions:
        heirs.setdefault(load_edition(e).manifest.get("inherit"), []).append(e)

    def changes(name: str, slug: str, ed_name: str, other: str, older: bool, mine: dict, theirs: dict,
                up: str) -> list[str]:
        """The card's change from (older) or in (not older) the other edition, linked to its page there."""
        a, b = (theirs.get(name), mine[name]) if older else (mine[name], theirs.get(name))
        lines = ["", f"## Changes {'from' if older else 'in'} the {other} edition", ""]
        if theirs.get(name) is None:
            return lines + [f"Not in the {other} edition." if not older else f"{_cap(diff_card(a, b).summary())}."]
        d = diff_card(a, b)
        lines.append(f"{_cap(d.summary())}. The card in the {other} edition: [{name} ({other})]({up}{slug}.md).")
        for e in d.effects:
            kind = f"{_cap(e['cell'])} effect" if e.get("cell") else "Effect"
            old_ed, new_ed = (other, ed_name) if older else (ed_name, other)
            lines += ["", f"{kind} {e['index']} ({e['change']}):", "",
                      f"- {old_ed}: {e['old'] or '-'}", f"- {new_ed}: {e['new'] or '-'}"]
        return lines

    for ed_name in editions:
        ed = load_edition(ed_name)
        inherit = ed.manifest.get("inherit")

        def edition_changes(name, slug, ed_name=ed_name, inherit=inherit):
            out = []
            if inherit and inherit in asts:
                out += changes(name, slug, ed_name, inherit, True, asts[ed_name], asts[inherit], f"../{inherit}/")
            for heir in heirs.get(ed_name, []):
                if heir in asts:
                    out += changes(name, slug, ed_name, heir, False, asts[ed_name], asts[heir], f"../{heir}/")
            return out
        _gallery_of(pages, f"gallery/{ed_name}", ed_name, (), ed.manifest["label"], compile_edition(ed),
                    card_catalog(ed_name), asts[ed_name], reference, "../../", edition_changes,
                    f"edition `{ed_name}`")
    # each set with each of its editions: a page per card of the set
    set_asts: dict[tuple, dict] = {}
    for ed_name in editions:
        for set_name in available_sets(ed_name):
            ed = load_edition(ed_name, sets=with_required([set_name], ed_name))
            vocab = edition_vocabulary(ed)
            set_asts[(set_name, ed_name)] = {s.name: parse_card(s.text, s.relpath, vocab)[0] for s in ed.sources
                                             if s.relpath.startswith(f"sets/{set_name}/")}
    for (set_name, ed_name), mine in sorted(set_asts.items()):
        need = with_required([set_name], ed_name)     # a set played with others (the relics, with Artifacts)
        ed = load_edition(ed_name, sets=need)
        others = [e for (s, e) in set_asts if s == set_name and e != ed_name]

        def set_changes(name, slug, ed_name=ed_name, set_name=set_name, mine=mine, others=others):
            out = []
            for other in others:
                older = editions.index(other) < editions.index(ed_name)
                out += changes(name, slug, ed_name, other, older, mine, set_asts[(set_name, other)], f"../{other}/")
            return out
        label = next(s.manifest["label"] for s in ed.sets if s.name == set_name)
        bundle = compile_edition(ed)
        bundle = dict(bundle, cards=[c for c in bundle["cards"] if c.get("carried_by", c.get("set")) == set_name])
        _gallery_of(pages, f"gallery/{set_name}/{ed_name}", ed_name, tuple(need), label, bundle,
                    card_catalog(ed_name, need), mine, reference, "../../../", set_changes,
                    f"set `{set_name}` with edition `{ed_name}`")
    return pages


def _gallery_of(pages, folder, ed_name, sets, label, bundle, catalog, asts, reference, up, changes, what) -> None:
    """The index and card pages of one edition's cards, or one set's (with an edition), into pages."""
    from innoscript.compiler.tools import errata as E
    from innoscript.compiler.tools.disasm import disassemble_card
    from innoscript.core.editions import source_path
    faces = {f["name"]: f for f in catalog["cards"]}
    try:
        checks = E.check([asts[c["name"]] for c in bundle["cards"]], reference, ed_name) if reference else []
    except KeyError:
        checks = []
    by_card: dict[str, list] = {}
    for c in checks:
        by_card.setdefault(c.card, []).append(c)
    from innoscript.runtime.tools.catalog import default_scenario_dir
    scen_dir = default_scenario_dir(ed_name, sets)
    scenarios = _scenarios_by_card(ed_name, sets)
    rows = [f"# Card gallery: {label}", "",
            f"{len(bundle['cards'])} cards, generated from the card files of {what}.", "",
            "| age | card | colour | icons | dogma | effects | errata similarity | scenarios |",
            "|---|---|---|---|---|---|---|---|"]
    for card in bundle["cards"]:
        name = card["name"]
        slug = _slug(name)
        mine = by_card.get(name, [])
        sims = [c.similarity for c in mine if c.similarity is not None]
        sim = f"{sum(sims) / len(sims):.2f}" if sims else "-"
        cells = [f"{i} {b}" if b is not None else i or "-" for i, b in zip(card["icons"], card.get("cell_values") or
                                                                               [None] * len(card["icons"]))]
        rows.append(f"| {card['age']} | [{name}]({slug}.md) | {card['color']} | "
                    f"{' '.join(cells)} | {card['dogma'] or '-'} | {len(card['effects'])} | {sim} | "
                    f"{len(scenarios.get(name, []))} |")
        source = source_path(card["source"]).read_text(encoding="utf-8")
        lines = [f"# {name} ({ed_name}{', ' + ', '.join(sets) if sets else ''})", "",
                 f"*{label}.* Age {card['age']}, {card['color']}; icons {' · '.join(cells)}; "
                 f"dogma icon **{card['dogma'] or 'none'}**. Source: `cards/{card['source']}`.", "",
                 f'<div class="inno-gallery-card" data-inno-card="{_attr(faces[name])}" data-inno-full></div>',
                 "", "## Printed and rendered text", ""]
        if not card["effects"]:
            lines.append("(no effects scripted)")
        elif not mine or all(c.similarity is None for c in mine):
            lines.append("No reference text for this card; the rendered text:")
            rendered = E.Renderer().card(asts[name])
            for ce in rendered.get("cell_effects", []):
                lines += ["", f"{_cap(ce['cell'])} effect: {ce['text']}"]
            lines += [""] + [f"{i}. {t}" for i, t in enumerate(rendered["effects"], 1)]
        else:
            lines += ["The printed text (reference) beside the English rendered from the script, their similarity "
                      "after normalisation and the word diff (`[-rendered only-]`, `{+printed only+}`); "
                      f"see [errata]({up}errata.md).", "",
                      "| effect | printed | rendered | similarity | word diff |", "|---|---|---|---|---|"]
            for c in mine:
                sim_text = "no reference text" if c.similarity is None else f"{c.similarity:.3f} ({c.status})"
                lines.append(f"| {c.effect} | {_md_escape(c.printed) or '-'} | {_md_escape(c.rendered) or '-'} | "
                             f"{sim_text} | {_md_escape(c.diff) or '-'} |")
        lines += ["", "## Scenarios", ""]
        tested = scenarios.get(name, [])
        if tested:
            lines.append(f"{len(tested)} passing scenario{'s' if len(tested) != 1 else ''} run this card:")
            lines.append("")
            for p in tested:
                rel = p.relative_to(scen_dir).as_posix()
                sslug = _slug(rel.rsplit(".", 1)[0])
                lines.append(f"- [{rel}](scenarios/{sslug}.md)")
                pages.setdefault(f"{folder}/scenarios/{sslug}.md",
                                 # out of the search index: their YAML would answer every search for a card
                                 f"---\nsearch:\n  exclude: true\n---\n\n"
                                 f"# Scenario {rel} ({ed_name})\n\n`tests/scenarios/{scen_dir.name}/{rel}`, run by "
                                 f"`innoscript scenario`.\n\n```yaml\n{p.read_text(encoding='utf-8').rstrip()}\n```\n")
        else:
            lines.append("No scenario runs this card yet.")
        lines += ["", "## Script", "", "```innoscript", source.rstrip(), "```", "",
                  "## Bytecode", "", "```text", disassemble_card(card, source).rstrip(), "```"]
        lines += changes(name, slug)
        pages[f"{folder}/{slug}.md"] = "\n".join(lines) + "\n"
    pages[f"{folder}/index.md"] = "\n".join(rows) + "\n"


def on_files(files, config):
    from importlib import resources
    from mkdocs.structure.files import File
    for path, content in _gallery_pages().items():
        files.append(File.generated(config, path, content=content))
    web = resources.files("innoscript.runtime.serving").joinpath("web")
    for name in CARD_ASSETS:
        files.append(File.generated(config, f"assets/cards/{name}", content=web.joinpath(name).read_bytes()))
    files.append(File.generated(config, "assets/cards/gallery.js",
                                content='document.addEventListener("DOMContentLoaded", () => InnoCards.mount());\n'))
    return files


def on_page_content(html_text: str, page, config, files) -> str:
    """Gallery pages carry the icon sprite inline, so the card renderer draws glyphs without fetching anything."""
    if "data-inno-card" not in html_text:
        return html_text
    from importlib import resources
    sprite = resources.files("innoscript.runtime.serving").joinpath("web", "icons.svg").read_text(encoding="utf-8")
    return re.sub(r"^<\?xml[^>]*>\s*", "", sprite) + html_text


def on_page_markdown(markdown: str, page, config, files) -> str:
    def sub(m):
        key = m.group(1).strip()
        if key.startswith("uses:"):
            return uses(key[5:])
        return _MARKERS[key]()
    return re.sub(r"\{\{\s*([a-z_]+(?::[a-z_,]+)?)\s*\}\}", sub, markdown)
