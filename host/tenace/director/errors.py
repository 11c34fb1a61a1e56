"""The director's one refusal of an input: the field at fault by its neutral name, worded by each front end."""

from __future__ import annotations

from collections.abc import Mapping


class _Words(dict[str, str]):
    """What a message's {placeholders} stand for: the values given, else the field's name in `names`, else the
    field's neutral name."""

    def __init__(self, names: Mapping[str, str], values: Mapping[str, str]) -> None:
        super().__init__(values)
        self.names = names

    def __missing__(self, field: str) -> str:
        try:
            return self.names[field]  # a dict with __missing__ of its own (the commands' flags) answers every field
        except KeyError:
            return field


class DirectorInputError(ValueError):
    """An input the director's action cannot take. `field` is the input at fault ("percent", "pair", "table");
    `message` names fields as {placeholders} ({field}: the field at fault), which `said` fills with a front end's own
    names: the command's flags (--percent), the console's form fields. `text`, when given, is what was typed in
    `field`, quoted at the start as "NAME 'TEXT'"; `values` (the user's own words, already quoted) are put in as they
    are, never read as placeholders."""

    def __init__(self, field: str, message: str, *, text: str | None = None, **values: str) -> None:
        self.field = field
        self.message = message
        self.text = text
        self.values = values
        super().__init__(self.said({}))

    def said(self, names: Mapping[str, str]) -> str:
        """The message with the fields called by `names` (field -> name; an empty name leaves the text alone)."""
        words = _Words(names, self.values)
        name = words["field"] = words[self.field]
        body = self.message.format_map(words)
        if self.text is None:
            return body
        return f"{name} {self.text!r}{body}" if name else f"{self.text!r}{body}"
