"""Syntax highlighting for InnoScript: a Pygments lexer (the docs' code blocks, the
terminal) and a TextMate grammar for editors (shipped as
``innoscript/editors/innoscript.tmLanguage.json``).

Both read the keywords from the grammar itself, so highlighting cannot drift
from the language; a test compares the shipped TextMate file with a fresh one.
"""
from __future__ import annotations

import re

from pygments.lexer import RegexLexer, words
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text

from innoscript.compiler.parser import grammar_text


def _keywords() -> list[str]:
    found = set(re.findall(r'"([a-z][a-z\'-]*)"', grammar_text()))
    return sorted(found, key=lambda w: (-len(w), w))      # longest first; a fixed order for the generated file


CONTROL = {"if", "else", "may", "either", "or", "each", "in", "repeat", "end", "dogma", "let", "record", "with"}


def textmate_grammar() -> dict:
    """A TextMate grammar (VS Code, Sublime Text, TextMate, Zed...) generated from the grammar's keywords."""
    kws = _keywords()
    def alt(words):
        return "(?<![\\w-])(?:" + "|".join(re.escape(w).replace("\\-", "-") for w in words) + ")(?![\\w-])"
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
        "name": "InnoScript",
        "scopeName": "source.innoscript",
        "fileTypes": ["inno"],
        "comment": "Generated from grammar/innoscript.lark by innoscript.highlight.textmate_grammar(); do not edit.",
        "patterns": [
            {"name": "comment.line.number-sign.innoscript", "match": "#.*$"},
            {"name": "string.quoted.double.innoscript", "match": '"[^"\\n]*"'},
            {"name": "constant.numeric.value.innoscript", "match": "\\[[^\\]\\n]*\\]"},
            {"name": "constant.numeric.innoscript", "match": "\\b[0-9]+\\b"},
            {"name": "support.constant.noncolor.innoscript", "match": "\\bnon-[a-z]+\\b"},
            {"name": "keyword.control.innoscript", "match": alt([k for k in kws if k in CONTROL])},
            {"name": "keyword.other.innoscript", "match": alt([k for k in kws if k not in CONTROL])},
            {"name": "entity.name.function.innoscript", "match": "[a-z_][a-z0-9_]*(?=\\()"},
            {"name": "variable.other.possessive.innoscript", "match": "[a-z_][a-z0-9_]*'s\\b"},
            {"name": "keyword.operator.innoscript", "match": "==|!=|<=|>=|//|[<>+\\-*=.]"},
            {"name": "punctuation.section.block.innoscript", "match": "[{}]"},
        ],
    }


def textmate_json() -> str:
    import json
    return json.dumps(textmate_grammar(), indent=2, sort_keys=False) + "\n"


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
