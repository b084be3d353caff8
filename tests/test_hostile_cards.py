"""Hostile card files: depth, long literals, byte-order marks and bidirectional controls.

Whatever the input, the compiler answers with a positioned CompileError (or a card),
never a Python exception, even when called with part of the stack already used.
"""
import os

from hypothesis import HealthCheck, given, settings, strategies as st

from innoscript.compiler.bundle import compile_card, vocabulary
from innoscript.compiler.parser import MAX_DEPTH
from innoscript.compiler.tools.render import render_text
from innoscript.core.diagnostics import CompileError
from innoscript.core.editions import load_edition

EDITION = load_edition("3e")
VOCAB = vocabulary(EDITION.manifest, EDITION.card_names)
HEAD = 'card "X" {\n age 1\n color red\n icons hex leaf leaf leaf\n dogma leaf\n}\neffect {\n %s\n}\n'
EXAMPLES = int(os.environ.get("INNOSCRIPT_FUZZ_EXAMPLES", "150"))


def _with_frames(n, f):
    """Run f with n more Python frames on the stack (a server or test runner uses some)."""
    return f() if n == 0 else _with_frames(n - 1, f)


def _compile(text):
    try:
        card = _with_frames(150, lambda: compile_card(text, "x.inno", VOCAB))
    except CompileError as err:
        assert err.diagnostics and all(d.code.startswith("E") for d in err.diagnostics)
        return err.diagnostics[0].code
    _with_frames(150, lambda: render_text(card.ast))
    return None


def _code(body):
    return _compile(HEAD % body)


def test_the_issue_inputs_are_errors_with_codes():
    assert _code("draw [" + "-" * 330 + "1]") == "E307"
    assert _code("draw [" + " + ".join(["1"] * 3000) + "]") == "E307"
    assert _code("if " + " or ".join(["1 > 2"] * 3000) + " { draw [1] }") == "E307"
    assert _code("if " + "not " * 3000 + "1 > 2 { draw [1] }") == "E307"
    assert _code("if 1 > 2 { draw [1] }" + " else if 1 > 2 { draw [1] }" * 2000) == "E307"
    assert _code("draw [" + "9" * 4400 + "]") == "E104"


def test_just_under_the_limit_compiles_and_renders():
    n = MAX_DEPTH - 20
    for body in ("draw [" + "-" * n + "1]", "draw [" + " + ".join(["1"] * n) + "]",
                 "if " + "not " * n + "1 > 2 { draw [1] }",
                 "if " + " or ".join(["1 > 2"] * n) + " { draw [1] }",
                 "if 1 > 2 { draw [1] }" + " else if 1 > 2 { draw [1] }" * (n // 3)):
        assert _code(body) is None, body[:40]


def test_seven_digit_literal_is_accepted():
    assert _code("draw [1000000]") is None
    assert _code("draw [10000000]") == "E104" and _code("draw [1000001]") == "E104"


def test_byte_order_mark_is_accepted():
    src = EDITION.sources[0]
    plain = compile_card(src.text, src.relpath, VOCAB).data
    assert compile_card("\ufeff" + src.text, src.relpath, VOCAB).data == plain


def test_bidi_controls_are_rejected_and_not_echoed():
    for ch in ("\u202a", "\u202e", "\u2066", "\u2069", "\u200e", "\u200f"):
        text = HEAD % f'return a top card other than "Ox{ch}ford" from your board'
        try:
            compile_card(text, "x.inno", VOCAB)
        except CompileError as err:
            d = err.diagnostics[0]
            assert (d.code, d.pos.line) == ("E105", 8)
            assert ch not in err.render()
        else:
            raise AssertionError("accepted a bidirectional control character")
    assert _code("# a comment \u202e\ndraw [1]") == "E105"


_PIECES = ["-", "not ", "(", ")", "1", " + ", " * ", " or ", " and ", "1 > 2", "[", "]", "if ", "{ ", " }",
           "else ", "draw ", "9999999999", "\ufeff", "\u202e", "count(", "x"]


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(_PIECES), st.integers(1, 400)), min_size=1, max_size=8))
def test_deep_random_shapes_fail_cleanly(parts):
    _code("draw [" + "".join(p * k for p, k in parts) + "]")
