"""Quick compiler fuzzing: mutated real card files only ever raise CompileError.

The long profile is `INNOSCRIPT_FUZZ_EXAMPLES=20000 python -m pytest tests/test_fuzz_compiler.py`.
"""
import os

from hypothesis import HealthCheck, given, settings, strategies as st

from innoscript.compiler.bundle import compile_card, vocabulary
from innoscript.core.diagnostics import CompileError
from innoscript.core.editions import load_edition

EDITION = load_edition("3e")
VOCAB = vocabulary(EDITION.manifest, EDITION.card_names)
SOURCES = [s.text for s in EDITION.sources]
EXAMPLES = int(os.environ.get("INNOSCRIPT_FUZZ_EXAMPLES", "150"))


def _compile(text: str) -> None:
    try:
        compile_card(text, "fuzz.inno", VOCAB)
    except CompileError as err:
        assert err.diagnostics, "a CompileError always carries a diagnostic"
        for d in err.diagnostics:
            assert d.pos.line >= 0 and d.code.startswith("E")


@st.composite
def mutated(draw):
    src = draw(st.sampled_from(SOURCES))
    tokens = src.split(" ")
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["delete", "swap", "dup", "insert", "replace"]))
        if not tokens:
            break
        i = draw(st.integers(0, len(tokens) - 1))
        j = draw(st.integers(0, len(tokens) - 1))
        if op == "delete":
            del tokens[i]
        elif op == "swap":
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif op == "dup":
            tokens.insert(i, tokens[j])
        elif op == "insert":
            tokens.insert(i, draw(st.sampled_from(["{", "}", "(", ")", "[", "]", "as", "it", "them", "may",
                                                    "if", "you", "do", "each", "x", "\"Fission\"", "0", "-"])))
        else:
            tokens[i] = draw(st.text(max_size=6))
    return " ".join(tokens)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_cards_fail_cleanly(text):
    _compile(text)


@settings(max_examples=EXAMPLES // 3, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_fail_cleanly(raw):
    _compile(raw.decode("utf-8", errors="replace"))


def test_deep_nesting_and_huge_input():
    deep = 'card "X" { age 1 color red icons hex leaf leaf leaf dogma leaf }\neffect { draw [' + "(" * 400 + "1" + ")" * 400 + "] }"
    _compile(deep)
    nested_ifs = 'card "X" { age 1 color red icons hex leaf leaf leaf dogma leaf }\neffect { ' + "if 1 > 0 { " * 200 + "draw [1]" + " }" * 200 + " }"
    _compile(nested_ifs)
    _compile(SOURCES[0] * 200)
