"""Benchmarks: each compares tabletop against an anchor in the same run and prints the ratio."""
