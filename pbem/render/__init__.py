"""Pictures of a player's view. Each game keeps its own renderers beside its
rules (the text picture `Presentation.render`, the colour module `Presentation.rich_view`);
`pbem.render.terminal` picks one for a terminal and prints it."""

import sys
from typing import IO


def wants_rich(plain: bool, stream: IO[str] | None = None) -> bool:
    """Colour pictures only on a terminal, and never with ``--plain`` (here,
    not in `pbem.render.terminal`, so that `pbem show` can tell whether its
    words may come from memory without importing the renderer)."""
    stream = sys.stdout if stream is None else stream
    try:
        return not plain and stream.isatty()
    except (AttributeError, ValueError):  # a closed or odd stream
        return False
