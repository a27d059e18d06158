"""Documentation from the checked program: ``rulebook`` writes a game's pages in one
language (the rulebook in the order of play, the reference of every definition, the
catalogue of its tables); ``pages`` the variants' and the operators' pages; ``words`` the
pages' own words in each language; ``translations`` keeps the catalogues of a spec's
player-facing texts; ``pictures`` (with ``charts``, on ``svgkit``) draws SVG pictures
from plain data; ``lexer`` highlights ``.rules`` files (a Pygments lexer and a TextMate
grammar, from the grammar's keywords)."""

__all__ = ["operators_page", "variants_page", "game_pages"]


def __getattr__(name: str):
    # the pages are imported when first used: Pygments imports this package to load the
    # lexer (its entry point), and the pages bring the whole front end with them
    if name in ("operators_page", "variants_page"):
        from rulewright.compiler.docgen import pages        # lazy: see above
        return getattr(pages, name)
    if name == "game_pages":
        from rulewright.compiler.docgen import rulebook     # lazy: see above
        return rulebook.pages
    raise AttributeError(f"module 'rulewright.compiler.docgen' has no attribute {name!r}")
