"""pbem: asynchronous play-by-email / turn-file engine for games with hidden information."""

__version__ = "0.1.0"
FORMAT = "pbem/1"
