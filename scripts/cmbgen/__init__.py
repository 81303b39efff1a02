"""Helpers for scripts/gen_cmb_samples.py (synthetic China Merchants Bank statement fixtures)."""
