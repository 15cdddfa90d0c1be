"""The read model: what a game's log implies, kept beside the store.

``registry`` calls every projector with each event as it is appended (the
game's row here, a league's night rows from the leagues app); ``game_rows``
keeps the game's row; ``boards`` keeps each game's log and scoreboard as
this process last read them, keyed by the game and its seq.
"""
