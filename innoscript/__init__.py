"""InnoScript: a card-scripting language, compiler and runtime for Innovation.

Pipeline (one module per stage):
    grammar/innoscript.lark -> compiler.parser -> compiler.builder (AST)
    -> compiler.resolver -> compiler.codegen -> compiler.verifier
    -> compiler.bundle -> runtime (VM and rules engine)
"""
__version__ = "0.1.0"
