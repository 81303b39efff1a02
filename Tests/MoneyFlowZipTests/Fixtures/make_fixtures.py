#!/usr/bin/env python3
"""Generates the Python-made MoneyFlowZip fixtures (run from the Fixtures directory, after the zip/7z commands)."""
import io, struct, zipfile, zlib

ORIG = "originals/"

def patch_name_encoding(encoder):
    # zipfile encodes non-ASCII names as UTF-8 and sets flag bit 11; replace that to write legacy GBK names.
    orig = zipfile.ZipInfo._encodeFilenameFlags
    def enc(self):
        try:
            return self.filename.encode("ascii"), self.flag_bits
        except UnicodeEncodeError:
            return encoder(self.filename), self.flag_bits & ~0x800
    zipfile.ZipInfo._encodeFilenameFlags = enc
    return orig

a_pdf = open(ORIG + "a.pdf", "rb").read()
b_txt = open(ORIG + "b.txt", "rb").read()

# 1. GBK-named entries, flag bit 11 clear (what Chinese Windows tools write).
orig = patch_name_encoding(lambda s: s.encode("gbk"))
with zipfile.ZipFile("gbk_names.zip", "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("招商银行交易流水.pdf", a_pdf)
    z.writestr("readme.txt", b"plain ascii name\n")
zipfile.ZipInfo._encodeFilenameFlags = orig

# 2. UTF-8 Chinese name (zipfile sets flag bit 11).
with zipfile.ZipFile("utf8_name.zip", "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("招商银行交易流水(申请时间2026年06月16日17时44分37秒).pdf", a_pdf)

# 3. Data descriptors: writing to a non-seekable stream sets flag bit 3 and appends descriptors.
class NonSeekable(io.RawIOBase):
    def __init__(self): self.buf = bytearray()
    def writable(self): return True
    def write(self, b): self.buf += b; return len(b)
    def seekable(self): return False
    def tell(self): raise OSError("not seekable")
ns = NonSeekable()
with zipfile.ZipFile(ns, "w", zipfile.ZIP_DEFLATED) as z:
    with z.open("b.txt", "w") as f: f.write(b_txt)
    with z.open("a.pdf", "w", force_zip64=True) as f: f.write(a_pdf)
open("descriptor.zip", "wb").write(bytes(ns.buf))

# 4. Unsafe paths plus a directory entry.
with zipfile.ZipFile("unsafe_paths.zip", "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("../../evil.txt", b"evil\n")
    z.writestr("/etc/absolute.txt", b"absolute\n")
    z.writestr(zipfile.ZipInfo("docs/"), b"")
    z.writestr("docs/ok.txt", b"fine\n")
    z.writestr("dir\\back.txt", b"backslash\n")  # zipfile keeps backslashes on POSIX
# 5. Zip bomb: 200 MiB of zeros deflated at level 9 (declared size 200 MiB).
zeros = bytes(1 << 20)
def deflate_zeros(mib):
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    out = bytearray(); crc = 0
    for _ in range(mib):
        out += c.compress(zeros); crc = zlib.crc32(zeros, crc)
    out += c.flush()
    return bytes(out), crc

def raw_zip(name, comp, crc, declared_size, method=8):
    n = name.encode()
    local = struct.pack("<IHHHHHIIIHH", 0x04034b50, 20, 0, method, 0, 0x21, crc, len(comp), declared_size, len(n), 0) + n
    central = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014b50, 20, 20, 0, method, 0, 0x21, crc, len(comp), declared_size,
                          len(n), 0, 0, 0, 0, 0, 0) + n
    body = local + comp
    eocd = struct.pack("<IHHHHIIH", 0x06054b50, 0, 0, 1, 1, len(central), len(body), 0)
    return body + central + eocd

comp, crc = deflate_zeros(200)
open("bomb.zip", "wb").write(raw_zip("zeros.bin", comp, crc, 200 << 20))
# 6. Lying bomb: 16 MiB of zeros whose headers declare only 4096 bytes.
comp, crc = deflate_zeros(16)
open("bomb_lying_size.zip", "wb").write(raw_zip("small.txt", comp, crc, 4096))

# 7. Truncated: the first 60% of zipcrypto.zip (no end-of-central-directory record).
d = open("zipcrypto.zip", "rb").read()
open("truncated.zip", "wb").write(d[: len(d) * 6 // 10])

# 8. Tampered AES-256: flip one ciphertext bit of b.txt in aes256.zip (HMAC must fail).
d = bytearray(open("aes256.zip", "rb").read())
pos = 0
while True:
    assert d[pos:pos+4] == b"PK\x03\x04"
    _, _, flag, method, _, _, _, csize, _, nlen, xlen = struct.unpack_from("<IHHHHHIIIHH", d, pos)
    name = bytes(d[pos+30:pos+30+nlen])
    data = pos + 30 + nlen + xlen
    if name == b"b.txt":
        d[data + 16 + 2 + 100] ^= 0x01   # after the 16-byte salt and 2-byte verifier
        break
    pos = data + csize
open("aes256_tampered.zip", "wb").write(bytes(d))
