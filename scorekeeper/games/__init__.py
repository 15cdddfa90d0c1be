"""The table's pages: one game, recorded from phones (split by what they do)."""
