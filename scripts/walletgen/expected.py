"""The expected files: each wallet bill's records and warnings (from the orders, not from any importer)
and the links between wallet records and CMB rows."""
from __future__ import annotations

from typing import Dict, List, Optional

from walletgen.orders import Order, plain


def account_facts(key: str) -> dict:
    kind, rest = key.split(":", 1)
    if kind == "bankcard":
        bank, typ, last4 = rest.split(":")
        return {"key": key, "name": f"{bank} {typ} {last4}", "institution": bank, "number": last4, "type": typ}
    holder, _, name = rest.rpartition(":")
    platform = "支付宝" if kind == "alipay" else "微信"
    if not holder:           # the platform account as a whole (Alipay PC export)
        return {"key": key, "name": f"{platform} {rest}", "institution": platform, "number": None, "type": "wallet"}
    return {"key": key, "name": f"{platform} {holder} {name}", "institution": platform, "number": None,
            "type": "credit" if name == "花呗" else "wallet"}


def nil(v: str) -> Optional[str]:
    return None if v in ("", "/") else v


def columns(o: Order):
    r = o.row
    if o.platform == "alipay":
        return r["商品说明"], r["交易分类"], r["收/付款方式"], r["交易状态"], r["交易订单号"], r["备注"]
    return r["商品"], r["交易类型"], r["支付方式"], r["当前状态"], r["交易单号"], r["备注"]


def records(o: Order, where: Dict[str, int]) -> List[dict]:
    item, category, method, status, order, note = columns(o)
    cp = nil(o.row["交易对方"])
    out = []
    for rec in o.records:
        out.append({**where, "account": rec.account, "external_id": order.strip(), "scope": rec.scope,
                    "date": o.when.date().isoformat(), "time": o.when.strftime("%H:%M:%S"), "amount": plain(rec.amount),
                    "description": rec.description or nil(item) or cp or category, "counterparty": cp, "note": nil(note),
                    "category": rec.category or category, "method": method, "status": status})
    return out


def bill_expected(orders: List[Order], locations: List[int], locator: str, extra_warnings: List[dict] = ()) -> dict:
    recs, warnings, keys = [], list(extra_warnings), []
    for o, loc in zip(orders, locations):
        where = {locator: loc}
        for r in records(o, where):
            recs.append(r)
            if r["account"] not in keys:
                keys.append(r["account"])
        if o.warning:
            warnings.append({**where, "contains": o.warning})
    return {"accounts": [account_facts(k) for k in keys], "records": recs, "warnings": warnings}


def bank_file(row, debit_files, card_files) -> Optional[str]:
    files = debit_files if row.kind == "debit" else card_files
    day = row.date if row.kind == "debit" else (row.posted or row.date)
    for name, (a, z) in files:
        if a <= day <= z:
            return name
    return None


def links(bills: Dict[str, List[Order]], debit_files, card_files) -> dict:
    """Every card-funded wallet record and the CMB row that is the same money; the ones whose bank row
    is in no file yet; and the CMB rows of wallet money that no record may link to."""
    linked, waiting, bank_only = [], [], []
    for file, orders in bills.items():
        for o in orders:
            item, category, method, status, order, note = columns(o)
            for rec in o.records:
                if not rec.bank:
                    continue
                wallet = {"file": file, "external_id": order.strip(), "scope": rec.scope, "account": rec.account,
                          "date": o.when.date().isoformat(), "time": o.when.strftime("%H:%M:%S"), "amount": plain(rec.amount)}
                name = bank_file(rec.bank, debit_files, card_files)
                bank = {"file": name, "date": rec.bank.date.isoformat(), "amount": plain(rec.bank.amount),
                        "description": rec.bank.description}
                if rec.bank.kind == "debit":
                    bank.update({"counterparty": rec.bank.counterparty, "note": rec.bank.note})
                (linked if name else waiting).append({"wallet": wallet, "bank": bank})
            for b in o.bank_only:
                bank_only.append({"file": bank_file(b, debit_files, card_files), "date": b.date.isoformat(), "amount": plain(b.amount),
                                  "description": b.description, "why": o.warning})
    return {"links": linked, "bank_row_not_yet_arrived": waiting, "bank_rows_without_wallet_record": bank_only}


def check_links(folder: str, links_doc: dict) -> None:
    """Every bank row a link or a bank-only entry names is a row of that file's expected.json, as
    often as it is named (twins twice): the links file names rows that exist."""
    import collections
    import json
    import os
    wanted = collections.Counter()
    for entry in links_doc["links"]:
        b = entry["bank"]
        wanted[(b["file"], b["date"], b["amount"], b["description"])] += 1
    for b in links_doc["bank_rows_without_wallet_record"]:
        wanted[(b["file"], b["date"], b["amount"], b["description"])] += 1
    have = collections.Counter()
    for name in {k[0] for k in wanted}:
        doc = json.load(open(os.path.join(folder, name[:-4] + ".expected.json"), encoding="utf-8"))
        for t in doc["transactions"]:
            have[(name, t["date"], t["amount"], t["description"])] += 1
    for k, n in wanted.items():
        if have[k] < n:
            raise SystemExit(f"expected_links.json names {n} x {k}, the file has {have[k]}")
