"""The compiler's tools: what authors and checkers read from the stages' output.

They take syntax trees (compiler/ast.py) and bundles and never feed back into
a bundle:

- ``render``: a card's effects in English, generated from its script;
- ``errata``: the rendered text against the printed text, effect by effect;
- ``diff``: what changed in a card between two editions, by meaning;
- ``reference``: the language reference's tables, read from the grammar;
- ``constructs``: the table of the language's constructs with a card that uses each;
- ``disasm``: bytecode listed beside its source lines.

The stages never import a tool (pyproject.toml's import contracts).
"""
