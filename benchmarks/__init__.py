"""Benchmarks of cwenv (``python -m benchmarks``); results in benchmarks/RESULTS.md."""
