"""The InnoScript compiler: source -> AST -> checked AST -> verified bytecode bundle."""
