"""Synthetic ledger model: invented accounts and transactions, no real personal data.

Every random choice comes from a random.Random seeded by the caller, so the same seed always gives
the same ledger.
"""
from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Callable, Dict, List, Optional

CENT = Decimal("0.01")


@dataclass(frozen=True)
class Txn:
    date: dt.date
    time: str                 # HH:MM:SS (only the CSV prints it)
    currency: str             # ISO code
    amount: Decimal           # signed: negative = money out
    balance: Decimal          # balance after the row (as printed)
    type: str                 # 交易摘要
    counterparty: Optional[str]   # 对手信息 as stored by the bank (before wrapping)
    note: Optional[str]           # 客户摘要


@dataclass(frozen=True)
class Account:
    name: str
    number: str               # masked card number as printed
    account_type: str
    branch: str


def fmt_amount(d: Decimal) -> str:
    """1234567.8 -> '1,234,567.80'; negative keeps a leading '-'."""
    d = d.quantize(CENT)
    s = f"{abs(d):,.2f}"
    return ("-" + s) if d < 0 else s


def plain(d: Decimal) -> str:
    return str(d.quantize(CENT))


# ---------------------------------------------------------------- counterparty pools (fictional)

PERSONS = ["李四", "王五", "赵六", "钱七", "孙小美", "周一鸣", "吴某某", "郑某", "冯某某", "陈晓东",
           "欧阳某某", "刘某"]
COMPANIES = ["北京某某科技有限公司", "上海某某信息技术有限公司", "深圳市某某网络科技有限公司",
             "北京某某某某科技有限公司", "杭州某某电子商务有限公司", "广州某某贸易有限公司",
             "成都某某某某文化传播有限公司", "北京某某某某信息技术服务有限公司"]
MERCHANTS_SMALL = ["上海公共交通卡股份有限公司", "北京市政交通一卡通有限公司", "拉扎斯网络科技（上海）有限公司",
                   "北京三快在线科技有限公司", "财付通支付科技有限公司", "支付宝（中国）网络技术有限公司",
                   "某某便利店", "北京某某餐饮管理有限公司", "中国铁路网络有限公司"]
MERCHANTS_BIG = ["北京京东世纪贸易有限公司", "浙江天猫技术有限公司", "中国铁路网络有限公司",
                 "携程旅游网络技术（上海）有限公司", "某某航空股份有限公司", "某某家居（北京）有限公司"]
FULLWIDTH = ["网联清算有限公司ＩＢＰＳ２待清算专户", "ＩＢＰＳ２跨行清算往来", "某某银行ＩＢＰＳ２往来户（北京）"]
NOTES_SHORT = ["房租", "生活费", "还款", "午饭", "报销", "转账", "红包", "借款", "团建费", "水电费",
               "物业费", "学费", "礼金"]
NOTES_LONG = ["2026年第一季度差旅费用报销款", "代付北京某某科技有限公司办公室租金及物业费押金",
              "往来款ABC-2026-0417", "生活费（三月）", "垫付团建费用AA制分摊", "退回多付的房屋押金及水电费",
              "项目尾款HT20260312"]
BINS = ["6214", "6222", "6217", "6228", "6230", "6225"]


def acct_no(rng: random.Random, length: int = 0) -> str:
    length = length or rng.choice([16, 19, 19, 16, 15])
    if length == 15:   # company account style
        return "1109" + "".join(str(rng.randrange(10)) for _ in range(11))
    return rng.choice(BINS) + "".join(str(rng.randrange(10)) for _ in range(length - 4))


def money(rng: random.Random, lo: float, hi: float, round_to: Optional[int] = None) -> Decimal:
    v = rng.uniform(lo, hi)
    if round_to:
        v = round(v / round_to) * round_to
    return Decimal(str(round(v, 2))).quantize(CENT)


# ---------------------------------------------------------------- event templates (CNY)
# each returns (type, signed amount, counterparty, note)

def _with_note(rng, p=0.35, long_p=0.25):
    if rng.random() >= p:
        return None
    return rng.choice(NOTES_LONG) if rng.random() < long_p else rng.choice(NOTES_SHORT)


def ev_quick_pay(rng):
    m = rng.choice(MERCHANTS_SMALL)
    amt = rng.choice([Decimal("1.88"), Decimal("2.00"), Decimal("3.00"), Decimal("5.00")]) \
        if m.startswith(("上海公共", "北京市政")) else money(rng, 6, 180)
    return "快捷支付", -amt, m, None


def ev_unionpay_quick(rng):
    return "银联快捷支付", -money(rng, 20, 1500), rng.choice(MERCHANTS_BIG + MERCHANTS_SMALL[2:6]), _with_note(rng, 0.15)


def ev_netpay(rng):
    return "一网通支付", -money(rng, 30, 900), rng.choice(MERCHANTS_BIG), _with_note(rng, 0.2)


def ev_wl_receive(rng):
    cp = rng.choice(PERSONS) if rng.random() < 0.7 else rng.choice(FULLWIDTH)
    return "网联收款", money(rng, 10, 600), cp, _with_note(rng, 0.4)


def ev_refund(rng):
    return "快捷退款", money(rng, 3, 120), rng.choice(MERCHANTS_SMALL[2:] + MERCHANTS_BIG), None


def ev_transfer_out(rng):
    p = rng.choice(PERSONS)
    cp = f"{p} {acct_no(rng)}" if rng.random() < 0.7 else p
    return "转账汇款", -money(rng, 100, 6000, 10 if rng.random() < 0.5 else None), cp, _with_note(rng, 0.6, 0.35)


def ev_remit_in(rng):
    r = rng.random()
    if r < 0.5:
        cp = f"{rng.choice(PERSONS)} {acct_no(rng)}"
    elif r < 0.8:
        cp = f"{rng.choice(COMPANIES)} {acct_no(rng, 15)}"
    else:
        cp = rng.choice(FULLWIDTH)
    return "汇入汇款", money(rng, 300, 20000), cp, _with_note(rng, 0.5, 0.4)


def ev_remit_out(rng):
    cp = f"{rng.choice(PERSONS)}{' ' if rng.random() < 0.6 else ''}{acct_no(rng, 19)}"
    return "零售汇出汇款", -money(rng, 500, 20000, 100), cp, _with_note(rng, 0.5, 0.4)


def ev_zzb(rng):
    return "朝朝宝转入", -money(rng, 500, 8000, 100), None, None


def ev_unionpay_payout(rng):
    return "银联代付", money(rng, 50, 3000), rng.choice(["支付宝（中国）网络技术有限公司", "财付通支付科技有限公司"]), \
        rng.choice(["提现", None, "余额提现"])


def ev_cc_repay(rng):
    return "信用卡还款", -money(rng, 800, 9000), "招商银行信用卡中心", rng.choice([None, "还信用卡", "信用卡账单"])


CNY_EVENTS: List[tuple] = [
    (ev_quick_pay, 30), (ev_unionpay_quick, 8), (ev_netpay, 8), (ev_wl_receive, 8), (ev_refund, 4),
    (ev_transfer_out, 9), (ev_remit_in, 7), (ev_remit_out, 4), (ev_zzb, 4), (ev_unionpay_payout, 4),
    (ev_cc_repay, 2),
]


def pick(rng, weighted):
    total = sum(w for _, w in weighted)
    r = rng.uniform(0, total)
    for f, w in weighted:
        r -= w
        if r <= 0:
            return f
    return weighted[-1][0]


def rand_time(rng, lo_h=7, hi_h=23) -> str:
    s = rng.randrange(lo_h * 3600, hi_h * 3600)
    return f"{s // 3600:02d}:{s // 60 % 60:02d}:{s % 60:02d}"


# ---------------------------------------------------------------- generator

@dataclass
class Draft:
    date: dt.date
    time: str
    currency: str
    amount: Decimal
    type: str
    counterparty: Optional[str]
    note: Optional[str]
    must: bool = False


class LedgerBuilder:
    """Accumulates drafts day by day, then chains balances per currency."""

    def __init__(self, rng: random.Random, opening: Dict[str, Decimal]):
        self.rng = rng
        self.opening = dict(opening)
        self.drafts: List[Draft] = []

    def add(self, date, cur, amount, typ, cp, note, time=None, must=False):
        self.drafts.append(Draft(date, time or rand_time(self.rng), cur, amount, typ, cp, note, must))

    def build(self, swap_within_day: Optional[List[dt.date]] = None) -> List[Txn]:
        """Sort by (date, time), keep balances non-negative, chain balances.

        swap_within_day: dates on which two adjacent same-currency rows are printed in the wrong
        order (their balances stay the ones computed in true order) -- a real-statement quirk.
        """
        drafts = sorted(self.drafts, key=lambda d: (d.date, d.time))
        bal = dict(self.opening)
        out: List[Txn] = []
        for d in drafts:
            b = bal.setdefault(d.currency, Decimal("0.00"))
            if b + d.amount < 0:      # not enough money: the payment never happened
                if d.must:
                    raise ValueError(f"scripted row would overdraw the account: {d}")
                continue
            bal[d.currency] = b + d.amount
            out.append(Txn(d.date, d.time, d.currency, d.amount, bal[d.currency], d.type, d.counterparty, d.note))
        for day in swap_within_day or []:
            idx = [i for i, t in enumerate(out) if t.date == day]
            for a, b2 in zip(idx, idx[1:]):
                if out[a].currency == out[b2].currency and out[a].amount != out[b2].amount:
                    out[a], out[b2] = out[b2], out[a]
                    break
        return out


def daily_cny(b: LedgerBuilder, start: dt.date, end: dt.date, per_day: float, dup_p: float = 0.07,
              events=None, currency: str = "CNY"):
    """Random everyday CNY activity; now and then an identical repeat of a row on the same day."""
    rng = b.rng
    events = events or CNY_EVENTS
    d = start
    while d <= end:
        n = 0
        x = rng.random() * per_day * 2
        n = int(x) + (1 if rng.random() < x - int(x) else 0)
        for _ in range(n):
            typ, amt, cp, note = pick(rng, events)(rng)
            b.add(d, currency, amt, typ, cp, note)
            if rng.random() < dup_p:   # identical row the same day (only the balance will differ)
                b.add(d, currency, amt, typ, cp, note)
        d += dt.timedelta(days=1)


def monthly(b: LedgerBuilder, start: dt.date, end: dt.date, day: int, fn: Callable, currency="CNY"):
    y, m = start.year, start.month
    while True:
        try:
            d = dt.date(y, m, day)
        except ValueError:
            d = None
        if d and start <= d <= end:
            typ, amt, cp, note = fn(b.rng, d)
            b.add(d, currency, amt, typ, cp, note)
        m += 1
        if m > 12:
            y, m = y + 1, 1
        if dt.date(y, m, 1) > end:
            break


def salary(employer: str, lo=15000, hi=32000):
    def fn(rng, d):
        return "代发工资", money(rng, lo, hi), employer, rng.choice(["代发工资", f"{d.year}年{d.month:02d}月工资", None])
    return fn


def interest(lo=0.3, hi=40):
    def fn(rng, d):
        return "账户结息", money(rng, lo, hi), None, None
    return fn


def fee(amount="5.00"):
    def fn(rng, d):
        return "账户管理费", -Decimal(amount), None, rng.choice([None, "小额账户管理费"])
    return fn


def quarterly_interest(b: LedgerBuilder, start, end, currency="CNY", lo=0.3, hi=40):
    for y in range(start.year, end.year + 1):
        for m in (3, 6, 9, 12):
            d = dt.date(y, m, 21)
            if start <= d <= end:
                typ, amt, cp, note = interest(lo, hi)(b.rng, d)
                b.add(d, currency, amt, typ, cp, note, time="02:10:00")


def clip(txns: List[Txn], start: dt.date, end: dt.date) -> List[Txn]:
    return [t for t in txns if start <= t.date <= end]


def with_forced_duplicates(b: LedgerBuilder, days: List[dt.date], currency="CNY"):
    """Guarantee identical same-day rows on the given days."""
    rng = b.rng
    for d in days:
        typ, amt, cp, note = ev_quick_pay(rng) if rng.random() < 0.6 else ev_transfer_out(rng)
        t1 = rand_time(rng, 8, 12)
        t2 = rand_time(rng, 13, 20)
        b.add(d, currency, amt, typ, cp, note, time=t1)
        b.add(d, currency, amt, typ, cp, note, time=t2)
