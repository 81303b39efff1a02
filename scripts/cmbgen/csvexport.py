"""CMB PC web-banking CSV export (个人银行专业版 / 一网通), FORMAT.md section 2."""
from __future__ import annotations

import datetime as dt
import unicodedata
from decimal import Decimal
from typing import List, Tuple

from .ledger import Txn, plain


def display_width(s: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in s)


def rjust_display(s: str, width: int) -> str:
    return " " * max(0, width - display_width(s)) + s


def csv_note(t: Txn) -> str:
    """交易备注: the PC export has no counterparty column, the counterparty hides in the note."""
    parts = [p for p in (t.counterparty, t.note) if p]
    if not parts:
        return t.type
    if t.type in ("快捷支付", "银联快捷支付", "一网通支付", "快捷退款") and t.counterparty:
        return f"{t.type}，{'，'.join(parts)}"
    return "，".join(parts)


def q(s: str) -> str:
    return '"' + s.replace('"', '""') + '"'


def render_csv(txns: List[Txn], account_no: str, start: dt.date, end: dt.date, exported: dt.datetime,
               quoted_preamble: bool, newline: str) -> Tuple[str, list, dict]:
    """Returns (text, expected transactions in file order, totals)."""
    def pre(line: str) -> str:
        return q(line) if quoted_preamble else line

    lines = [
        pre("# 招商银行交易记录"),
        pre(f"# 导出时间: [{rjust_display(exported.strftime('%Y-%m-%d %H:%M:%S'), 31)}]"),
        pre(f"# 账    号: [一卡通:{account_no}   招商银行]"),
        pre(f"# 币    种: [{rjust_display('人民币', 31)}]"),
        pre(f"# 起始日期: [{start.strftime('%Y%m%d')}]   终止日期: [{end.strftime('%Y%m%d')}]"),
        pre("# 过滤设置:  无"),
        "",
        ",".join(q(h) for h in ("交易日期", "交易时间", "收入", "支出", "余额", "交易类型", "交易备注")),
    ]
    expected = []
    inc_n = exp_n = 0
    inc = exp = Decimal("0.00")
    for t in reversed(txns):           # newest first
        note = csv_note(t)
        income = plain(t.amount) if t.amount > 0 else ""
        out = plain(-t.amount) if t.amount < 0 else ""
        if t.amount > 0:
            inc_n += 1
            inc += t.amount
        else:
            exp_n += 1
            exp += -t.amount
        lines.append(",".join([q("\t" + t.date.strftime("%Y%m%d")), q("\t" + t.time), q(income), q(out),
                               q(plain(t.balance)), q("\t" + t.type), q("\t" + note)]))
        expected.append({"date": t.date.isoformat(), "time": t.time, "currency": "CNY",
                         "amount": plain(t.amount), "balance": plain(t.balance),
                         "description": t.type, "note": note})
    lines += [
        "",
        pre(f"# 收入合计: {inc_n} 笔，共 {plain(inc)} 元"),
        pre(f"# 支出合计: {exp_n} 笔，共 {plain(exp)} 元"),
    ]
    totals = {"income_count": inc_n, "income": plain(inc), "expense_count": exp_n, "expense": plain(exp)}
    return newline.join(lines) + newline, expected, totals
