"""Stage 1: source text -> Lark parse tree, or positioned syntax errors.

The LALR tables are built once (strict mode, so the grammar is proven
unambiguous) and cached on disk by Lark, keyed by the grammar's hash, so a
warm start-up does not rebuild them.
"""
from __future__ import annotations

import functools
import re
from importlib import resources

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from innoscript.core.diagnostics import CompileError, Diagnostic, Pos, did_you_mean

GRAMMAR_FILE = "innoscript.lark"


def grammar_text() -> str:
    return resources.files("innoscript.grammar").joinpath(GRAMMAR_FILE).read_text(encoding="utf-8")


@functools.cache
def lark_parser() -> Lark:
    return Lark(grammar_text(), parser="lalr", strict=True, propagate_positions=True,
                maybe_placeholders=False, cache=True)


# Human names for the grammar's terminals, used in "expected ..." messages.
_TERMINAL_WORDS = {
    "NAME": "a name", "INT": "a number", "STRING": "a quoted name", "LBRACE": "'{'", "RBRACE": "'}'",
    "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "COMMA": "','", "NONCOLOR": "'non-<colour>'",
    "POSSESSIVE": "\"'s\"", "OPPONENTS_POSS": "\"opponents'\"", "PLAYERS_POSS": "\"players'\"",
    "OPPONENT_POSS": "\"opponent's\"", "PLAYER_POSS": "\"player's\"", "$END": "end of file",
}


def _describe_expected(parser: Lark, expected) -> list[str]:
    words = []
    for name in sorted(expected):
        if name in _TERMINAL_WORDS:
            words.append(_TERMINAL_WORDS[name])
            continue
        try:
            term = parser.get_terminal(name)
            pattern = term.pattern
            words.append(f"'{pattern.value}'" if pattern.type == "str" else name.lower())
        except KeyError:
            words.append(name.lower())
    return sorted(set(words))


def _keywords_expected(parser: Lark, expected) -> list[str]:
    out = []
    for name in expected:
        try:
            pattern = parser.get_terminal(name).pattern
        except KeyError:
            continue
        if pattern.type == "str" and pattern.value.replace("-", "").isalpha():
            out.append(pattern.value)
    return out


def syntax_diagnostic(path: str, err: UnexpectedInput, text: str) -> Diagnostic:
    parser = lark_parser()
    if isinstance(err, UnexpectedToken):
        tok = err.token
        if tok.type == "$END":
            src = text.rstrip().splitlines() or [""]
            line, col = len(src), len(src[-1]) + 1
            opener = _unclosed_opener(text)
            if opener is not None:
                ch, (oline, ocol) = opener
                return Diagnostic("E102", f"this '{ch}' is never closed", path, Pos(oline, ocol, oline, ocol + 1),
                                  f"add '{_CLOSER[ch]}' where its block ends; the file ends at line {line}")
            expected = _describe_expected(parser, err.expected)
            return Diagnostic("E102", "unexpected end of file; expected " + _join(expected), path,
                              Pos(line, col, line, col + 1))
        expected = _describe_expected(parser, err.expected)
        pos = Pos(tok.line, tok.column, tok.end_line or tok.line, tok.end_column or tok.column + 1)
        mistake = _author_mistake(path, text, tok)
        if mistake is not None:
            return mistake
        first = _misspelt_statement_word(text, tok)
        if first is not None:
            # A statement may start with a set's verb, so a misspelt keyword there parses on as one and the
            # error shows up later in the line: the mistake is the first word.
            word, hint, pos = first
            return Diagnostic("E100", f"'{word}' is not a keyword here", path, pos, hint)
        hint = None
        if tok.type == "NAME" or tok.value.isalpha():
            hint = did_you_mean(str(tok.value), _keywords_expected(parser, err.expected))
        if hint is None:
            previous = _misspelt_previous_word(text, tok)
            if previous is not None:
                # The mistake is the word before: put the caret and the message there, not on the token after it.
                word, hint, pos = previous
                return Diagnostic("E100", f"'{word}' is not a keyword here", path, pos, hint)
        msg = f"unexpected {_show(tok)}; expected " + _join(expected)
        return Diagnostic("E100", msg, path, pos, hint)
    if isinstance(err, UnexpectedCharacters):
        ch = text[err.pos_in_stream] if err.pos_in_stream < len(text) else "?"
        pos = Pos(err.line, err.column, err.line, err.column + 1)
        hint = None
        if ch == "'":
            hint = "possessives are written \"'s\" after a name, or \"opponents'\", \"players'\""
        return Diagnostic("E101", f"unexpected character {ch!r}", path, pos, hint)
    if isinstance(err, UnexpectedEOF):
        line = text.count("\n") + 1
        return Diagnostic("E102", "unexpected end of file", path, Pos(line, 1))
    return Diagnostic("E100", str(err).splitlines()[0], path, Pos(getattr(err, "line", 1), getattr(err, "column", 1)))


@functools.cache
def all_keywords() -> frozenset[str]:
    words = set()
    for term in lark_parser().terminals:
        if term.pattern.type == "str" and term.pattern.value.replace("-", "").isalpha():
            words.add(term.pattern.value)
    return frozenset(words)


def _words_before(text: str, offset: int) -> list:
    return list(_WORD.finditer(_strip_comments(text[:offset])))


_WORD = re.compile(r"[a-z][a-z_-]*")


def _strip_comments(text: str) -> str:
    # Same length, so offsets still match the source.
    return re.sub(r"#[^\n]*", lambda m: " " * len(m.group(0)), text)


def _line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _misspelt_statement_word(text: str, tok: Token):
    """The first word of the unexpected token's line, when it is no keyword but one is close to it
    ('drow [2] as drawn'): (word, hint, its position), else None."""
    lines = text.splitlines()
    if not tok.line or tok.line > len(lines):
        return None
    m = re.match(r"\s*([a-z_][a-z0-9_-]*)", lines[tok.line - 1])
    if m is None or m.group(1) in all_keywords() or m.start(1) + 1 == tok.column:
        return None
    hint = did_you_mean(m.group(1), all_keywords())
    if not hint:
        return None
    return m.group(1), hint, Pos(tok.line, m.start(1) + 1, tok.line, m.end(1) + 1)


def _misspelt_previous_word(text: str, tok: Token):
    """A misspelt keyword lexes as a name and the error shows up one token
    later; look back at the word before the unexpected token.  Returns (word, hint, its position)."""
    offset = tok.start_pos if tok.start_pos is not None else 0
    words = _words_before(text, offset)
    if not words or words[-1].group(0) in all_keywords():
        return None
    word = words[-1].group(0)
    hint = did_you_mean(word, all_keywords())
    if not hint:
        return None
    line, col = _line_col(text, words[-1].start())
    return word, hint, Pos(line, col, line, col + len(word))


_CLOSER = {"{": "}", "(": ")", "[": "]"}
_POSSESSIVE_WORDS = {"mine": "my", "yours": "your", "theirs": "their", "ours": "our"}


def _unclosed_opener(text: str):
    """The bracket a file forgot to close: the opener whose closer sits at another indentation
    (the closer really belonged to an outer block), else the innermost one left open."""
    body = _strip_comments(re.sub(r'"[^"\n]*"', lambda m: " " * len(m.group(0)), text))
    stack, suspect = [], None
    for i, ch in enumerate(body):
        if ch in _CLOSER:
            stack.append(i)
        elif ch in ")]}" and stack:
            start = stack.pop()
            if body[start] == "{" and suspect is None and _indent(body, start) != _indent(body, i):
                suspect = start
    if not stack:
        return None
    at = suspect if suspect is not None else stack[-1]
    return body[at], _line_col(text, at)


def _indent(text: str, offset: int) -> int:
    start = text.rfind("\n", 0, offset) + 1
    line = text[start:text.find("\n", start) if "\n" in text[start:] else len(text)]
    return len(line) - len(line.lstrip(" \t"))


def _block_depth(text: str, offset: int) -> int:
    body = _strip_comments(re.sub(r'"[^"\n]*"', lambda m: " " * len(m.group(0)), text[:offset]))
    return body.count("{") - body.count("}")


def _author_mistake(path: str, text: str, tok: Token):
    """The mistakes new authors make most, each explained with the script form to write instead."""
    offset = tok.start_pos if tok.start_pos is not None else 0
    words = _words_before(text, offset)
    prev = words[-1] if words else None

    def at(m, end=None):
        line, col = _line_col(text, m.start())
        return Pos(line, col, line, col + len((end or m).group(0)) if end is None else end)

    if prev is not None and prev.group(0) in ("demand", "compel"):
        kind = prev.group(0)
        if _block_depth(text, prev.start()) > 0:
            return Diagnostic("E100", f"'{kind}' starts an effect of its own and cannot be used inside another effect",
                              path, at(prev),
                              f"close this effect with '}}' first, then write the {kind} as its own effect "
                              f"where the card prints it: {kind} {{ draw [1] }}")
        if tok.value == "you":
            return Diagnostic("E100", f"'{kind} you' is written without 'you'", path,
                              Pos(tok.line, tok.column, tok.line, tok.column + 3),
                              f"\"I {kind.upper()} you draw a [1]\" is written {kind} {{ draw [1] }}")
    if prev is not None and prev.group(0) in _POSSESSIVE_WORDS:
        word, repl = prev.group(0), _POSSESSIVE_WORDS[prev.group(0)]
        to = "to " if len(words) > 1 and words[-2].group(0) == "to" else ""
        return Diagnostic("E100", f"'{word}' is not a word of InnoScript; name the owner and the zone", path,
                          at(prev), f"write '{to}{repl} score pile' (or '{to}{repl} hand', '{to}{repl} board')")
    owned = list(re.finditer(r"\b(your|my|their)\s+available\s+achievements\b", text[:offset]))
    if owned and not text[owned[-1].end():offset].strip():   # read as a set's zone, then stuck after it
        return Diagnostic("E100", "the available achievements belong to no player", path, at(owned[-1]),
                          "write 'to available achievements' (the shared zone any player may achieve from)")
    line_start = text.rfind("\n", 0, offset) + 1
    line_end = text.find("\n", offset)
    line_text = text[line_start:line_end if line_end >= 0 else len(text)]
    m = re.search(r"\bsplay\s+((?:your|my|their|[a-z_]+'s)\s+([a-z_]+)\s+cards?)\s+(left|right|up|aslant)\b",
                  line_text)
    if m and line_start + m.start(1) <= offset <= line_start + m.end(1):
        line, col = _line_col(text, line_start + m.start(1))
        return Diagnostic("E100", "'splay' takes a colour, not a pile of cards", path,
                          Pos(line, col, line, col + len(m.group(1))),
                          f"write 'splay {m.group(2)} {m.group(3)}'")
    return None


def _show(tok: Token) -> str:
    if tok.type == "NAME":
        return f"name '{tok.value}'"
    if tok.type == "INT":
        return f"number {tok.value}"
    return f"'{tok.value}'"


def _join(words: list[str], limit: int = 8) -> str:
    if len(words) > limit:
        return ", ".join(words[:limit]) + f" or one of {len(words) - limit} more"
    if len(words) <= 1:
        return "".join(words) or "something else"
    return ", ".join(words[:-1]) + " or " + words[-1]


MAX_NESTING = 48


def _check_nesting(text: str, path: str) -> None:
    """Reject absurd nesting up front: later passes recurse over the tree."""
    depth, line, col = 0, 1, 0
    in_string = in_comment = False
    for ch in text:
        col += 1
        if ch == "\n":
            line, col, in_comment, in_string = line + 1, 0, False, False
            continue
        if in_comment:
            continue
        if ch == '"':
            in_string = not in_string
        elif in_string:
            continue
        elif ch == "#":
            in_comment = True
        elif ch in "([{":
            depth += 1
            if depth > MAX_NESTING:
                raise CompileError([Diagnostic("E306", f"nesting deeper than {MAX_NESTING} levels", path,
                                               Pos(line, col, line, col + 1))], {path: text})
        elif ch in ")]}":
            depth = max(depth - 1, 0)


# Later passes recurse over the tree, about two Python frames per level; a flat chain
# ("1 + 1 + ...", "a or b or ...") becomes one level per operator once folded.
MAX_DEPTH = 120
MAX_DIGITS = 7          # the VM bounds numbers at 10**6: no longer literal can be meant
MAX_NUMBER = 10 ** 6
_CHAINS = {"arith": 2, "or_": 1, "and_": 1}   # children per extra level
BOM = "\ufeff"
BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")


def _check_text(text: str, path: str) -> None:
    """Bidirectional controls can make a line display differently from what it compiles to."""
    for i, ch in enumerate(text):
        if ch in BIDI:
            line = text.count("\n", 0, i) + 1
            col = i - (text.rfind("\n", 0, i) + 1) + 1
            raise CompileError([Diagnostic("E105", f"bidirectional control character U+{ord(ch):04X}", path,
                                           Pos(line, col, line, col + 1),
                                           "names, strings and comments may not contain characters that "
                                           "reorder how the text is displayed")], {path: text})


def _check_tree(tree: Tree, path: str, text: str) -> None:
    """Depth (with chains counted as they will be folded) and literal lengths, without recursion."""
    work = [(tree, 1)]
    while work:
        node, depth = work.pop()
        if isinstance(node, Token):
            if node.type == "INT" and (len(node) > MAX_DIGITS or int(node) > MAX_NUMBER):
                what = f"of {len(node)} digits" if len(node) > MAX_DIGITS else "above 1000000"
                raise CompileError([Diagnostic("E104", f"number literal {what}",
                                               path, Pos(node.line, node.column, node.line, node.column + len(node)),
                                               "card numbers are small; no value may exceed 1000000")], {path: text})
            continue
        extra = max(len(node.children) // _CHAINS[node.data] - 1, 0) if node.data in _CHAINS else 0
        depth += extra
        if depth > MAX_DEPTH:
            meta = node.meta
            line, col = (meta.line, meta.column) if not meta.empty else (1, 1)
            raise CompileError([Diagnostic("E307", f"expression or statement nested more than {MAX_DEPTH} levels deep",
                                           path, Pos(line, col, line, col + 1),
                                           "split it with 'let' or into separate statements")], {path: text})
        for child in node.children:
            if isinstance(child, (Tree, Token)):
                work.append((child, depth + 1))


_TREES: dict[str, Tree] = {}   # text -> its tree: the tools parse the same cards many times in one process
_MAX_TREES = 4096


def parse(text: str, path: str = "<string>") -> Tree:
    """Parse one card file; raise CompileError for the first syntax error.

    Only the first syntax error is reported: LALR error recovery here would
    mostly report cascades of the same mistake.  Name and type errors,
    found after parsing, are all reported in one run.  A leading byte-order
    mark is read as nothing (positions count from after it).

    A text parsed before is not parsed again: a tree holds no path (errors,
    which do, are never kept) and the builder reads it without changing it.
    """
    tree = _TREES.get(text)
    if tree is not None:
        return tree
    key = text
    if text.startswith(BOM):
        text = text[1:]
    _check_text(text, path)
    _check_nesting(text, path)
    try:
        tree = lark_parser().parse(text)
    except UnexpectedInput as err:
        raise CompileError([syntax_diagnostic(path, err, text)], {path: text}) from None
    _check_tree(tree, path, text)
    if len(_TREES) >= _MAX_TREES:
        _TREES.clear()
    _TREES[key] = tree
    return tree
