"""InnoScript: a card-scripting language, compiler and runtime for Innovation.

Pipeline (one module per stage):
    grammar/innoscript.lark -> compiler.parser -> compiler.builder (AST)
    -> compiler.resolver -> compiler.codegen -> compiler.verifier
    -> compiler.bundle -> runtime (VM and rules engine)

Where things are (each folder maps to its import name in pyproject.toml):

    innoscript/   this package: the front doors (cli, lsp, highlight) and core/,
                  the definitions the compiler and the runtime share
    grammar/      innoscript.grammar: the grammar
    cards/        innoscript.cards: card files and manifests, one folder per edition and set
    compiler/     innoscript.compiler: the stages; compiler/tools/, what authors read
    runtime/      innoscript.runtime: state, machine, rules, api, bots, tools, serving

Layers, top to bottom: the front doors, the runtime, the compiler, the core.
docs/architecture.md draws them; pyproject.toml's import contracts enforce them.
"""
__version__ = "0.2.0"
