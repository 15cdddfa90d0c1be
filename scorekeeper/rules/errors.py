"""The errors the rules raise: each carries a message a player can act on."""

from __future__ import annotations


class RulesError(Exception):
    """Something the rules refuse; ``message`` is meant for a player."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class VariantError(RulesError):
    """An unknown preset, a wrong number of seats or a bad house override."""


class CardError(RulesError):
    """A card or trump that cannot be read."""


class Violation(RulesError):
    """A hand, auction or correction that breaks a rule.

    ``rule`` cites where the rule comes from (e.g. ``seed 001 §3.4``);
    ``remedy`` says what would make the event legal; ``event`` is the
    1-based position in the log of the event that broke it, once the
    engine knows it.
    """

    def __init__(
        self, message: str, *, rule: str, remedy: str = "", event: int | None = None
    ) -> None:
        super().__init__(message)
        self.rule = rule
        self.remedy = remedy
        self.event = event

    def at_event(self, event: int) -> Violation:
        return Violation(self.message, rule=self.rule, remedy=self.remedy, event=event)

    def __str__(self) -> str:
        where = f"event {self.event}: " if self.event is not None else ""
        return f"{where}{self.message} ({self.rule})"
