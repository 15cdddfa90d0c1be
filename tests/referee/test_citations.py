"""Every citation the app shows is one a reader can check: the cited seed
section (or contract section) holds the quoted words (issue "House rules").

The seeds and the contract are copied into tests/data/ as they were when
these quotes were chosen.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scorekeeper.rules.explain import STATUS_SOURCES
from scorekeeper.rules.variants import EXACT_TIE_SOURCES, OVERRIDES, PRESETS
from scorekeeper.rules_text import CARD_RULES, rule_lines

DATA = Path(__file__).resolve().parents[1] / "data"
SEEDS = {path.name[:3]: path.read_text() for path in (DATA / "seeds").glob("*.txt")}
CONTRACT = (DATA / "contract" / "pepper-log-v1.md").read_text()
# Each seed's headings, in order: a section runs to the next one.
HEADINGS = {
    "000": [
        "The Cards",
        "Cards Rank",
        "The Deal",
        "Bidding",
        "The Play",
        "The Rules",
        "Outcome",
        "Game",
        "Variations",
        "Other Variations of Euchre",
    ],
    "002": ["How to Play", "Bidding", "Trick Play", "Scoring", "Winning"],
    "003": ["Team Play", "Two or Three Handed Variations", "Our Passtimes"],
}
# For each (rule, citation) the app can show: words of the cited section
# that say what the app says that rule is (all of them must be there).
CONTRACT_NONE = "| negotiation (`conceded`) | no | no |"
QUOTES: dict[tuple[str, str], tuple[str, ...]] = {
    ("ladder", "seed 000 'Bidding'"): (
        "The possible bids number from one to five",
        "Big Pepper",
    ),
    ("ladder", "seed 004"): (
        "1 (low), 2, 3, 4, 5, Small Pepper, and Big Pepper (high)",
    ),
    ("ladder", "seed 000 'Variations'"): ("Possible bids are from one to seven",),
    ("ladder", "seed 003 'Two or Three Handed Variations'"): (
        "Bids range from one to seven",
    ),
    ("ladder", "seed 001 §3.1"): ("4, 5, 6, moon, and double moon",),
    ("ladder", "seed 002 'Bidding'"): (
        "Each bid must surpass the previous bids",
        "Pepper",
    ),
    ("scoring", "seed 000 'Outcome'"): (
        "set back 6 points, regardless",
        "pays 12 points",
    ),
    ("scoring", "seed 004"): ("12 (16 for a 2 or 3-player game)",),
    ("scoring", "seed 003 'Two or Three Handed Variations'"): (
        "loses eight points",
        "16 points",
    ),
    ("scoring", "seed 001 §4.2"): (
        "they lose the number of points associated with their bid",
    ),
    ("scoring", "seed 002 'Scoring'"): (
        "they lose points equal to the number of tricks they bid",
    ),
    ("defenders", "seed 000 'Outcome'"): (
        "The opponents score 1 point for each trick they take",
    ),
    ("defenders", "seed 001 §4.2"): (
        "they score 7 or 14 points",
        "If the defending team did not win any tricks, they lose",
    ),
    ("defenders", "seed 002 'Scoring'"): (
        "The opposing team always earns points equal to the number of tricks captured",
    ),
    ("negotiation", "contract §2"): (CONTRACT_NONE,),
    ("negotiation", "seed 001 §3.2"): (
        "For a bid of 4, they may ask for one or two tricks for free",
    ),
    ("clubs", "seed 001 §3.4"): (
        "If clubs are selected as trump, the defending team **must** play the hand",
    ),
    ("pepper_round", "contract §2"): ("| pepper round | none | none |",),
    ("pepper_round", "seed 001 §5"): ("they automatically bid 4 and win the bid",),
    ("target", "seed 000 'Game'"): ("a grand total of 30 points",),
    ("target", "seed 001 §1"): ("the first team to score 42 points",),
    ("target", "seed 002 'Winning'"): ("A team wins by reaching 50 points",),
    ("both_reach", "seed 000 'Game'"): (
        "If both teams are over 30 points at the end of the hand, then the team with the higher score wins",
    ),
    ("both_reach", "seed 001 §4.2"): (
        "If both teams reach 42 points in the same hand, then the team with the higher score wins",
    ),
    ("both_reach", "seed 002 'Winning'"): (
        "the winning team is the one who made the bid",
    ),
    ("exact_tie", "seed 004"): ("If there is a tie all tied players are winners",),
    ("exact_tie", "seed 001 §4.2, option 1"): (
        "1. Play hands until the tie is broken",
    ),
    ("exact_tie", "contract §2"): (
        "| `exact_tie` at or above the target | `co-winners` | `co-winners` | `play-on` | `co-winners` |",
    ),
    ("deal", "seed 000 'The Deal'"): ("Each player is dealt 6 cards",),
    ("deal", "seed 004"): (
        "partners sitting across from each other",
        "each player is dealt 8 cards",
        "Each player plays for themselves",
    ),
    ("deal", "seed 000 'Variations'"): ("Each player is dealt eight cards",),
    ("deal", "seed 001 §2"): ("The players of a team sit diagonal from each other",),
    ("deal", "seed 001 §4.2"): ("the deal passes to the left",),
    ("deal", "seed 002 'How to Play'"): (
        "seated alternately",
        "each player receives 8 cards",
    ),
    ("auction", "seed 000 'Bidding'"): (
        "until three players have passed",
        "Each bid must be higher than the one before",
    ),
    ("auction", "seed 004"): (
        "they may pass or bid higher than the previous highest bid",
    ),
    ("auction", "contract §4"): (
        "or at once on the ladder's highest bid",
        "`bid-euchre`: exactly one call per seat",
    ),
    ("auction", "seed 001 §3.1"): (
        "Each player may only make bids higher than the highest one before them, or they may pass",
    ),
    ("auction", "seed 002 'Bidding'"): (
        "Starting to the left of the dealer, each player may make a bid or pass",
    ),
    ("exact_tie: co-winners", "seed 004"): ("all tied players are winners",),
    ("exact_tie: play-on", "seed 001 §4.2, option 1"): (
        "1. Play hands until the tie is broken",
    ),
    ("exact_tie: pepper-round", "seed 001 §4.2, option 2"): (
        "2. Play another pepper round",
    ),
    ("Card ranks", "seed 000 'Cards Rank'"): ("A, K, Q, [J], 10, 9",),
    ("The bowers", "seed 000 'Cards Rank'"): ("J, J*, A, K, Q, 10, 9",),
    ("The bowers", "seed 001 §4.1"): (
        "which is called the **left bower**",
        "which is called the **right bower**",
    ),
    ("Following suit", "seed 000 'The Rules'"): (
        "You must follow suit to the card led, if possible",
        "you can play any card",
    ),
    ("Identical cards", "seed 002 'Trick Play'"): (
        "the first played card is always higher than its duplicate",
    ),
    ("A hand nobody bids", "seed 001 §3.1, thrown in"): (
        "If no player bids, the hand is thrown in",
    ),
    ("Pepper is played alone", "seed 002 'Trick Play', alone"): (
        "you play alone and your team members sit out that hand",
    ),
    ("Two players", "seed 000 'Variations', dummy"): (
        "one of the hands acting as a dummy",
    ),
    ("ended", "contract §6"): ("the highest total wins (all tied at the top win)",),
    ("a void or correction's target", "contract §1"): (
        "must target an earlier `hand` event that is not",
    ),
    ("an end event", "contract §6"): (
        "After it only a `void` or a `correct` of an earlier hand may follow",
        "that fix is refused",
    ),
}
# Extra words after a comma name which passage of a section is meant.
PASSAGE = re.compile(r"^(seed \d{3}(?: '[^']+'| §[\d.]+)?|contract §\d)(?:, .+)?$")


def section(piece: str) -> str:
    """The text of the section a citation piece names."""
    match = PASSAGE.match(piece)
    assert match, f"{piece!r} is not a citation a reader can look up"
    where = match.group(1)
    if where.startswith("contract"):
        number = where.split("§")[1]
        return (
            CONTRACT.split(f"## {number}.")[1]
            .split("\n## ")[0]
            .join(["## " + number + ".", ""])
        )
    seed = where[5:8]
    text = SEEDS[seed]
    if "§" in where:
        number = where.split("§")[1]
        start = re.search(rf"^{re.escape(number)} ", text, re.M)
        assert start, piece
        rest = text[start.end() :]
        end = re.search(r"^\d+(\.\d+)? \S", rest, re.M)
        return rest[: end.start()] if end else rest
    if "'" in where:
        name = where.split("'")[1]
        headings = HEADINGS[seed]
        index = next(i for i, h in enumerate(headings) if h.startswith(name))
        start = re.search(rf"^{re.escape(headings[index])}", text, re.M)
        assert start, piece
        rest = text[start.start() :]
        following = headings[index + 1 :]
        ends = [
            m.start()
            for h in following
            if (m := re.search(rf"^{re.escape(h)}", rest, re.M))
        ]
        return rest[: min(ends)] if ends else rest
    return text


def pieces(source: str) -> list[str]:
    return [
        piece.strip()
        for piece in source.split(";")
        if not piece.strip().startswith("house rule")
    ]


def every_citation() -> set[tuple[str, str]]:
    """Every (rule, citation) the app can show: each preset's sources (the
    rules pages, explanations and refusals cite through them), the exact-tie
    readings, the cards section, the endings and the engine's refusals."""
    found: set[tuple[str, str]] = set()
    for by_seats in PRESETS.values():
        for rules in by_seats.values():
            found.update(
                (topic, piece)
                for topic, source in rules.sources
                for piece in pieces(source)
            )
    found.update(
        (f"exact_tie: {value}", piece)
        for value, source in EXACT_TIE_SOURCES.items()
        for piece in pieces(source)
    )
    found.update(
        (topic, piece) for topic, _, source in CARD_RULES for piece in pieces(source)
    )
    found.update(
        (decided, piece)
        for decided, source in STATUS_SOURCES.items()
        for piece in pieces(source)
    )
    found.update(RULE_ERRORS)
    return found


# What the engine's own refusals cite.
RULE_ERRORS = (
    ("a void or correction's target", "contract §1"),
    ("an end event", "contract §6"),
)


@pytest.mark.parametrize(("rule", "piece"), sorted(every_citation()))
def test_each_citation_holds_the_words_of_its_rule(rule: str, piece: str) -> None:
    assert (rule, piece) in QUOTES, f"no quote chosen for {rule!r} in {piece!r}"
    text = " ".join(section(piece).split())  # the contract wraps its lines
    for words in QUOTES[rule, piece]:
        assert words in text, f"{piece!r} does not say {words!r} ({rule})"


def test_the_rules_pages_cite_only_what_the_presets_cite() -> None:
    sources = {piece for _, piece in every_citation()}
    for by_seats in PRESETS.values():
        for rules in by_seats.values():
            for line in rule_lines(rules, {}):
                assert set(pieces(line.source)) <= sources, line


def test_a_house_setting_is_cited_as_a_house_rule_not_to_a_seed() -> None:
    from tests.factories import variant

    changed = variant("classic", target_score=50, exact_tie="pepper-round")
    assert (
        changed.cite("target") == "house rule"
        and changed.cite("exact_tie") == "house rule"
    )
    assert variant("classic").cite("target") == "seed 000 'Game'"


def test_the_quotes_table_has_nothing_the_app_no_longer_cites() -> None:
    assert set(QUOTES) == every_citation(), set(QUOTES) ^ every_citation()
    assert len(OVERRIDES) == 16
