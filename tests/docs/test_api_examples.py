"""The API guide's examples (docs/api.md) are true: each request is sent,
in the guide's order, to a live server holding the guide's game, and the
answer is compared with the one written under it: the status, the headers
it names, and the JSON ("..." in the guide stands for any value)."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

import pytest
from pytest_django.live_server_helper import LiveServer

from scorekeeper.models import Game
from tests.docs.reading import DOCS
from tests.records import new_game

pytestmark = pytest.mark.django_db(transaction=True)

BLOCK = re.compile(r"^```http\n(.*?)^```$", re.MULTILINE | re.DOTALL)
ANY = "..."


@dataclass(frozen=True)
class Message:
    first_line: str
    headers: dict[str, str]
    body: str


def parse(block: str) -> Message:
    head, _, body = block.partition("\n\n")
    first, *lines = head.splitlines()
    headers = dict(line.split(": ", 1) for line in lines)
    return Message(first, headers, body.strip())


def examples() -> list[tuple[Message, Message]]:
    blocks = [parse(block) for block in BLOCK.findall((DOCS / "api.md").read_text())]
    pairs = list(zip(blocks[::2], blocks[1::2], strict=True))
    for request, answer in pairs:
        assert request.first_line.endswith(" HTTP/1.1"), request.first_line
        assert answer.first_line.startswith("HTTP/1.1 "), answer.first_line
    return pairs


def send(base: str, request: Message, game: Game) -> tuple[int, Any, Any]:
    def filled(text: str) -> str:
        return (
            text.replace("{game}", str(game.pk))
            .replace("{edit_token}", game.edit_token)
            .replace("{view_token}", game.view_token)
        )

    method, path, _ = request.first_line.split(" ")
    sent = urllib.request.Request(
        base + filled(path),
        data=filled(request.body).encode() if request.body else None,
        headers={name: filled(value) for name, value in request.headers.items()},
        method=method,
    )
    try:
        with urllib.request.urlopen(sent) as answer:
            return answer.status, answer.headers, json.load(answer)
    except urllib.error.HTTPError as refused:
        return refused.code, refused.headers, json.load(refused)


def same(written: Any, given: Any, where: str = "answer") -> list[str]:
    """Where ``given`` differs from ``written`` ("..." matches anything)."""
    if written == ANY:
        return []
    if isinstance(written, dict) and isinstance(given, dict):
        if written.keys() != given.keys():
            return [f"{where}: keys {sorted(written)} written, {sorted(given)} given"]
        return [
            d
            for key in written
            for d in same(written[key], given[key], f"{where}.{key}")
        ]
    if (
        isinstance(written, list)
        and isinstance(given, list)
        and len(written) == len(given)
    ):
        return [
            d
            for n, (w, g) in enumerate(zip(written, given, strict=True))
            for d in same(w, g, f"{where}[{n}]")
        ]
    return (
        [] if written == given else [f"{where}: {written!r} written, {given!r} given"]
    )


def test_the_guide_has_examples_of_every_kind_of_answer() -> None:
    statuses = {answer.first_line.split(" ")[1] for _, answer in examples()}
    assert {"200", "201", "401", "403", "409", "422"} <= statuses


def test_every_example_answers_as_the_guide_says(live_server: LiveServer) -> None:
    game = new_game()  # classic, Ann Bob Cat Dan, Ann deals first
    for request, written in examples():
        status, headers, body = send(live_server.url, request, game)
        said = f"{request.first_line} {request.body}"
        assert f"HTTP/1.1 {status} " in written.first_line + " ", said
        for name, value in written.headers.items():
            assert headers[name] == value, f"{said}: {name}"
        assert same(json.loads(written.body), body) == [], said


def test_an_answer_unlike_the_guide_is_found() -> None:
    assert same({"seq": 1, "hand": ANY}, {"seq": 2, "hand": {"a": 1}}) == [
        "answer.seq: 1 written, 2 given"
    ]
    assert same({"seq": 1}, {"seq": 1, "new": 0}) != []
    assert same([1, 2], [1]) != []
