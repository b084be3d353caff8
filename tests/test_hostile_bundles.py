"""Tampered bundles: one file in tests/corpus/bundles per verifier rule, each refused with its
error, whether the bundle comes as a file or from the compile cache (which is then rebuilt).

A mutation fuzz changes random instructions, operands and fields of real chunks: the verifier
refuses them or they run, but nothing else escapes. The long profile is
`INNOSCRIPT_FUZZ_EXAMPLES=5000 python -m pytest tests/test_hostile_bundles.py`.
"""
import copy
import json
import os
import random
from pathlib import Path

import pytest

from innoscript.compiler import bundle as B
from innoscript.compiler.verifier import VerifyError, verify
from innoscript.core.diagnostics import CompileError
from innoscript.core.editions import load_edition

CORPUS = sorted((Path(__file__).parent / "corpus" / "bundles").glob("*.json"))
# wrong set bundles, each once accepted by the checks (17 of these 20 were, and played on; 2 of them then
# faulted at the first move into the zone)
SET_CORPUS = sorted((Path(__file__).parent / "corpus" / "set-bundles").glob("*.json"))
EXAMPLES = int(os.environ.get("INNOSCRIPT_FUZZ_EXAMPLES", "150"))


@pytest.fixture(scope="module")
def good():
    return B.load_bundle("3e", use_cache=False)


def tampered(good, doc):
    """The good bundle with one value changed: a card's or special achievement's (by name), or a set's."""
    b = copy.deepcopy(good)
    (top, name, *rest), value = doc["set"]
    if not rest:
        b[top][name] = value
        return b
    obj = b[top][name] if isinstance(b[top], dict) else next(x for x in b[top] if x["name"] == name)
    for k in rest[:-1]:
        obj = obj[k]
    obj[rest[-1]] = value
    return b


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_each_tampered_bundle_is_refused_with_its_error(good, path, tmp_path):
    doc = json.loads(path.read_text())
    b = tampered(good, doc)
    with pytest.raises(CompileError) as info:
        B.check_bundle(b, "x.json")
    d = info.value.diagnostics[0]
    assert d.code == "E501" and doc["error"] in d.message, d.message
    # as a bundle file (the schema runs first and may find it first)
    f = tmp_path / "b.json"
    f.write_text(B.dumps(b))
    with pytest.raises(CompileError) as info:
        B.read_bundle_file(str(f))
    assert info.value.diagnostics[0].code in ("E501", "E502")


@pytest.fixture(scope="module")
def good_with_a_set():
    return B.load_bundle("4e", sets=["echoes"])


@pytest.mark.parametrize("path", SET_CORPUS, ids=[p.stem for p in SET_CORPUS])
def test_each_wrong_set_bundle_is_refused_with_its_error(good_with_a_set, path, tmp_path):
    doc = json.loads(path.read_text())
    assert doc["bundle"] == "4e+echoes"
    b = tampered(good_with_a_set, doc)
    with pytest.raises(CompileError) as info:
        B.check_bundle(b, "x.json")
    d = info.value.diagnostics[0]
    assert d.code == "E501" and doc["error"] in d.message and "\n" not in d.message, d.message
    f = tmp_path / "b.json"
    f.write_text(B.dumps(b))
    with pytest.raises(CompileError):
        B.read_bundle_file(str(f))


def test_the_real_set_bundles_pass_the_set_checks(good_with_a_set):
    B.check_bundle(good_with_a_set)
    B.check_bundle(B.load_bundle("3e", sets=["echoes"]))
    assert len(SET_CORPUS) >= 14


@pytest.mark.parametrize("op,word", [("DOGMA", "blessed"), ("MOVE_NAMED", "teleport"), ("DRAW_NAMED", "dance")])
def test_a_set_word_no_set_in_play_declares_is_refused(good_with_a_set, op, word):
    """A verb, Dogma mark or deck the code names and no set in play declares would stop the game at its first
    use: the bundle is refused, naming the word."""
    from innoscript.core import opcodes as O
    b = copy.deepcopy(good_with_a_set)
    code = getattr(O, op)
    chunks = [ch for c in b["cards"] for ch in c["effects"]] + [h["chunk"] for gs in b["sets"].values()
                                                                 for h in gs["hooks"]]
    chunk, ins = next((ch, ins) for ch in chunks for ins in ch["code"]
                      if ins[0] == code and ch["consts"][ins[1]] is not None)
    chunk["consts"][ins[1]] = word
    with pytest.raises(CompileError) as info:
        B.check_bundle(b, "x.json")
    assert f"{word!r} is not one the sets in play declare" in info.value.diagnostics[0].message


def test_the_corpus_has_a_file_per_rule():
    assert len(CORPUS) >= 30
    rules = {json.loads(p.read_text())["rule"] for p in CORPUS}
    for needed in ("call-negative-argc", "choose-option-zero", "call-unknown-builtin", "stack-underflow",
                   "jump-target", "flag-operand", "max-stack-wrong", "constant-too-big"):
        assert needed in rules


def test_a_tampered_cache_entry_is_verified_and_rebuilt(good, tmp_path, monkeypatch):
    monkeypatch.setenv("INNOSCRIPT_CACHE", str(tmp_path))
    fresh = B.load_bundle("3e")
    [entry] = list(tmp_path.glob("3e-*.json"))
    doc = json.loads((Path(__file__).parent / "corpus" / "bundles" / "choose-option-zero.json").read_text())
    entry.write_text(B.dumps(tampered(fresh, doc)))     # the hash field still matches
    again = B.load_bundle("3e")
    assert again == fresh
    B.check_bundle(json.loads(entry.read_text()))      # the entry was rewritten good


def test_a_cache_entry_is_verified_once_per_process_and_again_when_its_text_changes(good, tmp_path, monkeypatch):
    monkeypatch.setenv("INNOSCRIPT_CACHE", str(tmp_path))
    fresh = B.load_bundle("3e")
    [entry] = list(tmp_path.glob("3e-*.json"))
    checked = []
    real = B.check_bundle
    monkeypatch.setattr(B, "check_bundle", lambda b, where="bundle": (checked.append(where), real(b, where)))
    assert B.load_bundle("3e") == fresh and checked == []        # the text this process wrote and checked
    entry.write_text(entry.read_text() + " ")                   # the same bundle, other bytes
    assert B.load_bundle("3e") == fresh and len(checked) == 1
    assert B.load_bundle("3e") == fresh and len(checked) == 1
    doc = json.loads((Path(__file__).parent / "corpus" / "bundles" / "choose-option-zero.json").read_text())
    entry.write_text(B.dumps(tampered(fresh, doc)))
    assert B.load_bundle("3e") == fresh and len(checked) == 3   # refused, rebuilt and checked


def _mutate(rng, chunk):
    c = copy.deepcopy(chunk)
    for _ in range(rng.randint(1, 3)):
        r = rng.random()
        if not all(isinstance(c.get(k), list) for k in ("code", "lines", "consts", "locals")):
            break
        if r < 0.5 and c["code"]:
            ins = rng.choice(c["code"])
            i = rng.randrange(len(ins))
            ins[i] = rng.choice([-3, -1, 0, 1, 2, 3, 7, 52, 53, 99, 10 ** 9, ins[i] + 1, ins[i] - 1])
        elif r < 0.65:
            c["code"].insert(rng.randrange(len(c["code"]) + 1), [rng.randrange(60)] + [rng.randrange(4)] * rng.randrange(4))
            c["lines"].insert(0, [1, 1])
        elif r < 0.75 and len(c["code"]) > 1:
            i = rng.randrange(len(c["code"]))
            del c["code"][i]
            del c["lines"][i:i + 1]
        elif r < 0.85:
            c["consts"].append(rng.choice([10 ** 7, -5, "count", "x" * 300, None, True, [1, 2], {"a": 1}]))
        elif r < 0.95:
            key = rng.choice(["code", "consts", "lines", "locals", "kind", "max_stack"])
            c[key] = rng.choice([None, [], "x", 0, {}, [[0]]])
        else:
            c["locals"] = c.get("locals", []) + ["v"]
    return c


def test_mutated_chunks_are_refused_or_verified_cleanly(good):
    rng = random.Random(14)
    chunks = [e for c in good["cards"] for e in c["effects"]]
    refused = 0
    for _ in range(EXAMPLES * 10):
        c = _mutate(rng, rng.choice(chunks))
        try:
            verify(c)
        except VerifyError:
            refused += 1
    assert refused > EXAMPLES   # most mutations are caught
