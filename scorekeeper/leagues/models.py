"""A league's tables: its organizers, players, seasons, nights, rounds and
the games they seated. The games themselves stay ordinary games with their
own append-only logs; a table only points at one. Standings are not stored:
they are computed from the games' rows (``Game`` keeps a projection of its
log in step with each append), so a rebuild equals the running result.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from scorekeeper.leagues.season import DEFAULT_ORDER
from scorekeeper.models import Game, new_token


def default_time_zone() -> str:
    return str(settings.TIME_ZONE)


class League(models.Model):
    name = models.CharField(max_length=60)
    # Where the league plays: every time its pages show is in this zone
    # (an IANA name, e.g. "Europe/Oslo").
    time_zone = models.CharField(max_length=60, default=default_time_zone)
    organizers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="leagues"
    )
    created_at = models.DateTimeField()
    # Counts the merges of two players: a merge moves seats without adding
    # to any game's log, so the standings' cached nights key on it too.
    roster_version = models.PositiveIntegerField(default=0)
    # What the stored ratings were computed from (``ratings_refresh``).
    rated_version = models.CharField(max_length=60, blank=True)
    # How players tied at a rank share the prizes of the places they cover
    # (``prizes.TIES``): split equally, or each the higher place's.
    prize_ties = models.CharField(max_length=10, default="split")

    def __str__(self) -> str:
        return self.name


class Invite(models.Model):
    """A link that makes whoever opens it (signed in) an organizer; used once."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="invites")
    token = models.CharField(max_length=64, unique=True, default=new_token)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"invite to {self.league}"


class Player(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=60)
    # What names are compared by (``names.name_key``: case-folded, NFKC):
    # unique in a league, the same on SQLite and PostgreSQL.
    name_key = models.CharField(max_length=255)
    # The rating after the player's last rated game (the latest ``Rating``).
    mu = models.FloatField(null=True, blank=True)
    sigma = models.FloatField(null=True, blank=True)
    rated_games = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["league", "name_key"], name="player_name_once_per_league"
            )
        ]
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


def default_order() -> list[str]:
    return list(DEFAULT_ORDER)


class Season(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=60)
    # The game rules of every table: a preset, its seats, house rules.
    preset = models.CharField(max_length=20)
    seats = models.PositiveSmallIntegerField(default=4)
    overrides = models.JSONField(default=dict, blank=True)
    # The standings (contract pepper-league-v1 §1 "standings").
    order = models.JSONField(default=default_order)
    best_nights = models.PositiveSmallIntegerField(default=0)
    min_nights = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField()
    # The public read-only standings link; none until the organizer makes
    # one, and replacing or clearing it revokes the old one at once.
    public_token = models.CharField(max_length=64, unique=True, null=True, blank=True)
    # The season's prizes by place ("£20", "a bottle"): app data, not part
    # of the season's file (pepper-league v1 has no field for them).
    prizes = models.JSONField(default=list, blank=True)

    def __str__(self) -> str:
        return self.name


class Night(models.Model):
    PROGRESSIVE, FIXED = "progressive", "fixed"
    FORMATS = {PROGRESSIVE: "Progressive (partners rotate)", FIXED: "Fixed teams"}

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="nights")
    date = models.DateField()
    # Tells apart two nights of one date (two rooms): "Back room".
    label = models.CharField(max_length=60, blank=True)
    format = models.CharField(max_length=12, choices=FORMATS)
    # Fixed teams: the player ids of each team, drawn (or entered) once.
    teams = models.JSONField(default=list, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField()
    # The read-only TV link for the room's screen: none until the organizer
    # makes one; replacing or clearing it revokes the old one at once.
    tv_token = models.CharField(max_length=64, unique=True, null=True, blank=True)
    # The TV hides the tables' totals and the standings (the last round's
    # suspense) until the organizer shows them again or closes the night.
    tv_totals_hidden = models.BooleanField(default=False)
    # The door's QR code: a player who scans it picks their own name to
    # check in (``door``), unless the organizer turned it off.
    door_token = models.CharField(max_length=64, unique=True, default=new_token)
    self_check_in = models.BooleanField(default=True)
    # The night's prizes by place, as the season's (``Season.prizes``).
    prizes = models.JSONField(default=list, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["season", "date", "label"], name="one_night_a_room"
            )
        ]
        ordering = ["date", "label"]

    def __str__(self) -> str:
        return f"{self.season}: {self.date}" + (f" {self.label}" if self.label else "")


class CheckIn(models.Model):
    """A player at the night: present now, or gone (left between rounds).
    ``token`` is the player's own link to where they sit tonight (no
    sign-in: whoever holds it sees one player's seat, nothing else)."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="checkins")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    present = models.BooleanField(default=True)
    at = models.DateTimeField()
    token = models.CharField(max_length=64, unique=True, default=new_token)
    # The round whose table the player said they sat down at ("I'm at my
    # table" on their page); the desk lists those seated since who have not.
    seated_round = models.PositiveSmallIntegerField(default=0)
    # The one-time key of the door's form that checked the player in: the
    # same form sent again (a double tap) lands on their page, any other
    # is told the name is checked in already.
    door_key = models.CharField(max_length=32, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["night", "player"], name="check_in_once")
        ]
        ordering = ["at", "pk"]


class Movement(models.TextChoices):
    """How a progressive night's round is seated (``seating.next_seating``)."""

    CIRCLE = "circle", "Round-robin (every two partner once)"
    WINNERS_UP = "winners-up", "Progressive (winners move up a table)"


class Round(models.Model):
    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    sitting_out = models.ManyToManyField(Player, blank=True, related_name="+")
    started_at = models.DateTimeField()
    called_at = models.DateTimeField(null=True, blank=True)
    movement = models.CharField(
        max_length=12, choices=Movement.choices, default=Movement.CIRCLE
    )
    # The round clock: when the round is due to end (none: no clock), and
    # whether the task worker calls it then (``round_clock``).
    ends_at = models.DateTimeField(null=True, blank=True)
    auto_call = models.BooleanField(default=False)
    # The organizer whose tap started it (none: imported, or from before
    # it was kept): another organizer's tap for the same round is told so.
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["night", "number"], name="round_once")
        ]
        ordering = ["number"]


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    game = models.OneToOneField(Game, on_delete=models.PROTECT, related_name="table")

    class Meta:
        ordering = ["number"]


class Seat(models.Model):
    """Which player sat in seat ``position`` (0-based, clockwise) of a table:
    the one the game counts for (after a ``Substitution``, the player the
    organizer credited)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_once")
        ]
        ordering = ["position"]


class Change(models.Model):
    """The night's change log: an organizer's correction after the night was
    closed (its game), or a call or a close undone (no one game)."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="changes")
    game = models.ForeignKey(
        Game, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    at = models.DateTimeField()
    reason = models.CharField(max_length=200)
    what = models.CharField(max_length=200)

    class Meta:
        ordering = ["at", "pk"]


class Rating(models.Model):
    """The ratings of a game's players after one of the league's finished
    games, which are rated in the order they were played (``position``).
    ``seq`` is how long the game's log was when it was rated: a later
    change to the game shows as a different length, and the ratings from
    it on are redone. One row a game (not a player): a rebuild of 10,000
    games writes 10,000 rows."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveIntegerField()
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    seq = models.PositiveIntegerField()
    # Where the game falls in the league's order: "date:season:round:table"
    # (zero-padded: the strings sort as the games were played).
    order = models.CharField(max_length=40, default="")
    # After the game, per player: {"p<player id>": [mu, sigma]} (a key
    # that is not all digits, so that a database reads it as a key).
    skills = models.JSONField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["league", "position"], name="rated_once_a_position"
            )
        ]
        indexes = [models.Index(fields=["league", "order"])]
        ordering = ["position"]


class Substitution(models.Model):
    """A player who took over a seat in the middle of a game, from hand
    ``from_hand`` on (one substitute per seat). The game's log and its seat
    names stay as they were; ``credited`` is whom the game counts for (the
    player who started or the substitute, as the organizer said), and the
    seat's ``Seat.player`` is always that player, so that the standings,
    ratings, player pages and the season's export read one player a seat."""

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="substitutions"
    )
    position = models.PositiveSmallIntegerField()
    started = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    substitute = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    credited = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    from_hand = models.PositiveSmallIntegerField()
    at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["table", "position"], name="one_substitute_a_seat"
            )
        ]
        ordering = ["table", "position"]


class Submission(models.Model):
    """A create form that was done, by the one-time key it carried
    (``repeats.once``): the same form sent again (a double tap, a resend
    after a timeout) answers where the first one went, and makes nothing."""

    key = models.CharField(max_length=32, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    at = models.DateTimeField(db_index=True)
    answer = models.CharField(max_length=200, blank=True)


class NightProjection(models.Model):
    """A night's numbers as last kept (``NightTally`` rows): the version of
    its games they were summed from (``night_rows.night_versions``) and how
    many of its games were played under each rule set."""

    night = models.OneToOneField(
        Night, on_delete=models.CASCADE, related_name="projection"
    )
    version = models.CharField(max_length=120)
    # Counts the times they were summed (a cache keys on it with ``version``).
    revision = models.PositiveIntegerField(default=0)
    # The revision the league's ratings last took in (``rated_games``): a
    # night whose revision moved past it has games to compare and re-rate.
    rated = models.PositiveIntegerField(default=0)
    # [[preset, seats, house rules as JSON text, games], ...]
    rules = models.JSONField(default=list)


class NightTally(models.Model):
    """What one player's finished games of one night add up to: the
    standings' measures, the awards' feats and a player page's sums. Kept
    in the same transaction as the game rows that change them; a season's
    standings sum these rows instead of its games."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="tallies")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    # The standings (``standings.Tally``).
    played = models.IntegerField()
    won = models.IntegerField()
    points = models.IntegerField()
    margin = models.IntegerField()
    bids = models.IntegerField()
    made = models.IntegerField()
    # The awards (``awards.Feats``; none when no game had seat statistics).
    featured = models.BooleanField()
    feat_made = models.IntegerField()
    best = models.IntegerField()
    sets = models.IntegerField()
    feat_won = models.IntegerField()
    streak_start = models.IntegerField()
    streak_best = models.IntegerField()
    streak_end = models.IntegerField()
    streak_clean = models.BooleanField()
    # A player's page (``stats.Sums``; its games, won, margin and sets are
    # the ones above).
    conceded = models.IntegerField()
    bid_lines = models.JSONField()  # {bid: [bids, made]}
    partners = models.JSONField()  # {player id: [games, won]}
    opponents = models.JSONField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["night", "player"], name="tally_once")
        ]
        indexes = [models.Index(fields=["player", "night"])]


class RegistryPaste(models.Model):
    """A list of names pasted into the registry, and what became of each
    (``pasted.PasteReport``): the page that follows the paste shows it,
    and a repeat of the same paste (``repeats.once``) is shown it again."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="pastes")
    at = models.DateTimeField()
    # {"added": [name], "already": [name], "refused": [[name, why]],
    #  "repeated": [name]}
    report = models.JSONField()
