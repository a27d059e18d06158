"""Documentation from the checked program: ``pages`` writes the Markdown rules pages of a
spec, of its variants and of the language's operators; ``lexer`` highlights ``.rules``
files (a Pygments lexer and a TextMate grammar, from the grammar's keywords); ``pictures``
(with ``charts``, on ``svgkit``) draws SVG pictures for them from plain data;
``translations`` keeps the catalogues of a spec's player-facing texts."""

__all__ = ["rules_page", "operators_page", "variants_page"]


def __getattr__(name: str):
    if name in __all__:
        # the pages are imported when first used: Pygments imports this package to load
        # the lexer (its entry point), and the pages bring the whole front end with them
        from rulewright.compiler.docgen import pages
        return getattr(pages, name)
    raise AttributeError(f"module 'rulewright.compiler.docgen' has no attribute {name!r}")
