"""The InnoScript language server (``innoscript lsp``), built on the compiler.

Diagnostics as you type (the compiler's own positioned errors and warnings,
with their codes and hints); hover (a card's rendered text; every keyword with
its language-reference entry; builtins, icons and colours explained);
completion of what the parser can accept at the cursor (Lark's interactive
parser: keywords it accepts there, and for a name the bound names, colours,
icons and builtins; card names in quotes); go-to-definition of names bound
with 'as', 'let', 'choose', 'each' and effect parameters.  The edition is the
one whose folder holds the file (3e outside any edition folder); a set's file
is checked with its set in play, so its zones and set names complete too.
"""
from __future__ import annotations

import re
from pathlib import Path

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from innoscript import __version__
from innoscript.core.builtins import BUILTINS
from innoscript.compiler.bundle import compile_card, compile_hooks, edition_vocabulary, parse_card, vocabulary
from innoscript.compiler.parser import all_keywords, lark_parser
from innoscript.core.hook_points import HOOK_POINTS
from innoscript.compiler.tools.render import render_text
from innoscript.core.diagnostics import CompileError
from innoscript.core.editions import edition_for_path, load_edition, set_for_path, with_required

server = LanguageServer("innoscript", __version__)
_EDITIONS: dict[str, tuple] = {}
ZONES = ["your hand", "your score pile", "your board", "your top cards", "your achievements", "my hand",
         "my score pile", "my board", "opponents' boards", "all players' boards", "available achievements",
         "the junk", "deck [1]"]


def edition_of(uri: str):
    path = to_fs_path(uri) or ""
    set_folder = set_for_path(Path(path).resolve().parent) if path else None
    if set_folder is not None:
        key = f"{set_folder.name}+{set_folder.parent.name}"
        if key not in _EDITIONS:
            try:
                ed = load_edition(set_folder.name, sets=with_required([set_folder.parent.name], set_folder.name))
                _EDITIONS[key] = (ed, edition_vocabulary(ed))
            except CompileError:
                return edition_of("file:///x.inno")
        return _EDITIONS[key]
    folder = edition_for_path(Path(path).resolve().parent) if path else None
    name = folder.name if folder is not None else "3e"
    if name not in _EDITIONS:
        try:
            ed = load_edition(name, folder.parent if folder is not None else None)
        except CompileError:
            ed = load_edition("3e")
        _EDITIONS[name] = (ed, vocabulary(ed.manifest, ed.card_names))
    return _EDITIONS[name]


def diagnostics_for(text: str, uri: str) -> list[T.Diagnostic]:
    _, vocab = edition_of(uri)
    try:
        if re.match(r"\s*(#[^\n]*\s*)*hook\b", text):     # a set's rules file
            compile_hooks(text, uri, vocab)
            found = []
        else:
            found = compile_card(text, uri, vocab).warnings
    except CompileError as err:
        found = err.diagnostics
    if True:
        out = []
        for d in found:
            line, col = max(d.pos.line - 1, 0), max(d.pos.column - 1, 0)
            end_line = max((d.pos.end_line or d.pos.line) - 1, line)
            end_col = max((d.pos.end_column or d.pos.column + 1) - 1, col + 1) if end_line == line else \
                max((d.pos.end_column or 1) - 1, 0)
            msg = d.message + (f"\n{d.hint}" if d.hint else "")
            out.append(T.Diagnostic(range=T.Range(start=T.Position(line=line, character=col),
                                                  end=T.Position(line=end_line, character=end_col)),
                                    message=msg, code=d.code,
                                    severity=T.DiagnosticSeverity.Warning if d.severity == "warning"
                                    else T.DiagnosticSeverity.Error,
                                    source="innoscript"))
        return out


def _publish(ls: LanguageServer, uri: str) -> None:
    doc = ls.workspace.get_text_document(uri)
    ls.text_document_publish_diagnostics(
        T.PublishDiagnosticsParams(uri=uri, version=doc.version, diagnostics=diagnostics_for(doc.source, uri)))


@server.feature(T.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: LanguageServer, params: T.DidOpenTextDocumentParams):
    _publish(ls, params.text_document.uri)


@server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: LanguageServer, params: T.DidChangeTextDocumentParams):
    _publish(ls, params.text_document.uri)


@server.feature(T.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: LanguageServer, params: T.DidSaveTextDocumentParams):
    _publish(ls, params.text_document.uri)


def hover_text(text: str, uri: str, line: int, character: int) -> str | None:
    ed, vocab = edition_of(uri)
    lines = text.splitlines()
    if line >= len(lines):
        return None
    row = lines[line]
    for m in re.finditer(r'"([^"\n]*)"', row):
        if m.start() <= character <= m.end():
            name = m.group(1)
            src = next((s for s in ed.sources if s.name == name), None)
            source = text if line == _header_line(lines) else (src.text if src else None)
            if source is None:
                return None
            try:
                card, _ = parse_card(source, uri, vocab)
            except CompileError:
                return f"**{name}**: (this card does not compile yet)"
            return "```\n" + render_text(card) + "\n```"
    for m in re.finditer(r"[a-z_][a-z0-9_-]*", row):
        if m.start() <= character <= m.end():
            word = m.group(0)
            if word in BUILTINS:
                b = BUILTINS[word]
                return f"`{word}({', '.join(b.args)}) -> {b.result}`: {b.doc}"
            if word in vocab.cells:
                return f"cell `{word}`: {_cell_detail(vocab.cells[word])}"
            if word in vocab.icons or word == vocab.hex:
                return f"icon `{word}`"
            if word in vocab.colors:
                return f"colour `{word}`"
            if word in all_keywords():
                return keyword_hover(word)
            return None
    return None


def _cell_detail(spec: dict) -> str:
    """A set's cell in a few words, from its manifest spec."""
    what = []
    if spec.get("effect"):
        what.append(f"an effect cell ({spec.get('label', 'its effect')} printed in its position)")
    if spec.get("value"):
        what.append("a cell with a number")
    if spec.get("counts_as_icon"):
        what.append("counted as an icon")
    if spec.get("score"):
        what.append("adds to the score")
    return "a set's cell: " + (", ".join(what) or "a mark in an icon position")


def keyword_hover(word: str) -> str | None:
    """A keyword's language-reference entries: meaning, syntax and an example."""
    from innoscript.compiler.tools.reference import entry_for_keyword, group_of
    found = entry_for_keyword(word)
    if not found:
        return None
    parts = []
    for e in found[:2]:
        example = e.real[1] if e.real and e.real[1] else e.example
        syntax = "\n".join(e.syntax[:6]) + ("\n..." if len(e.syntax) > 6 else "")
        parts.append(f"**{word}** — {e.meaning} ({group_of(e.name)}: `{e.name}`)\n\n```\n{syntax}\n```\n\n"
                     f"Example: `{example}`")
    return "\n\n---\n\n".join(parts)


_BINDING = r"(?:\bas\s+({w})\b|\blet\s+({w})\s*=|\brecord\s+({w})\s*=|\beach\s+({w})\s+in\b|[(,]\s*({w})\s*=)"


def definition_range(text: str, line: int, character: int):
    """Where the name under the cursor is bound: the nearest binding before it, else the first after it."""
    lines = text.splitlines()
    if line >= len(lines):
        return None
    word = next((m for m in re.finditer(r"[a-z_][a-z0-9_]*", lines[line]) if m.start() <= character <= m.end()), None)
    if word is None or word.group(0) in all_keywords():
        return None
    offset = sum(len(r) + 1 for r in lines[:line]) + word.start()
    pattern = re.compile(_BINDING.format(w=re.escape(word.group(0))))
    code = re.sub(r"#[^\n]*|\"[^\"\n]*\"", lambda m: " " * len(m.group(0)), text)
    hits = [(m.start(g), m.end(g)) for m in pattern.finditer(code) for g in range(1, 6) if m.group(g)]
    if not hits:
        return None
    before = [h for h in hits if h[0] <= offset]
    start, end = before[-1] if before else hits[0]
    sl = text.count("\n", 0, start)
    sc = start - (text.rfind("\n", 0, start) + 1)
    return T.Range(start=T.Position(line=sl, character=sc), end=T.Position(line=sl, character=sc + end - start))


@server.feature(T.TEXT_DOCUMENT_DEFINITION)
def definition(ls: LanguageServer, params: T.DefinitionParams):
    doc = ls.workspace.get_text_document(params.text_document.uri)
    r = definition_range(doc.source, params.position.line, params.position.character)
    return T.Location(uri=params.text_document.uri, range=r) if r else None


def _header_line(lines: list[str]) -> int:
    for i, row in enumerate(lines):
        if row.strip().startswith("card "):
            return i
    return -1


@server.feature(T.TEXT_DOCUMENT_HOVER)
def hover(ls: LanguageServer, params: T.HoverParams):
    doc = ls.workspace.get_text_document(params.text_document.uri)
    text = hover_text(doc.source, params.text_document.uri, params.position.line, params.position.character)
    if text is None:
        return None
    return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=text))


def completion_items(uri: str, text: str | None = None, line: int = 0, character: int = 0) -> list[T.CompletionItem]:
    """What may come next at the cursor, as far as the parser can tell; everything if the text before is broken."""
    ed, vocab = edition_of(uri)
    K = T.CompletionItemKind
    accepts = _accepted(text, line, character) if text is not None else None
    names = _bound_names(text) if text is not None else []
    if accepts is None:
        words, want_name, want_string = sorted(all_keywords()), True, True
    else:
        from innoscript.compiler.tools.reference import named_terminals
        parser = lark_parser()
        words = []
        for t in accepts:
            try:
                pat = parser.get_terminal(t).pattern
            except KeyError:
                continue
            if pat.type == "str" and pat.value.replace("-", "").replace("'", "").isalpha():
                words.append(pat.value)
        words += [named_terminals()[t] for t in accepts if t in named_terminals() and named_terminals()[t][0].isalpha()]
        words = sorted(set(words))
        want_name, want_string = "NAME" in accepts, "STRING" in accepts
    items = [T.CompletionItem(label=k, kind=K.Keyword, sort_text=f"1{k}") for k in words]
    if accepts is not None and "LSQB" in accepts:
        items.append(T.CompletionItem(label="[1]", kind=K.Value, detail="a card of value 1", sort_text="0["))
    context = _name_context(text, line, character) if text is not None and want_name else None
    if context == "set":        # draw echoes [1]: a set's name, nothing else
        want_name = False
        items += [T.CompletionItem(label=n, kind=K.Module, detail="set", sort_text=f"0{n}") for n in vocab.set_names]
    elif context == "hook":     # hook NAME: a hook point of the table
        want_name = False
        items += [T.CompletionItem(label=h.name, kind=K.Event, detail=h.doc, sort_text=f"0{h.name}")
                  for h in HOOK_POINTS.values()]
    elif context == "event":    # hook after VERB: a zone's verb of a set in play
        want_name = False
        items += [T.CompletionItem(label=v, kind=K.Keyword, detail=f"a move into the {z}", sort_text=f"0{v}")
                  for v, z in sorted(vocab.zone_verbs.items())]
    elif context == "own":      # your.NAME: what the card records with 'record your NAME'
        want_name = False
        own = sorted(set(re.findall(r"\brecord\s+your\s+([a-z_][a-z0-9_]*)", re.sub(r"#[^\n]*", "", text))))
        items += [T.CompletionItem(label=n, kind=K.Variable, detail="recorded for each player", sort_text=f"0{n}")
                  for n in own]
    elif context == "zone":     # your forecast: a set's zone (the keyword zones are in 'words')
        want_name = False
        items += [T.CompletionItem(label=z, kind=K.Field, detail="zone of a set", sort_text=f"0{z}") for z in vocab.zones]
    if want_name:
        # the words the sets in play declare: verbs (a statement of their own, or after 'draw and'), Dogma marks
        items += [T.CompletionItem(label=w, kind=K.Keyword, detail="a verb of a set in play", sort_text=f"1{w}")
                  for w in sorted({*vocab.zone_verbs, *vocab.verb_aliases})]
        items += [T.CompletionItem(label=m, kind=K.Keyword, detail="a Dogma mark of a set in play", sort_text=f"1{m}")
                  for m in vocab.marks]
        items += [T.CompletionItem(label=n, kind=K.Variable, detail="bound in this card", sort_text=f"0{n}")
                  for n in names]
        items += [T.CompletionItem(label=i, kind=K.EnumMember, detail="icon", sort_text=f"2{i}") for i in vocab.icons]
        items += [T.CompletionItem(label=c, kind=K.EnumMember, detail="colour", sort_text=f"2{c}") for c in vocab.colors]
        # the sets' cells: in a card's icons, an effect's name (echo { }), a cell_*() argument
        items += [T.CompletionItem(label=w, kind=K.EnumMember, detail=_cell_detail(spec), sort_text=f"2{w}")
                  for w, spec in sorted(vocab.cells.items()) if w not in vocab.icons]
        items += [T.CompletionItem(label=b.name, kind=K.Function, detail=b.doc, sort_text=f"3{b.name}")
                  for b in BUILTINS.values()]
    if accepts is None:
        items += [T.CompletionItem(label=z, kind=K.Field, detail="zone") for z in ZONES]
    if want_string:
        items += [T.CompletionItem(label=f'"{n}"', kind=K.Constant, detail="card") for n in sorted(vocab.card_names)]
        items += [T.CompletionItem(label=f'"{n}"', kind=K.Constant, detail="special achievement")
                  for n in sorted(vocab.specials)]
    return items


def _accepted(text: str, line: int, character: int) -> set[str] | None:
    """The terminals the LALR parser accepts after the text before the cursor (the word being typed left out)."""
    lines = text.splitlines()
    before = "\n".join(lines[:line] + [lines[line][:character] if line < len(lines) else ""])
    before = re.sub(r"[a-z_][a-z0-9_-]*$", "", before)
    try:
        ip = lark_parser().parse_interactive(before)
        ip.exhaust_lexer()
        return set(ip.accepts())
    except Exception:      # the text before the cursor does not parse: no context to go on
        return None


def _name_context(text: str, line: int, character: int) -> str | None:
    """Where only one kind of name fits: a set after 'draw' (and its count), a zone after an owner."""
    lines = text.splitlines()
    before = "\n".join(lines[:line] + [lines[line][:character] if line < len(lines) else ""])
    before = re.sub(r"[a-z_][a-z0-9_-]*$", "", before)
    if re.search(r"(^|\n)\s*hook\s+$", before):
        return "hook"
    if re.search(r"(^|\n)\s*hook\s+after\s+$", before):
        return "event"
    if re.search(r"\bdraw(\s+and\s+[a-z]+)?(\s+(\d+|\([^()]*\)))?\s*$", before):
        return "set"
    if re.search(r"\b(your|my)\.$", before):
        return "own"
    if re.search(r"(\b(your|my|their)|'s|opponents'|players'|opponent's|player's)\s*$", before):
        return "zone"
    return None


def _bound_names(text: str) -> list[str]:
    found = re.findall(_BINDING.format(w=r"[a-z_][a-z0-9_]*"), re.sub(r"#[^\n]*", "", text))
    return sorted({n for groups in found for n in groups if n})


@server.feature(T.TEXT_DOCUMENT_COMPLETION)
def completion(ls: LanguageServer, params: T.CompletionParams):
    doc = ls.workspace.get_text_document(params.text_document.uri)
    return T.CompletionList(is_incomplete=False, items=completion_items(
        params.text_document.uri, doc.source, params.position.line, params.position.character))


def main() -> None:
    server.start_io()
