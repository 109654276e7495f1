"""Card behaviour written in Python, one module per colour, registered by
name (`pbem.games.codex_v3.registry`) for the card data to call. Most cards
need none: their effects are data (README: "Card author's guide").
Importing this package registers every colour's functions."""

from pbem.games.codex_v3.abilities import green, neutral, red  # noqa: F401
