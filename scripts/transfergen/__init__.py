"""Scenario builders for Samples/transfers/ (see scripts/gen_transfer_samples.py)."""
