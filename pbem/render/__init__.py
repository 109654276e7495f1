"""Pictures of a player's view. Each game keeps its own renderers beside its
rules (the text picture `Presentation.render`, the colour module `Presentation.rich_view`);
`pbem.render.terminal` picks one for a terminal and prints it."""
