"""Where each rule comes from, for the rules pages and every refusal's
citation: the seeds and contract sections each preset follows, and the
rule topics a house setting changes (those cite "house rule" instead).
"""

from __future__ import annotations

# Where each rule comes from: pieces "seed NNN 'Section'", "seed 001 §N",
# "seed 004" (one page) or "contract §N", joined by "; ". Every piece is one
# a reader can check: tests/referee/test_citations.py finds quoted words in it.
CLASSIC_SOURCES = (
    ("ladder", "seed 000 'Bidding'; seed 004"),
    ("scoring", "seed 000 'Outcome'; seed 004"),
    ("defenders", "seed 000 'Outcome'"),
    ("negotiation", "contract §2"),  # the seeds never mention conceding
    ("pepper_round", "contract §2"),
    ("target", "seed 000 'Game'"),
    ("both_reach", "seed 000 'Game'"),
    ("exact_tie", "seed 004"),
    ("deal", "seed 000 'The Deal'; seed 004"),
    # Seed 000 runs the auction until three players have passed; ending at
    # once on the top bid is seed 004's and the contract's.
    ("auction", "seed 000 'Bidding'; seed 004; contract §4"),
)
CLASSIC_SMALL_SOURCES = (
    ("ladder", "seed 000 'Variations'; seed 003 'Two or Three Handed Variations'"),
    ("scoring", "seed 003 'Two or Three Handed Variations'; seed 004"),
    *CLASSIC_SOURCES[2:8],
    ("deal", "seed 000 'Variations'; seed 004"),
    CLASSIC_SOURCES[9],
)
MOON_SOURCES = (
    ("ladder", "seed 001 §3.1"),
    ("scoring", "seed 001 §4.2"),
    ("defenders", "seed 001 §4.2"),
    ("negotiation", "seed 001 §3.2"),
    ("clubs", "seed 001 §3.4"),
    ("pepper_round", "seed 001 §5"),
    ("target", "seed 001 §1"),
    ("both_reach", "seed 001 §4.2"),
    ("exact_tie", "seed 001 §4.2, option 1"),
    ("deal", "seed 001 §2; seed 001 §4.2"),
    ("auction", "seed 001 §3.1; contract §4"),
)
EUCHRE_SOURCES = (
    ("ladder", "seed 002 'Bidding'"),
    ("scoring", "seed 002 'Scoring'"),
    ("defenders", "seed 002 'Scoring'"),
    ("negotiation", "contract §2"),  # seed 002 never mentions conceding
    ("pepper_round", "contract §2"),
    ("target", "seed 002 'Winning'"),
    ("both_reach", "seed 002 'Winning'"),
    ("exact_tie", "contract §2"),
    ("deal", "seed 002 'How to Play'"),
    ("auction", "seed 002 'Bidding'; contract §4"),
)
# The seeds' own readings of the exact-tie settings (the preset's, or the
# one a house chose), for the rules pages.
EXACT_TIE_SOURCES = {
    "co-winners": "seed 004",
    "play-on": "seed 001 §4.2, option 1",
    "pepper-round": "seed 001 §4.2, option 2",
}


# The rule topics a house setting changes: a page cites "house rule" for
# them instead of the seed the preset follows.
HOUSE_TOPICS: dict[str, tuple[str, ...]] = {
    "target": ("target_score", "must_bid_to_win"),
    "exact_tie": ("exact_tie",),
    "both_reach": ("both_reach", "must_bid_to_win"),
    "pepper_round": ("pepper_round_hands", "minimum_bid"),
    "ladder": ("minimum_bid",),
    "scoring": ("set_penalty", "top_bid_points", "defenders_shut_out_lose"),
    "defenders": ("defenders_shut_out_lose", "top_bid_points"),
    "negotiation": ("negotiation",),
    "clubs": ("clubs_must_play",),
    "auction": ("one_call_each", "stick_the_dealer"),
}
