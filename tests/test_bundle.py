"""Bundles: every card compiles, the bundle validates, output is deterministic, the cache works."""
import json

import jsonschema
import pytest

from innoscript.compiler import bundle as B
from innoscript.compiler.verifier import VerifyError, verify
from innoscript.core.diagnostics import CompileError
from innoscript.core.editions import load_edition, schema


def test_bundle_validates_against_schema(bundle3e):
    jsonschema.validate(bundle3e, schema("bundle.schema.json"))
    B.validate_bundle(bundle3e)


def test_two_compiles_are_byte_identical():
    ed = load_edition("3e")
    assert B.dumps(B.compile_edition(ed)) == B.dumps(B.compile_edition(load_edition("3e")))


def test_every_chunk_has_a_position_for_every_instruction(bundle3e):
    for card in bundle3e["cards"]:
        for chunk in card["effects"]:
            assert len(chunk["lines"]) == len(chunk["code"])
            assert all(line > 0 and col > 0 for line, col in chunk["lines"])


def test_warm_load_uses_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("INNOSCRIPT_CACHE", str(tmp_path))
    first = B.load_bundle("3e")
    files = list(tmp_path.glob("3e-*.json"))
    assert len(files) == 1
    calls = []
    monkeypatch.setattr(B, "compile_edition", lambda e: calls.append(e) or pytest.fail("recompiled"))
    assert B.load_bundle("3e") == first
    assert not calls


def test_bad_bundles_are_rejected(bundle3e, tmp_path):
    cases = {
        "wrong-version": lambda b: b.update(version=99),
        "wrong-format": lambda b: b.update(format="zip"),
        "schema": lambda b: b["cards"][0].pop("age"),
        "bad-bytecode": lambda b: b["cards"][0]["effects"][0]["code"].insert(0, [1]),  # POP on empty stack
    }
    for name, mutate in cases.items():
        b = json.loads(json.dumps(bundle3e))
        mutate(b)
        p = tmp_path / f"{name}.json"
        p.write_text(json.dumps(b))
        with pytest.raises(CompileError) as info:
            B.read_bundle_file(str(p))
        assert info.value.diagnostics[0].code in ("E501", "E502"), name
    p = tmp_path / "not-json.json"
    p.write_text("{")
    with pytest.raises(CompileError):
        B.read_bundle_file(str(p))


@pytest.mark.parametrize("chunk,msg", [
    ({"kind": "non_demand", "code": [[0, 5], [52]], "consts": [1], "lines": [[1, 1], [1, 1]], "locals": []}, "constant index"),
    ({"kind": "non_demand", "code": [[1], [52]], "consts": [], "lines": [[1, 1], [1, 1]], "locals": []}, "needs 1 value"),
    ({"kind": "non_demand", "code": [[0, 0]], "consts": [1], "lines": [[1, 1]], "locals": []}, "falls off"),
    ({"kind": "non_demand", "code": [[0, 0], [52]], "consts": [1], "lines": [[1, 1], [1, 1]], "locals": []}, "left on the stack"),
    ({"kind": "non_demand", "code": [[7, 9]], "consts": [], "lines": [[1, 1]], "locals": []}, "target"),
    ({"kind": "non_demand", "code": [[999]], "consts": [], "lines": [[1, 1]], "locals": []}, "unknown opcode"),
])
def test_verifier_rejects(chunk, msg):
    from innoscript.core import opcodes as O
    # Use names, not numbers, where the test depends on them.
    fixed = json.loads(json.dumps(chunk).replace("[52]", f"[{O.RETURN}]"))
    for ins in fixed["code"]:
        if ins[0] == 7:
            ins[0] = O.JUMP
        if ins == [1]:
            ins[0] = O.POP
    with pytest.raises(VerifyError, match=msg):
        verify(fixed)


def test_verifier_checks_depth_at_merges():
    from innoscript.core import opcodes as O
    # if-true pushes an extra value on one path only
    chunk = {"kind": "non_demand", "consts": [True, 1], "locals": [],
             "code": [[O.CONST, 0], [O.JUMP_IF_FALSE, 3], [O.CONST, 1], [O.RETURN]],
             "lines": [[1, 1]] * 4}
    with pytest.raises(VerifyError, match="meet|left on the stack"):
        verify(chunk)


def test_effect_parameters_survive_repeat():
    """'repeat with v = ...' restarts after the parameter initialisation."""
    from pathlib import Path
    from innoscript.core import opcodes as O
    from innoscript.compiler.bundle import compile_card, vocabulary
    ed = load_edition("3e")
    path = Path(__file__).parent / "corpus" / "effect-params.inno"
    card = compile_card(path.read_text(), path.name, vocabulary(ed.manifest, ed.card_names)).data
    code = card["effects"][0]["code"]
    assert code[0][0] == O.CONST and code[1][0] == O.STORE  # v = 10
    repeats = [ins for ins in code if ins[0] == O.REPEAT]
    assert repeats == [[O.REPEAT, 2]]


def test_repeat_with_requires_a_parameter():
    from innoscript.compiler.bundle import compile_card, vocabulary
    ed = load_edition("3e")
    text = ('card "X" {\n age 1\n color red\n icons hex leaf leaf leaf\n dogma leaf\n}\n'
            'effect {\n let v = 1\n repeat with v = 2\n}\n')
    with pytest.raises(CompileError) as info:
        compile_card(text, "x.inno", vocabulary(ed.manifest, ed.card_names))
    assert info.value.diagnostics[0].code == "E204"
    assert "effect (v = ...)" in info.value.diagnostics[0].hint


def test_fourth_edition_forms_compile():
    """Every form the construct table promises for 4th-edition texts compiles."""
    from pathlib import Path
    from innoscript.compiler.bundle import compile_card, vocabulary
    ed = load_edition("3e")
    path = Path(__file__).parent / "corpus" / "fourth-edition-forms.inno"
    card = compile_card(path.read_text(), path.name, vocabulary(ed.manifest, ed.card_names)).data
    assert card["effects"][0]["code"]


def test_named_where_and_icon_bindings_compile():
    from pathlib import Path
    from innoscript.compiler.bundle import compile_card, vocabulary
    ed = load_edition("4e")
    path = Path(__file__).parent / "corpus" / "named-where.inno"
    compile_card(path.read_text(), path.name, vocabulary(ed.manifest, ed.card_names))


def test_a_card_printed_with_no_effect_says_so_and_a_header_alone_does_not():
    ed = load_edition("3e")
    vocab = B.vocabulary(ed.manifest, ed.card_names)
    head = 'card "X" {\n age 1\n color red\n icons hex leaf leaf leaf\n dogma leaf\n}\n'
    marked = B.compile_card(head + "no effect\n", "x.inno", vocab).data
    assert marked["no_effect"] is True and marked["effects"] == []
    assert "no_effect" not in B.compile_card(head, "x.inno", vocab).data
    with pytest.raises(CompileError):        # the marker is the whole body: no effects after it
        B.compile_card(head + "no effect\neffect {\n draw [1]\n}\n", "x.inno", vocab)
    bundle = json.loads(json.dumps(B.compile_edition(ed)))
    bundle["cards"][0]["no_effect"] = True   # a marked card with effects is a broken bundle
    with pytest.raises(CompileError):
        B.check_bundle(bundle, "b.json")
