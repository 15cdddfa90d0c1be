"""The organizer's forms: they check the shape of what is typed; the
services decide what the league allows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.contrib.auth import authenticate
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from scorekeeper.games.forms import ImportForm
from scorekeeper.leagues.models import Night, Player
from scorekeeper.leagues.prizes import TIES
from scorekeeper.leagues.season import MEASURES
from scorekeeper.rules.variants import PRESETS


class SignupForm(UserCreationForm[User]):
    """A username and a password that Django's validators accept (settings
    AUTH_PASSWORD_VALIDATORS: length, common passwords, likeness to the
    username, all digits)."""

    class Meta:
        model = User
        fields = ("username",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["password2"].label = "Password again"  # as the page says

    def validate_password_for_user(
        self, user: User, password_field_name: str = "password1"
    ) -> None:
        """The rules' refusals under the password itself (Django puts them
        under its confirmation). django-stubs do not know Django's
        SetPasswordMixin method yet."""
        super().validate_password_for_user(user, password_field_name)  # type: ignore[misc]

    def save_once(self) -> User | None:
        """The new account; when the same form was sent twice at once and
        the other request stored it first, that account (see
        ``already_signed_up``)."""
        try:
            with transaction.atomic():
                return self.save()
        except IntegrityError:  # the username's unique key, taken meanwhile
            taken = forms.ValidationError(
                "A user with that username already exists.", code="unique"
            )
            self.add_error("username", taken)
            return self.already_signed_up()

    def already_signed_up(self) -> User | None:
        """A repeated sign-up (a double tap, a resend): the account the first
        one made, if its only refusal is the taken username and these are
        that account's name and password; else None (the form says why)."""
        taken = self.has_error("username", code="unique")
        if not taken or list(self.errors) != ["username"]:
            return None
        password = str(self.data.get("password1", ""))
        if password != self.data.get("password2"):
            return None
        user = authenticate(username=self.data.get("username"), password=password)
        return user if isinstance(user, User) else None


class NameForm(forms.Form):
    name = forms.CharField(max_length=60)


class SeasonForm(forms.Form):
    name = forms.CharField(max_length=60)
    preset = forms.ChoiceField(choices=[(name, name) for name in PRESETS])
    seats = forms.TypedChoiceField(
        choices=[(4, "4"), (6, "6"), (8, "8")], coerce=int, initial=4
    )
    hand_limit = forms.IntegerField(min_value=1, max_value=99, required=False)
    order = forms.CharField(max_length=80, initial="points won margin")
    best_nights = forms.IntegerField(min_value=0, max_value=99, initial=0)
    min_nights = forms.IntegerField(min_value=0, max_value=99, initial=0)

    def clean_order(self) -> list[str]:
        words: list[str] = str(self.cleaned_data["order"]).replace(",", " ").split()
        wrong = [word for word in words if word not in MEASURES]
        if not words or wrong:
            raise forms.ValidationError(
                f"Rank by measures from: {', '.join(MEASURES)}"
                + (f" (not {', '.join(wrong)})" if wrong else "")
            )
        return words

    def overrides(self) -> dict[str, object]:
        limit = self.cleaned_data.get("hand_limit")
        return {"hand_limit": limit} if limit else {}


class NightForm(forms.Form):
    date = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))
    format = forms.ChoiceField(choices=list(Night.FORMATS.items()))
    label = forms.CharField(max_length=60, required=False)


class ImportSeasonForm(ImportForm):
    """A season's file: the game import's form, with a season's size."""

    limit = 20_000_000
    kind = "a season of pepper logs, even a long one,"


class TeamsForm(forms.Form):
    """A team number for each player here tonight (a select each: easy to
    tap on a phone); the teams are the players who share a number."""

    def __init__(
        self, players: Sequence[Player], size: int, *args: Any, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        count = max(2, len(players) // size)
        choices = [("", "No team")] + [
            (str(n), f"Team {n}") for n in range(1, count + 1)
        ]
        for player in players:
            self.fields[f"p{player.pk}"] = forms.ChoiceField(
                label=player.name, choices=choices, required=False
            )

    def teams(self) -> list[list[int]]:
        """The players of each team numbered, by team number, each team's
        in the order the form lists them (by name, as on the page; sorting
        the fields' names put "p10" before "p9")."""
        teams: dict[str, list[int]] = {}
        for field in self.fields:
            team = self.cleaned_data.get(field)
            if team:
                teams.setdefault(team, []).append(int(field[1:]))
        return [teams[number] for number in sorted(teams, key=int)]


class PrizesForm(forms.Form):
    """A prize list, one a line by place; the services read the lines."""

    prizes = forms.CharField(
        required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 5})
    )
    ties = forms.ChoiceField(required=False, choices=list(TIES.items()))
