"""Benchmarks: `python -m benchmarks` (see benchmarks/README.md)."""
