"""League nights: a season of nights, its games and its standings.

Pure modules (no Django): ``season`` reads a pepper-league v1 document,
``standings`` computes pepper-standings v1 from it (contract
pepper-league-v1.md).
"""
