"""Self-check of generated fixtures with external tools (poppler's pdftotext, 7z).

For every PDF fixture a small position-based reader (the approach FORMAT.md recommends: columns
from the header on each page, every text fragment assigned to the row whose vertical centre is
nearest, fragments joined without spaces) rebuilds the rows from `pdftotext -bbox` output and
compares them with <name>.expected.json. ZIPs are extracted with `7z x -so -p...` and compared
byte for byte with the bare PDF; a wrong password must fail. CSVs are re-read and compared.
"""
from __future__ import annotations

import csv
import glob
import hashlib
import html
import io
import json
import os
import re
import shutil
import subprocess
from typing import Dict, List, Tuple

WORD_RE = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>')
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
MARKER_RE = re.compile(r"^\d+/\d+$")
CUR = {"人民币": "CNY", "美元": "USD", "港币": "HKD"}
END_WORDS = ("合并统计", "温馨提示：", "本交易流水因不可预测的非人控技术原因导致可能产生缺失，流水内容仅供参考。")


def bbox_pages(pdf: str, extra=()) -> List[List[Tuple[float, float, float, float, str]]]:
    out = subprocess.run(["pdftotext", *extra, "-bbox", pdf, "-"], capture_output=True, text=True, check=True).stdout
    pages = []
    for chunk in out.split("<page ")[1:]:
        pages.append([(float(a), float(b), float(c), float(d), html.unescape(t))
                      for a, b, c, d, t in WORD_RE.findall(chunk)])
    return pages


def lines_of(words, tol=1.5):
    lines: List[List] = []
    for w in sorted(words, key=lambda w: (w[1], w[0])):
        if lines and abs(lines[-1][0][1] - w[1]) <= tol:
            lines[-1].append(w)
        else:
            lines.append([w])
    return [sorted(l, key=lambda w: w[0]) for l in lines]


def parse_statement(pages) -> dict:
    header_text = "\n".join(" ".join(w[4] for w in l) for l in lines_of(pages[0]))
    h = {}
    pats = {
        "name": r"户\s*名[：:]\s*(\S+)", "account_number": r"账号[：:]\s*(\S+)",
        "account_type": r"账户类型[：:]\s*(\S+)", "branch": r"开\s*户\s*行[：:]\s*(\S+)",
        "applied_at": r"申请时间[：:]\s*(\S+ \S+)", "verification_code": r"验\s*证\s*码[：:]\s*(\S+)",
        "serial_no": r"电子流水号[：:]\s*(\S+)",
    }
    for k, p in pats.items():
        m = re.search(p, header_text)
        h[k] = m.group(1) if m else None
    m = re.search(r"(\d{4}-\d{2}-\d{2}) -- (\d{4}-\d{2}-\d{2})", header_text)
    h["period_start"], h["period_end"] = (m.group(1), m.group(2)) if m else (None, None)

    rows, totals, markers = [], {}, []
    for pn, words in enumerate(pages):
        col_names = ["记账日期", "货币", "交易金额", "联机余额", "交易摘要", "对手信息", "客户摘要"]
        keys = ["date", "currency", "amount", "balance", "description", "counterparty", "note"]
        cols = []
        for cn, key in zip(col_names, keys):
            hits = [w for w in words if w[4] == cn]
            if hits:
                cols.append((hits[0][0], key))
        cols.sort()
        en_date = [w for w in words if w[4] == "Date" and abs(w[0] - cols[0][0]) < 1]
        # the table header is the lowest "Date" word in the date column (the header block has one too)
        head_bottom = max(w[3] for w in en_date)
        marker = [w for w in words if MARKER_RE.match(w[4]) and w[0] > 400]
        markers.append(marker[0][4] if marker else None)
        end_y = min([w[1] for w in words if w[4] in END_WORDS or w[4].startswith("——")] +
                    [w[1] for w in marker] + [10_000])
        body = [w for w in words if head_bottom < w[1] < end_y - 0.5]
        anchors = [w for w in body if DATE_RE.match(w[4]) and abs(w[0] - cols[0][0]) < 1]
        anchors.sort(key=lambda w: w[1])
        cells: List[Dict[str, List]] = [dict() for _ in anchors]
        for w in body:
            cy = (w[1] + w[3]) / 2
            i = min(range(len(anchors)), key=lambda j: abs((anchors[j][1] + anchors[j][3]) / 2 - cy))
            key = [k for x, k in cols if x <= w[0] + 2][-1]
            cells[i].setdefault(key, []).append(w)
        for c in cells:
            row = {}
            for key in keys:
                ws = c.get(key, [])
                text = "".join(" ".join(x[4] for x in l) for l in lines_of(ws)) if ws else None
                row[key] = text
            row["currency"] = CUR.get(row["currency"], row["currency"])
            row["amount"] = row["amount"].replace(",", "")
            row["balance"] = row["balance"].replace(",", "")
            rows.append(row)
        if any(w[4] == "合并统计" for w in words):
            y0 = [w for w in words if w[4] == "合并统计"][0][3]
            for l in lines_of([w for w in words if w[1] > y0 and w[1] < end_y + 1000]):
                t = [w[4] for w in l]
                if len(t) == 3 and re.match(r"^[A-Z]{3}$", t[0]):
                    totals[t[0]] = {"income": t[1].replace(",", ""), "expense": t[2].replace(",", "")}
    return {"header": h, "rows": rows, "totals": totals or None, "markers": markers}


def check_pdf(exp_path: str) -> List[str]:
    exp = json.load(open(exp_path, encoding="utf-8"))
    base = exp_path[: -len(".expected.json")]
    pdf = base + ".pdf"
    errs = []
    pages = bbox_pages(pdf)
    got = parse_statement(pages)
    if len(pages) != exp["pages"]:
        errs.append(f"pages {len(pages)} != {exp['pages']}")
    want_markers = [f"{i + 1}/{len(pages)}" for i in range(len(pages))]
    if got["markers"] != want_markers:
        errs.append(f"markers {got['markers']}")
    for k, v in exp["header"].items():
        if got["header"].get(k) != v:
            errs.append(f"header {k}: {got['header'].get(k)!r} != {v!r}")
    if got["totals"] != exp["totals"]:
        errs.append(f"totals {got['totals']} != {exp['totals']}")
    if len(got["rows"]) != len(exp["transactions"]):
        errs.append(f"{len(got['rows'])} rows != {len(exp['transactions'])}")
    for i, (g, e) in enumerate(zip(got["rows"], exp["transactions"])):
        for k in ("date", "currency", "amount", "balance", "description", "counterparty", "note"):
            if g.get(k) != e.get(k):
                errs.append(f"row {i} {k}: {g.get(k)!r} != {e.get(k)!r}")
    # the -layout text must contain every printed cell fragment as well
    layout = subprocess.run(["pdftotext", "-layout", pdf, "-"], capture_output=True, text=True, check=True).stdout
    for e in exp["transactions"]:
        if e["date"] not in layout:
            errs.append(f"layout misses {e['date']}")
    # zips
    data = open(pdf, "rb").read()
    for z in sorted(glob.glob(base + ".*.zip")):
        r = subprocess.run(["7z", "x", "-so", f"-p{exp['password']}", z], capture_output=True)
        if r.returncode != 0 or hashlib.sha256(r.stdout).digest() != hashlib.sha256(data).digest():
            errs.append(f"{os.path.basename(z)}: 7z extraction mismatch (rc={r.returncode})")
        r = subprocess.run(["7z", "t", "-pWRONGPW", z], capture_output=True)
        if r.returncode == 0:
            errs.append(f"{os.path.basename(z)}: wrong password accepted")
    return errs


def check_csv(exp_path: str) -> List[str]:
    exp = json.load(open(exp_path, encoding="utf-8"))
    raw = open(exp_path[: -len(".expected.json")] + ".csv", "rb").read()
    errs = []
    if raw.startswith(b"\xef\xbb\xbf"):
        text = raw[3:].decode("utf-8")
    else:
        text = raw.decode("gb18030")
    if ("\r\n" in text) != (exp["line_ending"] == "CRLF"):
        errs.append("line ending")
    rows = []
    for rec in csv.reader(io.StringIO(text)):
        if len(rec) == 7 and rec[0].startswith("\t"):
            inc, out = rec[2], rec[3]
            amount = inc if inc else "-" + out
            rows.append({"date": f"{rec[0][1:5]}-{rec[0][5:7]}-{rec[0][7:9]}", "time": rec[1].lstrip("\t"),
                         "currency": "CNY", "amount": amount, "balance": rec[4],
                         "description": rec[5].lstrip("\t"), "note": rec[6].lstrip("\t")})
    if rows != exp["transactions"]:
        errs.append(f"csv rows differ ({len(rows)} vs {len(exp['transactions'])})")
    return errs


def check_broken(d: str) -> List[str]:
    errs = []
    pw = json.load(open(os.path.join(d, "passwords.json")))

    def run(*a):
        return subprocess.run(list(a), capture_output=True)
    if run("7z", "t", f"-p{pw['truncated.zipcrypto.zip']}", os.path.join(d, "truncated.zipcrypto.zip")).returncode == 0:
        errs.append("truncated.zipcrypto.zip tests OK")
    r = run("7z", "x", "-so", f"-p{pw['truncated_pdf.zip']}", os.path.join(d, "truncated_pdf.zip"))
    if r.returncode != 0 or not r.stdout.startswith(b"%PDF") or b"%%EOF" in r.stdout[-64:]:
        errs.append("truncated_pdf.zip should extract to a cut PDF")
    if run("pdftotext", os.path.join(d, "truncated.pdf"), "-").returncode == 0 and \
            "招商银行交易流水" in run("pdftotext", os.path.join(d, "truncated.pdf"), "-").stdout.decode():
        errs.append("truncated.pdf still yields the statement")
    r = run("7z", "x", "-so", f"-p{pw['not_cmb.zip']}", os.path.join(d, "not_cmb.zip"))
    if r.returncode != 0 or r.stdout != open(os.path.join(d, "not_cmb.pdf"), "rb").read():
        errs.append("not_cmb.zip does not extract to not_cmb.pdf")
    t = run("pdftotext", os.path.join(d, "not_cmb.pdf"), "-").stdout.decode()
    if "发票" not in t or "招商银行交易流水" in t:
        errs.append("not_cmb.pdf text")
    t = run("pdftotext", os.path.join(d, "scanned.pdf"), "-").stdout.decode()
    if t.strip():
        errs.append("scanned.pdf has text")
    if run("pdffonts", os.path.join(d, "scanned.pdf")).stdout.decode().count("\n") > 2:
        errs.append("scanned.pdf has fonts")
    if run("pdftotext", os.path.join(d, "encrypted.pdf"), "-").returncode == 0:
        errs.append("encrypted.pdf opens without password")
    t = run("pdftotext", "-upw", pw["encrypted.pdf"], os.path.join(d, "encrypted.pdf"), "-").stdout.decode()
    if "招商银行交易流水" not in t:
        errs.append("encrypted.pdf does not open with its password")
    return errs


def verify_dir(d: str) -> bool:
    for tool in ("pdftotext", "7z"):
        if not shutil.which(tool):
            print(f"verify: {tool} not found")
            return False
    ok = True
    for exp in sorted(glob.glob(os.path.join(d, "*.expected.json"))):
        j = json.load(open(exp, encoding="utf-8"))
        errs = check_csv(exp) if j.get("format") == "cmb_pc_csv" else check_pdf(exp)
        print(f"{'OK  ' if not errs else 'FAIL'} {os.path.basename(exp)}"
              + ("" if j.get("format") else f"  ({j['pages']} pages, {len(j['transactions'])} rows)"))
        for e in errs[:20]:
            print("     ", e)
        ok &= not errs
    bd = os.path.join(d, "broken")
    if os.path.isdir(bd):
        errs = check_broken(bd)
        print(f"{'OK  ' if not errs else 'FAIL'} broken/")
        for e in errs:
            print("     ", e)
        ok &= not errs
    return ok
