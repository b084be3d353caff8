"""The core: what the compiler and the runtime share, and nothing else.

- ``opcodes``: the instruction set, one table read by the code generator, the
  verifier, the VM, the compiled tier, the disassembler and the docs;
- ``builtins``: the builtin functions' signatures (their implementations are
  the runtime's, runtime/machine/builtins.py);
- ``hook_points``: the moments at which a set's rules run;
- ``readsets``: what a chunk of bytecode reads, so a condition or a set's
  expression is evaluated again only when that changed;
- ``diagnostics``: errors with a stable code, a position and a hint;
- ``editions``: the editions' and sets' manifests and card sources, found on
  disk; ``schemas/``: the JSON schemas of every file format;
- ``cache``: the cache folder.

The core imports no other part of the project (pyproject.toml's import
contracts; docs/architecture.md).
"""
