"""The rules of Pepper and its relatives: pure, standard library only.

Nothing here touches Django, the database, the clock or randomness: every
function takes what it needs as arguments, so every verdict can be replayed.
"""
