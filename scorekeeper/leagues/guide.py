"""The organizers' guide as the league pages' *Help*: docs/organizers.md,
rendered from the same file the repository shows (shown, and its pictures
served, as every guide of the app: scorekeeper/games/guide.py)."""

from __future__ import annotations

from scorekeeper.games.guide import guide_view

organizer_guide = guide_view(
    name="organizers",
    topic="running a club night",
    back="leagues",
    back_words="Your leagues",
)
