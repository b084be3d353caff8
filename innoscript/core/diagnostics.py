"""Positioned diagnostics: every compile error names file, line and column,
shows the source line with a caret, and carries a stable code.

Codes are grouped by stage (see docs/errors.md, generated from ``CODES``):
E1xx syntax, E2xx names and metadata, E3xx types and structure,
E4xx bytecode verification, E5xx bundles and editions.  W-codes are
warnings: reported by ``check``, errors only under ``check --strict``.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Iterable

CODES: dict[str, str] = {
    "E100": "unexpected token",
    "E101": "unexpected character",
    "E102": "unexpected end of file",
    "E103": "file is not valid UTF-8 text",
    "E104": "number literal too long",
    "E105": "bidirectional control character",
    "E200": "unknown colour",
    "E201": "unknown icon",
    "E202": "unknown card name",
    "E203": "unknown special achievement",
    "E204": "unknown name",
    "E205": "unknown function",
    "E206": "wrong number of arguments",
    "E207": "missing card metadata",
    "E208": "duplicate card metadata",
    "E209": "invalid card metadata",
    "E210": "name used before it is bound",
    "E211": "unknown zone",
    "E212": "unknown hook point or wrong hook parameters",
    "E213": "a set that is not in play",
    "E214": "unknown verb or Dogma mark (a set's own words come with the set)",
    "E300": "type mismatch",
    "E301": "more than one quantity in a selection",
    "E302": "'if you do' with no earlier action in the effect",
    "E303": "'it' outside a filter",
    "E304": "'them' / 'their' outside a player condition",
    "E305": "a card effect has no statements",
    "E306": "nesting too deep",
    "E307": "expression or statement chain too deep",
    "E308": "'all or none of' where it cannot apply",
    "E309": "a position in a pile that cannot be",
    "E310": "another player's turn to act, misused",
    "E311": "an unrevealed choice that cannot be",
    "E312": "a turn condition other than 'it is your turn'",
    "E313": "free Dogma options that cannot go together (an option twice, or two sources of cell effects)",
    "E314": "'as if on this card' after an execution other than 'execute'",
    "E315": "'if this caused a change' with no statement just before it",
    "E400": "bytecode verification failed",
    "E500": "invalid edition manifest",
    "E501": "invalid bundle",
    "E502": "bundle version mismatch",
    "E503": "bundle source hash mismatch",
    # Warnings: the file compiles, but probably not as meant ('check --strict' fails on them).
    "W200": "the dogma icon is not among the card's icons",
    "W500": "a card file replaces a card its edition inherits",
}


# Shown as '?' in the quoted source line, so the message itself cannot be reordered on screen.
_SHOW_BIDI = {c: "?" for c in (0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))}


@dataclass(frozen=True, order=True)
class Pos:
    line: int
    column: int
    end_line: int = 0
    end_column: int = 0

    def to_json(self) -> list[int]:
        return [self.line, self.column]


NOWHERE = Pos(0, 0)


@dataclass
class Diagnostic:
    code: str
    message: str
    path: str
    pos: Pos
    hint: str | None = None
    severity: str = "error"

    def sort_key(self):
        return (self.path, self.pos.line, self.pos.column, self.code)

    def to_json(self) -> dict:
        out = {
            "path": self.path,
            "line": self.pos.line,
            "column": self.pos.column,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
        }
        if self.hint:
            out["hint"] = self.hint
        return out

    def render(self, source: str | None = None) -> str:
        # Not about a place in a file (a missing file, an unknown edition): no ':0:0'.
        where = self.path if self.pos.line <= 0 else f"{self.path}:{self.pos.line}:{self.pos.column}"
        head = (f"{where}: " if where else "") + f"{self.severity}[{self.code}]: {self.message}"
        lines = [head]
        if source is not None and self.pos.line > 0:
            src_lines = source.splitlines()
            if self.pos.line <= len(src_lines):
                text = src_lines[self.pos.line - 1].expandtabs(4).translate(_SHOW_BIDI)
                width = 1
                if self.pos.end_line == self.pos.line and self.pos.end_column > self.pos.column:
                    width = self.pos.end_column - self.pos.column
                gutter = f"{self.pos.line:>4} | "
                lines.append(gutter + text)
                lines.append(" " * (len(gutter) + max(self.pos.column - 1, 0)) + "^" * max(width, 1))
        if self.hint:
            lines.append(f"     = help: {self.hint}")
        return "\n".join(lines)


class CompileError(Exception):
    """Raised with every diagnostic found in one file (or bundle)."""

    def __init__(self, diagnostics: list[Diagnostic], sources: dict[str, str] | None = None):
        self.diagnostics = sorted(diagnostics, key=Diagnostic.sort_key)
        self.sources = sources or {}
        super().__init__(self.render())

    def render(self) -> str:
        return "\n".join(d.render(self.sources.get(d.path)) for d in self.diagnostics)


def suggest(word: str, candidates: Iterable[str]) -> str | None:
    """The closest candidate, for "did you mean ..." hints."""
    cands = list(candidates)
    lowered = {c.lower(): c for c in cands}
    match = difflib.get_close_matches(word.lower(), list(lowered), n=1, cutoff=0.6)
    return lowered[match[0]] if match else None


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    s = suggest(word, candidates)
    return f"did you mean '{s}'?" if s else None


@dataclass
class Reporter:
    """Collects diagnostics for one file so a run reports all of them."""

    path: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    source: str = ""        # the file's text, for hints that quote it

    def text_at(self, pos: Pos) -> str | None:
        """The source text from ``pos`` to its end, or None when unknown."""
        lines = self.source.removeprefix("\ufeff").split("\n")
        if not 0 < pos.line <= pos.end_line <= len(lines) or (pos.line, pos.column) >= (pos.end_line, pos.end_column):
            return None
        if pos.line == pos.end_line:
            return lines[pos.line - 1][pos.column - 1:pos.end_column - 1]
        return "\n".join([lines[pos.line - 1][pos.column - 1:], *lines[pos.line:pos.end_line - 1],
                          lines[pos.end_line - 1][:pos.end_column - 1]])

    def error(self, code: str, message: str, pos: Pos, hint: str | None = None) -> None:
        assert code in CODES, code
        self.diagnostics.append(Diagnostic(code, message, self.path, pos, hint))

    def warning(self, code: str, message: str, pos: Pos, hint: str | None = None) -> Diagnostic:
        assert code in CODES and code.startswith("W"), code
        return Diagnostic(code, message, self.path, pos, hint, severity="warning")

    @property
    def failed(self) -> bool:
        return bool(self.diagnostics)
