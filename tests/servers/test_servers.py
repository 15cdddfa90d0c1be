"""Two app servers behind nginx, on one PostgreSQL database and one Redis,
all real (bench/cluster.py starts them; nothing is mocked): what a phone,
a desk and a reader see through either server is one app's.

Marker ``servers``; skipped unless SERVERS_TESTS=required (.ci/run sets
it, after installing nginx and redis-server), in which case a missing
piece fails the run instead.
"""

from __future__ import annotations

import os
import re
import secrets
import signal
import threading
import time
from typing import Any

import pytest

from bench.cluster import Cluster
from tests.servers.browser import Answer, ask

REQUIRED = os.environ.get("SERVERS_TESTS") == "required"
pytestmark = [
    pytest.mark.servers,
    pytest.mark.skipif(not REQUIRED, reason="SERVERS_TESTS=required runs them"),
]


def hand(seq: int, event_id: str = "") -> dict[str, Any]:
    """The phone's save form: the bidder bids one and makes it."""
    return {
        "expected_seq": seq,
        "event_id": event_id or f"hand-{seq}-{secrets.token_hex(4)}",
        "action": "save",
        "bidder": seq % 4,
        "bid": "1",
        "trump": "hearts",
        "outcome": "played",
        "taken": 3,
    }


def save(url: str, table: dict[str, str], seq: int, **extra: Any) -> Answer:
    return ask(
        url,
        "POST",
        f"/games/{table['game']}/hands",
        cookie=table["cookie"],
        form=hand(seq),
        htmx=True,
        **extra,
    )


def test_a_hand_saved_through_a_is_on_a_phone_polling_b_at_its_next_poll(
    cluster: Cluster, nights: list[dict[str, Any]]
) -> None:
    """B's poll reads the game's row from the shared database (no cache in
    between): once A has answered the save, B's very next poll carries the
    hand, however busy the machine (no wall-time bound)."""
    server_a, server_b = (s.url for s in cluster.servers)
    table = nights[0]["tables"][0]
    poll = f"/games/{table['game']}/poll?seq=0&form=untouched"
    assert ask(server_b, "GET", poll, cookie=table["cookie"], htmx=True).status == 204
    assert save(server_a, table, 0).status == 200
    seen = ask(server_b, "GET", poll, cookie=table["cookie"], htmx=True)
    assert seen.status == 200
    assert 'name="expected_seq" value="1"' in seen.body  # the next hand's form
    after = f"/games/{table['game']}/poll?seq=1"
    assert ask(server_b, "GET", after, cookie=table["cookie"], htmx=True).status == 204


def test_one_rate_limit_counts_requests_on_both_servers(
    cluster: Cluster, nights: list[dict[str, Any]]
) -> None:
    """Opening links: 30 a minute from one address (config.settings),
    however they are spread over the servers."""
    servers = [s.url for s in cluster.servers]
    link = f"/join/{nights[0]['tables'][1]['edit']}"
    limit, window = 30, 60
    for attempt in range(5):  # again, from a fresh address, if the
        source = f"127.0.0.{77 + 2 * attempt}"  # 32 fell in two windows
        began = int(time.time()) // window
        statuses = [
            ask(servers[n % 2], "GET", link, source=source).status for n in range(limit)
        ]
        over = [ask(server, "GET", link, source=source).status for server in servers]
        if int(time.time()) // window == began:
            break
    assert statuses == [302] * limit
    assert over == [429, 429]
    # Another address still opens it, on either server.
    assert ask(servers[1], "GET", link, source="127.0.0.200").status == 302


def _standings(page: str) -> str:
    """The standings table of a season page."""
    found = re.search(r"<table.*?</table>", page, re.S)
    assert found, page[:500]
    return found.group(0)


def _status(url: str, table: dict[str, str]) -> str:
    score = ask(
        url, "GET", f"/games/{table['game']}/score.json", cookie=table["cookie"]
    )
    found = re.search(r'"status": "([^"]+)"', score.body)
    assert found, score.body[:300]
    return found.group(1)


def test_a_season_page_after_a_correction_is_never_stale_on_either(
    cluster: Cluster,
) -> None:
    """A table's game finishes (a short game: to 5); its last hand is
    voided (the game is open again: the season loses it) and saved again,
    three times, through either server; after each change both servers
    show the season, to its organizer and to the public, as it now is."""
    servers = [s.url for s in cluster.servers]
    (night,) = cluster.seed(1, 1, target=5)
    table = night["tables"][0]
    season = f"/seasons/{night['season']}/"
    public = f"/standings/{night['public']}"

    def shown() -> tuple[str, str]:
        """The organizer's and the public's standings, the same on both."""
        seen = []
        for path in (season, public):
            pages = [
                _standings(ask(url, "GET", path, cookie=night["organizer"]).body)
                for url in servers
            ]
            assert pages[0] == pages[1], "one server shows an old season"
            seen.append(pages[0])
        return seen[0], seen[1]

    empty = shown()  # both servers have the season cached: no game yet
    seq = _play_out(servers, table)
    finished = shown()
    assert finished != empty
    for correction in range(3):
        url = servers[correction % 2]
        seq = _void_last(url, table, seq, f"void-{correction}")
        assert _status(servers[1 - correction % 2], table) != "finished"
        assert shown() == empty  # at once, on both: the game is not finished
        assert save(servers[1 - correction % 2], table, seq).status == 200
        seq += 1
        assert _status(url, table) == "finished"
        assert shown() != empty  # finished again, on both


def _play_out(servers: list[str], table: dict[str, str]) -> int:
    """Hands saved through either server until the (short) game finishes;
    returns its log's length."""
    seq = 0
    while _status(servers[0], table) != "finished":
        assert save(servers[seq % 2], table, seq).status == 200
        seq += 1
        assert seq < 40, "the game to 5 did not finish"
    return seq


def _void_last(url: str, table: dict[str, str], seq: int, event_id: str) -> int:
    """The game's last hand voided through ``url``; returns the log's length."""
    page = ask(url, "GET", f"/games/{table['game']}/", cookie=table["cookie"])
    last = max(map(int, re.findall(r"/hands/(\d+)/void", page.body)))
    void = ask(
        url,
        "POST",
        f"/games/{table['game']}/hands/{last}/void",
        cookie=table["cookie"],
        form={"expected_seq": seq, "event_id": event_id, "reason": "scored twice"},
        htmx=True,
    )
    assert void.status in (200, 302), _words(void.body)[-800:]
    return seq + 1


def _words(page: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", page).split())


def _refreshes(logged: str, league: int) -> list[str]:
    return re.findall(rf"ratings of league {league} brought to version (\S+):", logged)


NOTICE = "The ratings are being brought up to date"


def test_the_worker_rates_a_change_once_and_no_server_rates_at_all(
    cluster: Cluster,
) -> None:
    """A short game's last hand is voided and saved again, in turn, through
    either server (each change moves its night's tallies, which the ratings
    follow; a hand at a game still being played moves none); after each,
    four readers of the season ask at once through both servers: no server
    rates (the pages say the ratings are being brought up to date until
    they are), and the worker redoes them once."""
    servers = [s.url for s in cluster.servers]
    (night,) = cluster.seed(1, 1, target=5)
    table = night["tables"][0]
    season = f"/seasons/{night['season']}/"
    seq = _play_out(servers, table)
    for change in range(3):
        _rated(servers[0], season, night["organizer"])
        before = len(_refreshes(cluster.worker.logged(), night["league"]))
        url = servers[change % 2]
        if change % 2:
            assert save(url, table, seq).status == 200  # finished again
            seq += 1
        else:
            seq = _void_last(url, table, seq, f"void-{change}")
        start = threading.Barrier(4)
        answers: list[int] = []

        def read(url: str, start: threading.Barrier, answers: list[int]) -> None:
            start.wait()
            answers.append(ask(url, "GET", season, cookie=night["organizer"]).status)

        readers = [
            threading.Thread(target=read, args=(u, start, answers)) for u in servers * 2
        ]
        for reader in readers:
            reader.start()
        for reader in readers:
            reader.join()
        assert answers == [200] * 4
        _rated(servers[1], season, night["organizer"])
        time.sleep(0.3)  # the log lines written
        versions = _refreshes(cluster.worker.logged(), night["league"])[before:]
        assert len(versions) == 1, versions  # by the worker, once
    for server in cluster.servers:
        assert not _refreshes(server.logged(), night["league"])  # never a server


def _rated(url: str, season: str, cookie: str) -> None:
    """Waits (up to 30 s) for the season's page to stop saying its ratings
    are being brought up to date."""
    for _ in range(300):
        if NOTICE not in ask(url, "GET", season, cookie=cookie).body:
            return
        time.sleep(0.1)
    raise AssertionError("the ratings were never brought up to date")


def test_a_public_link_revoked_on_a_is_refused_on_b_at_once(
    cluster: Cluster, nights: list[dict[str, Any]]
) -> None:
    server_a, server_b = (s.url for s in cluster.servers)
    night = nights[3]
    public = f"/standings/{night['public']}"
    assert ask(server_b, "GET", public).status == 200
    assert ask(server_a, "GET", public).status == 200
    revoked = ask(
        server_a,
        "POST",
        f"/seasons/{night['season']}/public",
        cookie=night["organizer"],
        form={"action": "revoke"},
    )
    assert revoked.status == 302
    assert ask(server_b, "GET", public).status == 404
    assert ask(server_a, "GET", public).status == 404


def test_when_redis_stops_mid_night_the_servers_carry_on_and_say_so_once(
    cluster: Cluster, nights: list[dict[str, Any]]
) -> None:
    assert cluster.redis is not None
    servers = [s.url for s in cluster.servers]
    table = nights[3]["tables"][1]
    night = nights[3]
    game = f"/games/{table['game']}"
    cluster.redis.stop()
    try:
        for seq in range(12):  # each server's two workers, several times
            url = servers[seq % 2]
            assert save(url, table, seq).status == 200
            poll = ask(url, "GET", f"{game}/poll?seq={seq + 1}", cookie=table["cookie"])
            assert poll.status == 204
            page = ask(
                url, "GET", f"/seasons/{night['season']}/", cookie=night["organizer"]
            )
            assert page.status == 200
        for server in cluster.servers:
            said = server.logged().count("Redis is not answering (cache)")
            assert 1 <= said <= 2  # once by each worker that met it, not 36 times
    finally:
        cluster.redis.start()  # the same port: the servers find it again
    time.sleep(2.5)
    assert save(servers[0], table, 12).status == 200


def test_stopping_server_a_mid_night_loses_no_acknowledged_save(
    cluster: Cluster, nights: list[dict[str, Any]]
) -> None:
    """It stops server A (and starts it again at the end, for the tests
    that pytest-randomly runs after it). Every table saves hands through
    nginx, one every 0.15 s or so; A is killed mid-way; a phone whose
    save got no answer saves the same hand again (the same event id: a
    repeat is stored once). Every hand a phone was told was saved is in
    the log, and the tables go on through B."""
    tables = nights[0]["tables"][1:] + nights[1]["tables"][1:]
    tables += nights[2]["tables"][1:] + nights[3]["tables"]
    stop = threading.Event()
    acknowledged: dict[str, list[str]] = {t["game"]: [] for t in tables}
    after_stop: dict[str, int] = {t["game"]: 0 for t in tables}
    failures: list[str] = []
    a_stopped = threading.Event()

    def play(number: int, table: dict[str, str]) -> None:
        game = table["game"]
        log = ask(cluster.url, "GET", f"/games/{game}/log.json", cookie=table["cookie"])
        seq = len(_events(log.body))
        source = f"127.0.1.{number + 1}"
        while not stop.is_set():
            form = hand(seq)
            for _attempt in range(20):
                try:
                    answer = ask(
                        cluster.url,
                        "POST",
                        f"/games/{game}/hands",
                        cookie=table["cookie"],
                        form=form,
                        htmx=True,
                        source=source,
                    )
                except OSError:
                    time.sleep(0.2)
                    continue
                if answer.status == 200:
                    acknowledged[game].append(form["event_id"])
                    if a_stopped.is_set():
                        after_stop[game] += 1
                    break
                if answer.status not in (502, 503, 504):
                    failures.append(f"{game}: {answer.status} {answer.body[:200]}")
                    return
                time.sleep(0.2)  # no answer: the same hand again
            else:
                failures.append(f"{game}: hand {seq} never saved")
                return
            seq += 1
            time.sleep(0.15)  # quick hands, within the 120 saves a minute

    players = [threading.Thread(target=play, args=(n, t)) for n, t in enumerate(tables)]
    for player in players:
        player.start()
    time.sleep(3)
    try:
        cluster.servers[0].stop(signal.SIGKILL)  # mid-request, without warning
        a_stopped.set()
        time.sleep(5)
    finally:
        stop.set()
        for player in players:
            player.join()
        cluster.servers[0].start()  # the same port: nginx finds it again
    assert failures == []
    server_b = cluster.servers[1].url
    for table in tables:
        game = table["game"]
        log = ask(server_b, "GET", f"/games/{game}/log.json", cookie=table["cookie"])
        stored = set(re.findall(r'"id": ?"([^"]+)"', log.body))
        lost = [e for e in acknowledged[game] if e not in stored]
        assert lost == [], f"{game} lost acknowledged hands {lost}"
        assert after_stop[game] >= 2, "the table did not carry on through B"


def _events(log: str) -> list[str]:
    return re.findall(r'"id": ?"([^"]+)"', log)
