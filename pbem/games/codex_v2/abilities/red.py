"""The red colour's functions (its starter deck is data only so far)."""

from __future__ import annotations
