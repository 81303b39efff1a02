"""Wallet orders as the generator knows them: each is the bill's row (as printed), the records the
importer must make of it (the money, by the rules of FORMATS.md, decided here from what the order
IS, not from the printed text), and the bank rows the same money makes on the CMB side."""
from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Dict, List, Optional

ALIPAY_HOLDER = "hanmeimei@example.com"
ALIPAY_NAME = "韩梅梅"
WECHAT_NICK = "梅梅"
DEBIT = "bankcard:招商银行:debit:3816"
CREDIT = "bankcard:招商银行:credit:5521"
ICBC = "bankcard:工商银行:debit:6093"
DEMO_DEBIT = "bankcard:招商银行:debit:2468"      # the demo person's card (walletgen/demo.py)
ALIPAY_METHOD = {DEBIT: "招商银行储蓄卡(3816)", CREDIT: "招商银行信用卡(5521)", ICBC: "工商银行储蓄卡(6093)", DEMO_DEBIT: "招商银行储蓄卡(2468)"}
WECHAT_METHOD = {DEBIT: "招商银行(3816)", CREDIT: "招商银行信用卡(5521)", ICBC: "工商银行(6093)", DEMO_DEBIT: "招商银行(2468)"}
ALIPAY_CP = "支付宝（中国）网络技术有限公司"
WECHAT_CP = "财付通支付科技有限公司"


def alipay(name: str) -> str:
    return f"alipay:{ALIPAY_HOLDER}:{name}"


def wechat(name: str) -> str:
    return f"wechat:{WECHAT_NICK}:{name}"


def plain(d: Decimal) -> str:
    return f"{d:.2f}"


@dataclass
class BankRow:
    """One row the same money makes at CMB: on the debit statement or on the card bill."""
    kind: str                   # "debit" | "card"
    date: dt.date               # debit: booking day; card: 交易日
    amount: Decimal             # store sign (negative = out of the card's account)
    description: str            # debit 交易摘要; card 交易摘要 (as printed, cut)
    counterparty: Optional[str] = None
    note: Optional[str] = None
    time: str = "12:00:00"
    posted: Optional[dt.date] = None   # card 记账日


@dataclass
class Record:
    account: str
    amount: Decimal
    scope: Optional[str] = None
    description: Optional[str] = None
    category: Optional[str] = None
    bank: Optional[BankRow] = None      # the bank row this record is the same money as


@dataclass
class Order:
    platform: str               # alipay | wechat
    when: dt.datetime
    row: Dict[str, str]
    records: List[Record] = field(default_factory=list)
    warning: Optional[str] = None       # a substring of the importer's warning for this row
    bank_only: List[BankRow] = field(default_factory=list)   # bank rows of this order no record links to


class Numbers:
    """Order numbers in the platforms' shapes, from a seeded PRNG."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.seen = set()

    def digits(self, n: int) -> str:
        return "".join(str(self.rng.randrange(10)) for _ in range(n))

    def alipay(self, when: dt.datetime) -> str:
        while True:
            s = f"{when:%Y%m%d}22001{self.digits(7)}{self.digits(8)}"
            if s not in self.seen:
                self.seen.add(s)
                return s

    def wechat(self, when: dt.datetime) -> str:
        while True:
            s = f"42000{self.digits(5)}{when:%Y%m%d}{self.digits(10)}"
            if s not in self.seen:
                self.seen.add(s)
                return s


def booked(when: dt.datetime) -> dt.date:
    """The debit statement books a payment made at 23:00 or later on the next day."""
    return when.date() + dt.timedelta(days=1) if when.hour >= 23 else when.date()


def cut(text: str, n: int) -> str:
    return text[:n]


def card_side(platform: str, account: str, when: dt.datetime, peer: str, amount: Decimal, refund: bool = False) -> Optional[BankRow]:
    """The CMB row of a card-funded wallet payment (amount in the card account's sign)."""
    if account == DEBIT:
        if platform == "alipay":
            cp, note = ALIPAY_CP, cut("支付宝-" + peer, 24)
        else:
            cp, note = WECHAT_CP, cut("财付通-微信支付-" + peer, 24)
        return BankRow("debit", booked(when), amount, "快捷退款" if refund else "快捷支付", cp, note, when.strftime("%H:%M:%S"))
    if account == CREDIT:
        desc = cut(("支付宝-" if platform == "alipay" else "财付通-") + peer, 16)
        return BankRow("card", when.date(), amount, desc, posted=when.date() + dt.timedelta(days=1))
    return None


def alipay_row(n: Numbers, when, category, peer, item, direction, amount, method, status, order=None, peer_acct="/",
               note="") -> Dict[str, str]:
    return {"交易时间": when.strftime("%Y-%m-%d %H:%M:%S"), "交易分类": category, "交易对方": peer, "对方账号": peer_acct,
            "商品说明": item, "收/支": direction, "金额": plain(amount), "收/付款方式": method, "交易状态": status,
            "交易订单号": order or n.alipay(when), "商家订单号": ("T200P" + n.digits(16)) if direction != "不计收支" else "", "备注": note}


def wechat_row(n: Numbers, when, typ, peer, item, direction, amount, method, status, order=None, note="/") -> Dict[str, str]:
    return {"交易时间": when.strftime("%Y-%m-%d %H:%M:%S"), "交易类型": typ, "交易对方": peer, "商品": item, "收/支": direction,
            "金额(元)": plain(amount), "支付方式": method, "当前状态": status, "交易单号": order or n.wechat(when),
            "商户单号": ("10" + n.digits(20)) if direction != "/" else "/", "备注": note}


def purchase(n: Numbers, platform: str, when: dt.datetime, account: str, peer: str, item: str, amount: Decimal,
             category: str = "餐饮美食", status: Optional[str] = None) -> Order:
    """A purchase paid from `account` (a card key, or a wallet balance key)."""
    if platform == "alipay":
        method = ALIPAY_METHOD.get(account) or account.rsplit(":", 1)[1]
        row = alipay_row(n, when, category, peer, item, "支出", amount, method, status or "交易成功")
    else:
        method = WECHAT_METHOD.get(account) or account.rsplit(":", 1)[1]
        row = wechat_row(n, when, "商户消费", peer, item, "支出", amount, method, status or "支付成功")
    return Order(platform, when, row, [Record(account, -amount, bank=card_side(platform, account, when, peer, -amount))])
