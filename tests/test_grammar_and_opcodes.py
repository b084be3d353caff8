"""The grammar builds as strict LALR; the opcode table is complete."""
import re

from lark import Lark

from innoscript.core import opcodes as O
from innoscript.core.builtins import BUILTINS
from innoscript.compiler.parser import grammar_text


def test_grammar_is_strict_lalr():
    Lark(grammar_text(), parser="lalr", strict=True)


def test_every_opcode_has_operands_stack_effect_and_doc():
    names = set()
    for i, op in enumerate(O.OPCODES):
        assert op.code == i
        assert op.name.isupper() and op.name not in names
        names.add(op.name)
        assert isinstance(op.operands, tuple)
        for kind in op.operands:
            assert kind in ("const", "slot", "target", "int") or (kind.startswith("enum:") and kind[5:] in O.ENUMS), kind
        assert isinstance(op.pushes, int) and op.pushes >= 0
        assert isinstance(op.pops, int) or op.pops == "argc"
        assert op.doc and len(op.doc) < 140 and "\n" not in op.doc
        assert op.jumps == ("target" in op.operands)


def test_builtins_have_docs_and_types():
    types = {"int", "bool", "cards", "color", "colors", "player", "players", "icon", "icons", "values", "str", "any",
             "cell"}
    for b in BUILTINS.values():
        assert b.doc
        assert b.result in types
        assert all(a in types for a in b.args)


def test_opcode_numbers_are_not_duplicated_anywhere_else():
    # The table is the only place that lists opcodes: no other module spells an opcode number.
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    for py in list((root / "compiler").glob("*.py")) + list((root / "runtime").glob("*.py")):
        text = py.read_text()
        assert not re.search(r"\bop\s*==\s*\d+", text), py


def test_every_builtin_is_implemented():
    from innoscript.runtime.machine.builtins import IMPLEMENTATIONS
    assert set(IMPLEMENTATIONS) == set(BUILTINS)


def test_every_opcode_is_handled_by_the_vm():
    from pathlib import Path
    import innoscript.runtime.machine.vm as vm
    text = Path(vm.__file__).read_text()
    for op in O.OPCODES:
        assert f'"{op.name}"' in text or f"O.{op.name}" in text, f"the VM does not handle {op.name}"
