"""The syntax stage: ``grammar.lark`` and ``parse`` (text -> Lark tree), ``ast`` (frozen
dataclasses with spans) and ``build_ast`` (Lark tree -> ``ast.SpecFile``, rejecting the
shapes the grammar cannot express)."""
