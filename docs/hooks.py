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
    from innoscript import opcodes as O
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
    from innoscript.diagnostics import CODES
    rows = ["| code | meaning |", "|---|---|"]
    rows += [f"| `{c}` | {_md_escape(m)} |" for c, m in CODES.items()]
    return "\n".join(rows)


def builtins_table() -> str:
    from innoscript.builtins import BUILTINS
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
    from innoscript.compiler.constructs import constructs_of
    from innoscript.editions import available_editions, load_edition
    out: dict[str, list[str]] = {}
    for ed_name in available_editions():
        ed = load_edition(ed_name)
        vocab = vocabulary(ed.manifest, ed.card_names)
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
    from innoscript.compiler.reference import anchor
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
    from innoscript.compiler.reference import anchor, entries, groups
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
    """Printed phrasings and the InnoScript that says the same (docs/data/crib.json; every script is compiled by the tests)."""
    import html
    from innoscript.compiler.reference import crib
    rows = ["| printed | InnoScript | note |", "|---|---|---|"]
    for c in crib():
        script = html.escape(c["script"]).replace("|", "&#124;").replace("\n", "<br>")
        rows.append(f"| {_md_escape(c['printed'])} | <code>{script}</code> | {_md_escape(c['note'])} |")
    return "\n".join(rows)


_MARKERS = {
    "grammar_reference": grammar_reference,
    "crib_table": crib_table,
    "soak_table": soak_table,
    "opcode_table": opcode_table,
    "error_codes": error_codes,
    "builtins_table": builtins_table,
    "grammar": grammar,
}


# ---------------------------------------------------------------- the card gallery

def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


@functools.cache
def _gallery_pages() -> dict[str, str]:
    """Markdown for the card gallery: an index per edition and a page per card, made from the compiled cards."""
    from innoscript.compiler.bundle import compile_edition, parse_card, vocabulary
    from innoscript.compiler.diff import diff_card
    from innoscript.compiler.disasm import disassemble_card
    from innoscript.compiler.render import render_card
    from innoscript.editions import available_editions, load_edition, source_path
    pages: dict[str, str] = {}
    asts: dict[str, dict] = {}
    for ed_name in available_editions():
        ed = load_edition(ed_name)
        vocab = vocabulary(ed.manifest, ed.card_names)
        asts[ed_name] = {s.name: parse_card(s.text, s.relpath, vocab)[0] for s in ed.sources}
    for ed_name in available_editions():
        ed = load_edition(ed_name)
        bundle = compile_edition(ed)
        rows = [f"# {ed.manifest['label']}", "",
                f"{len(bundle['cards'])} cards, generated from the card files of edition `{ed_name}`.", "",
                "| age | card | colour | icons | dogma | effects |", "|---|---|---|---|---|---|"]
        for card in bundle["cards"]:
            slug = _slug(card["name"])
            rows.append(f"| {card['age']} | [{card['name']}]({slug}.md) | {card['color']} | "
                        f"{' '.join(card['icons'])} | {card['dogma']} | {len(card['effects'])} |")
            source = source_path(card["source"]).read_text(encoding="utf-8")
            rendered = render_card(asts[ed_name][card["name"]])
            lines = [f"# {card['name']}", "",
                     f"Age {card['age']}, {card['color']}; icons {' · '.join(card['icons'])}; "
                     f"dogma icon **{card['dogma']}**. Source: `cards/{card['source']}`.", "",
                     "## Rendered text", ""]
            lines += [f"{i}. {t}" for i, t in enumerate(rendered["effects"], 1)] or ["(no effects scripted)"]
            lines += ["", "## Script", "", "```innoscript", source.rstrip(), "```", "",
                      "## Bytecode", "", "```text", disassemble_card(card, source).rstrip(), "```"]
            inherit = ed.manifest.get("inherit")
            if inherit and inherit in asts:
                d = diff_card(asts[inherit].get(card["name"]), asts[ed_name][card["name"]])
                lines += ["", f"## Changes from the {inherit} edition", "", f"{d.summary()}."]
                for e in d.effects:
                    lines += ["", f"Effect {e['index']} ({e['change']}):", "",
                              f"- {inherit}: {e['old'] or '-'}", f"- {ed_name}: {e['new'] or '-'}"]
            pages[f"gallery/{ed_name}/{slug}.md"] = "\n".join(lines) + "\n"
        pages[f"gallery/{ed_name}/index.md"] = "\n".join(rows) + "\n"
    return pages


def on_files(files, config):
    from mkdocs.structure.files import File
    for path, content in _gallery_pages().items():
        files.append(File.generated(config, path, content=content))
    return files


def on_page_markdown(markdown: str, page, config, files) -> str:
    def sub(m):
        key = m.group(1).strip()
        if key.startswith("uses:"):
            return uses(key[5:])
        return _MARKERS[key]()
    return re.sub(r"\{\{\s*([a-z_]+(?::[a-z_,]+)?)\s*\}\}", sub, markdown)
