"""The file protocol: formats, the checked chain, dealers, parties, audit.

Depends on pbem.crypto and pbem.games.base; knows no particular game.
"""
