"""Inputs that must fail cleanly: truncated files, a non-CMB PDF, an image-only scan, an encrypted PDF."""
from __future__ import annotations

import io
import os
import shutil
import subprocess
import tempfile
import zlib

from reportlab.pdfgen.canvas import Canvas

from .pdfrender import MONO, SANS, PAGE_H, PAGE_W, register_fonts


def invoice_pdf(path: str):
    """An ordinary electronic invoice (电子发票) with dates, amounts and CJK text, nothing CMB-like."""
    register_fonts()
    c = Canvas(path, pagesize=(PAGE_W, PAGE_H), invariant=1, initialFontName=MONO, initialFontSize=10)
    c.setTitle("电子发票")

    def t(x, top, s, size=10, font=MONO):
        c.setFont(font, size)
        c.drawString(x, PAGE_H - top - 0.8 * size, s)

    t(200, 50, "电子发票（普通发票）", 16)
    t(60, 95, "发票号码：26110000000123456789")
    t(360, 95, "开票日期：2026年05月20日")
    t(60, 125, "购买方信息  名称：张三")
    t(60, 142, "统一社会信用代码/纳税人识别号：")
    t(60, 172, "销售方信息  名称：北京某某餐饮管理有限公司")
    t(60, 189, "统一社会信用代码/纳税人识别号：91110108MA00000000")
    t(60, 225, "项目名称")
    t(220, 225, "规格型号")
    t(300, 225, "数量")
    t(350, 225, "单价")
    t(420, 225, "金额")
    t(480, 225, "税率/征收率")
    rows = [("*餐饮服务*餐费", "", "1", "94.34", "94.34", "6%"),
            ("*餐饮服务*外卖配送费", "", "1", "4.72", "4.72", "6%")]
    top = 245
    for r in rows:
        for x, v in zip((60, 220, 300, 350, 420, 480), r):
            t(x, top, v)
        top += 18
    t(60, 300, "合    计")
    t(420, 300, "¥99.06")
    t(480, 300, "¥5.94")
    t(60, 325, "价税合计（大写）：壹佰零伍圆整")
    t(360, 325, "（小写）¥105.00")
    t(60, 360, "2026-05-20  订单号 20260520123456789")
    t(60, 780, "开票人：李四", 9)
    t(500, 800, "1/1", 9)
    c.showPage()
    c.save()


def scanned_pdf(src_pdf: str, path: str, dpi: int = 100):
    """Render every page of src_pdf to a grey image with pdftoppm and write a PDF holding only
    those images: no fonts, no text objects (written by hand so not even an empty BT/ET is left)."""
    from PIL import Image
    if not shutil.which("pdftoppm"):
        raise SystemExit("pdftoppm (poppler-utils) is required to build broken/scanned.pdf")
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["pdftoppm", "-r", str(dpi), "-gray", "-png", src_pdf, os.path.join(tmp, "p")], check=True)
        images = []
        for f in sorted(f for f in os.listdir(tmp) if f.endswith(".png")):
            im = Image.open(os.path.join(tmp, f)).convert("L")
            images.append((im.width, im.height, zlib.compress(im.tobytes(), 9)))
    objs = []                                  # object i+1
    n = len(images)
    kids = " ".join(f"{3 + 3 * i} 0 R" for i in range(n))
    objs.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objs.append(f"<< /Type /Pages /Kids [{kids}] /Count {n} >>".encode())
    for i, (w, h, data) in enumerate(images):
        page, content, img = 3 + 3 * i, 4 + 3 * i, 5 + 3 * i
        objs.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {PAGE_W:g} {PAGE_H:g}] "
                    f"/Resources << /XObject << /Im0 {img} 0 R >> >> /Contents {content} 0 R >>".encode())
        cs = f"q {PAGE_W:g} 0 0 {PAGE_H:g} 0 0 cm /Im0 Do Q".encode()
        objs.append(b"<< /Length %d >>\nstream\n" % len(cs) + cs + b"\nendstream")
        objs.append(f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceGray "
                    f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(data)} >>\nstream\n".encode()
                    + data + b"\nendstream")
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, o in enumerate(objs):
        offsets.append(len(out))
        out += f"{i + 1} 0 obj\n".encode() + o + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objs) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    with open(path, "wb") as f:
        f.write(out)
