"""A Pygments lexer for InnoScript, used for the docs' code blocks and the terminal.

The keywords are read from the grammar itself, so the highlighting cannot
drift from the language.
"""
from __future__ import annotations

import re

from pygments.lexer import RegexLexer, words
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text

from innoscript.compiler.parser import grammar_text


def _keywords() -> list[str]:
    found = set(re.findall(r'"([a-z][a-z\'-]*)"', grammar_text()))
    return sorted(found, key=len, reverse=True)


class InnoScriptLexer(RegexLexer):
    name = "InnoScript"
    aliases = ["innoscript", "inno"]
    filenames = ["*.inno"]

    tokens = {
        "root": [
            (r"#.*$", Comment.Single),
            (r'"[^"\n]*"', String),
            (r"\[[^\]\n]*\]", Number),
            (r"\b[0-9]+\b", Number),
            (r"\bnon-[a-z]+\b", Name.Builtin),
            (words(_keywords(), prefix=r"(?<![\w-])", suffix=r"(?![\w-])"), Keyword),
            (r"[a-z_][a-z0-9_]*(?=\()", Name.Function),
            (r"[a-z_][a-z0-9_]*'s\b", Name.Variable),
            (r"[a-z_][a-z0-9_]*", Name),
            (r"==|!=|<=|>=|//|[<>+\-*=.]", Operator),
            (r"[{}()\[\],]", Punctuation),
            (r"\s+", Text),
        ]
    }
