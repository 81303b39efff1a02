"""Minimal deterministic ZIP writer with traditional PKWARE encryption (ZipCrypto) and
WinZip AES (AE-1 / AE-2, 128/192/256-bit). Salts and encryption headers come from the caller's
seeded RNG, timestamps are fixed, so output is byte-identical between runs.

References: PKWARE APPNOTE.TXT 6.3.x (sections 4.3, 6.1 traditional encryption) and the
WinZip "AES Encryption Information: Encryption Specification AE-1 and AE-2".
"""
from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import random
import struct
import zlib
from dataclasses import dataclass
from typing import List, Optional

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

FLAG_ENCRYPTED = 0x0001
FLAG_UTF8 = 0x0800


def dos_datetime(t: dt.datetime):
    d = ((t.year - 1980) << 9) | (t.month << 5) | t.day
    tm = (t.hour << 11) | (t.minute << 5) | (t.second // 2)
    return tm, d


def deflate(data: bytes) -> bytes:
    c = zlib.compressobj(9, zlib.DEFLATED, -15, 9)
    return c.compress(data) + c.flush()


# ------------------------------------------------------------------ ZipCrypto

_CRC_TABLE = []
for _n in range(256):
    _c = _n
    for _ in range(8):
        _c = (_c >> 1) ^ 0xEDB88320 if _c & 1 else _c >> 1
    _CRC_TABLE.append(_c)


class ZipCrypto:
    def __init__(self, password: bytes):
        self.k0, self.k1, self.k2 = 0x12345678, 0x23456789, 0x34567890
        for b in password:
            self._update(b)

    def _update(self, b: int):
        self.k0 = (self.k0 >> 8) ^ _CRC_TABLE[(self.k0 ^ b) & 0xFF]
        self.k1 = (self.k1 + (self.k0 & 0xFF)) & 0xFFFFFFFF
        self.k1 = (self.k1 * 134775813 + 1) & 0xFFFFFFFF
        self.k2 = (self.k2 >> 8) ^ _CRC_TABLE[(self.k2 ^ (self.k1 >> 24)) & 0xFF]

    def encrypt(self, data: bytes) -> bytes:
        out = bytearray(len(data))
        k0, k1, k2 = self.k0, self.k1, self.k2
        tab = _CRC_TABLE
        for i, b in enumerate(data):
            t = (k2 | 2) & 0xFFFF
            out[i] = b ^ (((t * (t ^ 1)) >> 8) & 0xFF)
            k0 = (k0 >> 8) ^ tab[(k0 ^ b) & 0xFF]
            k1 = ((k1 + (k0 & 0xFF)) * 134775813 + 1) & 0xFFFFFFFF
            k2 = (k2 >> 8) ^ tab[(k2 ^ (k1 >> 24)) & 0xFF]
        self.k0, self.k1, self.k2 = k0, k1, k2
        return bytes(out)


# ------------------------------------------------------------------ WinZip AES

AES_SALT = {1: 8, 2: 12, 3: 16}
AES_KEY = {1: 16, 2: 24, 3: 32}


def winzip_aes_encrypt(data: bytes, password: bytes, strength: int, salt: bytes) -> bytes:
    """Returns salt + 2-byte verifier + ciphertext + 10-byte HMAC-SHA1 auth code."""
    klen = AES_KEY[strength]
    assert len(salt) == AES_SALT[strength]
    dk = hashlib.pbkdf2_hmac("sha1", password, salt, 1000, 2 * klen + 2)
    enc_key, mac_key, verifier = dk[:klen], dk[klen:2 * klen], dk[2 * klen:]
    nblocks = (len(data) + 15) // 16
    counters = b"".join(i.to_bytes(16, "little") for i in range(1, nblocks + 1))  # LE counter from 1
    ecb = Cipher(algorithms.AES(enc_key), modes.ECB()).encryptor()
    stream = ecb.update(counters) + ecb.finalize()
    ct = bytes(a ^ b for a, b in zip(data, stream)) if len(data) < 4096 else \
        (int.from_bytes(data, "big") ^ int.from_bytes(stream[:len(data)], "big")).to_bytes(len(data), "big")
    mac = hmac.new(mac_key, ct, hashlib.sha1).digest()[:10]
    return salt + verifier + ct + mac


# ------------------------------------------------------------------ writer

@dataclass
class Entry:
    name: str
    data: bytes
    mtime: dt.datetime
    name_encoding: str = "utf-8"        # "utf-8" sets flag bit 11; anything else (e.g. "gbk") leaves it clear


def build_zip(entries: List[Entry], password: Optional[str], method: str, rng: random.Random,
              comment: bytes = b"") -> bytes:
    """method: 'zipcrypto' | 'aes128' | 'aes192' | 'aes256' (AE-2) | 'aes128-ae1' ... | 'none'."""
    out = bytearray()
    central = bytearray()
    for e in entries:
        raw_name = e.name.encode(e.name_encoding)
        flags = FLAG_UTF8 if e.name_encoding.lower().replace("_", "-") == "utf-8" and not raw_name.isascii() else 0
        crc = zlib.crc32(e.data) & 0xFFFFFFFF
        comp = deflate(e.data)
        tm, dd = dos_datetime(e.mtime)
        extra = b""
        if method == "none":
            payload, zmethod, need, crc_field = comp, 8, 20, crc
        elif method == "zipcrypto":
            flags |= FLAG_ENCRYPTED
            zc = ZipCrypto(password.encode())
            header = bytes(rng.randrange(256) for _ in range(11)) + bytes([crc >> 24])
            payload = zc.encrypt(header) + zc.encrypt(comp)
            zmethod, need, crc_field = 8, 20, crc
        elif method.startswith("aes"):
            flags |= FLAG_ENCRYPTED
            bits = int(method[3:6])
            ae = 1 if method.endswith("-ae1") else 2
            strength = {128: 1, 192: 2, 256: 3}[bits]
            salt = bytes(rng.randrange(256) for _ in range(AES_SALT[strength]))
            payload = winzip_aes_encrypt(comp, password.encode(), strength, salt)
            extra = struct.pack("<HHH2sBH", 0x9901, 7, ae, b"AE", strength, 8)
            zmethod, need = 99, 51
            crc_field = crc if ae == 1 else 0
        else:
            raise ValueError(method)
        offset = len(out)
        out += struct.pack("<IHHHHHIIIHH", 0x04034B50, need, flags, zmethod, tm, dd, crc_field,
                           len(payload), len(e.data), len(raw_name), len(extra))
        out += raw_name + extra + payload
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0x003F, need, flags, zmethod, tm, dd,
                               crc_field, len(payload), len(e.data), len(raw_name), len(extra), 0, 0, 0,
                               0x20, offset)
        central += raw_name + extra
    cd_off = len(out)
    out += central
    out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), len(central), cd_off,
                       len(comment)) + comment
    return bytes(out)
