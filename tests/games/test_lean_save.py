"""A save's answer is only what the save changed, swapped in out of band
(issue 22): each part must be what the whole page shows after the save,
for every kind of hand (pepper round, set, passed out, a substitute's),
and a save that ends the game still answers the whole #live."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from django.test import Client

from scorekeeper.models import Game
from tests.conftest import join
from tests.records import HTMX, new_game

VOID = {"input", "br", "img", "meta", "link", "hr", "source", "col", "wbr"}
# What differs between two renders by design: each render's fresh event ids
# and masked CSRF token; where a part is swapped (the answer's own marks).
NOISE = (
    (r' hx-swap-oob="[^"]*"', ""),
    (r'name="event_id" value="\w+"', 'name="event_id" value="?"'),
    (r'name="csrfmiddlewaretoken" value="\w+"', 'name="csrfmiddlewaretoken" value="?"'),
)
PARTS = (
    "board",
    "live-note",
    "record-note",
    "record-title",
    "record-errors",
    "record-seq",
    "record-event",
    "hand-choices",
    "record-bar",
    "undo-fields",
    "poller",
)


class Spans(HTMLParser):
    """Where each element with an id starts and ends in the text."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=False)
        self.lines = [0]
        for line in text.splitlines(keepends=True):
            self.lines.append(self.lines[-1] + len(line))
        self.open: list[tuple[str, str | None, int]] = []
        self.spans: dict[str, tuple[int, int]] = {}
        self.first_li: tuple[int, int] | None = None
        self.feed(text)

    def _at(self) -> int:
        line, column = self.getpos()
        return self.lines[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        start, ident = self._at(), dict(attrs).get("id")
        if tag == "li" and "hand" in (dict(attrs).get("class") or "").split():
            ident = ident or "hand row"
        if tag in VOID:
            end = start + len(self.get_starttag_text() or "")
            if ident:
                self.spans[ident] = (start, end)
            return
        self.open.append((tag, ident, start))

    def handle_endtag(self, tag: str) -> None:
        while self.open:
            opened, ident, start = self.open.pop()
            end = self._at() + len(f"</{tag}>")
            if ident:
                self.spans[ident] = (start, end)
            if ident == "hand row" and self.first_li is None:
                self.first_li = (start, end)
            if opened == tag:
                return


def parts(text: str, names: tuple[str, ...]) -> dict[str, str]:
    spans = Spans(text)
    found = {name: text[slice(*spans.spans[name])] for name in names}
    assert spans.first_li is not None, "no hand row"
    found["new row"] = text[slice(*spans.first_li)]
    for pattern, replacement in NOISE:
        found = {k: re.sub(pattern, replacement, v) for k, v in found.items()}
    return found


def save(client: Client, game: Game, **entry: str) -> str:
    game.refresh_from_db()
    data = {"expected_seq": game.last_seq, "event_id": f"e{game.last_seq}", **entry}
    response = client.post(f"/games/{game.pk}/hands", data, headers=HTMX)
    assert response.status_code == 200, response.content[:300]
    return response.content.decode()


def page_after(client: Client, game: Game) -> str:
    """The whole page as the redirect after a save without htmx shows it."""
    game.refresh_from_db()
    url = f"/games/{game.pk}/?saved={game.last_seq}"
    return client.get(url).content.decode()


PLAYED = {"action": "save", "outcome": "played", "trump": "hearts"}
HANDS = (  # moon-42, Ann deals first: the pepper round is hands 1 to 4
    ("pepper round", {**PLAYED, "bidder": "1", "bid": "4", "taken": "5"}),
    ("pepper round, set", {**PLAYED, "bidder": "2", "bid": "4", "taken": "1"}),
    ("pepper round", {**PLAYED, "bidder": "3", "bid": "4", "taken": "6"}),
    ("last of the pepper round", {**PLAYED, "bidder": "0", "bid": "4", "taken": "4"}),
    ("passed out", {"action": "pass"}),
    ("bid and made", {**PLAYED, "bidder": "2", "bid": "5", "taken": "5"}),
    (
        "thrown in",
        {
            **PLAYED,
            "bidder": "3",
            "bid": "4",
            "outcome": "conceded",
            "free_tricks": "1",
        },
    ),
)


def test_each_part_a_save_answers_is_the_whole_page_s_after_it(
    client: Client, moon_game: Game
) -> None:
    for what, entry in HANDS:
        answer = parts(save(client, moon_game, **entry), PARTS)
        page = parts(page_after(client, moon_game), PARTS)
        for name in (*PARTS, "new row"):
            assert answer[name] == page[name], f"{what}: #{name}"


def test_a_substitute_is_named_in_the_answer_as_on_the_page(
    client: Client, moon_game: Game
) -> None:
    """Eve takes Dan's seat from hand 2: the board, the form's bidders and
    the new row name her, as the page does."""
    Game.objects.filter(pk=moon_game.pk).update(
        seat_notes=["Eve for Dan"], takeovers=[[3, "Eve", 2]]
    )
    save(client, moon_game, **HANDS[0][1])
    answer = parts(save(client, moon_game, **HANDS[1][1]), PARTS)
    page = parts(page_after(client, moon_game), PARTS)
    assert "Eve" in answer["board"] and "Eve" in answer["hand-choices"]
    for name in (*PARTS, "new row"):
        assert answer[name] == page[name], f"#{name}"


def test_a_save_that_ends_the_game_answers_the_whole_live_part(
    client: Client, db: None
) -> None:
    game = new_game("moon-42", target_score=4)
    join(client, game)
    entry = {**PLAYED, "bidder": "1", "bid": "4", "taken": "6"}  # Bob: 6 of 6
    answer = save(client, game, **entry)
    assert "hx-swap-oob" not in answer.split('<div id="poller"')[0]
    names = ("live", "board", "undo")
    assert parts(answer, names) == parts(page_after(client, game), names)
    assert 'id="record"' not in answer and "won" in parts(answer, names)["board"]


def test_the_hand_that_wins_takes_the_end_link_away_on_every_phone(
    client: Client, db: None
) -> None:
    """The link "End the game now…" sits outside the part a save swaps: the hand
    that wins, saved here or seen in another phone's poll, swaps it for the
    page's own (none, once won)."""
    game = new_game("moon-42", target_score=4)
    other = Client()
    join(client, game)
    join(other, game)
    assert "End the game now" in other.get(f"/games/{game.pk}/").content.decode()
    answer = save(client, game, **{**PLAYED, "bidder": "1", "bid": "4", "taken": "6"})
    polled = other.get(f"/games/{game.pk}/poll", {"seq": 0}, headers=HTMX)
    page = parts(page_after(client, game), ("end-game",))
    for told in (answer, polled.content.decode()):
        assert 'id="end-game" hx-swap-oob="true"' in told
        assert parts(told, ("end-game",)) == page
    assert "End the game now" not in page["end-game"]
