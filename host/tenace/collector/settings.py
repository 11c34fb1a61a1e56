"""The table settings the host sends with every accepted sign-in (control.py SIGN_IN_ANSWER), by name."""

from __future__ import annotations

from dataclasses import dataclass

from tenace_wire import control

PLAYER_NUMBERS = {"off": control.PLAYER_NUMBERS_OFF, "optional": control.PLAYER_NUMBERS_OPTIONAL,
                  "required": control.PLAYER_NUMBERS_REQUIRED}
LEAD = {"off": control.LEAD_OFF, "on": control.LEAD_ON, "warn": control.LEAD_CHECKED,
        "force": control.LEAD_MUST_CORRECT}
RESULT_ENTRY = {"any": control.ENTRY_ANY, "relative": control.ENTRY_RELATIVE, "total": control.ENTRY_TOTAL}


@dataclass(frozen=True)
class Settings:
    """What every table is told at sign-in; `closed` refuses sign-ins and new results (the session is over)."""

    player_numbers: str = "off"
    lead: str = "off"
    result_entry: str = "any"
    show_traveller: bool = False
    show_percentage: bool = True
    language: str = "en"
    closed: bool = False
    pin: int | None = None  # the director's PIN at the tables (0-9999); None: the event's own (LinkKey.director_pin)

    def __post_init__(self) -> None:
        for name, value, allowed in (("player numbers", self.player_numbers, PLAYER_NUMBERS),
                                     ("lead", self.lead, LEAD), ("result entry", self.result_entry, RESULT_ENTRY)):
            if value not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}, not {value!r}")
        lang = self.language
        if len(lang) != 2 or not all("a" <= c <= "z" for c in lang):
            raise ValueError(f"language must be two lowercase letters (ISO 639-1), not {lang!r}")
        if self.pin is not None and not 0 <= self.pin <= 9999:
            raise ValueError(f"the director's PIN is four digits, 0000 to 9999, not {self.pin}")

    @property
    def lead_checked(self) -> bool:
        """The terminals check the opening lead against the hand records (warn or force)."""
        return bool(LEAD[self.lead] >= control.LEAD_CHECKED)

    def answer(self, status: int, section: int, table: int, round_: int, pin: int) -> control.SignInAnswer:
        """A SIGN_IN_ANSWER with these settings (the session fills in the terminal's nonce)."""
        return control.SignInAnswer(
            status=status, section=section, table=table, round=max(1, min(round_, 127)) if round_ else 0,
            player_numbers=PLAYER_NUMBERS[self.player_numbers], lead_entry=LEAD[self.lead],
            result_entry=RESULT_ENTRY[self.result_entry], show_traveller=int(self.show_traveller),
            show_percentage=int(self.show_percentage), pin=pin, language=self.language)
