"""Forms: read what a player entered and say plainly what is missing.

The rules are not checked here: a form turns a POST into one event, and
the engine (through ``recording.event_append``) accepts it or says why not.
"""

from __future__ import annotations

import secrets
import uuid
from typing import Any

from django import forms

from scorekeeper.gamelog import NAME_LIMIT, LogError, clean_text
from scorekeeper.games.series_words import CHOICES
from scorekeeper.house_rules import SETTINGS, house_overrides
from scorekeeper.models import TOKEN_PATTERN, new_token
from scorekeeper.record_form import entered_hand
from scorekeeper.rules.cards import TRUMPS
from scorekeeper.rules.events import Call, Hand, HandPassedOut, HandRecorded
from scorekeeper.rules.series import SeriesRule, series_rule
from scorekeeper.rules.variants import PRESETS, Variant
from scorekeeper.tablewords import auction_calls, call_of, whole_number

__all__ = ["call_of", "whole_number"]  # pages and leagues read numbers here

MAX_SEATS = 8
SERIES_CHOICES = CHOICES


class _SharedFields(dict[str, forms.Field]):
    """A form's fields, shared by the forms built from them. Django copies a
    form class's fields deeply for each form, for forms that change a field
    of their own; HandForm never does (it adds its per-seat fields to its
    own dict), and the copy took a tenth of a save's view."""

    def __deepcopy__(self, memo: dict[int, object]) -> dict[str, forms.Field]:
        return dict(self)


class HandForm(forms.Form):
    """One hand as a phone records it: bid, trump, and the outcome."""

    # Where the rule that refused this hand comes from ("seed 001 §3.4"),
    # shown on a line of its own under the refusal.
    rule_source = ""

    expected_seq = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    event_id = forms.CharField(max_length=64, widget=forms.HiddenInput)
    bidder = forms.IntegerField(required=False, min_value=0)
    bid = forms.CharField(required=False, max_length=20)
    trump = forms.ChoiceField(required=False, choices=[(t, t) for t in TRUMPS])
    outcome = forms.ChoiceField(
        required=False, choices=[("played", "Played"), ("conceded", "Conceded")]
    )
    taken = forms.IntegerField(required=False, min_value=0)
    free_tricks = forms.IntegerField(required=False, min_value=0)
    by = forms.CharField(required=False, max_length=60)
    auction = forms.CharField(required=False, max_length=200)

    def __init__(
        self, *args: Any, variant: Variant, passing: bool = False, **kwargs: Any
    ):
        super().__init__(*args, **kwargs)
        self.variant = variant
        self.passing = passing
        self._entered: HandRecorded | None = None
        if variant.sides > 2:  # each plays alone: tricks per player
            for seat in range(variant.seats):
                self.fields[f"tricks_{seat}"] = forms.IntegerField(
                    required=False, min_value=0, max_value=variant.tricks_per_hand
                )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.passing or self.errors:
            return data
        self._entered, missing = entered_hand(self.variant, data)
        for field, message in missing:
            self.add_error(field, message)
        return data

    def calls(self) -> list[Call]:
        """The auction as entered: "pass, 3, 4, pass" (empty: not recorded)."""
        return auction_calls(self.cleaned_data.get("auction", ""))

    def hand(self) -> Hand:
        """The event this form describes (call once ``is_valid()``)."""
        if self.passing:
            return HandPassedOut()
        assert self._entered is not None
        return self._entered


HandForm.base_fields = _SharedFields(HandForm.base_fields)


def new_event_id() -> str:
    """A fresh event id for a form: 32 random hex digits (as a UUID's hex,
    for a fraction of its cost: a save's answer makes two)."""
    return secrets.token_hex(16)


def correction_initial(
    hand: object, variant: Variant, *, seq: int, by: str
) -> dict[str, Any]:
    """A correction's form filled in with the hand it corrects, as entered."""
    initial: dict[str, Any] = {
        "expected_seq": seq,
        "event_id": new_event_id(),
        "by": by,
        "outcome": "played",
    }
    if isinstance(hand, HandRecorded):
        initial.update(bidder=str(hand.bidder), bid=str(hand.bid), trump=hand.trump)
        if hand.tricks is None:
            initial.update(outcome="conceded", free_tricks=str(hand.free_tricks))
        elif variant.sides == 2:
            initial["taken"] = str(hand.tricks[variant.side_of(hand.bidder)])
        else:
            initial.update(
                {f"tricks_{seat}": count for seat, count in enumerate(hand.tricks)}
            )
    return initial


class ChosenKeys(forms.Form):
    """The id and edit link a new game will have, chosen when its form is
    shown (hidden fields): the same form sent twice (a double tap, a
    resend after a slow answer) names the same game, which is made once.
    A value that is not of the right shape is no choice: the server makes
    its own (so an old page without them still works)."""

    game_id = forms.UUIDField(required=False, widget=forms.HiddenInput)
    edit_token = forms.RegexField(
        regex=f"^{TOKEN_PATTERN}$", required=False, widget=forms.HiddenInput
    )

    def chosen(self) -> tuple[uuid.UUID | None, str | None]:
        data = self.cleaned_data
        game_id, token = data.get("game_id"), data.get("edit_token")
        return (game_id, token) if game_id and token else (None, None)

    def keys_shown(self) -> tuple[str, str]:
        """The hidden fields' values: as sent when they were of the right
        shape, else new ones."""
        game_id = str(self.data.get("game_id", ""))
        token = str(self.data.get("edit_token", ""))
        fresh = ChosenKeys({"game_id": game_id, "edit_token": token})
        if game_id and token and fresh.is_valid() and fresh.chosen()[0]:
            return game_id, token
        return str(uuid.uuid4()), new_token()


class LinksForm(forms.Form):
    """A game's new links, chosen when "Replace both links?" is asked."""

    edit_token = forms.RegexField(regex=f"^{TOKEN_PATTERN}$")
    view_token = forms.RegexField(regex=f"^{TOKEN_PATTERN}$")

    def chosen(self) -> tuple[str, str] | None:
        if not self.is_valid() or self.data["edit_token"] == self.data["view_token"]:
            return None
        return self.cleaned_data["edit_token"], self.cleaned_data["view_token"]


class GameForm(ChosenKeys):
    """A new game: the rules, the players clockwise, who deals first."""

    preset = forms.ChoiceField(
        choices=[(name, name) for name in PRESETS], initial="classic"
    )
    name = forms.CharField(required=False, max_length=60)
    first_dealer = forms.IntegerField(min_value=0, max_value=MAX_SEATS - 1, initial=0)
    series = forms.ChoiceField(required=False, choices=SERIES_CHOICES)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for seat in range(MAX_SEATS):
            self.fields[f"seat_{seat}"] = forms.CharField(
                required=False, max_length=NAME_LIMIT
            )
        for setting in SETTINGS:  # every house setting (contract §5), as text
            self.fields[setting.key] = forms.CharField(required=False, max_length=20)

    def seats(self) -> list[str]:
        names = [self.cleaned_data.get(f"seat_{seat}", "") for seat in range(MAX_SEATS)]
        return [name.strip() for name in names if name and name.strip()]

    def series_rule(self) -> SeriesRule | None:
        """The series this game starts (None: one game)."""
        code = self.cleaned_data.get("series") or ""
        return series_rule(code) if code else None

    def overrides(self) -> dict[str, object]:
        """The house settings that differ from the chosen preset's (a field
        left blank, or holding the preset's own value, is no house rule)."""
        data = self.cleaned_data
        return house_overrides(data["preset"], len(self.seats()), data)


MAX_LOG_BYTES = 1_000_000  # a 2,000-event log is about a third of this


class ImportForm(ChosenKeys):
    text = forms.CharField(required=False, widget=forms.Textarea)
    upload = forms.FileField(required=False)
    limit = MAX_LOG_BYTES
    kind = "a pepper log, even of a very long game,"

    def document(self) -> bytes:
        """The pasted or uploaded document; ``LogError`` when it is too
        large (read no further than one byte past the limit)."""
        upload = self.cleaned_data.get("upload")
        if upload is not None:
            document = bytes(upload.read(self.limit + 1))
        else:
            document = str(self.cleaned_data.get("text", "")).encode()
        if len(document) > self.limit:
            raise LogError(
                f"this is larger than {self.limit // 1_000_000} MB; "
                f"{self.kind} is far smaller"
            )
        return document


class VoidForm(forms.Form):
    expected_seq = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    event_id = forms.CharField(max_length=64, widget=forms.HiddenInput)
    reason = forms.CharField(required=False, max_length=200)
    by = forms.CharField(required=False, max_length=60)

    def clean_reason(self) -> str:
        return typed_text(self.cleaned_data["reason"], limit=200)

    def clean_by(self) -> str:
        return typed_text(self.cleaned_data["by"], limit=60)


def typed_text(value: str, *, limit: int) -> str:
    """``value`` if the log can store it, else what to tell the player in
    their words (the log's own check says "control character")."""
    problem = clean_text(value, limit=max(limit, len(value)))  # length: max_length
    if problem is None:
        return value
    if "surrogate" in problem:
        raise forms.ValidationError("it holds a broken character: type it again.")
    raise forms.ValidationError(
        "it holds an invisible character (a control character, perhaps pasted "
        "with the text) that cannot be saved: type it again without it."
    )
