"""Pictures of a player's view. Text pictures live with each game
(`Game.render`); richer renderers (SVG, HTML) will live here."""
