"""The demo person's wallet bills (钱七, CMB debit card 6214 **** 2468; Samples/cmb/cmb2024_q1 and q2overlap).

Their statements already hold 快捷支付 rows whose counterparty is only the channel (财付通支付科技有限公司,
支付宝（中国）网络技术有限公司): the wallet bills here are the other side of those payments, paid with that
card, so the demo shows each such row gaining its merchant and item. The card rows are written from the
statement rows they are (DEMO_ROWS: date, amount, channel, as the CMB generator printed them), plus a 零钱
and a 余额 purchase that link to nothing. Not the two identical 财付通 rows of 2026-03-05: their statement
rows print only the channel, so which order is which is the texts' guess, and two such orders would go to
`review` (the wallet quarter in Samples/wallets has twins whose rows name the merchant).
Deterministic (a fixed seed); the expected files come from these orders."""
from __future__ import annotations

import datetime as dt
import os
import random
from decimal import Decimal
from typing import Callable, List

from walletgen import expected, writers
from walletgen.orders import DEMO_DEBIT, Numbers, Order, purchase

DEMO_ALIPAY_HOLDER = "qianqi@example.com"
DEMO_ALIPAY_NAME = "钱七"
DEMO_WECHAT_NICK = "七七"
T = dt.datetime

# (when, platform, merchant, item, amount): the card-funded orders, each one 快捷支付 row of the statements.
DEMO_ROWS = [
    (T(2026, 1, 19, 19, 2, 11), "wechat", "美团平台商户", "美团订单-晚餐", "109.98"),
    (T(2026, 1, 23, 8, 41, 30), "alipay", "滴滴出行", "快车-行程费用", "46.56"),
    (T(2026, 3, 12, 12, 30, 5), "alipay", "浙江天猫技术有限公司", "天猫超市订单", "175.44"),
    (T(2026, 4, 12, 18, 55, 40), "alipay", "上海拉扎斯信息科技有限公司", "饿了么外卖订单", "113.38"),
    (T(2026, 4, 26, 10, 3, 9), "alipay", "盒马鲜生", "盒马鲜生门店消费", "27.45"),
]


def demo(out: str, write: Callable[[str, bytes], None], write_json: Callable[[str, dict], None]) -> None:
    """Writes alipay_2026Q1Q2.csv and wechat_2026Q1Q2.xlsx (bare, as the apps' ZIPs hold them) with their
    expected.json into `out`."""
    os.makedirs(out, exist_ok=True)
    n = Numbers(random.Random(2468))
    orders: List[Order] = [purchase(n, p, when, DEMO_DEBIT, peer, item, Decimal(a)) for when, p, peer, item, a in DEMO_ROWS]
    orders.append(purchase(n, "wechat", T(2026, 2, 9, 7, 58, 0), f"wechat:{DEMO_WECHAT_NICK}:零钱", "某某便利店", "早餐", Decimal("12.50")))
    orders.append(purchase(n, "alipay", T(2026, 4, 3, 21, 10, 0), f"alipay:{DEMO_ALIPAY_HOLDER}:余额", "滴滴出行", "快车-行程费用",
                           Decimal("31.20")))
    start, end, exported = dt.date(2026, 1, 1), dt.date(2026, 4, 30), T(2026, 5, 6, 21, 0, 0)
    ali = sorted((o for o in orders if o.platform == "alipay"), key=lambda o: o.when, reverse=True)
    wx = sorted((o for o in orders if o.platform == "wechat"), key=lambda o: o.when, reverse=True)
    data, where = writers.alipay_csv(writers.Preamble(DEMO_ALIPAY_NAME, DEMO_ALIPAY_HOLDER, start, end, exported), [o.row for o in ali])
    write(os.path.join(out, "alipay_2026Q1Q2.csv"), data)
    write_json(os.path.join(out, "alipay_2026Q1Q2.expected.json"), expected.bill_expected(ali, where, "line"))
    data, where = writers.wechat_xlsx(writers.Preamble(DEMO_WECHAT_NICK, "", start, end, exported), [o.row for o in wx], exported)
    write(os.path.join(out, "wechat_2026Q1Q2.xlsx"), data)
    write_json(os.path.join(out, "wechat_2026Q1Q2.expected.json"), expected.bill_expected(wx, where, "row"))
