"""Alipay and WeChat Pay bill writers and the wallet quarter scenario (scripts/gen_wallet_samples.py)."""
