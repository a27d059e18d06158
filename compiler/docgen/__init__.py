"""Documentation from the checked program: ``pages`` writes the Markdown rules pages of a
spec, of its variants and of the language's operators; ``pictures`` (with ``charts``,
on ``svgkit``) draws SVG pictures for them from plain data."""
from rulewright.compiler.docgen.pages import operators_page, rules_page, variants_page

__all__ = ["rules_page", "operators_page", "variants_page"]
