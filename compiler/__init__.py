"""The InnoScript compiler: source -> AST -> checked AST -> verified bytecode bundle.

One module per stage, in pipeline order:

    parser     the Lark LALR parser (grammar/innoscript.lark): a parse tree, or E1xx syntax errors
    builder    the syntax tree (ast), every node with its source position
    resolver   names and types checked: E2xx/E3xx
    codegen    bytecode chunks with a pc -> (line, column) map
    verifier   stack depths and operands checked: E400
    bundle     one deterministic JSON bundle per edition and sets, cached by source hash

``tools/`` holds what authors read from the stages' output (English
rendering, errata, edition diffs, the language reference, the disassembler);
a stage never imports a tool.  The compiler never imports the runtime.
"""
