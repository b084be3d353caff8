"""The InnoScript language server (``innoscript lsp``), built on the compiler.

Diagnostics as you type (the compiler's own positioned errors, with their
codes and hints), hover (a card's rendered text; builtins, icons and colours
explained), and completion of keywords, icons, colours, zones, builtins and
card names.  The edition is the one whose folder holds the file (3e outside
any edition folder).
"""
from __future__ import annotations

import re
from pathlib import Path

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from innoscript import __version__
from innoscript.builtins import BUILTINS
from innoscript.compiler.bundle import compile_card, parse_card, vocabulary
from innoscript.compiler.parser import all_keywords
from innoscript.compiler.render import render_text
from innoscript.diagnostics import CompileError
from innoscript.editions import edition_for_path, load_edition

server = LanguageServer("innoscript", __version__)
_EDITIONS: dict[str, tuple] = {}
ZONES = ["your hand", "your score pile", "your board", "your top cards", "your achievements", "my hand",
         "my score pile", "my board", "opponents' boards", "all players' boards", "available achievements",
         "the junk", "deck [1]"]


def edition_of(uri: str):
    path = to_fs_path(uri) or ""
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
        compile_card(text, uri, vocab)
        return []
    except CompileError as err:
        out = []
        for d in err.diagnostics:
            line, col = max(d.pos.line - 1, 0), max(d.pos.column - 1, 0)
            end_line = max((d.pos.end_line or d.pos.line) - 1, line)
            end_col = max((d.pos.end_column or d.pos.column + 1) - 1, col + 1) if end_line == line else \
                max((d.pos.end_column or 1) - 1, 0)
            msg = d.message + (f"\n{d.hint}" if d.hint else "")
            out.append(T.Diagnostic(range=T.Range(start=T.Position(line=line, character=col),
                                                  end=T.Position(line=end_line, character=end_col)),
                                    message=msg, severity=T.DiagnosticSeverity.Error, code=d.code,
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
    for m in re.finditer(r"[a-z_][a-z0-9_]*", row):
        if m.start() <= character <= m.end():
            word = m.group(0)
            if word in BUILTINS:
                b = BUILTINS[word]
                return f"`{word}({', '.join(b.args)}) -> {b.result}`: {b.doc}"
            if word in vocab.icons or word == vocab.hex:
                return f"icon `{word}`"
            if word in vocab.colors:
                return f"colour `{word}`"
            return None
    return None


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


def completion_items(uri: str) -> list[T.CompletionItem]:
    ed, vocab = edition_of(uri)
    K = T.CompletionItemKind
    items = [T.CompletionItem(label=k, kind=K.Keyword) for k in sorted(all_keywords())]
    items += [T.CompletionItem(label=i, kind=K.EnumMember, detail="icon") for i in vocab.icons]
    items += [T.CompletionItem(label=c, kind=K.EnumMember, detail="colour") for c in vocab.colors]
    items += [T.CompletionItem(label=z, kind=K.Field, detail="zone") for z in ZONES]
    items += [T.CompletionItem(label=b.name, kind=K.Function, detail=b.doc) for b in BUILTINS.values()]
    items += [T.CompletionItem(label=f'"{n}"', kind=K.Constant, detail="card") for n in sorted(vocab.card_names)]
    items += [T.CompletionItem(label=f'"{n}"', kind=K.Constant, detail="special achievement")
              for n in sorted(vocab.specials)]
    return items


@server.feature(T.TEXT_DOCUMENT_COMPLETION)
def completion(ls: LanguageServer, params: T.CompletionParams):
    return T.CompletionList(is_incomplete=False, items=completion_items(params.text_document.uri))


def main() -> None:
    server.start_io()
