"""The language reference, read off the grammar text and the construct notes.

Each construct of ``grammar/innoscript.lark`` (a rule, or one of its aliased
alternatives) becomes an entry: every alternative's syntax exactly as the
grammar writes it (so ``*``/``?`` groups read as written, never as the
parser's generated helper rules), its meaning and example from
``compiler/tools/data/constructs.json``, a line of a real card that uses it, and the
cards that use it.  Entries are grouped by what an author wants to do
(``compiler/tools/data/reference-groups.json``); a construct no group lists (a new
set's construct) lands in the last group.  Used by the docs, the language
server's hover and the editor grammar.
"""
from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..parser import grammar_text, lark_parser

DATA = Path(__file__).resolve().parent / "data"   # package data: the language server needs it installed too
LAST_GROUP = "Set constructs and others"


@dataclass
class Entry:
    name: str                       # the construct: an alias, or the rule's name
    rule: str                       # the grammar rule it belongs to
    syntax: list[str]               # its alternatives, as written in the grammar
    meaning: str = ""
    example: str = ""               # from the notes
    real: tuple[str, str] | None = None     # (card (edition), a source line that uses it)
    cards: list[str] = field(default_factory=list)

    def keywords(self) -> set[str]:
        """The words this construct's syntax writes, with those of named terminals (SELF_EXECUTE)."""
        words = {w for alt in self.syntax for w in re.findall(r'"([^"]+)"', alt)}
        terms = named_terminals()
        return words | {terms[t] for alt in self.syntax for t in re.findall(r"\b[A-Z_]+\b", alt) if t in terms}


def _split_alternatives(body: str) -> list[str]:
    """Split a rule body at its top-level '|' (not inside quotes, regexes or brackets)."""
    out, depth, cur, i = [], 0, "", 0
    while i < len(body):
        ch = body[i]
        if ch in "\"/":
            j = body.index(ch, i + 1)
            while body[j - 1] == "\\":
                j = body.index(ch, j + 1)
            cur += body[i:j + 1]
            i = j + 1
            continue
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "|" and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
        i += 1
    out.append(cur.strip())
    return [a for a in out if a]


_RULE = re.compile(r"^([?!]?)([a-z_][a-z0-9_]*)\s*:(.*)$")


def grammar_rules(text: str | None = None) -> list[tuple[str, list[str]]]:
    """[(rule name, [alternative text with its '-> alias'])] in grammar order."""
    text = text or grammar_text()
    rules: list[tuple[str, str]] = []
    for line in text.splitlines():
        code = re.sub(r"\s//.*$|^//.*$", "", line)
        m = _RULE.match(code)
        if m:
            rules.append((m.group(2), m.group(3)))
        elif rules and code.strip().startswith("|") and not re.match(r"^[A-Z_]", code):
            rules[-1] = (rules[-1][0], rules[-1][1] + " " + code.strip())
        elif code.strip() and not code.startswith((" ", "\t")):
            rules.append(("", ""))          # a terminal or directive ends the rule before it
    return [(name, _split_alternatives(body)) for name, body in rules if name]


def inline_rules(text: str | None = None) -> set[str]:
    """Rules written '?name': a node of one child is only a pass-through, not a use."""
    return set(re.findall(r"^\?([a-z_][a-z0-9_]*)\s*:", text or grammar_text(), re.M))


@functools.cache
def named_terminals() -> dict[str, str]:
    """Terminals the grammar defines as one fixed word: name -> the word."""
    return dict(re.findall(r'^([A-Z_]+)(?:\.\d+)?\s*:\s*"([^"]+)"\s*$', grammar_text(), re.M))


@functools.cache
def _syntax_entries() -> dict[str, Entry]:
    out: dict[str, Entry] = {}
    for rule, alts in grammar_rules():
        for alt in alts:
            m = re.match(r"^(.*?)\s*->\s*([a-z_][a-z0-9_]*)\s*$", alt)
            syntax, name = (m.group(1), m.group(2)) if m else (alt, rule)
            e = out.setdefault(name, Entry(name, rule, []))
            if syntax not in e.syntax:
                e.syntax.append(syntax)
    return out


@functools.cache
def entries() -> dict[str, Entry]:
    import copy
    notes = json.loads((DATA / "constructs.json").read_text(encoding="utf-8"))
    out = copy.deepcopy(_syntax_entries())
    for name, e in out.items():
        note = notes.get(name)
        if note:
            e.meaning, e.example = note[0], note[1]
    first_rule = grammar_rules()[0][0]
    for name, (lines, cards) in _usage().items():
        if name in out and name != first_rule:      # the whole file: its notes show it better
            out[name].real, out[name].cards = _pick_line(lines, out[name].keywords()), cards
        elif name in out:
            out[name].cards = cards
    return out


@functools.cache
def _usage() -> dict[str, tuple[list, list[str]]]:
    """construct -> ([(length, card, source line) of its uses], every card using it)."""
    from lark import Tree

    from innoscript.core.editions import available_editions, available_sets, load_edition, load_set
    parser = lark_parser()
    inline = inline_rules()
    passing = {n for n, e in _syntax_entries().items() if e.rule in inline}
    seen: dict[str, list] = {}
    folders = []     # (label, its own files' folder prefix, sources)
    for ed_name in available_editions():
        folders.append((ed_name, ed_name + "/", load_edition(ed_name).sources))
        for set_name in available_sets(ed_name):
            gs = load_set(set_name, ed_name)
            folders.append((f"{set_name} {ed_name}", f"sets/{set_name}/{ed_name}/", gs.sources + gs.rules))
    for ed_name, prefix, sources in folders:
        for src in sorted(sources, key=lambda s: s.relpath):
            if not src.relpath.startswith(prefix):
                continue        # a reused card: listed under the edition that has its file
            try:
                tree = parser.parse(src.text)
            except Exception:
                continue
            lines = src.text.splitlines()
            label = f"{src.name or src.path.name} ({ed_name})"
            for sub in tree.iter_subtrees():
                if sub.meta.empty or (str(sub.data) in passing and len(sub.children) == 1
                                      and isinstance(sub.children[0], Tree)):
                    continue
                item = seen.setdefault(str(sub.data), [[], []])
                if label not in item[1]:
                    item[1].append(label)
                line = lines[sub.meta.line - 1].strip() if sub.meta.line <= len(lines) else ""
                if line and not line.startswith(("card ", "}", "#")):
                    item[0].append((len(line), label, line))
    return {k: (sorted(set(v[0])), sorted(v[1])) for k, v in seen.items()}


def _pick_line(candidates: list, keywords: set[str]):
    """The shortest line that writes one of the construct's words (else the shortest line)."""
    def writes(line):
        return any(re.search(rf"(?<![\w-]){re.escape(k)}(?![\w-])", line) for k in keywords)
    good = [c for c in candidates if writes(c[2])] if keywords else candidates
    best = (good or candidates or [None])[0]
    return (best[1], best[2]) if best else None


def groups() -> list[tuple[str, str, list[Entry]]]:
    """[(title, introduction, entries)] in reading order; every entry exactly once."""
    data = json.loads((DATA / "reference-groups.json").read_text(encoding="utf-8"))
    all_entries = entries()
    placed: set[str] = set()
    out = []
    for g in data["groups"]:
        es = [all_entries[n] for n in g["constructs"] if n in all_entries and n not in placed]
        placed |= {e.name for e in es}
        out.append((g["title"], g["intro"], es))
    rest = [e for n, e in all_entries.items() if n not in placed]
    out.append((LAST_GROUP, data["last_intro"], rest))
    return out


def group_of(name: str) -> str:
    for title, _, es in groups():
        if any(e.name == name for e in es):
            return title
    return LAST_GROUP


def anchor(name: str) -> str:
    return "c-" + name.replace("_", "-")


def entry_for_keyword(word: str) -> list[Entry]:
    """The entries whose syntax writes this keyword, most specific (fewest alternatives) first."""
    hits = [e for e in entries().values() if word in e.keywords()]
    return sorted(hits, key=lambda e: (len(e.syntax), e.name))


def crib() -> list[dict]:
    return json.loads((DATA / "crib.json").read_text(encoding="utf-8"))
