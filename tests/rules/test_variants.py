"""Presets as data, found by name, changed by checked house overrides."""

from __future__ import annotations

import dataclasses

import pytest

from scorekeeper.rules.errors import VariantError
from scorekeeper.rules.events import HandRecorded
from scorekeeper.rules.variants import (
    PRESETS,
    find_variant,
    overrides_of,
    with_overrides,
)


def test_presets_cover_the_contracts_seat_counts() -> None:
    assert {name: sorted(by_seats) for name, by_seats in PRESETS.items()} == {
        "classic": [2, 3, 4],
        "moon-42": [4],
        "bid-euchre": [4, 6, 8],
    }


@pytest.mark.parametrize(
    ("name", "target", "tie", "pepper"),
    [
        ("classic", 30, "co-winners", 0),
        ("moon-42", 42, "play-on", 4),
        ("bid-euchre", 50, "co-winners", 0),
    ],
)
def test_targets_ties_and_pepper_rounds_as_in_the_contract_table(
    name: str, target: int, tie: str, pepper: int
) -> None:
    rules = find_variant(name, 4)
    assert (rules.target_score, rules.exact_tie, rules.pepper_round_hands) == (
        target,
        tie,
        pepper,
    )


def test_only_moon_42_negotiates_and_makes_clubs_be_played() -> None:
    flags = {
        name: (by[4].negotiation, by[4].clubs_must_play) for name, by in PRESETS.items()
    }
    assert flags == {
        "classic": (False, False),
        "moon-42": (True, True),
        "bid-euchre": (False, False),
    }


def test_find_variant_knows_aliases_and_ignores_case() -> None:
    assert find_variant(" Pepper ", 3).preset == "classic"
    assert find_variant("MOON", 4).preset == "moon-42"


def test_an_unknown_preset_is_refused_with_the_known_ones() -> None:
    with pytest.raises(VariantError, match="no preset called 'euchre': choose classic"):
        find_variant("euchre", 4)


def test_a_preset_refuses_a_seat_count_it_is_not_played_with() -> None:
    with pytest.raises(VariantError, match="moon-42 is played by 4 players, not 3"):
        find_variant("moon-42", 3)
    with pytest.raises(VariantError, match="bid-euchre is played by 4 or 6 or 8"):
        find_variant("bid-euchre", 5)


def test_overrides_change_only_what_they_name() -> None:
    base = find_variant("moon-42", 4)
    changed = with_overrides(base, {"target_score": 21, "exact_tie": "pepper-round"})
    assert (
        dataclasses.replace(base, target_score=21, exact_tie="pepper-round") == changed
    )
    assert overrides_of(changed) == {"target_score": 21, "exact_tie": "pepper-round"}
    assert overrides_of(base) == {}


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"target_score": 0}, "target_score must be a whole number of at least 1"),
        ({"target_score": True}, "target_score must be a whole number"),
        ({"target_score": "30"}, "target_score must be a whole number"),
        (
            {"pepper_round_hands": -1},
            "pepper_round_hands must be a whole number of at least 0",
        ),
        ({"exact_tie": "coin-toss"}, "exact_tie must be one of co-winners, play-on"),
        ({"both_reach": "dealer"}, "both_reach must be one of higher, bidder"),
        ({"trump": "clubs"}, "'trump' is not a house setting"),
    ],
)
def test_bad_overrides_are_refused_clearly(
    overrides: dict[str, object], message: str
) -> None:
    with pytest.raises(VariantError, match=message):
        with_overrides(find_variant("classic", 4), overrides)


def test_a_bid_is_found_by_value_and_kind_never_true_for_1() -> None:
    rules = find_variant("classic", 4)
    rule = rules.bid_rule(1)
    assert rule is not None and rule.tricks_needed == 1
    assert rules.bid_rule(True) is None
    with pytest.raises(TypeError, match="cannot be true or false"):
        HandRecorded(0, True, "hearts", (3, 3))
    with pytest.raises(TypeError, match="cannot be true or false"):
        HandRecorded(True, 1, "hearts", (3, 3))
    assert rules.bid_rule("moon") is None
    assert (rules.lowest_bid, rules.highest_bid) == (1, "big-pepper")


def test_every_preset_cites_a_seed_for_every_topic_it_uses() -> None:
    for by_seats in PRESETS.values():
        for rules in by_seats.values():
            for topic in (
                "ladder",
                "scoring",
                "negotiation",
                "pepper_round",
                "target",
                "exact_tie",
                "auction",
            ):
                assert rules.cite(topic)
