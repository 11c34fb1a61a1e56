"""The templates of a room's pages (its own templates/ folder) standing on page_base's (base.html, languages.html)."""

from __future__ import annotations

from jinja2 import ChoiceLoader, Environment, PackageLoader, select_autoescape


def environment(package: str) -> Environment:
    """A Jinja2 environment on `package`'s templates/ folder, then page_base's; every .html template escaped."""
    loader = ChoiceLoader([PackageLoader(package, "templates"), PackageLoader("tenace.page_base", "templates")])
    return Environment(loader=loader, autoescape=select_autoescape(["html"]), trim_blocks=True, lstrip_blocks=True)
